"""Boot: the program check (felt.image), the board definition, the journal, the HAL
for this runtime, then the event loop (felt.loop) until a task dies, and then the board
reboots (felt.guard), saying why after the reboot.  A program that fails its check
never starts the table (felt.tilted).  main.py only calls main(): a board compiles
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

import os  # noqa: E402
import time  # noqa: E402


def _arg(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


TILT_EXIT = 3   # the firmware process's exit code when its program check failed

# Code a table loads only when asked (felt.lazy), by the link among others: warmed at
# boot (felt.lazy.warm), so loading it later never needs a large block of the heap.
COLD = ("felt.table.technician", "felt.table.configure", "felt.table.config",
        "felt.table.recall", "felt.table.records", "felt.table.reports", "felt.table.placing",
        "felt.table.eventlog_read", "felt.poker.irregular", "felt.poker.runouts",
        "felt.poker.refusals", "felt.poker.posted", "felt.poker.games", "felt.poker.hands",
        "felt.poker.low",
        "felt.image", "felt.ed25519", "felt.verify", "felt.table.banked_table", "felt.table.banked_config",
        "felt.table.banked_record", "felt.banked.irregular", "felt.banked.sign",
        "felt.banked.four_card", "felt.banked.holdem_bonus")

# The files a tilted board runs to show its tilt: when one of them failed the check,
# the board says why on its console only (its bytes could crash the VM).
TILT_PATH = ("felt/__init__.", "felt/lazy.", "felt/board.", "felt/hal/", "felt/tilted.",
             "felt/table/__init__.", "felt/table/scenes.", "felt/table/eventlog",
             "felt/table/journal.", "felt/protocol.", "felt/check.", "board.json")


def main(argv, repl_shut=False):
    """Boot.  `repl_shut`: the board's USB REPL is shut while the table plays, and a
    technician's signed `service` opens it (the Pico image: firmware/pico/boot.py)."""
    port = _arg(argv, "--port")
    # The program check before anything else is loaded: on a board always, from its
    # root; over the link when the emulator runs an image (--image DIR).
    image = _arg(argv, "--image", None if port else "")
    problems = tilt = trust = None
    if image is not None:
        trust = _arg(argv, "--trust", _join(image, "felt.pub"))
        problems, took, shown = _check_program(image, trust)
    if problems:
        tilt = _said(problems)
        if not shown:
            sys.exit(TILT_EXIT)     # the console has said it
    # The board definition first, and its checker forgotten before the table's code
    # is loaded: boot's peak of heap is then the table's, not the two together.
    from felt import lazy
    if not problems:
        lazy.warm(COLD)     # a tilted board runs none of it
    try:
        board = lazy.load("felt.board").load(_arg(argv, "--board", "/board.json"))
    except MemoryError:
        # No board yet, so no HAL and no note: reboot the plain way.  A board
        # definition in error stays at the REPL, where a technician reads why (the
        # Pico image, whose REPL is shut, resets: firmware/pico/boot.py).
        _reset_plainly()
    lazy.forget("felt.board")   # checked: its code is not needed again
    # On a board the journal is the board's (a power cut resumes from it); over the
    # link it is kept only when asked for.
    path = _arg(argv, "--journal", None if port else board["journal"])
    if tilt is not None:
        try:
            _show_tilt(argv, board, path, tilt, image)
        except Exception as e:  # noqa: BLE001 - the console has said it
            print("felt: the tilt could not be shown: %s" % type(e).__name__, file=sys.stderr)
        sys.exit(TILT_EXIT)
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
        hal = _open_hal(argv, board)
        if problems is not None:
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
    _reset_plainly()   # no HAL to reset with


def _check_program(root, trust):
    """(problems, (summary, ms), shown) of felt.image.check, loaded for it and forgotten,
    its garbage collected: what the table loads next is not cut up by it.  `shown`:
    whether the board may run its own files to show a tilt: frozen into the firmware,
    or on the flash as a manifest whose signature holds lists them (with the signature
    broken, a rewritten felt/tilted.py listed anew ran at boot: issue 21, item 2)."""
    import gc
    from felt import lazy
    from felt.hal.clock import ticks_ms
    from felt.protocol import ticks_diff
    start = ticks_ms()
    image = lazy.load("felt.image")
    problems, summary = image.check(root, trust, image.flash if image.frozen() else None)
    if not problems:
        try:
            image.remember(root)     # anti-rollback: the newest image this board has run
        except OSError as e:
            print("felt: the newest image could not be noted: %s" % e, file=sys.stderr)
    took = ticks_diff(ticks_ms(), start)
    shown = image.frozen() or not [p for p in problems if p[0] == image.MANIFEST or
                                   [t for t in TILT_PATH if p[0].startswith(t)]]
    lazy.forget("felt.image")
    lazy.forget("felt.ed25519")
    gc.collect()
    return problems, (summary, took), shown


def _said(problems):
    """The program check failed: the tilt naming the first file that failed, said on
    the console (the event log, the LEDs and the link say it too when they can)."""
    name, why = problems[0]
    if len(problems) > 1:
        why += " (and %d more files)" % (len(problems) - 1)
    print("felt: tilt program_check_failed: %s: %s" % (name, why), file=sys.stderr)
    return {"code": "program_check_failed", "file": name, "why": why}


def _show_tilt(argv, board, path, tilt, image):
    """The table never starts: the tilt goes to the event log, the LEDs and the link
    (felt.tilted), and stays until a signed image is installed."""
    try:
        import asyncio
    except ImportError:
        import uasyncio as asyncio
    if path is not None:
        from felt.table.eventlog import EventLog
        EventLog(path + ".events").add(None, None, tilt["code"],
                                       "%s: %s" % (tilt["file"], tilt["why"]))
    from felt import tilted
    asyncio.run(tilted.run(_open_hal(argv, board), board, tilt, image))


def _open_hal(argv, board):
    """The HAL for this runtime: the serial link when given a --port."""
    port = _arg(argv, "--port")
    if port is not None:
        from felt.hal import link
        hal = link.open(board, link.StreamTransport(port))
        hal.link.measure = "--measure" in argv   # perf frames for felt-bench
        return hal
    if sys.implementation.name == "circuitpython":
        from felt.hal import cp
        return cp.open(board)
    from felt import lazy
    hal = lazy.load("felt.hal.assembly").open(board)   # felt.hal.mp's parts
    lazy.forget("felt.hal.assembly")   # run once: ~0.8 KB of heap on a Pico
    return hal


def _join(root, name):
    return root + "/" + name if root else name


def _reset_plainly():
    try:
        import machine
        machine.reset()
    except (ImportError, AttributeError):   # CPython; the unix port has no reset
        pass
    from felt.guard import REBOOT_EXIT
    sys.exit(REBOOT_EXIT)
