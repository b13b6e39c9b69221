"""The dealer's keypad: a key matrix on an MCP23017 of its own (hardware/WIRING.md),
scanned as QMK scans a matrix.  The columns are inputs with pull-ups; a row is selected
by making its pin an output, driving low (its latch is 0), while the other rows float as
inputs, so a pressed key pulls its column low only while its row is selected and two
keys held at once never short one row's driver into another's.  Between scans every row
drives low: any press pulls its column low and the chip's INT line falls, so a quiet
keypad costs the bus nothing.
"""

from felt.hal.debounce import Debouncer
from felt.protocol import ticks_diff

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_IODIRA = const(0x00)      # IODIRA then IODIRB: one two-byte write selects a row
RESYNC_MS = const(1000)    # scanned at least this often, INT line or not (mp.RESYNC_MS)


def _iodir(outputs):
    v = 0x7F7F & ~outputs    # pins 7 and 15 are outputs always (felt.hal.mp.Mcp23017)
    return bytes((v & 0xFF, v >> 8))


class MatrixKeypad:
    """`poll(now_ms)` returns the keys pressed since the last poll, debounced, as their
    characters (the board's `keys`, row by row); the list is reused by the next poll.
    `chip` a felt.hal.mp.Mcp23017 made with the columns' interrupts and the rows as
    outputs; `intp` its INT pin, or None (then it is scanned every poll).  I2C errors
    are counted in `errors` and the last levels kept: no phantom keys."""

    def __init__(self, chip, intp, rows, columns, keys, debounce_ms):
        self.chip = chip
        self.intp = intp
        self.keys = keys
        self.columns = columns
        mask = 0
        for r in rows:
            mask |= 1 << r
        self._idle = _iodir(mask)
        self._select = [_iodir(1 << r) for r in rows]
        self.debouncer = Debouncer(len(keys), debounce_ms)
        self.levels = bytearray((len(keys) + 7) >> 3)
        self._scan = bytearray(len(self.levels))
        self._rx = bytearray(2)
        self._out = []
        self.errors = 0
        self._ok = False
        self._checked = 0

    def start(self, now_ms):
        """Configure the chip and take the keys as they are: one held at boot is no press."""
        self._checked = now_ms
        self._setup()
        self._read()
        self.debouncer.reset(self.levels)

    def _setup(self):
        try:
            self.chip.configure()
            self._ok = True
        except OSError:
            self.errors += 1
            self._ok = False

    def _read(self):
        if not self._ok:
            return
        chip, rx, scan = self.chip, self._rx, self._scan
        write = chip.i2c.writeto_mem
        for j in range(len(scan)):
            scan[j] = 0
        try:
            k = 0
            for select in self._select:
                write(chip.address, _IODIRA, select)
                chip.read_into(rx)
                v = rx[0] | rx[1] << 8
                for c in self.columns:
                    if not v & (1 << c):          # active low: pulled down by the key
                        scan[k >> 3] |= 1 << (k & 7)
                    k += 1
            write(chip.address, _IODIRA, self._idle)
            chip.read_into(rx)     # clears the INT the scan itself raised
        except OSError:
            self.errors += 1
            self._ok = False
            return
        self.levels[:] = scan

    def poll(self, now_ms):
        out = self._out
        while out:
            out.pop()
        due = ticks_diff(now_ms, self._checked) >= RESYNC_MS
        if due:
            self._checked = now_ms
            try:
                ok = self._ok and self.chip.configured()
            except OSError:
                self.errors += 1
                ok = False
            if not ok:
                self._setup()     # browned out: its rows and pull-ups are gone
        if self.intp is None or not self.intp.value() or due or \
                not self.debouncer.settled():
            self._read()
        self.debouncer.update(self.levels, now_ms, out, self.keys)
        return out

    def quiet(self):
        """True when only the INT line's fall can bring a key (felt.loop waits then)."""
        return self.intp is not None and self.intp.value() and self.debouncer.settled()
