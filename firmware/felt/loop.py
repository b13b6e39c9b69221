"""The event loop: one task per input source, one for the link's resends, one writing
the link's queued frames (felt.hal.link.Link.pump), and the guard feeding the watchdog
(felt.guard).  `run` returns why the loop stopped; main.py
then reboots the board.
"""

try:
    import asyncio
except ImportError:
    import uasyncio as asyncio
import gc

from felt.guard import Guard
from felt.hal.clock import sleep_ms
from felt.protocol import ticks_diff
from felt.table.controller import Controller

IDLE_MS = 100   # a quiet board's buttons are polled at least this often (and beat)


async def buttons_task(hal, ctl, guard):
    """Seat and dealer-panel buttons, the dealer's keypad and the muck reader (its cards
    to the panel), debounced by the backend:
    polled every poll_ms while one may be moving, sooner when a button's confirmation is
    due (its press acts then); while all are quiet, polled again when an expander's INT
    line falls, or within IDLE_MS (felt.hal.mp.ExpanderButtons)."""
    period = hal.board["poll_ms"]
    buttons = hal.buttons
    keypad = hal.keypad
    muck = hal.muck
    if buttons.flag is not None:    # they may wait: tick ends a wait within IDLE_MS
        asyncio.create_task(buttons.tick(IDLE_MS))
    while True:
        now = hal.ticks_ms()
        for seat, name in buttons.poll(now):
            if seat == "dealer":
                ctl.handle("dealer", {"b": name})
            else:
                ctl.handle("btn", {"seat": seat, "b": name})
        if keypad is not None:
            for k in keypad.poll(now):
                ctl.panel.key(k)
        if muck is not None:
            code = muck.poll(now)
            if code is not None:
                ctl.panel.muck(code)
        guard.beat("buttons")
        if buttons.quiet() and (keypad is None or keypad.quiet()) and \
                (muck is None or muck.quiet()):
            await buttons.wait()
        else:
            await sleep_ms(buttons.due_ms(hal.ticks_ms(), period))



async def cards_task(hal, ctl):
    while True:       # waits on the reader: its death, not its beat, is watched
        kind, payload = hal.card_reader.said(await hal.card_reader.read())
        ctl.handle(kind, payload)


async def shuffler_task(hal, ctl, guard):
    """The shuffler's state and whether it is fitted: a dealer takes it off the table
    before a hand shuffle (13:47-20.38(p)), and the table must see that.  Nothing is
    allocated unless one changed."""
    last_state = last_present = None
    while True:
        state = hal.shuffler.state()
        present = hal.shuffler.present()
        if state != last_state or present != last_present:
            last_state, last_present = state, present
            said = {"state": state, "present": present}
            if state == "done":
                said.update(hal.shuffler.deck_check())
            ctl.handle("shuf", said)
        guard.beat("shuffler")
        await sleep_ms(20)


async def link_watch_task(hal, ctl, guard, timeout_ms):
    """A table that needs its host (the board's link.timeout_ms): silent that long, the
    link is lost and play waits for it (Controller.link_lost, docs/tilts.md)."""
    while True:
        ctl.link_lost(ticks_diff(hal.ticks_ms(), hal.link.heard) > timeout_ms)
        guard.beat("link_watch")
        await sleep_ms(100)


async def clock_task(hal, ctl, guard, period_ms=500):
    """Table time on a board whose devices are its own (Controller.own_devices): its clock
    moves it on a minute at a time (time charges, posted rule changes) from the minute
    the journal resumed at; no frame moves it (issue 21, item 1)."""
    ms = 0
    last = hal.ticks_ms()
    while True:
        await sleep_ms(period_ms)
        now = hal.ticks_ms()
        ms += ticks_diff(now, last)     # step by step: ticks_ms wraps in days
        last = now
        if ms >= 60000:
            ms -= 60000
            if ctl.locked is None:      # a locked table refuses it: no refusal a minute
                ctl.handle("clock", {"minutes": ctl.minutes + 1})
        guard.beat("clock")


async def resend_task(hal, guard):
    """Resend a frame the host has not acknowledged in time; and collect the heap
    while nothing is being handled, before it runs low, so that a press seldom waits
    for a collection (MicroPython collects when an allocation finds no room)."""
    while True:
        hal.link.flush()
        # Below 32 KB free: more than a press allocates, a showdown's included, so a
        # press seldom finds no room and pays for the collection (docs/development.md).
        # CPython has no heap of its own to watch.
        if hasattr(gc, "mem_free") and gc.mem_free() < 32768:
            gc.collect()
        guard.beat("resend")
        await sleep_ms(50)


async def run(hal, board, journal, rebooted=None, trust=None, image=None, repl_shut=False):
    """Boot the table (it resumes from its journal) and run it until a task dies;
    returns why.  `rebooted`: why the board last rebooted, if it did, for the log;
    `trust`: the file of keys a technician's commands are signed with
    (felt.table.technician), None on a developer's table over the link; `image`: the
    folder of the signed image it runs, None if none (felt.verify); `repl_shut`: the
    board's USB REPL is shut while it plays, and an owner's `service` opens it."""
    guard = Guard(hal.ticks_ms)
    # The guard's own reset leaves a note (`rebooted`); on an RP2040 machine.reset()
    # leaves the watchdog's reset cause as well, so only a reset without a note was the
    # watchdog's.
    if rebooted is not None:       # first: a boot that fails again has said it
        hal.link.send("log", {"msg": "rebooted: %s" % rebooted})
    elif hal.watchdog_reset:
        hal.link.send("log", {"msg": "rebooted: the watchdog reset the board"})
    ctl = Controller(hal, board, journal, trust, image, guard.fail if repl_shut else None)
    if rebooted is not None:
        ctl.record("task_reset", rebooted)
    elif hal.watchdog_reset:
        ctl.record("watchdog_reset", "the watchdog reset the board: a stall the guard did "
                                     "not catch, or its own reset failed")
    tasks = [("link", hal.link.serve(ctl.handle)), ("resend", resend_task(hal, guard)),
             ("send", hal.link.pump(lambda: guard.beat("send")))]
    if hal.wired:
        tasks.append(("buttons", buttons_task(hal, ctl, guard)))
        tasks.append(("cards", cards_task(hal, ctl)))
        tasks.append(("shuffler", shuffler_task(hal, ctl, guard)))
        if ctl.own_devices:
            tasks.append(("clock", clock_task(hal, ctl, guard)))
        if board["link"]["timeout_ms"]:
            tasks.append(("link_watch", link_watch_task(hal, ctl, guard,
                                                        board["link"]["timeout_ms"])))
    for name, coro in tasks:
        asyncio.create_task(guard.run(name, coro))
    asyncio.create_task(guard.watchdog(hal.feed))
    await guard.stopped.wait()
    return guard.why
