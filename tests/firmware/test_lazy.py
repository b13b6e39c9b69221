"""felt.lazy: code a table needs seldom is loaded when needed and forgotten after, so
that its bytecode leaves a board's heap (hardware/boards/SCHEMA.md, "Heap")."""

import sys

from felt import lazy

from table_fakes import boot, journal_path, start_round

CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}
COLD = ("felt.board", "felt.table.recovery", "felt.table.config", "felt.poker.games",
        "felt.poker.irregular", "felt.poker.runouts", "felt.poker.posted", "felt.poker.low")


def loaded(name):
    return name in sys.modules


def test_forget_drops_the_module_and_its_name_in_the_package():
    import felt.table
    mod = lazy.load("felt.table.config")
    assert loaded("felt.table.config") and mod.from_dict
    lazy.forget("felt.table.config")
    assert not loaded("felt.table.config") and not hasattr(felt.table, "config")
    assert lazy.load("felt.table.config").from_dict    # and back when asked for


def test_a_table_forgets_its_seldom_used_code_after_each_use():
    for name in COLD:
        lazy.forget(name)
    path = journal_path("lazy")
    ctl, hal = boot(path)                              # a boot reads the journal
    assert ctl.handle("cfg", CFG) is None              # a configuration is read
    assert ctl.handle("sign", {}) is None              # the sign is written
    assert [n for n in COLD if loaded(n)] == []
    start_round(ctl)
    assert ctl.handle("card", {"code": "2c"}) is None
    assert ctl.handle("dealer", {"b": "misdeal", "why": "face_up"}) is None
    assert ctl.called_off == "misdeal"                 # the irregularity's rules came...
    assert [n for n in COLD if loaded(n)] == []        # ...and went with the round
    ctl2, _ = boot(path)                               # a restart resumes, and forgets
    assert ctl2.snapshot() == ctl.snapshot()
    assert [n for n in COLD if loaded(n)] == []


def test_warming_cold_code_at_boot_leaves_no_module_loaded():
    # Only the names stay (MicroPython's pool of them grows at boot); the code goes.
    for name in ("felt.table.reports", "felt.table.technician"):
        lazy.forget(name)
    before = sorted(sys.modules)
    lazy.warm(("felt.table.reports", "felt.table.technician"))
    assert sorted(sys.modules) == before
