"""The 5-of-7 evaluator against PokerKit's StandardHighHand.

`felt.poker.evaluate.evaluate` returns an int, larger is better, equal is a tie
(13:47-20.34(b), (c), (e)).  PokerKit's hands compare with < and ==.  What must agree is
the ordering of two hands on the same board, ties included (13:47-20.36(j): each player
makes the best five of their two cards and the five community cards).
"""

import random

import pytest

from sampling import examples, first, sampled

pokerkit = pytest.importorskip("pokerkit")
from pokerkit import Card, StandardHighHand  # noqa: E402

from felt.poker import cards as C  # noqa: E402
from felt.poker.evaluate import (  # noqa: E402
    evaluate, category, HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE,
    QUADS, STRAIGHT_FLUSH)

DEALS = 100_000       # PokerKit manages ~3,500 two-hand comparisons a second
CHUNKS = 10           # run as ten seeded tests, so progress and failures show per chunk

# PokerKit's card for each Felt card, built once: parsing dominates otherwise.
PK_CARD = [next(iter(Card.parse(C.code(c)))) for c in range(C.DECK_SIZE)]


def sign(x):
    return (x > 0) - (x < 0)


def felt_order(board, a, b):
    """-1, 0 or 1: hole cards a lose to, tie with or beat hole cards b on the board."""
    return sign(evaluate(a + board) - evaluate(b + board))


def pk_order(board, a, b):
    pk_board = [PK_CARD[c] for c in board]
    ha = StandardHighHand.from_game([PK_CARD[c] for c in a], pk_board)
    hb = StandardHighHand.from_game([PK_CARD[c] for c in b], pk_board)
    return (ha > hb) - (ha < hb)


def parse_all(codes):
    return [C.parse(c) for c in codes.split()]


# make test compares the first chunk, make check the other nine (pytest -m slow).
@sampled
@pytest.mark.parametrize("chunk", first(range(CHUNKS), 1))
def test_random_river_showdowns_order_like_pokerkit(chunk):
    rng = random.Random(20_36 * 1000 + chunk)
    deck = list(range(C.DECK_SIZE))
    mismatches = []
    ties = 0
    for _ in range(examples(DEALS // CHUNKS)):
        cards = rng.sample(deck, 9)
        board, a, b = cards[:5], cards[5:7], cards[7:]
        ours, theirs = felt_order(board, a, b), pk_order(board, a, b)
        ties += ours == 0
        if ours != theirs and len(mismatches) < 5:
            mismatches.append("board %s, %s vs %s: Felt %d, PokerKit %d" % (
                C.codes(board), C.codes(a), C.codes(b), ours, theirs))
    assert not mismatches, "\n".join(mismatches)
    assert ties > 0  # ties do occur in a chunk's deals (the board plays, same ranks)


@pytest.mark.parametrize("board_size", [3, 4])
def test_random_flop_and_turn_hands_order_like_pokerkit(board_size):
    """The evaluator takes five to seven cards; fewer deals, as a cross-check."""
    rng = random.Random(board_size)
    deck = list(range(C.DECK_SIZE))
    for _ in range(3000):
        cards = rng.sample(deck, board_size + 4)
        board, a, b = cards[:board_size], cards[board_size:board_size + 2], cards[-2:]
        assert felt_order(board, a, b) == pk_order(board, a, b), (
            C.codes(board), C.codes(a), C.codes(b))


# Hand-picked showdowns: (what it shows, board, hole cards a, hole cards b,
# expected order of a against b, category of a's best hand, category of b's).
CASES = [
    # 13:47-20.34(c)6: the wheel, A-2-3-4-5, is the lowest straight.
    ("wheel is a straight", "2c 3d 4h 9s Kc", "Ad 5s", "Kd Qh", 1, STRAIGHT, PAIR),
    ("wheel loses to six-high straight", "2c 3d 4h 5s Kc", "Ad Jh", "6d Jc", -1,
     STRAIGHT, STRAIGHT),
    ("ace plays high or low, the best straight counts", "2c 3d 4h 5s Kc", "Ad 6h", "Qd Js",
     1, STRAIGHT, HIGH_CARD),
    # 13:47-20.34(c)2 and 6: no wrap-around, K-A-2 is no straight.
    ("no wrap-around K-A-2-3-4", "Kc Ad 2h 3s 8c", "4d 9h", "8d 7h", -1, HIGH_CARD, PAIR),
    ("no wrap-around Q-K-A-2-3", "Qc Kd Ah 2s 7c", "3d 9h", "9d 8h", -1, HIGH_CARD,
     HIGH_CARD),
    ("broadway", "Tc Jd Qh 2s 7c", "Kd Ah", "9d 8h", 1, STRAIGHT, STRAIGHT),
    ("steel wheel is the lowest straight flush", "2h 3h 4h 5h Kc", "Ah Ac", "6h 7c", -1,
     STRAIGHT_FLUSH, STRAIGHT_FLUSH),
    ("royal flush over king-high straight flush", "Th Jh Qh Kh 2c", "Ah 3d", "9h 3c", 1,
     STRAIGHT_FLUSH, STRAIGHT_FLUSH),
    # 13:47-20.34(e): the highest card not held by the other decides, down to the fifth.
    ("high card, fifth kicker", "Ac Kd 9h 7s 2c", "6d 4h", "5h 3s", 1, HIGH_CARD,
     HIGH_CARD),
    ("high card, sixth and seventh cards do not play", "Ac Kd 9h 7s 5c", "3d 2h", "4h 2s",
     0, HIGH_CARD, HIGH_CARD),
    ("pair, third kicker", "As Ad 9h 4s 2c", "Kd 5h", "Kh 3s", 1, PAIR, PAIR),
    ("pair, kickers beyond the fifth card do not play", "As Ad Kh Qs Jc", "3d 2h", "4h 3s",
     0, PAIR, PAIR),
    ("two pair, kicker", "Ks Kd 9h 9s 2c", "Ad 3h", "Qh Js", 1, TWO_PAIR, TWO_PAIR),
    ("three pairs: the best two and the best kicker", "Ks Kd 9h 9s 4c", "4d Ah", "4h Qs",
     1, TWO_PAIR, TWO_PAIR),
    # Counterfeited: the board's two higher pairs make a pocket pair worthless.
    ("counterfeited two pair", "Ks Kd Qh Qs 8c", "3d 3h", "Ah 2s", -1, TWO_PAIR, TWO_PAIR),
    ("counterfeited pocket pair ties with air", "Ks Kd Qh Qs 8c", "3d 3h", "4h 2s", 0,
     TWO_PAIR, TWO_PAIR),
    ("trips, kickers", "7s 7d 7h Ks 2c", "Ad 3h", "Qh Js", 1, TRIPS, TRIPS),
    ("set over trips by kicker", "7s 7d 2h Ks 4c", "7h Ad", "7c Qs", 1, TRIPS, TRIPS),
    ("flush beats straight", "5h 6h 7c 8h Kh", "9c 2d", "Ah 3c", -1, STRAIGHT, FLUSH),
    ("flush beats straight, hands swapped", "5h 6h 7c 8h Kh", "2h 3d", "9d 4s", 1,
     FLUSH, STRAIGHT),
    ("six suited cards: the best five make the flush", "2h 5h 9h Jh Kc", "Qh 3h", "Ah 4c",
     -1, FLUSH, FLUSH),
    ("flushes compare card by card", "2h 5h 9h Jh Kc", "Qh 3c", "Th 8h", 1, FLUSH, FLUSH),
    ("straight over trips", "5c 6d 7h Ks Kc", "8d 9h", "Kd 2s", 1, STRAIGHT, TRIPS),
    ("full house over flush", "Kh Kd 7h 7s 2h", "7c 3d", "Ah 4h", 1, FULL_HOUSE, FLUSH),
    ("full house: three of a kind ranks first", "Kh Kd 7h 2s 2c", "Kc 3d", "2d 7c", 1,
     FULL_HOUSE, FULL_HOUSE),
    ("two sets: the higher three, the lower as the pair", "Kh Kd 7h 7s 2c", "Kc 7c",
     "7d Ad", 1, FULL_HOUSE, FULL_HOUSE),
    ("full house: the best pair goes with the three", "Kh Kd Ks 7h 2c", "7c 2d", "2s 2h", 1,
     FULL_HOUSE, FULL_HOUSE),
    ("quads, kicker", "9h 9d 9s 9c 2c", "Ad 3h", "Kh Qs", 1, QUADS, QUADS),
    ("quads on board, kicker on board plays", "9h 9d 9s 9c Ac", "Kd 3h", "Qh Js", 0, QUADS,
     QUADS),
    ("straight flush over quads", "9h 9d Th Jh Qh", "9s 9c", "8h 2c", -1, QUADS,
     STRAIGHT_FLUSH),
    # 13:47-20.36(j): the five community cards are everybody's best hand: they share.
    ("board plays: a straight on board", "5c 6d 7h 8s 9c", "2d 2h", "Ah Kd", 0, STRAIGHT,
     STRAIGHT),
    ("board plays: a royal flush on board", "Ts Js Qs Ks As", "2d 2h", "9s 8s", 0,
     STRAIGHT_FLUSH, STRAIGHT_FLUSH),
    ("board does not play when one hand improves it", "5c 6d 7h 8s 9c", "Td 2h", "Ah Kd",
     1, STRAIGHT, STRAIGHT),
    ("all suits equal", "Ac Kd 9h 7s 2c", "5d 4h", "5h 4s", 0, HIGH_CARD, HIGH_CARD),
]


@pytest.mark.parametrize("what, board, a, b, expected, cat_a, cat_b", CASES,
                         ids=[c[0] for c in CASES])
def test_hand_picked_showdowns(what, board, a, b, expected, cat_a, cat_b):
    board, a, b = parse_all(board), parse_all(a), parse_all(b)
    assert category(evaluate(a + board)) == cat_a
    assert category(evaluate(b + board)) == cat_b
    assert felt_order(board, a, b) == expected
    assert pk_order(board, a, b) == expected
