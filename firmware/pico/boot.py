# The Pico image's boot.py (frozen: firmware/pico/manifest.py).  MicroPython's sys.path
# starts with "" (the filesystem's root), so a felt/ folder left there would be imported
# in place of the frozen one; only frozen modules are imported from here on.
import sys

sys.path[:] = [".frozen"]
