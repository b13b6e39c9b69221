"""A round's phases (felt.poker.phases), one definition for both kinds of round: the
controller lights DEALING and the refusals name the phase the same way for either."""

from felt.banked.banked_round import DEALER
from felt.poker import phases
from felt.poker.phases import DEALING, BETTING, COMPLETE
from banked_helpers import four_card, feed
from firmware_helpers import new_round, deal, act


def test_a_poker_round_deals_bets_and_completes_by_the_one_definition():
    r, _ = new_round([100, 100])
    assert r.phase == DEALING and r.dealing()
    deal(r, "As Kd Qh Jc")
    assert r.phase == BETTING
    act(r, "fold %d" % r.to_act)
    assert r.phase == COMPLETE and r.finished()


def test_a_banked_round_deals_decides_and_completes_by_the_one_definition():
    r, _ = four_card([(10, 0)])
    assert r.phase == DEALING
    feed(r, {0: "Ac Ad 7h 2s 9c", DEALER: "Kc Kd 5h 4s 8c 3d"})
    assert r.phase == BETTING          # the players decide
    r.apply(("play", 0, 1))
    assert r.phase == COMPLETE and r.finished()


def test_the_phases_are_four_distinct_numbers_refusals_can_index():
    values = [phases.DEALING, phases.BETTING, phases.CHOOSING, phases.COMPLETE]
    assert sorted(values) == [0, 1, 2, 3]
