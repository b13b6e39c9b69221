"""Betting structures (issue item 3): fixed limit with the bring-in and its completion,
spread limit (19:47-8.2), pot limit, no limit; the raise cap (13:47-20.39, rules
README); short all-in raises (rules README); the oversized chip and check-raise (the
paragraphs (i) and (j) before 19:47-14.8); out-of-range amounts.  Blinds 1/2 with the
button on seat 0 unless said: seat 1 posts 1, seat 2 posts 2."""

from felt.poker.round import CHOOSING
from felt.poker.structure import Structure, ConfigError
from felt.poker.variants import every
VARIANTS = every()
from firmware_helpers import deal, act, refused, of_kind
from variant_helpers import new_game, blinds_limit, feed, passive, codes_of

HOLES4 = "2c 3c 4c 5c 2d 3d 4d 5d"      # four seats, left of the button first
HOLES3 = "2c 3c 4c 2d 3d 4d"
FLOP = "9s Ah Kh Qd"
STUD3 = "2c 2d 2h 3c 3d 3h 9s 4c Kh"    # stud, three seats: seat 1 brings in


def spread(low=2, high=10, cap=4):
    return Structure("spread", low, high, (1, 2), 0, cap)


def pot_limit():
    return Structure("pot", 2, 0, (1, 2), 0, 0)


def no_limit():
    return Structure("no", 2, 0, (1, 2), 0, 0)


def to_flop(r, holes=HOLES3, flop=FLOP):
    """Deal the hole cards, everyone calls the blinds, deal the flop."""
    deal(r, holes)
    passive(r)
    deal(r, flop)


def amount(out):
    return of_kind(out, "action")[0][3]


# ----- fixed limit --------------------------------------------------------------------

def test_fixed_limit_bets_the_small_then_the_big_bet_per_the_variants_big_list():
    # Issue item 3: every game's rounds use the small bet (2) or the big bet (4) as its
    # row in variants.py says; the first wager of each betting round is one unit.
    for v in VARIANTS:
        r, _ = new_game(v.name, [100] * 3)
        units = []
        while not r.finished():
            if r.expecting() is not None:
                feed(r)
            elif r.phase == CHOOSING:
                s = r.to_act
                if "discard" in r.legal_actions(s):
                    r.apply(("discard", s, codes_of(r.hole[s][-1:])))
                else:
                    r.apply(("draw", s, ""))
            else:
                s = r.to_act
                before = r.level
                kind = "bet" if r.why_not(("bet", s)) is None else "raise"
                r.apply((kind, s))
                units.append(r.level - before)
                passive(r)
        want = [4 if big else 2 for big in v.big]
        assert units == want, "%s: %r, want %r" % (v.name, units, want)


def test_fixed_limit_bring_in_then_completion_to_the_small_bet_14_9_d_e():
    # 19:47-14.9(d)-(e): the forced bet is the posted bring-in; the next wager completes
    # it to the small bet, the one after raises by the small bet.
    r, _ = new_game("stud7", [100] * 3)
    deal(r, STUD3)
    assert amount(act(r, "bring_in 1")) == 1 and r.level == 1
    assert amount(act(r, "bet 2")) == 2 and r.level == 2
    assert amount(act(r, "raise 0")) == 4 and r.level == 4
    # The bring-in is below the small bet it completes to.
    for bad in (2, 3):
        try:
            Structure("fixed", 2, 4, (), 1, 4, bad)
            assert False, "a bring-in of %d accepted" % bad
        except ConfigError:
            pass


def test_fixed_limit_raise_cap_counts_the_completion_and_three_raises():
    # 13:47-20.39, rules README: a bet and three raises unless posted otherwise.
    r, _ = new_game("stud7", [100] * 3)
    deal(r, STUD3)
    act(r, "bring_in 1", "bet 2", "raise 0", "raise 1", "raise 2")
    assert r.level == 8
    assert "raise cap" in r.why_not(("raise", 0))
    assert r.legal_actions(0) == ["fold", "call"]


def test_no_raise_cap_heads_up():
    # Rules README: no cap once only two players remain in the betting.
    r, _ = new_game("stud7", [100] * 2)
    deal(r, "2c 2d 3c 3d 9s 4c")                         # seat 1 brings in
    act(r, "bring_in 1", "bet 0", "raise 1", "raise 0", "raise 1", "raise 0")
    assert r.level == 10 and "raise" in r.legal_actions(1)     # five bets


# ----- spread limit -------------------------------------------------------------------

def test_spread_limit_any_wager_between_the_posted_minimum_and_maximum_8_2():
    # 19:47-8.2: the posted minimum and maximum wager; a bet may be any amount between.
    r, _ = new_game("holdem", [100] * 3, structure=spread(2, 10))
    to_flop(r)
    assert r.to_act == 1 and r.raise_bounds(1) == (2, 10)
    for bad in (1, 11):
        assert refused(r, ("bet", 1, bad))
    for good in (2, 7, 10):
        assert r.why_not(("bet", 1, good)) is None
    assert amount(r.apply(("bet", 1, 7))) == 7


def test_spread_limit_a_raise_is_at_least_the_previous_raise():
    # Structure: a raise at least matches the last bet or raise, at most the maximum.
    r, _ = new_game("holdem", [100] * 3, structure=spread(2, 10))
    to_flop(r)
    r.apply(("bet", 1, 6))
    assert r.raise_bounds(2) == (12, 16)
    assert refused(r, ("raise", 2, 11)) and refused(r, ("raise", 2, 17))
    r.apply(("raise", 2, 15))                              # a raise of 9
    assert r.raise_bounds(0) == (24, 25)


# ----- pot limit and no limit ---------------------------------------------------------

def test_pot_limit_the_largest_raise_is_the_pot_after_the_call():
    r, _ = new_game("holdem", [100] * 4, structure=pot_limit())
    deal(r, HOLES4)
    # Seat 3: pot 3, calls 2 (pot 5) and raises 5: to 7.
    assert r.raise_bounds(3) == (4, 7)
    assert refused(r, ("raise", 3, 8))
    r.apply(("raise", 3, 7))
    # Seat 0: pot 10, calls 7 (pot 17) and raises 17: to 24; at least a raise of 5.
    assert r.raise_bounds(0) == (12, 24)
    assert refused(r, ("raise", 0, 25)) and refused(r, ("raise", 0, 11))
    r.apply(("raise", 0, 24))
    act(r, "fold 1", "fold 2", "call 3")
    deal(r, FLOP)
    # After the flop a bet is at most the pot.
    assert r.pot() == 51 and r.raise_bounds(3) == (2, 51)


def test_no_limit_any_raise_up_to_all_in_at_least_the_last_raise():
    r, _ = new_game("holdem", [100, 100, 100, 50], structure=no_limit())
    deal(r, HOLES4)
    assert r.raise_bounds(3) == (4, 50)
    r.apply(("raise", 3, 10))                              # a raise of 8
    assert r.raise_bounds(0) == (18, 100)
    assert refused(r, ("raise", 0, 17))
    out = r.apply(("raise", 0, 100))                       # all in
    assert of_kind(out, "action") == [("action", 0, "raise", 100, True)]


def test_no_limit_all_in_for_less_than_a_full_raise_is_allowed():
    r, _ = new_game("holdem", [15, 100, 100, 100], structure=no_limit())
    deal(r, HOLES4)
    r.apply(("raise", 3, 10))
    assert r.raise_bounds(0) == (15, 15)                   # only all in: short of 18
    assert r.why_not(("raise", 0, 15)) is None
    out = r.apply(("raise", 0))
    assert of_kind(out, "action") == [("action", 0, "raise", 15, True)]


def test_a_short_all_in_raise_does_not_reopen_the_betting_to_players_who_acted():
    # Rules README.  Flop: seat 1 bets 10, seat 2 calls, seat 3 is all-in to 13 (a full
    # raise would be to 20).  Seat 0 has not acted and may raise; seats 1 and 2 may not.
    r, _ = new_game("holdem", [100, 100, 100, 15], structure=no_limit())
    to_flop(r, HOLES4)
    r.apply(("bet", 1, 10))
    act(r, "call 2")
    out = r.apply(("raise", 3, 13))
    assert of_kind(out, "action") == [("action", 3, "raise", 13, True)]
    assert "raise" in r.legal_actions(0)
    act(r, "call 0")
    assert r.to_act == 1 and r.legal_actions(1) == ["fold", "call"]
    assert "not reopened" in r.why_not(("raise", 1, 30))
    act(r, "call 1")
    assert r.legal_actions(2) == ["fold", "call"]


def test_after_a_short_all_in_the_least_raise_is_the_all_in_and_the_last_full_raise():
    # Issue 36: no limit, seat 3 raises to 10 (a raise of 8), seat 0 is all in to 15:
    # seat 1's least raise is 15 + 8, not the last full level's 10 + 8.  Seat 2's all
    # in to 20 is short of that: no full raise (the last full level stays 10, the cap's
    # count stays) and the least raise is 20 + 8.  Seat 3 faces 10 more since it raised,
    # a full raise's worth of short all-ins, and may raise; seat 1, 5 more, may not.
    r, _ = new_game("holdem", [15, 100, 20, 100], structure=no_limit())
    deal(r, HOLES4)
    r.apply(("raise", 3, 10))
    r.apply(("raise", 0))
    assert (r.level, r.full) == (15, 10) and r.raise_bounds(1) == (23, 100)
    assert refused(r, ("raise", 1, 22))
    act(r, "call 1")
    bets = r.bets
    out = r.apply(("raise", 2, 20))
    assert of_kind(out, "action") == [("action", 2, "raise", 18, True)]
    assert (r.level, r.full, r.bets) == (20, 10, bets)
    assert r.to_act == 3 and r.raise_bounds(3) == (28, 100) and "raise" in r.legal_actions(3)
    act(r, "call 3")
    assert r.to_act == 1 and r.legal_actions(1) == ["fold", "call"]


def test_the_least_raise_after_a_short_all_in_in_spread_and_pot_limit():
    # Issue 36, as in no limit.  Spread 2-10: seat 1 bets 6, seat 2 is all in to 8; the
    # least raise is 8 + 6.  Pot limit: seat 3 raises to 7 (5), seat 0 all in to 9.
    r, _ = new_game("holdem", [100, 100, 10, 100], structure=spread(2, 10))
    to_flop(r, HOLES4)
    r.apply(("bet", 1, 6))
    r.apply(("raise", 2))
    assert (r.level, r.full) == (8, 6) and r.raise_bounds(3) == (14, 18)
    r, _ = new_game("holdem", [9, 100, 100, 100], structure=pot_limit())
    deal(r, HOLES4)
    r.apply(("raise", 3, 7))
    r.apply(("raise", 0))
    assert (r.level, r.full) == (9, 7) and r.raise_bounds(1)[0] == 14


def test_fixed_limit_completes_a_short_all_in_raise():
    # Fixed limit keeps the limit games' rule: after a short all-in raise the next raise
    # completes it, to the last full bet and one unit (4 after an all-in to 3, not 5),
    # a full raise that counts toward the cap.
    r, _ = new_game("holdem", [3, 100, 100, 100])
    deal(r, HOLES4)
    act(r, "call 3", "raise 0")
    assert (r.level, r.full) == (3, 2) and r.raise_bounds(1) == (4, 4)
    bets = r.bets
    act(r, "raise 1")
    assert (r.level, r.full, r.bets) == (4, 4, bets + 1)


# ----- the oversized chip and check-raise ----------------------------------------------

def test_a_single_chip_larger_than_the_call_is_a_call_unless_a_raise_is_announced_i():
    # The paragraph (i) before 19:47-14.8: the player awaits change from the dealer.
    r, _ = new_game("holdem", [100] * 3)
    deal(r, HOLES3)
    assert r.to_act == 0
    assert r.chip_event(0, 25) == ("call", 0)
    assert r.chip_event(0, 25, announced=True) == ("raise", 0)
    out = r.apply(r.chip_event(0, 25))
    assert amount(out) == 2 and r.stacks[0] == 98
    # No limit: an announced raise is the chip's value, within the bounds.
    r, _ = new_game("holdem", [100] * 3, structure=no_limit())
    deal(r, HOLES3)
    assert r.chip_event(0, 25) == ("call", 0)
    assert r.chip_event(0, 25, announced=True) == ("raise", 0, 25)
    assert r.chip_event(0, 500, announced=True) == ("raise", 0, 100)
    # Stud: a chip facing the bring-in calls the bring-in.
    r, _ = new_game("stud7", [100] * 3)
    deal(r, STUD3)
    act(r, "bring_in 1")
    assert r.chip_event(2, 5) == ("call", 2)


def test_check_raise_is_allowed_unless_posted_otherwise_j():
    # The paragraph (j) before 19:47-14.8.
    r, _ = new_game("holdem", [100] * 3)
    to_flop(r)
    act(r, "check 1", "bet 2", "call 0")
    assert "raise" in r.legal_actions(1)
    r, _ = new_game("holdem", [100] * 3, structure=blinds_limit(check_raise=False))
    to_flop(r)
    act(r, "check 1", "bet 2", "raise 0")                 # seat 0 had not checked
    assert r.level == 4
    assert refused(r, ("raise", 1))
    assert "no check-raise" in r.why_not(("raise", 1))
    assert r.legal_actions(1) == ["fold", "call"]


# ----- amounts out of range ----------------------------------------------------------

def test_amounts_out_of_range_are_refused_with_a_reason_and_no_state_change():
    r, _ = new_game("holdem", [100, 100, 100, 50], structure=no_limit())
    deal(r, HOLES4)
    for bad in (3, 2, 0, -5, 51):
        assert refused(r, ("raise", 3, bad))
        assert "refused: the no limit may go to 4..50" in r.why_not(("raise", 3, bad))
    for bad in ("10", 10.0, True, None):
        assert refused(r, ("raise", 3, bad))
        assert "whole number" in r.why_not(("raise", 3, bad))
    assert refused(r, ("call", 3, 2))
    assert "only a bet or a raise" in r.why_not(("call", 3, 2))
    # Fixed limit: only the one amount.
    r, _ = new_game("holdem", [100] * 3)
    to_flop(r)
    for bad in (1, 3, 4):
        assert refused(r, ("bet", 1, bad))
        assert "fixed limit may go to 2..2" in r.why_not(("bet", 1, bad))
    assert r.why_not(("bet", 1, 2)) is None
