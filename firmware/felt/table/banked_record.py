"""A house-banked round's record (docs/banked-records.md): PHH has no form for a game
played against the house, so with a hand-history folder the table writes its own for
each such round, `hand-<n>.banked`: one JSON object, a key a line.

It is built as a PHH document is (felt.table.phh), from the journal: the round's header
and its accepted events replayed through the rules core (felt.banked), so every card,
wager, decision and payout is known, each payout with its section.  Loaded only to write
a record and forgotten after (felt.lazy, felt.table.banked_table.history).
"""

from felt import protocol
from felt.poker import cards as C
from felt.banked.settings import from_header

FORMAT = "felt-banked 1"
# The record's keys, in the order written.
KEYS = ("format", "firmware", "game", "hand", "settings", "stacks", "wagers", "events",
        "seats", "dealer", "board", "burns", "unused", "held", "decisions", "chips",
        "shown", "settlement", "called_off", "results", "finishing_stacks", "house")
DECISION_WAGERS = ("play", "flop", "turn", "river")


def write(f, header, events, firmware):
    """Write to the file `f` the record of the round `events` (the journal's, in order)
    played from `header` (its journal header: hand, stacks, game, core, settings,
    wagers), a key at a time: a board's heap has no room for the whole text."""
    dump(f, build(header, events, firmware))


def dump(f, d):
    """Write the record `d` (build's, or some of its keys) to the file `f`, a key a
    line in the order of KEYS; `d` is emptied on the way."""
    f.write("{\n")
    for k in KEYS:
        if k in d:
            f.write('"%s": ' % k)
            f.write(protocol.dumps(d.pop(k)))
            f.write(",\n" if d else "\n}\n")


def build(header, events, firmware):
    """The record as a dict of KEYS (write)."""
    r = from_header(header)
    d = {"format": FORMAT, "firmware": firmware, "game": header["game"],
         "hand": header["hand"], "settings": header["settings"],
         "stacks": header["stacks"], "wagers": header["wagers"],
         "events": events, "decisions": [], "chips": [], "shown": [],
         "settlement": [], "held": [], "called_off": None, "open": None}
    _effects(r, r.start(), d)
    for e in events:
        _effects(r, r.apply(tuple(e)), d)
    d["seats"] = [[s, C.codes(r.hole[s])] for s in r.order()]
    d["dealer"] = C.codes(r.dealer)
    d["board"] = C.codes(r.board)
    d["burns"] = C.codes(r.burns)
    d["unused"] = C.codes(r.unused)
    d["results"] = [list(x) for x in r.result()]
    d["finishing_stacks"] = list(r.stacks)
    d["house"] = r.house()
    d.pop("open")
    return d


def _effects(r, out, d):
    """What a record keeps of the round's effects (felt.banked.banked_round)."""
    for e in out:
        k = e[0]
        if k == "decide":
            d["open"] = e[1]     # the decision open: play; flop, turn, river
        elif k == "wager":
            d["chips"].append([e[1], e[2], e[3]])
            if e[2] in DECISION_WAGERS:
                d["decisions"].append([e[2], e[1], "wager", e[3]])
        elif k == "fold" or k == "check":
            d["decisions"].append([d["open"], e[1], k, 0])
        elif k == "held":
            d["held"].append([C.code(e[1]), e[2]])
        elif k == "show":
            d["shown"].append([e[1], C.codes(e[3]), r.describe(e[2]), e[2]])
        elif k in ("collect", "return", "pay"):
            what = "refund" if k == "return" and r.called_off is not None else k
            d["settlement"].append([what, e[1], e[2], e[3], e[4]])
        elif k == "called_off":
            d["called_off"] = [e[1], e[2], e[3]]
        elif k == "settle":
            _effects(r, r.settle(), d)
