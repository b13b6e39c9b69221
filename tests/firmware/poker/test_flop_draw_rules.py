"""Flop and draw games beside hold 'em: Pineapple and Crazy Pineapple (13:69F-14.10(k),
rules README), Omaha high and high-low eight or better (19:47-14.8(a)3), the straddle
(13:69F-14.10(f)), five-card draw (19:47-14.8(a)4) and triple draw low ball
(13:69F-14.12B, 13:69F-14.3(e)-(f)).  Fixed limit 2/4 with blinds 1/2 unless said;
the button on seat 0, so cards go out from seat 1."""

from felt.poker.evaluate import evaluate
from felt.poker.round import BETTING, CHOOSING
from felt.poker.structure import Structure
from firmware_helpers import deal, act, refused, of_kind
from variant_helpers import new_game, cards, codes_of, dealt, feed, passive, awards, won, \
    draw_showdown


def holes(hands, button=0):
    """The hole cards of `hands` (per seat) in dealing order, left of the button first."""
    hs = [h.split() for h in hands]
    n = len(hs)
    order = [(button + 1 + i) % n for i in range(n)]
    return " ".join([hs[s][k] for k in range(len(hs[0])) for s in order])


def no_limit(straddle=False, blinds=(1, 2)):
    return Structure("no", 2, 0, blinds, 0, 0, 0, True, straddle)


# ----- Pineapple and Crazy Pineapple --------------------------------------------------

def test_pineapple_deals_three_and_each_discards_one_after_preflop_before_the_flop_readme():
    # 13:69F-14.10(k): three rounds of cards face down.  Rules README: each player
    # discards one after the pre-flop betting round, before the flop.
    r, _ = new_game("pineapple", [100] * 3)
    deal(r, holes(["2h 3h 4h", "2c 3c 4c", "2d 3d 4d"]))
    assert [len(r.hole[s]) for s in range(3)] == [3, 3, 3]
    assert r.phase == BETTING
    passive(r)
    assert r.phase == CHOOSING and r.expecting() is None and r.to_act == 1
    assert refused(r, ("card", "As"))                      # no flop before the discards
    assert refused(r, ("discard", 1, "2c 3c"))
    assert "exactly 1" in r.why_not(("discard", 1, "2c 3c"))
    assert refused(r, ("discard", 1, "2h"))                # not seat 1's card
    out = r.apply(("discard", 1, "4c"))
    assert of_kind(out, "discarded") == [("discarded", 1, cards("4c"))]
    assert r.hole[1] == cards("2c 3c")
    r.apply(("discard", 2, "4d"))
    r.apply(("discard", 0, "4h"))
    assert [len(r.hole[s]) for s in range(3)] == [2, 2, 2]
    assert r.expecting() == ("burn", -1)
    deal(r, "9s Ah Kh Qd")
    assert len(r.board) == 3 and r.phase == BETTING


def test_crazy_pineapple_discards_one_after_the_flop_betting_readme():
    # Rules README: in Crazy Pineapple the discard comes after the flop betting round.
    r, _ = new_game("crazy-pineapple", [100] * 3)
    deal(r, holes(["2h 3h 4h", "2c 3c 4c", "2d 3d 4d"]))
    passive(r)
    assert r.expecting() == ("burn", -1)                   # the flop, no discard yet
    deal(r, "9s Ah Kh Qd")
    assert [len(r.hole[s]) for s in range(3)] == [3, 3, 3]
    passive(r)                                             # the flop betting
    assert r.phase == CHOOSING and r.to_act == 1 and r.expecting() is None
    for s in (1, 2, 0):
        r.apply(("discard", s, codes_of(r.hole[s][-1:])))
    assert [len(r.hole[s]) for s in range(3)] == [2, 2, 2]
    assert r.expecting() == ("burn", -1)                   # then the turn


# ----- Omaha --------------------------------------------------------------------------

def test_omaha_uses_exactly_two_hole_cards_and_three_board_cards_14_8_a_3():
    # 19:47-14.8(a)3.  Seat 1's one heart makes no flush with four hearts on the board
    # (in hold 'em it would be a royal flush); seat 2's two deuces make three of a kind.
    hands = ["9c 9d 6s 6d", "Th 3s 4d 5c", "2d 2s 7c 8c"]
    r, _ = new_game("omaha", [100] * 3)
    deal(r, holes(hands))
    passive(r)
    out = []
    for street in ("3h Ah Kh Qh", "3d Jh", "3c 2c"):
        out += deal(r, street)
        out += passive(r)
    assert r.finished()
    assert evaluate(r.hole[1] + r.board) > evaluate(r.hole[2] + r.board)
    assert r.high[2] > r.high[1]
    assert awards(out) == [(2, 6, "all")]


def omaha8(hands, board, folds_small_blind=False):
    """An Omaha high-low eight or better round checked down, the button on seat 0."""
    r, out = new_game("omaha-hilo8", [100] * 3)
    out += deal(r, holes(hands))
    if folds_small_blind:
        out += act(r, "call 0", "fold 1", "check 2")
    else:
        out += passive(r)
    b = board.split()
    for street in (["5s"] + b[:3], ["5h", b[3]], ["5d", b[4]]):
        out += deal(r, " ".join(street))
        out += passive(r)
    assert r.finished()
    return r, out


def test_omaha_high_low_split_the_high_half_takes_the_odd_chip():
    # A pot of 5 (the small blind folds): seat 2's three kings take the high half with
    # the odd chip, seat 0's 6-4-3-2-A the low 2.  Seat 2 is also the first winner left
    # of the button, so 19:47-14.9(i)2i by analogy and the rules README's odd-chip
    # rule for flop games agree here.
    board = "Ac 2d 6h Ks Kd"
    hands = ["3c 4c Td Jd", "9c 9d 8s 7s", "Kh Qc Qd Js"]
    r, out = omaha8(hands, board, folds_small_blind=True)
    assert r.pot() == 5
    assert sorted(awards(out)) == [(0, 2, "low"), (2, 3, "high")]
    assert won(r) == [0, -1, 1]


def test_omaha_high_low_tied_low_share_odd_chip_to_the_first_winner_left_of_the_button_readme():
    # Rules README: odd chips in flop games go to the first winner clockwise from the
    # button.  A pot of 6: seat 2's kings win the high 3; seats 0 and 1 tie for the low
    # with 6-4-3-2-A and split 3: seat 1, first left of the button, gets 2.
    board = "Ac 2d 6h Ks Kd"
    hands = ["3c 4c Td Jd", "3s 4h Th Jh", "Kh Qc Qd Js"]
    r, out = omaha8(hands, board)
    assert r.low[0] == r.low[1] and r.low[2] == -1
    assert sorted(awards(out)) == [(0, 1, "low"), (1, 2, "low"), (2, 3, "high")]


# ----- the straddle -------------------------------------------------------------------

def test_straddle_is_twice_the_big_blind_posted_before_the_deal_14_10_f():
    # 13:69F-14.10(f): the straddle follows the blinds and comes before any card.
    r, out = new_game("holdem", [100] * 4, structure=no_limit(straddle=True))
    assert [(e[1], e[2], e[3]) for e in of_kind(out, "post")] == [(1, "blind", 1), (2, "blind", 2)]
    assert of_kind(out, "to_act") == [("to_act", 3)] and r.expecting() is None
    assert "straddle" in r.legal_actions(3)
    assert refused(r, ("card", "As"))
    out = r.apply(("straddle", 3))
    assert of_kind(out, "post") == [("post", 3, "straddle", 4, False)]
    assert r.expecting() == ("hole", 1)


def test_the_straddler_acts_last_before_the_flop_and_may_raise_14_10_f():
    # 13:69F-14.10(f): the option to raise also applies to the player who straddled.
    r, _ = new_game("holdem", [100] * 4, structure=no_limit(straddle=True))
    r.apply(("straddle", 3))
    deal(r, "2c 3c 4c 5c 2d 3d 4d 5d")
    assert r.to_act == 0                                   # left of the straddle
    assert r.to_call(0) == 4
    act(r, "call 0", "call 1", "call 2")
    assert r.to_act == 3
    assert r.legal_actions(3) == ["check", "raise"]
    out = r.apply(("raise", 3, 12))
    assert of_kind(out, "action") == [("action", 3, "raise", 8, False)]
    assert r.to_act == 0


def test_the_straddle_is_optional_a_declined_straddle_leaves_the_blind_order_14_10_f():
    # 13:69F-14.10(f): "if applicable, a straddle bet": the player offered it may decline.
    r, _ = new_game("holdem", [100] * 4, structure=no_limit(straddle=True))
    assert r.legal_actions(3) == ["straddle", "decline"]
    assert r.why_not(("decline", 3)) is None
    out = r.apply(("decline", 3))
    assert of_kind(out, "post") == []
    deal(r, "2c 3c 4c 5c 2d 3d 4d 5d")
    assert r.to_act == 3 and r.to_call(3) == 2


# ----- five-card draw and triple draw ---------------------------------------------------

def test_draw_deals_five_down_left_of_the_button_first_button_last_14_12B_d():
    # 13:69F-14.12B(d); five-card draw deals the same way.
    for name in ("draw5", "triple-draw-27"):
        r, _ = new_game(name, [100] * 3, button=1)
        out = deal(r, "2c 3c 4c 5c 6c 2d 3d 4d 5d 6d 2h 3h 4h 5h 6h")
        assert [(e[0], e[1]) for e in dealt(out)] == [("hole", 2), ("hole", 0), ("hole", 1)] * 5
        assert r.hole[2] == cards("2c 5c 3d 6d 4h")


def test_burn_before_the_first_draw_then_draws_in_turn_left_of_the_button_14_12B_f():
    # 13:69F-14.12B(f): the burn, then one player at a time from the button's left; each
    # discard is replaced from the deck, or the player keeps the hand (stands pat).
    r, _ = new_game("draw5", [100] * 4)
    deal(r, holes(["2s 3s 4s 5s 6s", "2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h"]))
    act(r, "fold 3", "call 0", "call 1", "check 2")
    assert r.expecting() == ("burn", -1) and r.phase != CHOOSING
    deal(r, "As")
    assert r.burns == cards("As")
    assert r.phase == CHOOSING and r.to_act == 1
    assert refused(r, ("draw", 2, ""))                     # out of turn
    out = r.apply(("draw", 1, "2c 3c"))
    assert of_kind(out, "discarded") == [("discarded", 1, cards("2c 3c"))]
    assert r.expecting() == ("hole", 1)
    deal(r, "Ks Kh")
    assert sorted(r.hole[1]) == sorted(cards("4c 5c 6c Ks Kh"))
    assert r.to_act == 2
    out = r.apply(("draw", 2, ""))                         # stands pat
    assert dealt(out) == [] and r.hole[2] == cards("2d 3d 4d 5d 6d")
    assert r.to_act == 0                                   # seat 3 folded
    r.apply(("draw", 0, "6s"))
    deal(r, "Kd")
    assert r.phase == BETTING and r.to_act == 1
    assert r.unit() == 4                                   # the big bet after the draw


def test_when_the_deck_runs_out_all_discards_but_the_drawing_players_are_reshuffled_14_12B_f():
    # 13:69F-14.12B(f): seven players draw five each.  After 35 dealt, a burn and three
    # draws of five, one card is left for seat 4's five: the discards of the others are
    # reshuffled, seat 4's own are not, and seat 4 is dealt its cards.
    r, _ = new_game("triple-draw-a5", [100] * 7)
    feed(r)
    passive(r)
    feed(r)                                                # the burn
    assert r.cards_left() == 16
    others = []
    for s in (1, 2, 3):
        assert r.to_act == s
        others += r.hole[s]
        r.apply(("draw", s, codes_of(r.hole[s])))
        feed(r)
    assert r.cards_left() == 1
    mine = list(r.hole[4])
    out = r.apply(("draw", 4, codes_of(mine)))
    out += feed(r)
    shuffled = of_kind(out, "reshuffle")
    assert len(shuffled) == 1
    pool = shuffled[0][1]
    assert [c for c in mine if c in pool] == []
    assert [c for c in others if c not in pool] == []
    assert len(r.hole[4]) == 5 and [c for c in mine if c in r.hole[4]] == []
    assert r.to_act == 5


def test_deuce_to_seven_the_lowest_hand_wins_straights_and_flushes_count_14_3_e_f():
    # 13:69F-14.12B(l), 13:69F-14.3(e)-(f): deuce-to-seven, ace high only.
    def winner(a, b):
        r, out = draw_showdown("triple-draw-27", [a, b])
        return [e[0] for e in awards(out)]
    assert winner("7c 5d 4h 3s 2c", "8c 6d 4d 3d 2d") == [0]
    assert winner("2c 3d 4h 5s 6c", "Kc Qd Jh 9s 8c") == [1]   # a straight is no low
    assert winner("2h 4h 5h 7h 8h", "Kc Qd Jh 9s 8c") == [1]   # nor a flush
    assert winner("Ah 2d 3c 4s 5h", "Kc Qd Jh 9s 8c") == [1]   # A-2-3-4-5 is ace high


def test_ace_to_five_draw_low_ignores_straights_and_flushes_14_3_f():
    # 13:69F-14.3(e)-(f): the ace low, straights and flushes not considered.
    for name in ("triple-draw-a5", "draw5-low"):
        def winner(a, b):
            r, out = draw_showdown(name, [a, b])
            return [e[0] for e in awards(out)]
        assert winner("Ah 2h 3h 4h 5h", "6c 4d 3s 2c Ad") == [0]   # the wheel, suited
        assert winner("7h 5h 4h 3h 2h", "8c 6d 4d 3d 2d") == [0]   # a 7-high flush
        assert winner("6c 4d 3s 2c Ad", "7h 5h 4h 3h 2h") == [0]
