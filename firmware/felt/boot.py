"""Boot: the board definition, the journal, the HAL for this runtime, then the event
loop (felt.loop) until a task dies, and then the board reboots (felt.guard), saying why
after the reboot.  main.py only calls main(): a board compiles main.py from source at
every boot, and this module comes as bytecode (.mpy), sparing the heap that work.
"""

import os
import sys

try:
    import asyncio
except ImportError:
    import uasyncio as asyncio

from felt import guard
from felt.table.journal import Journal


def _arg(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def _unload(name):
    """Forget a module only boot needs, so the GC can take its memory back."""
    sys.modules.pop(name, None)
    package, _, attr = name.rpartition(".")
    if package in sys.modules and hasattr(sys.modules[package], attr):
        delattr(sys.modules[package], attr)


def main(argv):
    try:
        from felt.board import load as load_board
        board = load_board(_arg(argv, "--board", "/board.json"))
    except MemoryError:
        # No board yet, so no HAL and no note: reboot the plain way.  A board
        # definition in error stays at the REPL, where a technician reads why.
        _reset_plainly()
    phh = _arg(argv, "--phh")   # a directory for each round's hand history (docs/phh.md)
    if phh is not None:
        try:
            os.mkdir(phh)
        except OSError:
            pass                 # already there
    port = _arg(argv, "--port")
    # On a board the journal is the board's (a power cut resumes from it); over the
    # link it is kept only when asked for.
    path = _arg(argv, "--journal", None if port else board["journal"])
    journal = Journal(path, phh)
    note = path + ".reboot" if path else None   # why the board last rebooted
    hal = None
    try:
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
        from felt import loop
        why = asyncio.run(loop.run(hal, board, journal, guard.take_note(note)))
    except Exception as e:  # noqa: BLE001 - a boot that fails reboots too, never hangs
        why = "boot failed: %s" % type(e).__name__
    guard.leave_note(note, why)
    if hal is not None:
        try:
            hal.link.send("log", {"msg": "rebooting: %s" % why})
        except Exception:  # noqa: BLE001 - the note says it after the reboot anyway
            pass
        hal.reset()
    _reset_plainly()   # no HAL to reset with


def _reset_plainly():
    try:
        import machine
        machine.reset()
    except (ImportError, AttributeError):   # CPython; the unix port has no reset
        pass
    sys.exit(guard.REBOOT_EXIT)

