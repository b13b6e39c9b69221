"""Four card poker hands: 19:47-27.11's ranks, the best four of five or six cards."""

from felt.poker.cards import parse
from felt.banked import hands4 as H4


def value(codes):
    return H4.best4([parse(c) for c in codes.split()])[0]


def test_categories_rank_as_the_payout_tables_list_them():
    # 19:47-27.11(a)3: four of a kind, straight flush, three of a kind, flush,
    # straight, two pairs, pair; then no pair.
    hands = ["9c 9d 9h 9s", "5h 6h 7h 8h", "Kc Kd Ks 2h", "2s 7s 9s Js", "Tc Jd Qh Ks",
             "Ac Ad 3h 3s", "Ac Ad 7h 2s", "Ac Kd 9h 7s"]
    values = [value(h) for h in hands]
    assert values == sorted(values, reverse=True)
    assert [H4.category(v) for v in values] == [7, 6, 5, 4, 3, 2, 1, 0]
    assert [H4.name(v) for v in values] == [
        "four of a kind", "straight flush", "three of a kind", "flush", "straight",
        "two pairs", "pair of aces", "high card"]


def test_ace_plays_low_in_the_lowest_straight_and_high_in_the_highest():
    assert H4.category(value("Ac 2d 3h 4s")) == H4.STRAIGHT
    assert value("Ac 2d 3h 4s") < value("2c 3d 4h 5s")
    assert value("Jc Qd Kh As") > value("Tc Jd Qh Ks")
    assert H4.category(value("Qc Kd Ah 2s")) == H4.HIGH_CARD   # no wrap-around
    assert H4.category(value("Ah 2h 3h 4h")) == H4.STRAIGHT_FLUSH


def test_ties_break_on_the_ranks_of_the_category_then_kickers():
    assert value("Kc Kd 5h 4s") > value("Kh Ks 5c 3d")
    assert value("Kc Kd 5h 4s") == value("Kh Ks 5c 4d")           # suits never rank
    assert value("Ac Ad 3h 3s") > value("Kc Kd Qh Qs")
    assert value("7c 7d 7h As") > value("7c 7d 7s Ks")
    assert value("Ac Kc 9c 2c") > value("Ad Qd Jd Td")


def test_player_best_four_of_five_and_dealer_best_four_of_six():
    v, best = H4.best4([parse(c) for c in "2c 9h 9d 9s Kd".split()])
    assert H4.name(v) == "three of a kind"
    assert sorted(best) == sorted(parse(c) for c in "9h 9d 9s Kd".split())
    # Six cards: the flush A-5-4-2 of hearts beats the straight 2-3-4-5 (27.11).
    v, best = H4.best4([parse(c) for c in "2h 5h 3d 4h Ah 9c".split()])
    assert H4.name(v) == "flush"
    assert sorted(best) == sorted(parse(c) for c in "2h 5h 4h Ah".split())
    assert H4.name(value("9c 3h 4h 5h 6h 6d")) == "straight flush"
