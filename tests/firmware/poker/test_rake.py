"""The rake, 13:47-20.37: a percentage of each betting round's wagers taken after that
round ((a)4i(1)-(2)), at most 10 %; incremental amounts as the pot reaches posted
levels ((a)4ii); the uncalled final bet left out ((b)); the posted maximum; nothing
taken once the pot is awarded ((c)); every chip accounted for, the rake included.

Unless said otherwise: three seats of 200, the button on seat 2, blinds 5 and 10
(seat 0, seat 1), fixed limit 10/20, hold 'em."""

from felt.poker.cards import parse
from felt.poker.rake import Rake, from_dict as rake_from_dict
from felt.poker.posted import MAX_PERCENT
from felt.poker.round import Round
from felt.poker.structure import ConfigError, Structure, FixedLimit
from felt.poker.variants import get
from firmware_helpers import deal, act, refused, of_kind

HOLES = "As Kc 2c Ah Kd 7d"        # seats 0, 1, 2, twice round: seat 0 holds aces
FLOP = "3h 9s 8s 4d"               # burn, then three
TURN = "3c Jh"
RIVER = "3d 5c"


def new_round(rake, stacks=None, structure=None, button=2, game="holdem"):
    stacks = stacks or [200, 200, 200]
    r = Round(stacks, button, structure or FixedLimit(10, 20, (5, 10)), get(game), rake)
    return r, r.start()


def chips(r):
    """Every chip: in a stack, in the pot, or taken by the rake."""
    return sum(r.stacks) + r.pot() + r.raked


def rakes(out):
    return [e[1] for e in of_kind(out, "rake")]


def preflop_all_call(r):
    return act(r, "call 2", "call 0", "check 1")      # 30 in: 10 from each seat


def play_to_the_end(r):
    """Deal what is left of the board (turn, river), everyone checking; the effects."""
    out = []
    cards = [c for c in (TURN + " " + RIVER).split() if not r.seen[parse(c)]]
    while not r.finished():
        if r.expecting() is not None:
            out += r.apply(("card", cards.pop(0)))
        elif r.to_act >= 0:
            out += act(r, "check %d" % r.to_act)
        else:
            raise AssertionError("the round waits for nothing")
    return out


# ----- percentage rake: after each betting round, of that round's wagers ---------------

def test_percentage_rake_is_taken_after_each_betting_round_from_its_wagers():
    # (a)4i(1)-(2): 10 % of the sums bet in the betting round, extracted from the pot
    # at the conclusion of that betting round, before the next cards.
    r, _ = new_round(Rake("percent", 10))
    deal(r, HOLES)
    out = preflop_all_call(r)
    assert rakes(out) == [3]                           # 10 % of 30
    assert out.index(("rake", 3)) < out.index(("need", "burn", -1))
    assert r.raked == 3 and r.pot() == 27
    deal(r, FLOP)
    out = act(r, "bet 0", "call 1", "call 2")
    assert rakes(out) == [3]                           # 10 % of this round's 30, not of 60
    assert r.raked == 6 and r.pot() == 54
    deal(r, TURN)
    out = act(r, "bet 0", "raise 1", "fold 2", "call 0")
    assert rakes(out) == [8]                           # 10 % of 20 + 40 + 20
    assert r.raked == 14
    deal(r, RIVER)
    out = act(r, "check 0", "check 1")                 # nothing bet: nothing raked
    assert rakes(out) == []
    assert r.finished() and r.raked == 14
    awards = of_kind(out, "award")
    assert [(e[2], e[3]) for e in awards] == [(0, 140 - 14)]
    assert sum(r.stacks) + r.raked == 600


def test_percentage_rake_rounds_down_and_may_be_less_than_ten():
    # "not to exceed 10 percent": 5 % of 30 is 1.5, so 1 chip.
    r, _ = new_round(Rake("percent", 5))
    deal(r, HOLES)
    assert rakes(preflop_all_call(r)) == [1]


def test_antes_and_blinds_are_wagers_of_the_first_betting_round():
    # 13:47-20.2 "pot": the total anted and bet.  Ante 5 from three seats, blinds 5/10,
    # all call: 15 + 30 in the first betting round.
    r, _ = new_round(Rake("percent", 10), structure=FixedLimit(10, 20, (5, 10), ante=5))
    deal(r, HOLES)
    assert rakes(preflop_all_call(r)) == [4]           # 10 % of 45


def test_percentage_rake_in_stud_after_third_street():
    # Seven-card stud: antes 5, bring-in 5, completed to 10 and called.
    r, _ = new_round(Rake("percent", 10), stacks=[200, 200], game="stud7",
                     structure=Structure("fixed", 10, 20, (), 5, 4, 5))
    deal(r, "As Kc Ah Kd 2c 9d")                       # seat 1 shows the 9, seat 0 the 2
    assert r.to_act == 0
    out = act(r, "bring_in 0", "bet 1", "call 0")
    assert rakes(out) == [3]                           # 10 % of 10 + 5 + 5 + 10
    assert out.index(("rake", 3)) < out.index(("need", "burn", -1))


def test_a_rake_above_ten_percent_is_refused_citing_the_section():
    assert MAX_PERCENT == 10
    Rake("percent", 10)
    for make in (lambda: Rake("percent", 11),
                 lambda: rake_from_dict({"method": "percent", "percent": 25}),
                 lambda: Rake("incremental", 11, [(20, 1)])):
        try:
            make()
        except ConfigError as e:
            assert "13:47-20.37(a)4i(1)" in str(e), str(e)
        else:
            raise AssertionError("a rake above 10 % was accepted")


def test_rake_settings_that_make_no_sense_are_refused():
    for d in ({"method": "percent"}, {"method": "percent", "percent": -1},
              {"method": "incremental"}, {"method": "incremental", "levels": [[50, 1], [20, 1]]},
              {"method": "incremental", "levels": [[20, 0]]}, {"method": "skim"},
              {"method": "percent", "percent": 5, "colour": "red"},
              {"method": "percent", "percent": True}):
        try:
            rake_from_dict(d)
        except ConfigError:
            pass
        else:
            raise AssertionError("accepted %r" % (d,))


# ----- the uncalled final bet (b) -------------------------------------------------------

def test_an_uncalled_final_bet_is_not_raked():
    # (b): seat 0's flop bet nobody calls goes back and is not part of the pot raked.
    r, _ = new_round(Rake("percent", 10))
    deal(r, HOLES)
    preflop_all_call(r)
    deal(r, FLOP)
    out = act(r, "bet 0", "fold 1", "fold 2")
    assert ("return", 0, 10) in out
    assert rakes(out) == []
    assert r.raked == 3
    assert [(e[2], e[3]) for e in of_kind(out, "award")] == [(0, 27)]
    assert sum(r.stacks) + r.raked == 600


def test_only_the_uncalled_part_of_a_raise_is_left_out():
    # Seat 0 bets 10, seat 1 raises to 20, both others fold: 10 of seat 1's raise is
    # uncalled; the 20 called is raked.
    r, _ = new_round(Rake("percent", 10))
    deal(r, HOLES)
    preflop_all_call(r)
    deal(r, FLOP)
    out = act(r, "bet 0", "raise 1", "fold 2", "fold 0")
    assert ("return", 1, 10) in out
    assert rakes(out) == [2]
    assert r.raked == 5
    assert sum(r.stacks) + r.raked == 600


def test_uncalled_excess_over_an_all_in_call_is_not_raked():
    # (b) with an all-in: seat 1 (1000) moves all in, seat 0 (30) calls all in for 28.
    # Only 30 of seat 1's 1000 is called; the 970 goes back and is no part of the pot
    # for the rake: 10 % of the 60 called is 6.
    r, _ = new_round(Rake("percent", 10), stacks=[30, 1000], button=0,
                     structure=Structure("no", 2, 0, (1, 2), cap=0))
    out = deal(r, "As Kd Ah Kc")
    out += r.apply(("raise", 1, 1000))
    out += act(r, "call 0")
    out += deal(r, "2c 3c 4c 5h 6c 7d 8s 9s")
    assert r.finished()
    assert ("return", 1, 970) in out
    assert r.raked <= 6, "raked %d of a called pot of 60 (%r)" % (r.raked, rakes(out))
    assert sum(r.stacks) + r.raked == 1030


def test_uncalled_excess_over_an_all_in_call_counts_for_no_rake_level():
    # (b) for the incremental rake: the pot actually contested is 60, below the 500
    # level, so only the 20 level's chip is taken, and never more than the pot.
    r, _ = new_round(Rake("incremental", levels=[(20, 1), (500, 100)]), stacks=[30, 1000],
                     button=0, structure=Structure("no", 2, 0, (1, 2), cap=0))
    deal(r, "As Kd Ah Kc")
    r.apply(("raise", 1, 1000))
    act(r, "call 0")
    deal(r, "2c 3c 4c 5h 6c 7d 8s 9s")
    assert r.finished()
    assert r.raked == 1, "raked %d of a called pot of 60" % r.raked
    assert sum(r.stacks) + r.raked == 1030


# ----- incremental rake (a)4ii ----------------------------------------------------------

LEVELS = [(20, 1), (50, 1), (100, 2)]


def test_incremental_rake_takes_each_amount_as_the_pot_reaches_its_level():
    r, _ = new_round(Rake("incremental", levels=LEVELS))
    deal(r, HOLES)
    out = preflop_all_call(r)                          # pot 30: the 20 level
    assert rakes(out) == [1]
    assert out.index(("rake", 1)) < out.index(("need", "burn", -1))
    deal(r, FLOP)
    assert rakes(act(r, "bet 0", "call 1", "call 2")) == [1]          # pot 60: 50 level
    deal(r, TURN)
    assert rakes(act(r, "check 0", "check 1", "check 2")) == []       # still 60
    deal(r, RIVER)
    out = act(r, "bet 0", "call 1", "call 2")                          # pot 120: 100 level
    assert rakes(out) == [2]
    assert r.finished() and r.raked == 4
    assert sum([e[3] for e in of_kind(out, "award")]) == 120 - 4
    assert sum(r.stacks) + r.raked == 600


def test_incremental_rake_levels_jumped_at_once_are_all_taken():
    r, _ = new_round(Rake("incremental", levels=LEVELS), structure=Structure(
        "no", 10, 0, (5, 10), cap=0))
    deal(r, HOLES)
    out = r.apply(("raise", 2, 40))
    out += act(r, "call 0", "call 1")                  # pot 120
    assert rakes(out) == [4]


def test_incremental_rake_ignores_an_uncalled_bet():
    # (b): pot 30 after the flop bet nobody calls is returned: the 40 level is not met.
    r, _ = new_round(Rake("incremental", levels=[(40, 5)]))
    deal(r, HOLES)
    preflop_all_call(r)
    deal(r, FLOP)
    act(r, "bet 0", "fold 1", "fold 2")
    assert r.finished() and r.raked == 0


# ----- the posted maximum ----------------------------------------------------------------

def test_percentage_rake_stops_at_the_posted_maximum_for_the_round():
    r, _ = new_round(Rake("percent", 10, maximum=5))
    deal(r, HOLES)
    assert rakes(preflop_all_call(r)) == [3]
    deal(r, FLOP)
    assert rakes(act(r, "bet 0", "call 1", "call 2")) == [2]   # 3 more would pass 5
    deal(r, TURN)
    assert rakes(act(r, "bet 0", "call 1", "call 2")) == []
    play_to_the_end(r)
    assert r.finished() and r.raked == 5
    assert sum(r.stacks) + r.raked == 600


def test_incremental_rake_stops_at_the_posted_maximum():
    r, _ = new_round(Rake("incremental", levels=LEVELS, maximum=3))
    deal(r, HOLES)
    preflop_all_call(r)
    deal(r, FLOP)
    act(r, "bet 0", "call 1", "call 2")
    deal(r, TURN)
    act(r, "bet 0", "call 1", "call 2")                # pot 120: 4 due, 3 posted
    play_to_the_end(r)
    assert r.finished() and r.raked == 3


def test_the_maximum_is_per_round_of_play_not_per_session():
    for _ in range(2):
        r, _ = new_round(Rake("percent", 10, maximum=3))
        deal(r, HOLES)
        assert rakes(preflop_all_call(r)) == [3]


def test_rake_due_arithmetic():
    p = Rake("percent", 10, maximum=25)
    assert p.due(100, 100, 0) == 10
    assert p.due(100, 200, 10) == 10
    assert p.due(300, 500, 20) == 5                    # the maximum
    assert p.due(9, 9, 0) == 0
    i = Rake("incremental", levels=LEVELS)
    assert i.due(0, 19, 0) == 0
    assert i.due(0, 20, 0) == 1
    assert i.due(0, 60, 1) == 1
    assert i.due(0, 1000, 4) == 0
    assert Rake().due(1000, 1000, 0) == 0
    assert Rake("time", hourly=60).due(1000, 1000, 0) == 0


# ----- no rake once the pot is awarded (c); nothing from the pot for the other methods -

def test_nothing_is_raked_once_the_pot_is_awarded():
    r, _ = new_round(Rake("percent", 10))
    out = deal(r, HOLES)
    out += preflop_all_call(r)
    out += deal(r, FLOP)
    out += act(r, "bet 0", "call 1", "call 2")
    out += play_to_the_end(r)
    assert r.finished()
    kinds = [e[0] for e in out]
    last_rake = len(kinds) - 1 - kinds[::-1].index("rake")
    assert last_rake < kinds.index("award")
    raked, stacks = r.raked, list(r.stacks)
    for event in (("check", 0), ("bet", 1), ("call", 2), ("card", "Qs"), ("fold", 0)):
        assert refused(r, event)
    assert r.raked == raked and r.stacks == stacks


def test_no_rake_and_time_charges_take_nothing_from_the_pot():
    for rake in (None, Rake(), Rake("time", hourly=60, every=20)):
        r, _ = new_round(rake)
        deal(r, HOLES)
        out = preflop_all_call(r)
        deal(r, FLOP)
        out += act(r, "bet 0", "call 1", "call 2")
        out += play_to_the_end(r)
        assert r.finished() and r.raked == 0 and rakes(out) == []
        assert sum(r.stacks) == 600


# ----- conservation -------------------------------------------------------------------------

def test_rake_is_part_of_chip_conservation_at_every_step():
    r, out = new_round(Rake("percent", 10))
    assert chips(r) == 600
    steps = [("card", c) for c in HOLES.split()] + [
        ("call", 2), ("call", 0), ("check", 1)] + [("card", c) for c in FLOP.split()] + [
        ("bet", 0), ("raise", 1), ("call", 2), ("call", 0)] + [
        ("card", c) for c in TURN.split()] + [("bet", 0), ("fold", 1), ("call", 2)] + [
        ("card", c) for c in RIVER.split()] + [("bet", 0), ("raise", 2), ("call", 0)]
    for event in steps:
        out += r.apply(event)
        if not r.finished():
            assert chips(r) == 600, event
    assert r.finished()
    assert sum(r.stacks) + r.raked == 600
    assert r.raked == sum(rakes(out))
    assert sum([e[3] for e in of_kind(out, "award")]) == sum(r.total) - r.raked


def test_side_pots_the_rake_comes_out_of_the_main_pot_first():
    # Seats of 20, 50 and 50 all in before the flop: 120 bet, 12 raked; the main pot
    # (60) pays 48, the side pot (60) pays 60.
    r, _ = new_round(Rake("percent", 10), stacks=[20, 50, 50],
                     structure=Structure("no", 10, 0, (5, 10), cap=0))
    deal(r, HOLES)
    out = r.apply(("raise", 2, 50))
    out += act(r, "call 0", "call 1")
    out += deal(r, FLOP + " " + TURN + " " + RIVER)
    assert r.finished() and r.raked == 12
    by_pot = {}
    for e in of_kind(out, "award"):
        by_pot[e[1]] = by_pot.get(e[1], 0) + e[3]
    assert by_pot == {0: 48, 1: 60}
    assert sum(r.stacks) + r.raked == 120
