"""The event loop: one task per input source, one for the link's resends, one writing
the link's queued frames (felt.hal.link.Link.pump), and the guard feeding the watchdog
(felt.guard).  `run` returns why the loop stopped; main.py
then reboots the board.
"""

try:
    import asyncio
except ImportError:
    import uasyncio as asyncio

from felt.guard import Guard
from felt.hal.clock import sleep_ms
from felt.table.controller import Controller


async def buttons_task(hal, ctl, guard):
    """Seat and dealer-panel buttons, debounced by the backend."""
    period = hal.board["poll_ms"]
    while True:
        for seat, name in hal.buttons.poll(hal.ticks_ms()):
            if seat == "dealer":
                ctl.handle("dealer", {"b": name})
            else:
                ctl.handle("btn", {"seat": seat, "b": name})
        guard.beat("buttons")
        await sleep_ms(period)


async def cards_task(hal, ctl):
    while True:       # waits on the reader: its death, not its beat, is watched
        code = await hal.card_reader.read()
        ctl.handle("card", {"code": code})


async def shuffler_task(hal, ctl, guard):
    last = None
    while True:
        state = hal.shuffler.state()
        if state != last:
            last = state
            ctl.handle("shuf", {"state": state})
        guard.beat("shuffler")
        await sleep_ms(20)


async def resend_task(hal, guard):
    """Resend a frame the host has not acknowledged in time."""
    while True:
        hal.link.flush()
        guard.beat("resend")
        await sleep_ms(50)


async def run(hal, board, journal, rebooted=None):
    """Boot the table (it resumes from its journal) and run it until a task dies;
    returns why.  `rebooted`: why the board last rebooted, if it did, for the log."""
    guard = Guard(hal.ticks_ms)
    if rebooted is not None:       # first: a boot that fails again has said it
        hal.link.send("log", {"msg": "rebooted: %s" % rebooted})
    ctl = Controller(hal, board, journal)
    if rebooted is not None:
        ctl.record("task_reset", rebooted)
    tasks = [("link", hal.link.serve(ctl.handle)), ("resend", resend_task(hal, guard)),
             ("send", hal.link.pump(lambda: guard.beat("send")))]
    if hal.wired:
        tasks.append(("buttons", buttons_task(hal, ctl, guard)))
        tasks.append(("cards", cards_task(hal, ctl)))
        tasks.append(("shuffler", shuffler_task(hal, ctl, guard)))
    for name, coro in tasks:
        asyncio.create_task(guard.run(name, coro))
    asyncio.create_task(guard.watchdog(hal.feed))
    await guard.stopped.wait()
    return guard.why
