"""Inputs are judged the same on CPython and MicroPython (this file runs on both): a
bool is never a number, refusals are sentences of ours, never an exception's text, and
never depend on the order of a dict's keys."""

from felt import check
from felt.table.controller import Controller
from felt.table.journal import Journal

from table_fakes import BOARD, FakeHal, configured

CFG = {"seats": 2, "stacks": [100, 100], "small_bet": 2, "big_bet": 4, "blinds": [1, 2]}


def _refusal(f, *args):
    try:
        f(*args)
    except check.Refused as e:
        return str(e)
    assert False, "accepted"


def test_booleans_are_not_whole_numbers():
    assert check.is_whole(0) and check.is_whole(-3)
    assert not check.is_whole(True) and not check.is_whole(False)
    assert _refusal(check.whole, True, "minutes") == "minutes must be a whole number, not true"


def test_values_are_shown_as_the_link_writes_them():
    assert check.shown({"b": 1, "a": [True, None, "x"]}) == '{"a":[true,null,"x"],"b":1}'
    assert check.shown(1.5) == "a value of the wrong type"
    assert check.shown("x" * 50) == '"' + "x" * 36 + "..."


def test_a_boolean_clock_is_refused():
    # On CPython True is an int: it used to be taken as minute 1.
    cfg = dict(CFG)
    cfg["rake"] = {"method": "time", "hourly": 6, "every": 30}
    ctl, hal = configured(cfg)
    assert ctl.handle("clock", {"minutes": True}) == "clock minutes must be a whole number, not true"
    assert ctl.minutes == 0


def test_boolean_rake_levels_and_seats_are_refused():
    ctl = Controller(FakeHal(), BOARD, Journal())
    cfg = dict(CFG)
    cfg["rake"] = {"method": "incremental", "levels": [[True, 1]]}
    assert ctl.handle("cfg", cfg) == ("rake levels must be [pot level, amount] pairs of "
                                      "whole numbers, pot levels rising (13:47-20.37(a)4ii)")
    cfg = dict(CFG)
    cfg["seats"] = True
    assert ctl.handle("cfg", cfg).startswith("seats must be 2..4")
    assert ctl.config is None


def test_the_first_unknown_setting_is_named_whatever_the_dict_order():
    ctl = Controller(FakeHal(), BOARD, Journal())
    cfg = dict(CFG)
    cfg["zeta"] = 1
    cfg["alpha"] = 2
    assert ctl.handle("cfg", cfg).startswith('unknown setting "alpha" (known: ')
    cfg = dict(CFG)
    cfg["rake"] = {"zz": 1, "aa": 2, "method": "none"}
    assert ctl.handle("cfg", cfg) == 'unknown rake setting "aa"'


def test_a_missing_field_is_named_not_the_exception_text():
    ctl, hal = configured(CFG)
    assert ctl.handle("clock", {}) == "clock lacks minutes"
    assert ctl.handle("btn", {"b": "call"}) == "btn lacks seat"


def test_a_field_of_the_wrong_type_gets_a_sentence():
    ctl, hal = configured(CFG)
    assert ctl.handle("card", {"code": ["As"]}) == (
        """unknown card code ["As"]: want rank and suit, e.g. 'As'""")
    assert ctl.handle("deck", {"register": {"b": 1, "a": 2}}) == (
        'deck register must be one of A, B, not {"a":2,"b":1}')
    assert ctl.handle("btn", {"seat": 1, "b": "call", "zz": 0, "aa": 0}) == 'btn takes no "aa"'
