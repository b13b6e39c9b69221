"""What the table showed: the cards a round turned face up for everyone at the table to
see, and text made to name no other.

A card is shown where a round's effect turns it face up: dealt up or to the board,
exposed, found face up in the deck or dealt off the table (the dealer's own discards),
run out, or in a hand shown at the showdown.  Every other card stays face down: a hole
card, a burn card, a card thrown away or drawn, the dealer's cards at a house-banked
table until shown.  What leaves the board for everyone (its irregularities' details,
its refusals, a round's public record: felt.table.public) names only shown cards; the
others are `??`, PHH's unknown card.  The technician's signed reads (`recall`, the
event log) keep every card.
"""

from felt.poker import cards as C

UNKNOWN = "??"


def faced(r, e, banked=False):
    """(seat, cards) a round's effect `e` shows (felt.poker.round's, or
    felt.banked.banked_round's where `banked`), the seat -1 for the table's own cards;
    None for an effect that shows none."""
    k = e[0]
    if k == "dealt":
        return (e[2], (e[3],)) if e[1] == "up" or e[1] == "board" else None
    if k == "exposed":
        return e[1], (e[2],)
    if k == "show":
        # A house-banked round shows the best hand; a poker round, every card held.
        return e[1], (e[3] if banked else r.hole[e[1]])
    if k == "discarded":
        return (-1, e[2]) if e[1] < 0 else None
    if k == "unused":
        return -1, (e[1],)
    if k == "runout":
        return -1, e[3]
    return None


def see(into, r, effects, banked=False):
    """Add to the set `into` the codes of the cards round r's `effects` show."""
    for e in effects:
        got = faced(r, e, banked)
        if got is not None:
            for c in got[1]:
                into.add(C.code(c))


def dealt(e, own_devices):
    """The `evt` frame of a round's `dealt` effect, either kind of round's: a board with
    its own devices never says the face of a card dealt face down (docs/security.md)."""
    d = {"e": "dealt", "what": e[1], "seat": e[2]}
    if not own_devices or faced(None, e) is not None:
        d["card"] = C.code(e[3])
    return d


def masked(text, seen):
    """`text` with every card code in it (`As`, a word of its own) that is not in
    `seen` (codes) as `??`."""
    i = 0
    n = len(text)
    while i < n - 1:
        code = text[i:i + 2]
        if not C.CODES.find(code) & 1 and code not in seen and \
                (i == 0 or not _word(text[i - 1])) and (i + 2 == n or not _word(text[i + 2])):
            text = text[:i] + UNKNOWN + text[i + 2:]    # as long: the places stay
        i += 1
    return text


def _word(ch):
    return ch.isalpha() or ch.isdigit()
