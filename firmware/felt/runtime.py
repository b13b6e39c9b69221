"""What the boot (felt.boot, felt.start) does as the runtime it runs on has it: read its
command line, open the HAL, and reset the board the plain way.
"""

import binascii
import os
import sys


def arg(argv, name, default=None):
    """The value after `name` on the command line, or `default`."""
    return argv[argv.index(name) + 1] if name in argv else default


def open_hal(argv, board):
    """The HAL for this runtime: the serial link when given a --port."""
    port = arg(argv, "--port")
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


def chip_id():
    """This chip's unique id in hex (machine.unique_id: on a Pico, read from its flash),
    or where the runtime has none, FELT_CHIP from the environment (the emulator gives
    the board one so: FirmwareProcess's `chip`), else None."""
    try:
        import machine
        return binascii.hexlify(machine.unique_id()).decode()
    except (ImportError, AttributeError):
        pass
    try:
        return os.getenv("FELT_CHIP") or None
    except AttributeError:      # a port whose os has no getenv
        return None


def reset_plainly():
    """Reboot without a HAL: machine.reset() on a board, else exit with REBOOT_EXIT."""
    try:
        import machine
        machine.reset()
    except (ImportError, AttributeError):   # CPython; the unix port has no reset
        pass
    from felt.guard import REBOOT_EXIT
    sys.exit(REBOOT_EXIT)
