"""What each game's showdown and stud's openers compare.

`values(variant, hole, board)` gives a player's (high, low) values for the variant's
hand construction (larger is better; low -1 when the game has none or the hand does
not qualify).  Stud's openers and odd chips compare single cards and partial hands.
"""

from felt.poker import hands
from felt.poker.evaluate import evaluate


def values(variant, hole, board):
    h = variant.hand
    if h == "holdem":
        return hands.holdem_high(hole, board), -1
    if h == "omaha":
        return hands.omaha_high(hole, board), \
            (hands.omaha_low8(hole, board) if variant.has_low() else -1)
    if h == "stud":
        cards = hole + board   # the common card, when the deck ran short
        low = hands.stud_low(cards, variant.qualifier() or None) if variant.has_low() else -1
        return hands.stud_high(cards), low
    if h == "mambo":
        return hands.mambo_high(hole, board[0]), hands.mambo_low6(hole, board[0])
    # draw: the five cards held
    if variant.split == "low":
        low = hands.draw_low_27(hole) if variant.low == "27" else hands.draw_low_a5(hole)
        return -1, low
    return hands.draw_high(hole), -1


def showing_value(up_cards):
    """19:47-14.9(f): the poker value of a stud player's up-cards (pairs and trips
    count; four or fewer cards make no straight or flush)."""
    return evaluate(up_cards)


def up_card_key(card, order):
    """Larger opens.  "low": the lowest up-card opens, ace high, suits ranked clubs,
    diamonds, hearts, spades (19:47-14.9(d)1 and 3); "high_ace_low": the highest opens,
    the ace below the two ((d)2); "high_up": the highest opens, ace high."""
    r, s = card >> 2, card & 3
    if order == "high_ace_low":
        return ((r + 1) % 13) * 4 + s
    if order == "high_up":
        return r * 4 + s
    return -(r * 4 + s)   # "low", "low_ace_high", "low_up"


def odd_chip_order(winners, hole, low):
    """19:47-14.9(i)2ii-iii: tied winners ordered for the odd chip: the high share by
    the highest card by suit, the low share by the lowest card by suit (ace low)."""
    def key(seat):
        if low:
            return -min([((c >> 2) + 1) % 13 * 4 + (c & 3) for c in hole[seat]])
        return max(hole[seat])
    return sorted(winners, key=key, reverse=True)
