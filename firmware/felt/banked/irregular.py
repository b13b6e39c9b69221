"""The irregularities of a house-banked round, 19:47-27.12, as events of the round
(felt.banked.banked_round loads this module when one happens).  Texas hold 'em bonus
poker's own section is not in our texts: its tables follow the same rules.

  ("face_up", "As")         (a): a card found face up in the shoe while dealing is not
                            used; a second one voids all hands
  ("miscount", seat)        (c): a player (seat) or the dealer (-1) with the wrong number
                            of cards voids all hands
  ("dealer_exposed", "As")  (d): a dealer's card exposed before the dealer's reveal
                            voids all hands
  ("void", why)             (f): the shoe jammed, stopped or failed to deal every card
A void returns every wager exactly, one already collected too (a folded ante).
(b), a card drawn in error unexposed, is the round's own: it is the next card used.
"""

from felt import check
from felt.poker import cards as C

DEALER = -1
FACE_UP = "19:47-27.12(a)"
MISCOUNT = "19:47-27.12(c)"
EXPOSED = "19:47-27.12(d)"
JAM = "19:47-27.12(f)"


def why_not(r, event):
    kind = event[0]
    arg = event[1]
    if len(event) != 2:
        return "malformed %s event %s" % (kind, check.shown(event))
    if kind == "void":
        return None if isinstance(arg, str) else "say why the round is void"
    if kind == "miscount":
        if arg == DEALER or (check.is_whole(arg) and 0 <= arg < r.n and r.active(arg)):
            return None
        return "seat %s has no hand in the round" % check.shown(arg)
    try:
        card = C.parse(arg)
    except C.CardError as e:
        return str(e)
    if kind == "dealer_exposed":
        return None if card in r.dealer else "%s is not the dealer's" % arg
    if r.seen[card] or card in r.held:
        return "card %s already seen this round" % arg
    return None if r.expecting() else "a face-up card is found while dealing"


def apply(r, event, out):
    kind = event[0]
    if kind == "face_up":
        r.face_ups += 1
        if r.face_ups > 1:
            void(r, "second face-up card", FACE_UP, out)
        else:
            card = C.parse(event[1])
            r.seen[card] = 1
            r.unused.append(card)
            out.append(("unused", card, FACE_UP))
    elif kind == "miscount":
        who = "the dealer" if event[1] == DEALER else "seat %d" % event[1]
        void(r, "%s has the wrong number of cards" % who, MISCOUNT, out)
    elif kind == "dealer_exposed":
        void(r, "dealer's card exposed", EXPOSED, out)
    else:
        void(r, event[1], JAM, out)


def void(r, why, section, out):
    """All hands void: every wager goes back exactly, even one already collected."""
    r.called_off = "void"
    r.called_why = why + " " + section
    out.append(("called_off", "void", why, section))
    for seat in r.order():
        for kind in r.KINDS:
            amount = r.circle[seat].pop(kind, 0) + r.collected[seat].pop(kind, 0)
            if amount:
                r.give(seat, amount)
                out.append(("return", seat, kind, amount, section))
    r.end(out)
