"""Code a table needs seldom (the board definition's checks at boot, the journal's
reading after a restart, a configuration's checks and sign), loaded when needed and
forgotten after: on a board each module's bytecode lives in the heap while it is loaded
(hardware/boards/SCHEMA.md, "Heap").  A module forgotten here must hold nothing that
outlives its use, such as a class of lasting objects: their methods keep it alive.
"""

import sys

# The one table of the modules loaded or forgotten by name (load, forget, and the
# controller's cold()): tests/host/test_firmware_shape.py holds every such name in the
# firmware to it.  Two tuples, constants (in a frozen image's flash, not its heap).
# Code a table loads only when asked, by the link among others: warmed at boot (warm,
# felt.start), so loading it later never needs a large block of the heap...
COLD = ("felt.table.technician", "felt.table.configure", "felt.table.config",
        "felt.table.recall", "felt.table.records", "felt.table.public", "felt.table.phh",
        "felt.table.reports", "felt.table.placing",
        "felt.table.eventlog_read", "felt.poker.irregular", "felt.poker.runouts",
        "felt.poker.refusals", "felt.poker.posted", "felt.poker.games", "felt.poker.hands",
        "felt.poker.low", "felt.image", "felt.ed25519", "felt.verify", "felt.vouch",
        "felt.table.banked_table", "felt.table.banked_config", "felt.table.banked_record",
        "felt.banked.irregular", "felt.banked.sign", "felt.banked.four_card",
        "felt.banked.holdem_bonus")
# ...and the boot's steps, run once, with the game's tables and the rules each loads,
# forgotten when the table changes kind.
ONCE = ("felt.start", "felt.board", "felt.hal.assembly", "felt.table.recovery",
        "felt.boardkey", "felt.table.poker_table", "felt.poker.round", "felt.poker.showdown",
        "felt.poker.rake", "felt.poker.variants", "felt.banked.banked_round",
        "felt.banked.hands4", "felt.banked.paytables", "felt.banked.settings")


def load(name):
    """The module `name`, imported if it is not."""
    m = sys.modules.get(name)   # the common case, without the import machinery
    if m is None:
        __import__(name)
        m = sys.modules[name]
    return m


def forget(name):
    """Drop the module `name`, so the GC can take its memory back."""
    sys.modules.pop(name, None)
    package, _, attr = name.rpartition(".")
    if package in sys.modules and hasattr(sys.modules[package], attr):
        delattr(sys.modules[package], attr)


def warm(names):
    """Load each module of `names` and forget it again, with every module it brought
    in, one at a time: only their names stay, interned for good.  MicroPython keeps
    names in a pool that grows by doubling, ~9 KB in one block at a board's size; done
    at boot while the heap is whole, the pool grows then, not when the link first asks
    a fragmented heap for cold code (a MemoryError that rebooted the board).  A frozen
    image has every name already, and CPython no such pool."""
    if sys.implementation.name != "micropython" or __file__.startswith(".frozen"):
        return
    import gc
    for name in names:
        before = dict(sys.modules)
        try:
            load(name)
        except MemoryError:
            pass      # a heap too small to warm: the table runs as it would have
        for new in [n for n in sys.modules if n not in before]:
            forget(new)
        gc.collect()
