# The Pico image's main.py (frozen: firmware/pico/manifest.py), so that none on the
# filesystem runs.  MicroPython runs it only once boot.py has returned, which it does
# only at the boot an owner's signed `service` command asked for (boot.py): the
# REPL then answers, until the board is reset.
print("felt: service mode, as an owner's signed command asked: the USB REPL answers "
      "until the board is reset")
