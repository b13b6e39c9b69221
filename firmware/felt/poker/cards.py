"""Card codes.

A card is an int 0..51: rank * 4 + suit.  Ranks 0..12 are 2..A (13:47-20.34(b));
suits 0..3 are clubs, diamonds, hearts, spades, so a larger suit number is the higher
suit where the rules rank suits (19:47-14.9(d): spades, hearts, diamonds, clubs).
The card reader and the link speak two-character codes such as "As" or "Td".
"""

from felt import check

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52


class CardError(check.Refused):
    """A card code that is not one of the 52."""


def parse(code):
    """The card for a two-character code; CardError with the reason otherwise."""
    if not isinstance(code, str) or len(code) != 2:
        raise CardError("unknown card code %s: want rank and suit, e.g. 'As'" % check.shown(code))
    r = RANKS.find(code[0])   # exactly as printed: "As", never "as" or "AS"
    s = SUITS.find(code[1])
    if r < 0 or s < 0:
        raise CardError("unknown card code %s: rank of 23456789TJQKA, suit of cdhs" % check.shown(code))
    return r * 4 + s


def code(card):
    return RANKS[card >> 2] + SUITS[card & 3]


def rank(card):
    return card >> 2


def suit(card):
    return card & 3


def codes(cards):
    return " ".join([code(c) for c in cards])
