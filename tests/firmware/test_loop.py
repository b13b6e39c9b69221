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


def _boot_after_a_reset(name, note):
    """A board booted after a reset its chip says the watchdog made, with the guard's
    note or none: (the event log's codes, the logs it sent)."""
    from felt.table.journal import Journal
    path = journal_path(name)
    wire = DyingWire()
    hal = L.open(BOARD, wire)
    hal.watchdog_reset = True                      # as the board's reset cause says
    asyncio.run(loop.run(hal, BOARD, Journal(path), note))
    ctl, _ = boot(path)
    records, _ = ctl.eventlog.page(0)
    return [r["code"] for r in records], [p["msg"] for k, p in wire.frames() if k == "log"]


def test_a_watchdog_reset_is_logged_at_boot_and_said_on_the_link():
    codes, logs = _boot_after_a_reset("loop-watchdog", None)
    assert codes == ["watchdog_reset"]
    assert logs == ["rebooted: the watchdog reset the board"]


def test_the_guards_own_reset_is_no_watchdog_reset():
    # On an RP2040 machine.reset() leaves the watchdog's reset cause: the guard's note
    # says the reset was the guard's own, not a stall it missed.
    codes, logs = _boot_after_a_reset("loop-guard-reset", "task link died: MemoryError")
    assert codes == ["task_reset"]
    assert logs == ["rebooted: task link died: MemoryError"]


class FakeHeap:
    """The gc module as felt.loop sees it: `free` bytes free, the collections counted."""

    def __init__(self, free):
        self.free = free
        self.collected = 0

    def mem_free(self):
        return self.free

    def collect(self):
        self.collected += 1
        self.free = 100000


def _collections_while_idle(free):
    """How often the resend task collects in its first turn, with `free` bytes free."""
    from felt.guard import Guard
    heap = FakeHeap(free)
    hal = L.open(BOARD, Wire())
    saved = loop.gc
    loop.gc = heap

    async def idle_for_a_moment():
        task = asyncio.create_task(loop.resend_task(hal, Guard(hal.ticks_ms)))
        await asyncio.sleep(0.02)      # its first turn, then its 50 ms sleep
        task.cancel()

    try:
        asyncio.run(idle_for_a_moment())
    finally:
        loop.gc = saved
    return heap.collected


def test_the_heap_is_collected_while_idle_before_a_press_finds_no_room():
    assert _collections_while_idle(20000) == 1      # below 32 KB free: now, while idle
    assert _collections_while_idle(60000) == 0      # room enough: left to MicroPython
