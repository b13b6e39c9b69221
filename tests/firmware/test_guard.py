"""Never hang (felt.guard, issue 9): the watchdog is fed only while every task lives
and the periodic ones beat; the first death, end or stall stops the loop with its
reason, which outlives the reboot in a note.  Runs on CPython and MicroPython."""

import asyncio

from felt.guard import STALL_MS, Guard, leave_note, take_note
from felt.hal.clock import sleep_ms, ticks_ms

from table_fakes import scratch_dir


def test_a_task_that_dies_stops_the_loop_and_the_watchdog_is_fed_no_more():
    fed = []
    g = Guard(ticks_ms)

    async def dies():
        await sleep_ms(30)
        raise MemoryError()

    async def main():
        asyncio.create_task(g.run("cards", dies()))
        asyncio.create_task(g.watchdog(lambda: fed.append(1), 5))
        await g.stopped.wait()
        n = len(fed)
        await sleep_ms(40)             # the loop runs on a little: nobody feeds
        return n

    n = asyncio.run(main())
    assert g.why == "task cards died: MemoryError"
    assert n > 0 and len(fed) == n


def test_a_task_that_ends_stops_the_loop_too():
    g = Guard(ticks_ms)

    async def ends():
        await sleep_ms(1)

    async def main():
        asyncio.create_task(g.run("link", ends()))
        await g.stopped.wait()

    asyncio.run(main())
    assert g.why == "task link ended" and not g.alive()


def held_once(hold):
    """The guard of a loop whose one task ("buttons") beats each fake millisecond
    until the watchdog has been fed three times, then runs `hold(now)` (which may move
    the fake clock `now` and await); run until it is fed ten times or stops."""
    now = [1000]
    g = Guard(lambda: now[0])
    fed = []

    async def task():
        while True:
            g.beat("buttons")
            await sleep_ms(1)
            now[0] += 1
            if len(fed) == 3:
                await hold(now)

    async def main():
        asyncio.create_task(g.run("buttons", task()))
        asyncio.create_task(g.watchdog(lambda: fed.append(1), 1))
        while len(fed) < 10 and g.why is None:
            await sleep_ms(1)

    asyncio.run(main())
    return g, fed


def test_a_loop_held_by_one_long_handler_is_no_stall_of_its_tasks():
    # A `verify` hashing the program on a loaded PC held the loop past STALL_MS: the
    # guard took every task for stalled and rebooted the board, the answer lost.
    async def hold(now):
        now[0] += STALL_MS + 500       # a handler held the loop: nobody ran
        await sleep_ms(20)             # the watchdog looks before the next beat
    g, fed = held_once(hold)
    assert g.why is None and len(fed) >= 10


def test_a_hold_just_under_stall_ms_with_a_beat_due_before_it_is_no_stall():
    # Issue 38: a signature checked on the chip (1.4 s) and the frames that came
    # meanwhile, handled in one go, held the loop just under STALL_MS.  The watchdog,
    # woken that late, let it be; but "buttons" had beaten a little before the
    # watchdog's last look, and was judged stalled for the hold.
    async def hold(now):
        now[0] += 10                   # the beat gets old by a few polls
        await sleep_ms(5)              # the watchdog looks: all well
        now[0] += STALL_MS - 5         # a handler holds the loop: nobody beats
        await sleep_ms(5)              # the watchdog looks before the next beat
    g, fed = held_once(hold)
    assert g.why is None and len(fed) >= 10


def test_a_periodic_task_that_stops_beating_stalls_the_guard():
    now = [1000]
    g = Guard(lambda: now[0])
    g.beat("buttons")
    g.beat("resend")
    now[0] += STALL_MS
    assert g.alive()
    g.beat("resend")
    now[0] += 1
    assert not g.alive() and g.why == "task buttons stalled"
    g.fail("a later reason")
    assert g.why == "task buttons stalled"   # the first reason is the one kept


def test_the_reason_outlives_the_reboot_once():
    path = scratch_dir("guard-note") + "/journal.jsonl.reboot"
    take_note(path)
    assert take_note(path) is None           # no note: no reboot to report
    leave_note(path, "task link died: MemoryError")
    assert take_note(path) == "task link died: MemoryError"
    assert take_note(path) is None           # said once, after the reboot
    leave_note(path, "x" * 500)
    assert len(take_note(path)) == 160       # one log frame's worth
    leave_note(None, "no journal, no note")  # a board without a journal: nothing kept
    assert take_note(None) is None
