"""Never hang: the watchdog is fed only while every task of the event loop is alive and
the periodic ones keep beating.  A task that dies (a MemoryError, any exception) or
ends, or a periodic one that stops beating, stops the loop with a reason; the board
then reboots (`hal.reset`: machine.reset() on a board, and should that fail the
watchdog, no longer fed, resets it; in the unix port and CPython the process exits with
REBOOT_EXIT and the emulator boots it again on its journal, as after a power cut).

The journal is the table's truth, so a reboot loses nothing: an event is journaled
before it is acted on, and a record torn by the reboot is cut off at boot.  The reason
is left in a small note beside the journal (`<journal>.reboot`) and sent in a `log`
line after the reboot, so a technician sees why the board restarted.
"""

import sys

try:
    import asyncio
except ImportError:
    import uasyncio as asyncio

from felt.hal.clock import sleep_ms
from felt.protocol import ticks_diff

REBOOT_EXIT = 75   # the firmware process's exit code: "boot me again on my journal"
STALL_MS = 2000    # a periodic task that has not beaten for this long is stuck
MAX_NOTE = 160     # characters kept of a reason: it goes out in one log frame


class Guard:
    def __init__(self, ticks_ms):
        self.ticks_ms = ticks_ms
        self.beats = {}           # periodic task -> ticks of its last beat
        self.why = None           # why the loop stopped, once it has
        self.stopped = asyncio.Event()

    def beat(self, name):
        self.beats[name] = self.ticks_ms()

    def alive(self):
        """True while no task has died and every periodic task has beaten lately."""
        if self.why is None:
            now = self.ticks_ms()
            for name in self.beats:           # no list made on the steady tick
                if ticks_diff(now, self.beats[name]) > STALL_MS:
                    late = sorted([n for n in self.beats
                                   if ticks_diff(now, self.beats[n]) > STALL_MS])
                    self.fail("task %s stalled" % late[0])   # the first by name
                    break
        return self.why is None

    def fail(self, why):
        """Stop the loop with `why` (the first reason only)."""
        if self.why is None:
            self.why = why
            self.stopped.set()

    async def run(self, name, coro):
        """Run a task of the loop; its death or its end stops the loop."""
        try:
            await coro
            why = "task %s ended" % name
        except Exception as e:  # noqa: BLE001 - MemoryError too: whatever it was, reboot
            why = "task %s died: %s" % (name, type(e).__name__)
            print_traceback(e)
        self.fail(why)

    async def watchdog(self, feed, period_ms=100):
        """Feed the watchdog while alive(); then stop, and say why.  Woken late, it
        finds the loop itself was held (one long handler: `verify` hashing the program
        on a loaded PC, a signature checked on the chip): no task could beat meanwhile,
        so the time it was late is no task's, and their beats are moved on by it (a
        hold just under STALL_MS, with a beat due just before it, was judged a stall).
        A handler that never returns stops the feeding, and the watchdog resets the
        board."""
        last = self.ticks_ms()
        while True:
            now = self.ticks_ms()
            late = ticks_diff(now, last) - period_ms
            if late > 0:
                for name in self.beats:
                    self.beats[name] = (self.beats[name] + late) & 0x3FFFFFFF  # ticks wrap
            last = now
            if not self.alive():
                break
            feed()
            await sleep_ms(period_ms)


def print_traceback(e, out=None):
    """Where a task died, on stderr (the unix port's and CPython's; a board's USB
    console) or `out`, for a developer to find the line; the reboot goes on whatever
    happens."""
    try:
        out = out or sys.stderr
        if hasattr(sys, "print_exception"):
            sys.print_exception(e, out)      # MicroPython
        else:
            import traceback
            traceback.print_exception(type(e), e, e.__traceback__, file=out)
    except Exception:  # noqa: BLE001 - out of memory: the reason still goes in the note
        pass


def leave_note(path, why):
    """Keep `why` for the next boot; a failure to write it never stops the reboot."""
    if path is None:
        return
    try:
        with open(path, "w") as f:
            f.write(why[:MAX_NOTE])
    except Exception:  # noqa: BLE001 - out of memory or flash: reboot all the same
        pass


def take_note(path):
    """The reason the board last rebooted for, removing the note; None if none."""
    if path is None:
        return None
    try:
        with open(path) as f:
            why = f.read(MAX_NOTE)
    except OSError:
        return None
    try:
        import os
        os.remove(path)
    except OSError:
        pass
    return why
