"""The rounds' records the floor keeps: each round's hand history (PHH, felt.table.phh)
or house-banked record (felt.table.banked_record), built from the board's journal as
felt-recall builds them (host_tools.recall), with only what the table showed.

The floor is told no more than a spectator at the table sees (host_tools.floor.wire):
a card keeps its face in the record only where it was face up at the table: the board,
stud's up cards, a card exposed or found face up, the hands shown.  Every other card
is `??` (PHH's unknown card): the hole cards of a player who did not show, the cards
thrown away, those drawn and not shown.  The burn cards and the journal's own events
(which name every card) are left out; a house-banked round's held cards (drawn in
error, unexposed) are `??`.

A masked PHH document still replays: PokerKit plays it to the same finishing stacks
(tests/host/test_floor_records.py).
"""

import io
import tomllib

from felt.poker import cards as C
from felt.table import banked_record, phh
from felt.table.recovery import begun

UNKNOWN = "??"
# The PHH document's keys the floor leaves out: they name cards nobody saw.
PHH_DROPPED = ("_burns", "_felt_events")
BANKED_DROPPED = ("events", "burns")


class RecordError(ValueError):
    """The board's answer holds no round the floor can keep a record of."""


def of_round(answer):
    """(format, text) of the round `answer` gives (recall's answer with every event:
    host_tools.recall.one_round): "phh" and its masked PHH document, or "banked" and
    its masked house-banked record; RecordError saying why not."""
    header = answer["header"]
    if header is None:
        raise RecordError("its header could not be read")
    events = [tuple(e) for e in answer["events"]]
    try:
        if "wagers" in header:
            return "banked", banked_text(header, events)
        return "phh", phh_text(header, events)
    except Exception as e:  # noqa: BLE001 - whatever the journal holds, a sentence
        raise RecordError("the rules core cannot rebuild it: %s" % e)


# ----- what the table showed -------------------------------------------------------------

def shown_cards(header, events):
    """(faced, shown, table): {seat: the codes of its cards dealt face up or exposed},
    {seat: the codes of the hand it showed}, and the codes of every card seen face up;
    the round replayed through the rules core from its journal header."""
    r, said = begun(header)
    banked = "wagers" in header
    faced = {}
    shown = {}
    table = set()

    def seen(where, seat, cards):
        codes = [C.code(c) for c in cards]
        where.setdefault(seat, set()).update(codes)
        table.update(codes)

    for e in events:
        said += r.apply(e)
        for effect in said:
            k = effect[0]
            if k == "dealt" and effect[1] in ("up", "board"):
                seen(faced, effect[2], [effect[3]])
            elif k == "exposed":
                seen(faced, effect[1], [effect[2]])
            elif k == "show":
                # A house-banked round shows the best hand; a poker round, the cards held.
                seen(shown, effect[1], effect[3] if banked else r.hole[effect[1]])
            elif k == "discarded" and effect[1] < 0:
                seen(faced, -1, effect[2])      # the dealer's: found face up, off the table
            elif k == "runout":
                seen(faced, -1, effect[3])
        said = []
    return faced, shown, table


def _masked(cards, seen):
    """PHH's cards (`AsKd`), each not in `seen` as `??`."""
    return "".join([c if c in seen else UNKNOWN for c in phh.pairs(cards)])


# ----- PHH --------------------------------------------------------------------------------

def phh_text(header, events):
    faced, shown, table = shown_cards(header, events)
    doc = phh.lines(header, events)
    # PHH's players p1, p2, ... are the seats of `_seats`, in order.
    order = _value([line for line in doc if line.startswith("_seats = ")][0][9:])
    actions = doc.index("actions = [") + 1
    end = doc.index("]", actions)
    said = [_value(line.strip().rstrip(",")) for line in doc[actions:end]]
    masked = _masked_actions(said, order, faced, shown, table)
    out = doc[:actions] + ["  %s," % phh.toml(a) for a in masked]
    for line in doc[end:]:
        key = line.split(" = ", 1)[0]
        if key in PHH_DROPPED:
            continue
        if key == "_dead":
            line = "_dead = %s" % phh.toml([c if c in table else UNKNOWN
                                            for c in _value(line.split(" = ", 1)[1])])
        out.append(line)
    return "\n".join(out) + "\n"


def _value(text):
    return tomllib.loads("v = " + text)["v"]


def _masked_actions(actions, order, faced, shown, table):
    """The PHH actions with each card nobody saw as `??`.  A hole card keeps its face if
    it was dealt face up or exposed, or if it is still in the hand its player showed: a
    card thrown away was never seen, even one a reshuffle dealt to the same player
    again, to keep and show."""
    to = [a.split()[2] if a.startswith("d dh ") else None for a in actions]   # "p1" ...
    dealt = [None if p is None else phh.pairs(a.split()[3]) for p, a in zip(to, actions)]
    kept = [None if cards is None else [True] * len(cards) for cards in dealt]
    for i, action in enumerate(actions):
        words = action.split()
        if len(words) == 3 and words[1] == "sd":     # the player's cards thrown away:
            for card in phh.pairs(words[2]):         # its latest dealing of each
                j = max([j for j in range(i) if to[j] == words[0] and card in dealt[j] and
                         kept[j][dealt[j].index(card)]], default=-1)
                if j >= 0:
                    kept[j][dealt[j].index(card)] = False
    out = []
    for i, action in enumerate(actions):
        words = action.split()
        if words[0] == "#":             # "# felt: replace 7c ineligible": a card by name
            action = " ".join([_masked(w, table) if _is_card(w) else w for w in words])
        elif dealt[i] is not None:
            seat = order[int(words[2][1:]) - 1]
            action = "d dh %s %s" % (words[2], "".join([
                c if c in faced.get(seat, ()) or kept[i][k] and c in shown.get(seat, ())
                else UNKNOWN for k, c in enumerate(dealt[i])]))
        elif len(words) == 3 and words[1] == "sd":
            action = "%s sd %s" % (words[0], _masked(words[2], ()))   # thrown away face down
        out.append(action)              # the board, the hands shown, the wagers
    return out


def _is_card(word):
    try:
        C.parse(word)
        return True
    except C.CardError:
        return False


# ----- a house-banked round ----------------------------------------------------------------

def banked_text(header, events):
    _, shown, _ = shown_cards(header, events)
    d = banked_record.build(header, events, None)
    for k in BANKED_DROPPED:
        del d[k]
    d["seats"] = [[s, _masked_codes(cards, shown.get(s, ()))] for s, cards in d["seats"]]
    d["dealer"] = _masked_codes(d["dealer"], shown.get(-1, ()))
    d["held"] = [[UNKNOWN, section] for _, section in d["held"]]
    out = io.StringIO()
    banked_record.dump(out, d)
    return out.getvalue()


def _masked_codes(codes, seen):
    """The link's codes (`As Kd`), each not in `seen` as `??`."""
    return " ".join([c if c in seen else UNKNOWN for c in codes.split()])
