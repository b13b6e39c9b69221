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


# Every code in card order: a two-character code found at an even index 2 * card is a
# card's (at an odd one it straddles two codes), so one search parses it.
CODES = "2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c8d8h8s9c9d9h9sTcTdThTsJcJdJhJsQcQdQhQsKcKdKhKsAcAdAhAs"


def parse(code):
    """The card for a two-character code; CardError with the reason otherwise."""
    if not isinstance(code, str) or len(code) != 2:
        raise CardError("unknown card code %s: want rank and suit, e.g. 'As'" % check.shown(code))
    i = CODES.find(code)   # exactly as printed: "As", never "as" or "AS"
    if i & 1:              # not found (-1), or not at a code's start
        raise CardError("unknown card code %s: rank of 23456789TJQKA, suit of cdhs" % check.shown(code))
    return i >> 1


def code(card):
    return RANKS[card >> 2] + SUITS[card & 3]


def rank(card):
    return card >> 2


def suit(card):
    return card & 3


def codes(cards):
    return " ".join([code(c) for c in cards])
