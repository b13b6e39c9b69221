# The Pico image's boot.py (frozen: firmware/pico/manifest.py), where the table runs.
# MicroPython starts USB only once boot.py has returned, so while the table plays the
# board has no USB device at all: no REPL answers, no Ctrl-C stops it (issue 21, item 2).
# boot.py returns only at the boot an owner's signed `service` command asked for
# (felt.table.technician leaves its flag); then USB starts, and main.py (frozen too)
# leaves the REPL to answer until the board is reset.  Anything that ends the table
# otherwise resets the board.
import micropython
import sys

micropython.kbd_intr(-1)
import machine  # noqa: E402

# USB's controller already on: a soft reset (Ctrl-D at the service REPL) kept it, and
# the table must not play with it on; a reset of the chip turns it off.
if machine.mem32[0x50110040] & 1:      # USBCTRL_REGS MAIN_CTRL: CONTROLLER_EN
    machine.reset()
# MicroPython's sys.path starts with "" (the filesystem's root), so a felt/ folder left
# there would be imported in place of the frozen one; only frozen modules from here on.
sys.path[:] = [".frozen"]
service = False
try:
    from felt import lazy
    image = lazy.load("felt.image")
    service = image.opened_for_service(image.TRUST)     # its flag, beside the keys
    lazy.forget("felt.image")
    if not service:
        from felt.boot import main
        main([], True)          # the table, until the board resets itself
except BaseException:  # noqa: BLE001 - SystemExit too: never on to USB and the REPL
    service = False
if not service:
    machine.reset()
