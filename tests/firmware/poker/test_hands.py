"""Three-card high, A-5 and deuce-to-seven lows, and the per-game constructions.

13:69F-14.3(c)-(f) (and 13:47-20.34(d)-(e)), 19:47-14.9(j)-(l), rules README (Mambo
stud, lows without qualifier).  Every value: larger is better, equal ties, -1 none.
"""

from felt.poker.cards import parse
from felt.poker.evaluate import evaluate, evaluate5, high3, H3_STRAIGHT_FLUSH, H3_TRIPS, \
    H3_STRAIGHT, H3_FLUSH, H3_PAIR, H3_HIGH_CARD
from felt.poker.low import low_a5, low_27, low3_a5
from felt.poker.hands import holdem_high, omaha_high, omaha_low8, stud_high, stud_low, \
    mambo_high, mambo_low6, draw_high, draw_low_a5, draw_low_27, describe, \
    HIGH, HIGH3, LOW_A5, LOW_27, LOW3


def P(codes):
    return [parse(c) for c in codes.split()]


def h3(codes):
    return high3(P(codes))


def a5(codes, qualifier=None):
    return low_a5(P(codes), qualifier)


def d27(codes):
    return low_27(P(codes))


def l3(codes, qualifier=6):
    return low3_a5(P(codes), qualifier)


def descending(values):
    for i in range(len(values) - 1):
        if not values[i] > values[i + 1]:
            return False
    return True


# -- three-card high, 13:69F-14.3(c) ---------------------------------------------------

def test_three_card_categories_in_order_14_3_c():
    hands = ["Ah Kh Qh", "3s 2s As", "Ac Ad Ah", "2c 2d 2h", "Ac Kd Qh", "Ac 2d 3h",
             "Ah 9h 2h", "Ah Ad Kc", "2c 2d 3h", "Ac Kd Jh", "5c 3d 2h"]
    values = [h3(h) for h in hands]
    assert descending(values)
    assert [v >> 20 for v in values] == [
        H3_STRAIGHT_FLUSH, H3_STRAIGHT_FLUSH, H3_TRIPS, H3_TRIPS, H3_STRAIGHT,
        H3_STRAIGHT, H3_FLUSH, H3_PAIR, H3_PAIR, H3_HIGH_CARD, H3_HIGH_CARD]


def test_three_card_straight_beats_flush_14_3_c():
    # 14.3(c)4-5: in a three-card hand the straight ranks above the flush.
    assert h3("4c 5d 6h") > h3("Ks Qs 9s")
    assert h3("Ac 2d 3h") > h3("As Ks Js")  # even the lowest straight, the best flush


def test_three_card_trips_beat_a_straight_14_3_c():
    assert h3("2c 2d 2h") > h3("Qc Kd Ah")


def test_three_card_ace_two_three_is_the_lowest_straight_14_3_c4():
    assert h3("Ac 2d 3h") < h3("2c 3d 4h") < h3("Qc Kd Ah")
    assert h3("As 2s 3s") < h3("2h 3h 4h") < h3("Qd Kd Ad")  # straight flushes, (c)2


def test_three_card_no_king_ace_two_wrap_14_3_c4():
    assert h3("Kc Ad 2h") >> 20 == H3_HIGH_CARD
    assert h3("Ks As 2s") >> 20 == H3_FLUSH


def test_three_card_royal_flush_is_the_top_straight_flush_14_3_c1():
    assert h3("Ah Kh Qh") > h3("Kh Qh Jh") > h3("Ac Ad Ah")


def test_three_card_ties_and_kickers_14_3_d():
    assert h3("Ac Kd 9h") == h3("Ad Ks 9c")
    assert h3("Ac Kd 9h") > h3("Ad Kd 8c")
    assert h3("9c 9d Ah") > h3("9h 9s Kc")      # pair, then the odd card
    assert h3("Tc Td 2h") > h3("9h 9s Ac")      # the pair ranks first, (c)6
    assert h3("Kh 9h 4h") > h3("Ks 9s 3s")      # flushes card by card


# -- A-5 low, 13:69F-14.3(e)-(f) and eight or better, 19:47-14.9(j) --------------------

def test_a5_wheel_is_the_best_low_straights_and_flushes_ignored_14_3_f():
    best = a5("Ac 2c 3c 4c 5c")  # a straight flush for high, the best low
    assert best == a5("Ah 2d 3c 4s 5h")
    assert best > a5("Ac 2d 3h 4s 6c")


def test_a5_low_compares_the_highest_card_first_14_3_e():
    assert a5("8c 6d 4h 2s Ac") > a5("8c 6d 4h 3s 2c")
    assert a5("7c 6d 5h 4s 3c") > a5("8c 4d 3h 2s Ac")
    assert a5("9c 5d 4h 3s 2c") < a5("8c 7d 6h 5s 4c")


def test_a5_ace_is_low_king_is_worst_14_3_e():
    assert a5("Ac 3d 4h 5s 6c") > a5("2c 3d 4h 5s 6c")
    assert a5("Qc Jd 9h 8s 7c") > a5("Kc 4d 3h 2s Ac")


def test_a5_uses_the_five_lowest_distinct_ranks_of_seven():
    assert a5("Kc Qd 7h 5s 4c 3h 2d") == a5("7h 5s 4c 3h 2d")
    assert a5("5c 5d 4h 4s 3c 2h Ad") == a5("5c 4h 3c 2h Ad")


def test_a5_paired_low_is_worse_than_any_unpaired_14_3_f():
    assert a5("2c 2d 3h 4s 5c") < a5("Kc Qd Jh Ts 9c")
    assert a5("2c 2d 3h 4s 5c") > a5("2c 2d 3h 3s 4c")      # one pair beats two pairs
    assert a5("2c 2d Kh Qs Jc") > a5("3c 3d 4h 5s 6c")      # the pair ranks first
    assert a5("Ac Ad 2h 3s 4c") > a5("2c 2d 3h 4s 5c")      # aces are the lowest pair
    assert a5("Kc Kd Kh 2s 3c") > a5("2c 2d 2h 3s 3c")      # trips beat a full house


def test_a5_paired_low_from_seven_cards_keeps_the_best_grouping():
    # four ranks: one pair, the lowest rank that pairs
    assert a5("Ac Ad 2c 2d 3h 3s 4c") == a5("Ac Ad 2c 3h 4c")
    assert a5("5c 5d 5h 4s 4c 3h 9d") == a5("4s 4c 5c 3h 9d")
    # three ranks with two pairs available: two pairs beat three of a kind, and the
    # highest rank goes to the odd card
    assert a5("5c 5d 5h 4s 4c 3h 3d") == a5("4s 4c 3h 3d 5c")
    # two ranks: a full house, the lower three of a kind
    assert a5("Ac Ad Ah 2s 2c 2h 2d") == a5("Ac Ad Ah 2s 2c")


def test_eight_or_better_refuses_a_pair_14_9_j():
    assert a5("2c 2d 3h 4s 5c", 8) == -1
    assert a5("2c 2d 3h 4s 5c") >= 0  # without a qualifier the pair is a low


def test_eight_or_better_refuses_a_nine_14_9_j():
    assert a5("9c 5d 4h 3s 2c", 8) == -1
    assert a5("8c 7d 6h 5s 4c", 8) == a5("8c 7d 6h 5s 4c")
    assert a5("Kc 9d 8h 6s 4c 3h 2d", 8) == a5("8h 6s 4c 3h 2d")
    assert a5("Kc 9d 8h 6s 4c 4h 2d", 8) == -1


def test_the_same_five_cards_play_high_and_low_14_9_k():
    # 14.9(k)1-2: 2-3-4-5-6 is a straight for high and a good low.
    cards = P("2c 3d 4h 5s 6c Kd Kh")
    assert evaluate(cards) >> 20 == 4 and stud_low(cards, 8) == a5("6c 5s 4h 3d 2c")
    flush = P("2h 4h 5h 7h 8h Kd Ks")
    assert evaluate(flush) >> 20 == 5 and stud_low(flush, 8) == a5("8h 7h 5h 4h 2h")


def test_ace_plays_low_and_high_at_once_14_9_l():
    cards = P("Ac Ad 2h 3s 4c 5d 9h")
    assert describe(stud_high(cards), HIGH) == "straight, 5 high"
    assert describe(stud_low(cards, 8), LOW_A5) == "5-4-3-2-A low"


# -- deuce-to-seven, 13:69F-14.3(e)-(f) ------------------------------------------------

def test_deuce_to_seven_best_hand_is_seven_five_four_three_two():
    best = d27("7c 5d 4h 3s 2c")
    for other in ["7c 6d 4h 3s 2c", "8c 5d 4h 3s 2c", "Ac 2d 3h 4s 5c", "6c 5d 4h 3s 2c",
                  "7c 5c 4c 3c 2c", "2c 2d 3h 4s 5c"]:
        assert best > d27(other), other


def test_deuce_to_seven_wheel_is_not_a_straight():
    # 14.3(e): the ace is the lowest low card ... "except" deuce to seven, where it is
    # only high; so A-2-3-4-5 is an ace-high hand, worse than any king-high hand.
    wheel = d27("Ac 2d 3h 4s 5c")
    assert wheel > d27("6c 5d 4h 3s 2c")      # a real straight is worse still
    assert wheel < d27("Kc Qd Jh 9s 8c")
    assert describe(wheel, LOW_27) == "A-5-4-3-2"
    assert d27("Ac 2c 3c 4c 5c") < wheel     # suited it is a flush, which counts


def test_deuce_to_seven_straights_and_flushes_count_against_14_3_f():
    assert d27("6c 5d 4h 3s 2c") < d27("Ac Kd Qh Js 9c")
    assert d27("8c 6c 4c 3c 2c") < d27("Ac Kd Qh Js 9c")
    assert d27("2c 2d 3h 4s 5c") < d27("Ac Kd Qh Js 9c")   # a pair is worse than no pair
    assert d27("6c 5d 4h 3s 2c") < d27("2c 2d 2h 4s 5c")   # trips beat a straight


def test_deuce_to_seven_is_the_inverse_of_high():
    hands = ["7c 5d 4h 3s 2c", "Kc Qd Jh 9s 8c", "2c 2d 3h 4s 5c", "Ac Ad Kh Ks Qc",
             "9c 9d 9h 2s 3c", "9c Td Jh Qs Kc", "8c 6c 4c 3c 2c", "9c 9d 9h 2s 2c"]
    for a in hands:
        for b in hands:
            x, y = P(a), P(b)
            assert (low_27(x) > low_27(y)) == (evaluate(x) < evaluate(y)), (a, b)


# -- three-card A-5 low, Mambo stud (rules README) -------------------------------------

def test_mambo_low_needs_three_cards_six_or_lower():
    assert l3("Ac 2d 3h") > l3("4c 5d 6h") >= 0
    assert l3("Ac 2d 7h") == -1
    assert l3("2c 2d 3h") == -1           # no pair
    assert mambo_low6(P("Ac 2d Kh"), parse("Qs")) == -1
    assert mambo_low6(P("Ac 2d Kh"), parse("6s")) == l3("6s 2d Ac")


def test_mambo_low_straights_and_flushes_ignored_a23_best():
    assert l3("As 2s 3s") == l3("Ac 2d 3h")
    assert l3("As 2s 3s") > l3("Ac 2d 4h") > l3("2c 3d 4h")
    assert l3("6c 2d Ah") > l3("6c 3d 2h")  # the highest card first, then the next


def test_mambo_low_uses_the_best_three_of_four():
    own = P("5c 5d Ah")
    assert mambo_low6(own, parse("2s")) == l3("5c 2s Ah")
    assert mambo_low6(P("6c 4d 3h"), parse("2s")) == l3("4d 3h 2s")


def test_three_card_low_without_qualifier_ranks_pairs_below():
    assert l3("Kc Qd Jh", None) > l3("Ac Ad 2h", None) > l3("2c 2d 2h", None)
    assert l3("Ac Ad 2h", None) > l3("2c 2d Ah", None)


def test_mambo_high_uses_the_best_three_of_four_14_3_c():
    assert mambo_high(P("9c 9d 2h"), parse("9s")) == h3("9c 9d 9s")
    assert mambo_high(P("Jc 2d 5h"), parse("Qs")) == h3("Jc Qs 5h")
    assert mambo_high(P("4c 5d Kh"), parse("6s")) == h3("4c 5d 6s")  # straight over K


def test_mambo_equals_the_best_of_its_four_subsets():
    own, com = P("Ah 3h 5d"), parse("2h")
    subsets = [own, [own[0], own[1], com], [own[0], own[2], com], [own[1], own[2], com]]
    assert mambo_high(own, com) == max([high3(s) for s in subsets])
    assert mambo_low6(own, com) == max([low3_a5(s) for s in subsets])


# -- constructions ---------------------------------------------------------------------

def test_omaha_uses_exactly_two_hole_cards():
    # Four hearts in the hole and one on board: no flush (needs three board hearts).
    hole, board = P("Ah Kh Qh Jh"), P("Th 2c 3d 7s 9c")
    assert omaha_high(hole, board) >> 20 != 5
    assert holdem_high(hole, board) >> 20 == 8  # hold 'em rules would give a royal flush
    assert omaha_high(hole, board) == evaluate(P("Ah Kh Th 9c 7s"))


def test_omaha_board_quads_make_trips_with_two_hole_cards():
    # The board's four of a kind plays only three board cards.
    v = omaha_high(P("Ac Kd 2h 3h"), P("9c 9d 9h 9s 4c"))
    assert v == evaluate(P("9c 9d 9h Ac Kd"))


def test_omaha_uses_exactly_three_board_cards():
    # A straight on the board does not play: two hole cards must be used.
    hole, board = P("Kc Kd 2h 2s"), P("5c 6d 7h 8s 9c")
    assert omaha_high(hole, board) == evaluate(P("Kc Kd 9c 8s 7h"))


def test_omaha_low_uses_exactly_two_hole_cards_14_9_j():
    # One low hole card is not enough, however low the board.
    assert omaha_low8(P("Ac Kd Qh Js"), P("2c 3d 4h 5s 6c")) == -1
    assert omaha_low8(P("Ac 2d Qh Js"), P("3c 4d 5h Ks Kc")) == a5("Ac 2d 3c 4d 5h")
    # Three low board cards are needed.
    assert omaha_low8(P("Ac 2d 3h 4s"), P("5c 6d Kh Ks Qc")) == -1
    # A paired hole card does not count twice; the other hole card must then be used.
    assert omaha_low8(P("Ac Ad 8h Ks"), P("2c 3d 4h Qs Jc")) == a5("8h Ac 4h 3d 2c")


def test_omaha_low8_is_the_best_of_the_sixty_hands():
    for hole, board in [("Ac 3d 7h 8s", "2c 4d 5h 6s 3c"), ("Ac Ad 2h 2s", "3c 3d 4h 5s 8c"),
                        ("2c 3d 4h 5s", "6c 7d 8h 9s Tc"), ("Kc 8d 7h 6s", "Ac 2d 3h 3s 2c")]:
        hole, board = P(hole), P(board)
        best = best_of_sixty(hole, board, lambda five: low_a5(five, 8))
        assert omaha_low8(hole, board) == best, hole
    assert omaha_low8(P("Ac 3d 7h 8s"), P("2c 4d 5h 6s 3c")) == a5("Ac 3d 2c 4d 5h")


def best_of_sixty(hole, board, value):
    best = -1
    for i in range(4):
        for j in range(i + 1, 4):
            for k in range(5):
                for m in range(k + 1, 5):
                    for n in range(m + 1, 5):
                        v = value([hole[i], hole[j], board[k], board[m], board[n]])
                        if v > best:
                            best = v
    return best


def test_omaha_high_is_the_best_of_the_sixty_hands():
    deals = [("Ah Kh 2c 2d", "Qh Jh Th 2s 2h"),   # royal flush vs quads vs full house
             ("9c 9d 4h 4s", "9h 4c 4d Kc Ks"),   # 9-9-9-4-4 vs 4-4-4-9-9
             ("Ac 5d Kh Qs", "2c 3d 4h Jh Th"),   # wheel vs broadway: A-5 plays
             ("Ac Kc 2c 3c", "4c 5c 9d 9h Qs"),   # steel wheel with two hole cards
             ("Jc Jd 7h 7s", "Jh 7c 2d 2h 2s"),   # full houses both ways
             ("Ks Qs 4d 4c", "As Js Ts 3h 4h"),   # royal flush over a set
             ("6h 6d 5c 5s", "6c 6s 5d 5h Ac")]   # quads from a pair in the hole
    for hole, board in deals:
        hole, board = P(hole), P(board)
        assert omaha_high(hole, board) == best_of_sixty(hole, board, evaluate), hole


def test_holdem_uses_any_five():
    assert holdem_high(P("Ah Kh"), P("Qh Jh Th 2c 3d")) == evaluate(P("Ah Kh Qh Jh Th"))
    assert holdem_high(P("2c 3d"), P("5c 6d 7h 8s 9c")) == evaluate(P("5c 6d 7h 8s 9c"))


def test_stud_low_without_qualifier_takes_a_paired_low():
    cards = P("Kc Kd Qh Qs 2c 2d 3h")
    assert stud_low(cards, 8) == -1
    assert stud_low(cards) == a5("2c 2d 3h Qh Kc")
    assert stud_low(P("9c 9d 9h 3s 3c 2d")) == a5("3s 3c 9c 9d 2d")  # six cards


def test_draw_games_use_the_five_held():
    assert draw_high(P("Ac 2d 3h 4s 5c")) == evaluate(P("Ac 2d 3h 4s 5c"))
    assert draw_low_a5(P("Ac 2d 3h 4s 5c")) == a5("Ac 2d 3h 4s 5c")
    assert draw_low_27(P("7c 5d 4h 3s 2c")) == d27("7c 5d 4h 3s 2c")


def test_evaluate5_agrees_with_evaluate():
    for h in ["Ac 2c 3c 4c 5c", "Ah Kh Qh Jh Th", "9c 9d 9h 9s 2c", "9c 9d 9h 2s 2c",
              "2h 7h 9h Jh Kh", "5c 6d 7h 8s 9c", "Qh Qd Qs 2c 5d", "Jh Jd 4c 4s Ah",
              "Th Td 2c 5s 8h", "Ah Kd 9c 7s 4h", "Qh Kd Ac 2s 3h"]:
        c = P(h)
        assert evaluate5(c[0], c[1], c[2], c[3], c[4]) == evaluate(c), h


def test_values_stay_small_ints():
    for v in [a5("Kc Kd Kh Ks Qc"), d27("Ac Kc Qc Jc Tc"), l3("Kc Kd Kh", None),
              h3("Ah Kh Qh"), d27("7c 5d 4h 3s 2c"), a5("Ac 2d 3h 4s 5c")]:
        assert 0 <= v < (1 << 30)


def test_describe_names_for_the_logs():
    assert describe(evaluate(P("Kc Kd 9h 9s 4c")), HIGH) == "two pairs, kings and nines"
    assert describe(evaluate(P("Ah Kh Qh Jh Th")), HIGH) == "royal flush"
    assert describe(a5("8c 6d 4h 2s Ac"), LOW_A5) == "8-6-4-2-A low"
    assert describe(a5("2c 2d Kh Qs Jc"), LOW_A5) == "one pair, 2-2-K-Q-J low"
    assert describe(d27("7c 5d 4h 3s 2c"), LOW_27) == "7-5-4-3-2"
    assert describe(d27("8c 6c 4c 3c 2c"), LOW_27) == "flush, 8-6-4-3-2"
    assert describe(h3("Ac 2d 3h"), HIGH3) == "straight, 3 high"
    assert describe(l3("6c 2d Ah"), LOW3) == "6-2-A low"
    assert describe(-1, LOW_A5) == "no qualifying low"
