"""host_tools.banked_edge: the Four Card Poker house edge measured through the rules
core, on a few seeded hands (the benchmark runs 100,000)."""

from host_tools.banked_edge import four_card_edge, strategy, ACES_UP_EXACT
from felt.banked import hands4 as H4
from felt.poker.cards import parse


def test_the_simple_strategy_plays_3x_from_tens_1x_from_threes_else_folds():
    def times(codes):
        return strategy(H4.best4([parse(c) for c in codes.split()])[0])
    assert times("Tc Td 2h 5s 8c") == 3
    assert times("2c 3c 4c 5c 7h") == 3          # any straight or better
    assert times("9c 9d 2h 5s 8c") == 1
    assert times("3c 3d 2h 5s 8c") == 1
    assert times("2c 2d 3h 5s 8c") == 0
    assert times("Ac Kd 9h 5s 8c") == 0


def test_a_short_run_is_seeded_and_reports_both_edges():
    a = four_card_edge(hands=300, seed=7)
    assert a == dict(four_card_edge(hands=300, seed=7), seconds=a["seconds"])
    assert a["hands"] == 300 and a["aces_up_expected"] == ACES_UP_EXACT["I"]
    for k in ("ante_play_edge", "aces_up_edge", "ante_play_se", "aces_up_se"):
        assert -100 < a[k] < 100
