"""The posted tables: 19:47-27.11(a)2-3 exactly, the hold 'em bonus table, the sign."""

from felt import check
from felt.poker.cards import parse
from felt.banked import hands4 as H4
from felt.banked import paytables as P
from felt.banked.settings import Settings
from felt.banked.sign import lines as sign


def value(codes):
    return H4.best4([parse(c) for c in codes.split()])[0]


HANDS = ["9c 9d 9h 9s", "5h 6h 7h 8h", "Kc Kd Ks 2h", "2s 7s 9s Js", "Tc Jd Qh Ks",
         "Ac Ad 3h 3s", "Ac Ad 7h 2s"]


def test_aces_up_tables_I_to_VII_are_the_regulation_odds():
    # 19:47-27.11(a)3, column by column.
    want = {"I": [50, 40, 9, 6, 4, 2, 1], "II": [50, 40, 7, 6, 5, 2, 1],
            "III": [50, 30, 9, 6, 4, 2, 1], "IV": [50, 30, 7, 6, 5, 2, 1],
            "V": [50, 40, 8, 5, 4, 3, 1], "VI": [50, 40, 8, 6, 4, 2, 1],
            "VII": [50, 40, 7, 5, 4, 3, 1]}
    for table in P.ACES_UP_TABLES:
        assert [P.aces_up_odds(table, value(h)) for h in HANDS] == want[table]


def test_aces_up_loses_below_a_pair_of_aces():
    # 19:47-27.11(a)3: a pair of aces is the lowest qualifying hand.
    assert P.aces_up_odds("I", value("Kc Kd 7h 2s")) == 0
    assert P.aces_up_odds("I", value("Ac Kd 7h 2s")) == 0
    assert P.aces_up_odds("I", value("Ac Ad Kh 2s")) == 1


def test_ante_bonus_is_for_three_of_a_kind_or_better():
    # 19:47-27.11(a)2: four of a kind 25, straight flush 20, three of a kind 2 to 1.
    assert [P.ante_bonus_odds(value(h)) for h in HANDS] == [25, 20, 2, 0, 0, 0, 0]


def test_holdem_bonus_rows_on_the_players_two_cards():
    def odds(codes, dealer=None):
        a, b = [parse(c) for c in codes.split()]
        d = [parse(c) for c in dealer.split()] if dealer else None
        key = P.bonus_hand(a, b, d)
        return P.bonus_odds("standard", key) if key else 0
    assert odds("Ac Ad", "Ah As") == 1000
    assert odds("Ac Ad", "Kh As") == 30
    assert odds("Ac Kc") == 25
    assert odds("Ad Qd") == odds("Js As") == 20
    assert odds("Ac Kd") == 15
    assert odds("Kc Kd") == odds("Jc Jh") == 10
    assert odds("Ac Qd") == odds("Ac Jd") == 5
    assert odds("2c 2d") == odds("Tc Td") == 3
    assert odds("Ac Td") == odds("Kc Qc") == 0


def test_the_sign_names_the_aces_up_table_in_use():
    lines = sign(Settings("four_card", aces_up="V"))
    assert lines[0] == "Four Card Poker"
    assert "table V (19:47-27.11(a)3)" in lines[3]
    assert "two pairs 3 to 1" in lines[3]
    lines = sign(Settings("holdem_bonus", ante_pays_from="straight"))
    assert "straight or better" in lines[2]
    assert "standard table" in lines[3]


def test_settings_refuse_tables_the_rules_do_not_have():
    for kwargs in ({"aces_up": "VIII"}, {"settle_order": 3}, {"game": "pai_gow"},
                   {"ante_pays_from": "pair"}, {"bonus_table": "x"}):
        try:
            Settings(**kwargs)
        except check.Refused:
            continue
        raise AssertionError("accepted %r" % (kwargs,))
