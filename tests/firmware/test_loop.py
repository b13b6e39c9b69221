"""The event loop (felt.loop) with a task killed under it: the loop stops with the
task's reason, the table's journal holds every chip, and the board booted again on it
resumes exactly and logs why it rebooted.  Runs on CPython and MicroPython."""

import asyncio

from felt import loop
from felt import protocol as P
from felt.guard import leave_note, take_note
from felt.hal import link as L
from felt.table.controller import PLAYING

from table_fakes import BOARD, Wire, boot, journal_path

CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}


class DyingWire(Wire):
    """Frames come in; when they are all read, the link task dies as a board's would
    when the heap runs out."""

    async def read(self):
        if not self.incoming:
            raise MemoryError()
        return self.incoming.pop(0)


def test_a_killed_task_reboots_the_table_which_resumes_exactly_and_says_why():
    from felt.table.journal import Journal
    path = journal_path("loop-killed")
    frames = [P.encode(0, "cfg", CFG), P.encode(1, "dealer", {"b": "deal"}),
              P.encode(2, "shuf", {"state": "done"}), P.encode(3, "dealer", {"b": "cut_done"})]
    frames += [P.encode(4 + i, "card", {"code": c}) for i, c in
               enumerate("2c 3c 4c 5c 2d 3d 4d 5d".split())]
    wire = DyingWire(*frames)
    hal = L.open(BOARD, wire)
    why = asyncio.run(loop.run(hal, BOARD, Journal(path)))
    assert why == "task link died: MemoryError"
    assert [p["seq"] for k, p in wire.frames() if k == "ack"] == list(range(12))
    leave_note(path + ".reboot", why)              # as main.py does before the reset

    ctl, _ = boot(path)                            # the board comes back on its journal
    assert ctl.state == PLAYING and ctl.locked is None
    snap = ctl.snapshot()
    assert sum(snap["stacks"]) + snap["pot"] + snap["rake"] == 400   # every chip there
    wire2 = DyingWire()
    hal2 = L.open(BOARD, wire2)
    asyncio.run(loop.run(hal2, BOARD, Journal(path), take_note(path + ".reboot")))
    logs = [p["msg"] for k, p in wire2.frames() if k == "log"]
    assert logs == ["rebooted: task link died: MemoryError"]


def test_a_watchdog_reset_is_logged_at_boot():
    from felt.table.journal import Journal
    path = journal_path("loop-watchdog")
    hal = L.open(BOARD, DyingWire())
    hal.watchdog_reset = True                      # as the board's reset cause says
    asyncio.run(loop.run(hal, BOARD, Journal(path)))
    ctl, _ = boot(path)
    records, _ = ctl.eventlog.page(0)
    assert [r["code"] for r in records] == ["watchdog_reset"]
