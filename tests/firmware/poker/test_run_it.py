"""Running the board more than once: 13:69F-14.10(l), multiple alternative hands
resolution, as docs/rules.md rules it.  No limit hold 'em, blinds 1/2, the button on
seat 0 unless said; seat 0 moves all in, seat 1 (51 chips) and seat 2 (100) call all-in:
a main pot of 153 for all three and a side pot of 98 for seats 0 and 2; seat 0's last
100 come back uncalled."""

import sys

from felt import lazy
from felt.poker.round import CHOOSING, DEALING, RUNOUTS as RUNOUTS_RULES
from felt.poker.structure import Structure
from firmware_helpers import deal, act, refused, of_kind
from variant_helpers import new_game, codes_of, feed

STACKS = [200, 51, 100]
HOLES = "As Ks Qs Ad Kd Qd"     # seat 1 aces, seat 2 kings, seat 0 queens
# Each runout: burn, flop, burn, turn, burn, river.  Aces win the first, queens the
# second, kings the third; the side pot goes to kings, queens, kings.
RUNOUTS = ("2d 2c 7h 9d 3d 3s 4d 4c", "5d Qh 5c 8d 6d Jc 7d 2h", "8c Kh 6c Th 8h 9c Tc 3h")


def no_limit(run_it=1, blinds=(1, 2)):
    return Structure("no", 2, 0, blinds, 0, 0, 0, True, False, 0, run_it)


def all_in(run_it, stacks=STACKS, game="holdem", holes=HOLES):
    """Seat 0 all in, seats 1 and 2 call all-in: the round as the question is asked."""
    r, _ = new_game(game, list(stacks), structure=no_limit(run_it))
    deal(r, holes)
    out = r.apply(("raise", 0, stacks[0]))
    out += act(r, "call 1", "call 2")
    return r, out


def answer(r, *kinds):
    """Each seat asked answers in turn: "run_it" or "run_once"."""
    out = []
    for kind in kinds:
        out += r.apply((kind, r.to_act))
    return out


def won(out):
    """Chips awarded per seat, and per runout: {runout: {seat: chips}}."""
    per, k = {}, 1
    for e in out:
        if e[0] == "runout":
            k = e[1]
        elif e[0] == "award":
            per.setdefault(k, {})
            per[k][e[2]] = per[k].get(e[2], 0) + e[3]
    return per


def test_no_question_at_a_table_that_deals_the_board_once_by_default():
    r, _ = all_in(1)
    assert r.phase == DEALING and r.expecting() == ("burn", -1)
    assert "run_it" not in r.legal_actions(1)
    assert no_limit().as_dict().get("run_it") is None      # the default is left out


def test_the_runouts_rules_are_loaded_only_at_a_table_that_offers_them():
    # felt.poker.runouts (felt.lazy): on a board its bytecode would be in the heap.
    lazy.forget(RUNOUTS_RULES)
    r, _ = all_in(1)
    feed(r)
    assert r.finished() and RUNOUTS_RULES not in sys.modules
    all_in(2)
    assert RUNOUTS_RULES in sys.modules


def test_everyone_all_in_each_player_still_in_is_asked_clockwise_from_the_button():
    r, out = all_in(2)
    assert r.phase == CHOOSING and r.expecting() is None
    assert of_kind(out, "to_act")[-1] == ("to_act", 1)
    assert r.legal_actions(1) == ["run_it", "run_once"]
    out = r.apply(("run_it", 1))
    assert of_kind(out, "action") == [("action", 1, "run_it", 0, False)]
    assert r.to_act == 2
    r.apply(("run_it", 2))
    assert r.to_act == 0 and r.runouts == 1       # not agreed until all have
    out = r.apply(("run_it", 0))
    assert r.runouts == 2 and r.phase == DEALING
    assert of_kind(out, "runout") == [("runout", 1, 2, [])]
    assert r.expecting() == ("burn", -1)


def test_while_asked_nothing_else_is_taken_and_a_refusal_changes_nothing():
    r, _ = all_in(2)
    assert refused(r, ("run_it", 2))                 # out of turn
    assert refused(r, ("run_it", 1, 2))              # no amount
    assert refused(r, ("card", "2c"))                # no card before the answers
    assert refused(r, ("check", 1))
    assert refused(r, ("decline", 1))                # that is the straddle's
    assert "out of turn" in r.why_not(("run_once", 0))


def test_two_runouts_burn_before_each_street_and_each_decides_half_of_each_pot():
    r, _ = all_in(2)
    answer(r, "run_it", "run_it", "run_it")
    out = deal(r, RUNOUTS[0])
    kinds = [e[1] for e in of_kind(out, "dealt")]
    assert kinds == ["burn", "board", "board", "board", "burn", "board", "burn", "board"]
    assert of_kind(out, "runout") == [("runout", 2, 2, [])]    # the board starts again
    assert r.board == [] and codes_of(r.boards[0]) == "2c 7h 9d 3s 4c"
    out = deal(r, RUNOUTS[1])
    assert r.finished()
    assert codes_of(r.burns) == "2d 3d 4d 5d 6d 7d"
    # 153 in the main pot: 77 to the first runout (the odd chip), 76 to the second;
    # the side pot of 98: 49 each.
    assert won(out) == {1: {1: 77, 2: 49}, 2: {0: 76 + 49}}
    assert r.stacks == [100 + 76 + 49, 77, 49]
    assert sum(r.stacks) == sum(STACKS)
    # Each runout's hands, shown first by seat 0, whose all-in raise before the flop
    # was the final wager (13:47-20.38(d)), then clockwise.
    assert [e[1] for e in of_kind(out, "show")] == [0, 1, 2] * 2


def test_three_runouts_each_decide_a_third_the_odd_chips_to_the_first():
    r, _ = all_in(3)
    answer(r, "run_it", "run_it", "run_it")
    out = deal(r, " ".join(RUNOUTS))
    assert [e[1:3] for e in of_kind(out, "runout")] == [(2, 3), (3, 3), (1, 3), (2, 3), (3, 3)]
    # The main pot 153: 51 a runout; the side pot 98: 34, 32, 32.
    assert won(out) == {1: {1: 51, 2: 34}, 2: {0: 51 + 32}, 3: {2: 51 + 32}}
    assert r.stacks == [100 + 83, 51, 117] and sum(r.stacks) == sum(STACKS)


def test_a_single_decline_deals_the_board_once():
    r, _ = all_in(3)
    out = answer(r, "run_it", "run_once")
    assert of_kind(out, "action")[-1] == ("action", 2, "run_once", 0, False)
    assert r.runouts == 1 and r.phase == DEALING and r.expecting() == ("burn", -1)
    out = deal(r, RUNOUTS[0])
    assert r.finished() and not of_kind(out, "runout")
    assert r.stacks == [100, 153, 98]


def test_asked_once_on_the_flop_every_runout_shares_it():
    # Three players all in on the flop: the runouts deal the turn and the river.
    r, _ = new_game("holdem", [100, 100, 100], structure=no_limit(2))
    deal(r, HOLES)
    act(r, "call 0", "call 1", "check 2")
    deal(r, "2d 2c 7h 9d")
    r.apply(("bet", 1, 98))
    act(r, "call 2", "call 0")
    assert r.phase == CHOOSING and r.to_act == 1
    answer(r, "run_it", "run_it", "run_it")
    out = deal(r, "3d 3s 4d 4c 5d Qh 6d 2h")
    assert [e[3] for e in of_kind(out, "runout")][:1] == [r.boards[0][:3]]
    assert codes_of(r.boards[0]) == "2c 7h 9d 3s 4c" and codes_of(r.board) == "2c 7h 9d Qh 2h"
    assert won(out) == {1: {1: 150}, 2: {0: 150}}
    assert r.stacks == [150, 150, 0]


def test_not_asked_while_two_players_can_still_bet():
    r, _ = new_game("holdem", [200, 51, 200], structure=no_limit(2))
    deal(r, HOLES)
    r.apply(("raise", 0, 51))
    act(r, "call 1", "call 2")
    assert r.phase == DEALING and r.expecting() == ("burn", -1)


def test_all_but_one_all_in_with_nothing_to_call_is_asked_too():
    # Seat 2 covers everyone and has chips left: nobody can bet, so it is asked too.
    r, out = all_in(2, stacks=[60, 51, 100])
    assert r.phase == CHOOSING and r.stacks[2] > 0
    answer(r, "run_it", "run_it", "run_it")
    deal(r, " ".join(RUNOUTS[:2]))
    assert r.finished() and sum(r.stacks) == 211


def test_the_count_is_what_the_stub_can_deal():
    # Omaha, eight players all in before the flop: 32 hole cards leave 20, two runouts'
    # worth (eight cards each), not three.
    r, _ = new_game("omaha", [50] * 8, structure=no_limit(3))
    feed(r)
    seat = r.to_act
    r.apply(("raise", seat, 50))
    while r.phase != CHOOSING:
        r.apply(("call", r.to_act))
    while r.phase == CHOOSING:
        r.apply(("run_it", r.to_act))
    assert r.runouts == 2
    feed(r)
    assert r.finished() and len(r.boards) == 1 and sum(r.stacks) == 400


def test_crazy_pineapple_asks_only_once_the_discards_are_made():
    r, _ = new_game("crazy-pineapple", [100, 100, 100], structure=no_limit(2))
    deal(r, "As Ks Qs Ad Kd Qd Ac Kc Qc")
    r.apply(("raise", 0, 100))
    act(r, "call 1", "call 2")
    assert r.phase == DEALING                       # the flop first: a discard follows it
    deal(r, "2d 2c 7h 9d")
    assert r.phase == CHOOSING and r.to_act == 1 and "discard" in r.legal_actions(1)
    for seat in (1, 2, 0):
        r.apply(("discard", seat, codes_of([r.hole[seat][2]])))
    assert r.phase == CHOOSING and r.legal_actions(1) == ["run_it", "run_once"]


def test_omaha_high_low_each_runout_splits_its_share_high_and_low():
    # 19:47-14.8(a)3 with 13:69F-14.10(l): each runout's share of the pot is split
    # between its high and its low hand.
    holes = "Ah Ks Qs 2h Kd Qd 3h Kc Qc 4h Kh Qh"    # seat 1: A-2-3-4
    r, _ = new_game("omaha-hilo8", [100, 100, 100], structure=no_limit(2))
    deal(r, holes)
    r.apply(("raise", 0, 100))
    act(r, "call 1", "call 2")
    answer(r, "run_it", "run_it", "run_it")
    # The first runout: kings high, seat 1's A-2-5-6-8 low; the second: kings full.
    out = deal(r, "2d 5c 6c 8d 3d Jc 4d Js 5d Th 9h Td 6d Ts 7d 9c")
    assert won(out) == {1: {2: 75, 1: 75}, 2: {2: 150}}
    assert [e[4] for e in of_kind(out, "award")] == ["high", "low", "all"]   # no low: all
    assert r.stacks == [0, 75, 225]


def test_a_hand_fouled_while_asked_leaves_the_others_answers_to_decide():
    # 13:47-20.38(j)3: the fouled hand's money back; the question goes on without it.
    r, _ = all_in(2)
    r.apply(("run_it", 1))
    out = r.apply(("foul", 2))
    assert of_kind(out, "refund") == [("refund", 2, 100)]
    assert r.to_act == 0
    r.apply(("run_it", 0))
    assert r.runouts == 2
    deal(r, " ".join(RUNOUTS[:2]))
    assert r.finished() and sum(r.stacks) == sum(STACKS)
