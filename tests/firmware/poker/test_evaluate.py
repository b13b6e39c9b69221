"""13:47-20.34(b), (c) and (e): ranks, five-card high hands and tie breaks."""

from felt.poker.cards import parse
from felt.poker.evaluate import evaluate, category, name, STRAIGHT, STRAIGHT_FLUSH, \
    FLUSH, FULL_HOUSE, TWO_PAIR, HIGH_CARD, PAIR, QUADS, TRIPS


def ev(codes):
    return evaluate([parse(c) for c in codes.split()])


def test_categories_in_the_order_of_20_34_c():
    hands = ["As Ks Qs Js Ts 2c 3d", "9h 9d 9s 9c 2h 3c 4d", "Ah Ad Ac Kh Kd 2c 3s",
             "2h 7h 9h Jh Kh 3c 4d", "5c 6d 7h 8s 9c 2d Kh", "Qh Qd Qs 2c 5d 7h 9s",
             "Jh Jd 4c 4s Ah 2d 7c", "Th Td 2c 5s 8h Kd Ac", "Ah Kd 9c 7s 4h 3d 2c"]
    values = [ev(h) for h in hands]
    assert values == sorted(values, reverse=True)
    assert [category(v) for v in values] == [STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH,
                                             STRAIGHT, TRIPS, TWO_PAIR, PAIR, HIGH_CARD]


def test_wheel_is_the_lowest_straight_and_ace_plays_low():
    wheel = ev("Ah 2d 3c 4s 5h 9c Kd")
    assert category(wheel) == STRAIGHT
    assert wheel < ev("2h 3d 4c 5s 6h 9c Kd")


def test_steel_wheel_is_the_lowest_straight_flush():
    assert category(ev("Ah 2h 3h 4h 5h 9c Kd")) == STRAIGHT_FLUSH
    assert ev("Ah 2h 3h 4h 5h 9c Kd") < ev("2h 3h 4h 5h 6h 9c Kd")


def test_no_wrap_around_straight():
    # 20.34(c)6: queen, king, ace, two, three is no straight.
    assert category(ev("Qh Kd Ac 2s 3h 8c 9d")) == HIGH_CARD


def test_kickers_break_ties_by_the_highest_card_not_in_the_other_hand():
    # 20.34(e)
    assert ev("Ah Ad Kc 7s 4h 3d 2c") > ev("Ah Ad Qc Js Th 3d 2c")
    assert ev("9h 9d 5c 5s Kh 3d 2c") > ev("9c 9s 5d 5h Qh 3d 2c")


def test_equal_hands_tie():
    assert ev("As Kd Qc Jh 9s 3d 2c") == ev("Ac Kh Qd Js 9c 3h 2d")


def test_flush_uses_its_five_highest_cards():
    assert ev("Ah Kh 9h 7h 4h 3h 2h") > ev("Ah Kh 9h 7h 3h 2c 2d")


def test_best_full_house_from_two_sets_of_trips():
    v = ev("8h 8d 8c 5s 5h 5d Ac")
    assert category(v) == FULL_HOUSE and v == ev("8h 8d 8c 5s 5h 2d Ac")


def test_third_pair_is_not_used_beyond_the_kicker():
    assert ev("Kh Kd 9c 9s 4h 4d 2c") == ev("Kh Kd 9c 9s 4h 3d 2c")


def test_hand_names():
    assert name(ev("As Ks Qs Js Ts 2c 3d")) == "straight flush"
    assert name(ev("Ah 2d 3c 4s 5h 9c Kd")) == "straight"
