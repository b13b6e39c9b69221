"""Felt's event loop: the same code on the board and, for the emulator, on a PC.

On a board, boot runs this file: the board definition is /board.json and the backend
follows the runtime (MicroPython or CircuitPython).  The emulator starts
`main.py --port PTY --board FILE [--journal FILE] [--phh DIR]` under CPython or
MicroPython's unix port, and the table runs over the link.  At boot the table resumes from its journal, if it has one.
"""

import os
import sys

try:
    import asyncio
except ImportError:
    import uasyncio as asyncio

from felt.hal.clock import sleep_ms
from felt.table.controller import Controller
from felt.table.journal import Journal


async def buttons_task(hal, ctl):
    """Seat and dealer-panel buttons, debounced by the backend."""
    period = hal.board["poll_ms"]
    while True:
        for seat, name in hal.buttons.poll(hal.ticks_ms()):
            if seat == "dealer":
                ctl.handle("dealer", {"b": name})
            else:
                ctl.handle("btn", {"seat": seat, "b": name})
        await sleep_ms(period)


async def cards_task(hal, ctl):
    while True:
        code = await hal.card_reader.read()
        ctl.handle("card", {"code": code})


async def shuffler_task(hal, ctl):
    last = None
    while True:
        state = hal.shuffler.state()
        if state != last:
            last = state
            ctl.handle("shuf", {"state": state})
        await sleep_ms(20)


async def watchdog_task(hal):
    while True:
        hal.feed()
        await sleep_ms(100)


async def run(hal, board, journal):
    ctl = Controller(hal, board, journal)
    tasks = [asyncio.create_task(hal.link.serve(ctl.handle)),
             asyncio.create_task(hal.link.resend()),
             asyncio.create_task(watchdog_task(hal))]
    if hal.wired:
        tasks.append(asyncio.create_task(buttons_task(hal, ctl)))
        tasks.append(asyncio.create_task(cards_task(hal, ctl)))
        tasks.append(asyncio.create_task(shuffler_task(hal, ctl)))
    await tasks[0]


def _arg(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def _unload(name):
    """Forget a module only boot needs, so the GC can take its memory back."""
    sys.modules.pop(name, None)
    package, _, attr = name.rpartition(".")
    if package in sys.modules and hasattr(sys.modules[package], attr):
        delattr(sys.modules[package], attr)


def main(argv):
    from felt.board import load as load_board
    board = load_board(_arg(argv, "--board", "/board.json"))
    phh = _arg(argv, "--phh")   # a directory for each round's hand history (docs/phh.md)
    if phh is not None:
        try:
            os.mkdir(phh)
        except OSError:
            pass                 # already there
    port = _arg(argv, "--port")
    # On a board the journal is the board's (a power cut resumes from it); over the
    # link it is kept only when asked for.
    journal = Journal(_arg(argv, "--journal", None if port else board["journal"]), phh)
    if port is not None:
        from felt.hal import link
        hal = link.open(board, link.StreamTransport(port))
    elif sys.implementation.name == "circuitpython":
        from felt.hal import cp
        hal = cp.open(board)
    else:
        from felt.hal import mp
        hal = mp.open(board)
    del load_board
    _unload("felt.board")   # checked and used: its code is not needed again
    asyncio.run(run(hal, board, journal))


if __name__ == "__main__":
    main(sys.argv[1:] if len(sys.argv) > 1 else [])
