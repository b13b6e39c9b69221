"""The Pico image's viper evaluate() (firmware/pico/viper_hands.py) gives the plain
one's value (felt.poker.evaluate) for every seven-card hand class: every multiset of
seven ranks, its suits spread and again with a card of each rank in one suit (so every
flush, straight flush and wheel the ranks allow), and named edge cases checked against
a brute force over the 21 five-card hands.  Runs on CPython (the same code as Python)
and in MicroPython's unix port (compiled by viper there, as on the Pico)."""

import sys

from felt.poker.cards import parse
from felt.poker.evaluate import evaluate, evaluate5, category, HIGH_CARD, PAIR, \
    TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH

sys.path.append("firmware/pico")     # the tests run from the repository's root
try:
    import viper_hands
finally:
    sys.path.remove("firmware/pico")

HEARTS = 2


def rank_multisets(n=7, top=12):
    """Every multiset of n ranks of 0..top, each at most four times, as a list of
    (rank, count) from the highest rank down."""
    if n == 0:
        yield []
        return
    if top < 0:
        return
    for count in range(min(4, n), -1, -1):
        for rest in rank_multisets(n - count, top - 1):
            yield ([(top, count)] + rest) if count else rest


def spread(ranks):
    """The cards of `ranks`, each rank's copies in distinct suits, the suits turning."""
    cards = []
    for rank, count in ranks:
        for k in range(count):
            cards.append(rank * 4 + (rank + k) % 4)
    return cards


def suited(ranks):
    """The cards of `ranks`, one of each rank in hearts, the other copies not."""
    cards = []
    for rank, count in ranks:
        cards.append(rank * 4 + HEARTS)
        for k in range(1, count):
            cards.append(rank * 4 + (HEARTS + k) % 4)
    return cards


def brute_force(cards):
    """The best of the 21 five-card hands of seven cards (evaluate5 of each)."""
    best = -1
    for i in range(7):
        for j in range(i + 1, 7):
            five = [cards[k] for k in range(7) if k != i and k != j]
            best = max(best, evaluate5(five[0], five[1], five[2], five[3], five[4]))
    return best


def test_the_viper_build_is_its_own_code():
    assert viper_hands.evaluate is not evaluate


def test_every_seven_card_rank_multiset_suited_and_spread_values_as_the_plain_one():
    categories = set()
    hands = 0
    for ranks in rank_multisets():
        for cards in (spread(ranks), suited(ranks)):
            value = evaluate(cards)
            assert viper_hands.evaluate(cards) == value, cards
            assert viper_hands.evaluate(tuple(cards)) == value, cards
            categories.add(category(value))
            hands += 1
    assert hands == 2 * 49205       # 7 ranks of 13, none more than four times
    assert categories == {HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE,
                          QUADS, STRAIGHT_FLUSH}


# Each edge case, its category.
EDGES = (("Ah 2d 3c 4s 5h 9c Kd", STRAIGHT),          # the wheel
         ("Ah 2h 3h 4h 5h 9c Kd", STRAIGHT_FLUSH),    # the steel wheel
         ("As Ks Qs Js Ts 2c 3d", STRAIGHT_FLUSH),    # ace high: a royal flush
         ("9s Ks Qs Js Ts As 3d", STRAIGHT_FLUSH),    # six to the straight flush
         ("8h 9h Th Jh Qh Kd 2c", STRAIGHT_FLUSH),    # the straight above it off suit
         ("Qh Kd Ac 2s 3h 8c 9d", HIGH_CARD),         # no straight around the corner
         ("8h 8d 8c 5s 5h 5d Ac", FULL_HOUSE),        # two trips
         ("Kh Kd 9c 9s 4h 4d 2c", TWO_PAIR),          # three pairs
         ("2h 5h 9h Jh Kh 3c 4d", FLUSH),             # a flush with a straight in it
         ("Ah Kh 9h 7h 4h 3h 2h", FLUSH),             # seven suited: its five highest
         ("4c 5d 6h 7s 8c 9d Th", STRAIGHT),          # seven to a straight
         ("9h 9d 9s 9c 2h 2c 2d", QUADS),             # quads with trips
         ("9h 9d 9s 9c Kh Kc 2d", QUADS),             # quads with a pair
         ("Ah Ad Ac Kh Kd Ks 2c", FULL_HOUSE),        # two trips, the higher over
         ("Ah Ad Kc Ks Qh Qd Jc", TWO_PAIR),          # three pairs, a kicker above
         ("2c 3d 4h 5s 7c 8d 9h", HIGH_CARD))


def test_edge_cases_value_as_the_plain_one_and_the_best_of_their_21_five_card_hands():
    for codes, kind in EDGES:
        cards = [parse(c) for c in codes.split()]
        value = viper_hands.evaluate(cards)
        assert value == evaluate(cards) == brute_force(cards), codes
        assert category(value) == kind, codes


def test_fewer_than_seven_cards_value_as_the_plain_one():
    # Stud's showing hands (one to four up cards) and five- and six-card hands.
    for codes in ("As", "9h 9d", "Kh Kd Kc", "2c 2d 7h 7s", "5c 6d 7h 8s 9c",
                  "Ah 2h 3h 4h 5h 6h", "Qs Qh 4d 4c 4s"):
        cards = [parse(c) for c in codes.split()]
        assert viper_hands.evaluate(cards) == evaluate(cards), codes
