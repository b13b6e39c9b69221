"""felt.banked.hands4 against a plain brute-force four-card classifier
(tests/host/banked_oracle.py): every four-card hand, and the best four of five and six.
"""

from itertools import combinations
from math import comb

from hypothesis import given, settings, strategies as st

from felt.banked import hands4 as H4
from sampling import examples, sampled
from banked_oracle import CATEGORIES, key4, best_key


def test_every_four_card_hand_orders_as_the_brute_force_does():
    values = {}
    for hand in combinations(range(52), 4):
        k = key4(hand)
        values.setdefault((k[0], tuple(k[1])), set()).add(H4.evaluate4(*hand))
    # One value per brute-force hand class, strictly increasing with the class.
    assert all(len(v) == 1 for v in values.values())
    ordered = [values[k].pop() for k in sorted(values)]
    assert ordered == sorted(set(ordered)) and len(ordered) == len(set(ordered))


def test_category_frequencies_of_all_270725_hands():
    counts = [0] * 8
    for hand in combinations(range(52), 4):
        counts[H4.category(H4.evaluate4(*hand))] += 1
    straight_flush = 11 * 4                    # A-2-3-4 .. J-Q-K-A, no wrap
    want = {
        "four of a kind": 13,
        "straight flush": straight_flush,
        "three of a kind": 13 * comb(4, 3) * 48,
        "flush": 4 * comb(13, 4) - straight_flush,
        "straight": 11 * 4 ** 4 - straight_flush,
        "two pairs": comb(13, 2) * comb(4, 2) ** 2,
        "pair": 13 * comb(4, 2) * comb(12, 2) * 4 ** 2,
        "high card": (comb(13, 4) - 11) * (4 ** 4 - 4),
    }
    assert sum(want.values()) == comb(52, 4) == 270725
    assert {CATEGORIES[i]: counts[i] for i in range(8)} == want
    assert want["three of a kind"] == 2496 and want["high card"] == 177408


def test_names_follow_the_categories():
    assert [H4.NAMES[i] for i in range(8)] == [
        "high card", "one pair", "two pairs", "straight", "flush", "three of a kind",
        "straight flush", "four of a kind"]


cards = st.lists(st.integers(0, 51), min_size=5, max_size=6, unique=True)


@sampled
@settings(max_examples=examples(3000), deadline=None)
@given(cards, cards)
def test_best_four_of_five_or_six_matches_brute_force(a, b):
    va, chosen = H4.best4(a)
    vb, _ = H4.best4(b)
    assert key4(chosen) == best_key(a)
    assert set(chosen) <= set(a)
    ka, kb = best_key(a), best_key(b)
    assert (va > vb) == (ka > kb) and (va == vb) == (ka == kb)
