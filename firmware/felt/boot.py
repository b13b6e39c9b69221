"""Boot: the board definition, the journal, the HAL for this runtime, then the event
loop (felt.loop) until a task dies, and then the board reboots (felt.guard), saying why
after the reboot.  main.py only calls main(): a board compiles main.py from source at
every boot, and this module comes as bytecode (.mpy), sparing the heap that work.
"""

import os
import sys


def _arg(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def main(argv):
    # The board definition first, and its checker forgotten before the table's code
    # is loaded: boot's peak of heap is then the table's, not the two together.
    from felt import lazy
    try:
        board = lazy.load("felt.board").load(_arg(argv, "--board", "/board.json"))
    except MemoryError:
        # No board yet, so no HAL and no note: reboot the plain way.  A board
        # definition in error stays at the REPL, where a technician reads why.
        _reset_plainly()
    lazy.forget("felt.board")   # checked: its code is not needed again
    port = _arg(argv, "--port")
    # On a board the journal is the board's (a power cut resumes from it); over the
    # link it is kept only when asked for.
    path = _arg(argv, "--journal", None if port else board["journal"])
    if path is not None:
        # Reading the journal (the table forgets it once resumed) goes where the board's
        # checker was: in one piece, before the heap is cut up by everything else.
        lazy.load("felt.table.recovery")
    try:
        import asyncio
    except ImportError:
        import uasyncio as asyncio
    from felt import guard
    from felt.table.journal import Journal
    phh = _arg(argv, "--phh")   # a directory for each round's hand history (docs/phh.md)
    if phh is not None:
        try:
            os.mkdir(phh)
        except OSError:
            pass                 # already there
    journal = Journal(path, phh)
    note = path + ".reboot" if path else None   # why the board last rebooted
    hal = None
    try:
        if port is not None:
            from felt.hal import link
            hal = link.open(board, link.StreamTransport(port))
            hal.link.measure = "--measure" in argv   # perf frames for felt-bench
        elif sys.implementation.name == "circuitpython":
            from felt.hal import cp
            hal = cp.open(board)
        else:
            from felt.hal import mp
            hal = mp.open(board)
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
    from felt.guard import REBOOT_EXIT
    sys.exit(REBOOT_EXIT)
