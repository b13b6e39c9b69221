"""Boot: the program check (felt.image) and the board definition (both felt.start), the
journal, the HAL for this runtime, then the event loop (felt.loop) until a task dies,
and then the board reboots (felt.guard), saying why after the reboot.  A program that
fails its check never starts the table (felt.tilted).  main.py only calls main(): a board compiles
main.py from source at every boot, and this module comes as bytecode (.mpy), sparing
the heap that work.  The Pico image calls it from its frozen boot.py (firmware/pico/).
"""

import sys


def _builtins_first():
    """The frozen modules (asyncio) ahead of the flash on the path, and the built-in ones
    imported with only the frozen on it and kept in sys.modules (MicroPython keeps no
    built-in there, and looks on the path first at each import of one): a package planted
    on the flash (json/, hashlib.py, asyncio/ ...) is then never imported in their place,
    and the program check tilts on it (issue 21, item 2).  Done before anything else is
    imported; a Pico's frozen boot.py leaves only the frozen modules on the path."""
    if sys.implementation.name != "micropython":
        return
    path = [".frozen"] + [p for p in sys.path if p != ".frozen"]
    sys.path[:] = [".frozen"]
    for name in ("os", "json", "hashlib", "binascii", "struct", "time", "select", "io",
                 "random", "errno", "machine"):
        try:
            sys.modules[name] = __import__(name)
        except ImportError:
            pass            # not on this port
    sys.path[:] = path


_builtins_first()
del _builtins_first     # run once: no heap kept for it while the table plays

import os  # noqa: E402
import time  # noqa: E402

from felt.runtime import arg, open_hal, reset_plainly  # noqa: E402


def main(argv, repl_shut=False):
    """Boot.  `repl_shut`: the board's USB REPL is shut while the table plays, and a
    owner's signed `service` opens it (the Pico image: firmware/pico/boot.py)."""
    # The program check and the board definition, from a module forgotten after them:
    # the table plays with none of their code in the heap.
    from felt import lazy
    board, path, trust, image, took = lazy.load("felt.start").start(argv)
    lazy.forget("felt.start")
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
    phh = arg(argv, "--phh")   # a directory for each round's hand history (docs/phh.md)
    if phh is not None:
        try:
            os.mkdir(phh)
        except OSError:
            pass                 # already there
    journal = Journal(path, phh)
    note = path + ".reboot" if path else None   # why the board last rebooted
    hal = None
    try:
        hal = open_hal(argv, board)
        if took is not None:
            hal.link.send("log", {"msg": "program checked: %s, in %d ms" % took})
        from felt import loop
        why = asyncio.run(loop.run(hal, board, journal, guard.take_note(note), trust, image,
                                    repl_shut))
    except Exception as e:  # noqa: BLE001 - a boot that fails reboots too, never hangs
        why = "boot failed: %s" % type(e).__name__
        guard.print_traceback(e)
    guard.leave_note(note, why)
    if hal is not None:
        try:
            hal.link.send("log", {"msg": "rebooting: %s" % why})
            hal.link.drain()
            # Out before the reset cuts it off: why, and the ack of the command that
            # asked for it (`service`): a UART at 115200 baud sends 256 bytes in 22 ms.
            time.sleep(0.03)
        except Exception:  # noqa: BLE001 - the note says it after the reboot anyway
            pass
        hal.reset()
    reset_plainly()   # no HAL to reset with
