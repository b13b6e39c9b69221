"""13:47-20.34(b), (c) and (e): ranks, five-card high hands and tie breaks."""

from felt.poker.cards import parse
from felt.poker.evaluate import evaluate, evaluate5, category, name, STRAIGHT, \
    STRAIGHT_FLUSH, FLUSH, FULL_HOUSE, TWO_PAIR, HIGH_CARD, PAIR, QUADS, TRIPS


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


def best_of_the_21_five_card_hands(cards):
    best = -1
    for i in range(7):
        for j in range(i + 1, 7):
            five = [cards[k] for k in range(7) if k != i and k != j]
            best = max(best, evaluate5(five[0], five[1], five[2], five[3], five[4]))
    return best


# Each seven-card hand class's edge case, its category (20.34(c)).
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


def test_seven_card_edge_cases_value_as_the_best_of_their_21_five_card_hands():
    for codes, kind in EDGES:
        cards = [parse(c) for c in codes.split()]
        value = evaluate(cards)
        assert value == best_of_the_21_five_card_hands(cards), codes
        assert category(value) == kind, codes
