"""The dealer button: where it starts and how it moves (19:47-14.10(c), 13:47-20.36(c)).

Seats are numbered clockwise from the dealer's left, so "to the left of" a seat is the
next higher number, wrapping round, and the seat to the dealer's right is the last one.
"""

from felt.poker.cards import rank, suit


def next_seat(seat, eligible):
    """The first seat clockwise after `seat` whose entry in `eligible` is true, or -1."""
    n = len(eligible)
    for i in range(1, n + 1):
        s = (seat + i) % n
        if eligible[s]:
            return s
    return -1


def clockwise_from(seat, eligible):
    """Eligible seats in clockwise order, starting with the first one after `seat`."""
    n = len(eligible)
    return [(seat + i) % n for i in range(1, n + 1) if eligible[(seat + i) % n]]


def dealer_right(eligible):
    """14.10(c)2i: the button starts before the first player to the dealer's right,
    the highest-numbered occupied seat; -1 when no seat is occupied."""
    for s in range(len(eligible) - 1, -1, -1):
        if eligible[s]:
            return s
    return -1


def by_high_card(dealt):
    """14.10(c)2ii: the seat dealt the highest card; rank first, then suit
    (spades, hearts, diamonds, clubs, as the rules README decides).

    `dealt` lists (seat, card) pairs."""
    best = None
    for seat, card in dealt:
        key = rank(card) * 4 + suit(card)
        if best is None or key > best[0]:
            best = (key, seat)
    return best[1]


def rotate(button, eligible):
    """13:47-20.36(c)3: after each round the button moves clockwise to the next player."""
    return next_seat(button, eligible)
