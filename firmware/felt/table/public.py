"""A round's public record, for the link's `public` query (docs/protocol.md): its hand
history (PHH, felt.table.phh) or house-banked record (felt.table.banked_record), built
on the board from its journal with only the cards the table showed (felt.table.shown),
so a floor's tool never needs the full `recall`, which holds every hole card.

A card keeps its face where it was face up at the table: the board, stud's up cards, a
card exposed or found face up, the hands shown, named where they were dealt (a card a
player threw away and was dealt again after a reshuffle, to keep and show, is named
only where it was kept).  Every other card is `??`: the hole cards of a player who did
not show, every card thrown away or drawn and not shown; in the irregularities' lines
and the reason a round was called off, the cards nobody saw.  The burns and the
journal's own events (which name every card) are left out; at a house-banked table the
cards not in a hand shown and the held cards are `??`.  A masked PHH document still
replays: PokerKit plays it to the same finishing stacks.

The record is built once for a round and kept while its pages are asked for, from the
first to the last (or until another round is asked for, or the next begins); while
nothing is written to the journal, a page is given without reading it again.  A page is
a piece of its text, as much as fits PAGE bytes of the answer's JSON.  Loaded for the
query and forgotten after (felt.lazy).
"""

from felt import lazy, protocol
from felt.poker import cards as C
from felt.table import recall, shown
from felt.table.shown import UNKNOWN
from felt.table.states import is_banked

PAGE = recall.PAGE
PHH = "felt.table.phh"
BANKED_RECORD = "felt.table.banked_record"
# What a record needs, loaded for it: forgotten after each query.
LOADED = (PHH, BANKED_RECORD, recall.__name__, "felt.table.records")


def page(ctl, k=0, start=0):
    """The answer to `public {"round": k, "from": start}`: round k (0 the newest
    complete one) as its public record's text from character `start`, a page of it."""
    kept = ctl.public
    if kept is None or kept["round"] != k or kept["written"] != ctl.journal.seq:
        # Something was written since, or another round is asked for: it is read again
        # (every file of the journal), and built again if it is another round.
        whole = recall.page(ctl.journal.path, k, 0, None, ctl.journal.key)
        if kept is None or kept["seq"] != whole["seq"] or whole["seq"] is None:
            kept = None
            ctl.keep_public(None)     # the record of another round: its memory first
            kept = {"seq": whole["seq"], "hand": whole["hand"]}
            kept["format"], kept["lines"], kept["why"] = record(whole) if \
                whole["seq"] is not None else (None, None, None)
            # Each line's bytes in the answer's JSON, counted once for all its pages.
            kept["costs"] = [len(protocol.dumps(line)) - 2 for line in kept["lines"] or ()]
        kept["rounds"], kept["round"], kept["written"] = whole["rounds"], k, ctl.journal.seq
        ctl.keep_public(kept)
        whole = None
    out = {"round": k, "rounds": kept["rounds"], "seq": kept["seq"], "hand": kept["hand"],
           "format": kept["format"], "text": "", "from": start, "next": None,
           "why": kept["why"]}
    if kept["format"] is not None:
        out["text"], out["next"] = chunk(kept["lines"], kept["costs"], start,
                                         PAGE - len(protocol.dumps(out)))
    elif kept["seq"] is None and k < kept["rounds"]:
        out["why"] = "its header could not be read"
    if out["next"] is None:
        ctl.keep_public(None)         # its last page: let it go
    return out


def record(answer):
    """(format, lines, why) of the round `answer` gives (recall's, with every event):
    "phh" or "banked" and its public record's lines, each ending in a newline; or None,
    None and why there is none."""
    if answer["header"] is None:
        return None, None, "its header could not be read"
    if answer["unread"]:
        return None, None, "%d of its lines could not be read" % len(answer["unread"])
    header, events = answer["header"], answer["events"]
    try:
        if is_banked(header):
            return "banked", banked(header, events), None
        phh = lazy.load(PHH)
        return "phh", [line + "\n" for line in phh.lines(header, events, None, Seen())], None
    except MemoryError:
        raise           # the heap, not the journal: the board reboots (felt.guard)
    except Exception as e:  # noqa: BLE001 - whatever the journal holds, a sentence
        return None, None, "the rules core cannot rebuild it: %s" % (e,)


def chunk(lines, costs, start, room):
    """(the text of `lines` from character `start`, as much as `room` bytes of JSON
    hold and one character at least; where the next page starts, or None).  `costs`:
    each line's bytes in JSON."""
    out = []
    at = 0                      # where the line at hand starts in the text
    for i in range(len(lines)):
        line = lines[i]
        end = at + len(line)
        if end > start:
            begin = max(start, at)
            piece = line[begin - at:]
            cost = costs[i] if begin == at else len(protocol.dumps(piece)) - 2
            if cost > room and out:
                return "".join(out), begin
            while cost > room and len(piece) > 1:     # a line longer than a page
                piece = piece[:len(piece) * 2 // 3]
                cost = len(protocol.dumps(piece)) - 2
            out.append(piece)
            room -= cost
            if begin + len(piece) < end:
                return "".join(out), begin + len(piece)
        at = end
    return "".join(out), None


class Seen:
    """What the table showed of a poker round, heard from its replay's effects
    (felt.table.phh.lines), and the PHH document's cards masked by it."""

    def __init__(self):
        self.faced = {}         # seat: codes of its cards dealt face up or exposed
        self.shown = {}         # seat: codes of the hand it showed
        self.table = set()      # every card seen face up

    def heard(self, r, effects):
        for e in effects:
            got = shown.faced(r, e)
            if got is not None:
                codes = [C.code(c) for c in got[1]]
                where = self.shown if e[0] == "show" else self.faced
                where.setdefault(got[0], set()).update(codes)
                self.table.update(codes)

    def text(self, text):
        return shown.masked(text, self.table)

    def cards(self, codes):
        return [c if c in self.table else UNKNOWN for c in codes]

    def actions(self, actions, order):
        """The PHH actions (players p1... the seats of `order`) with each card nobody
        saw as `??`.  A hole card keeps its face if it was dealt face up or exposed, or
        if it is still in the hand its player showed: a card thrown away was never
        seen, even one a reshuffle dealt to the same player again, to keep and show."""
        pairs = lazy.load(PHH).pairs
        to = []                 # per action: the player a `d dh` deals to, else None
        dealt = []              # and its cards
        for a in actions:
            words = a.split()
            deals = a.startswith("d dh ")
            to.append(words[2] if deals else None)
            dealt.append(pairs(words[3]) if deals else None)
        kept = [None if cards is None else [True] * len(cards) for cards in dealt]
        for i in range(len(actions)):
            words = actions[i].split()
            if len(words) == 3 and words[1] == "sd":     # the player's cards thrown away:
                for card in pairs(words[2]):             # its latest dealing of each
                    j = i - 1
                    while j >= 0 and not (to[j] == words[0] and card in dealt[j] and
                                          kept[j][dealt[j].index(card)]):
                        j -= 1
                    if j >= 0:
                        kept[j][dealt[j].index(card)] = False
        out = []
        for i in range(len(actions)):
            action = actions[i]
            words = action.split()
            if words[0] == "#":       # "# felt: replace 7c ineligible": a card by name
                action = self.text(action)
            elif to[i] is not None:
                seat = order[int(to[i][1:]) - 1]
                faced, held, cards = self.faced.get(seat, ()), self.shown.get(seat, ()), dealt[i]
                action = "d dh %s %s" % (to[i], "".join([
                    cards[k] if cards[k] in faced or kept[i][k] and cards[k] in held
                    else UNKNOWN for k in range(len(cards))]))
            elif len(words) == 3 and words[1] == "sd":   # thrown away face down
                action = "%s sd %s" % (words[0], UNKNOWN * (len(words[2]) // 2))
            out.append(action)        # the board, the hands shown, the wagers
        return out


def banked(header, events):
    """A house-banked round's public record as its lines: felt.table.banked_record's,
    its events and burns left out, the cards not in a hand shown and the held cards
    `??`."""
    br = lazy.load(BANKED_RECORD)
    d = br.build(header, events, None)
    del d["events"], d["burns"]
    seen = {}                   # seat (-1 the dealer): the codes of the hand it showed
    table = set(d["unused"].split() + d["board"].split())
    for s, codes, _, _ in d["shown"]:
        seen.setdefault(s, set()).update(codes.split())
        table.update(codes.split())
    d["seats"] = [[s, _masked_codes(cards, seen.get(s, ()))] for s, cards in d["seats"]]
    d["dealer"] = _masked_codes(d["dealer"], seen.get(-1, ()))
    d["held"] = [[UNKNOWN, section] for _, section in d["held"]]
    if d["called_off"] is not None:
        kind, why, section = d["called_off"]
        d["called_off"] = [kind, shown.masked(why, table), section]
    out = Lines()
    br.dump(out, d)
    return out.lines


def _masked_codes(codes, seen):
    """The link's codes (`As Kd`), each not in `seen` as `??`."""
    return " ".join([c if c in seen else UNKNOWN for c in codes.split()])


class Lines:
    """A file that keeps what is written to it as its lines, each with its newline:
    the record is never one string (a board's heap, cut up, may hold no block for it)."""

    def __init__(self):
        self.lines = []
        self.part = ""

    def write(self, text):
        start = 0
        i = text.find("\n")
        while i >= 0:
            self.lines.append(self.part + text[start:i + 1])
            self.part = ""
            start = i + 1
            i = text.find("\n", start)
        self.part += text[start:]
