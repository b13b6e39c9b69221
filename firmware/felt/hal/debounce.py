"""Debouncing for many inputs at once, with time passed in (deterministic, testable).

Levels arrive as a bytearray/bytes (8 inputs a byte, input i is bit i % 8 of byte i // 8)
or as an int bitmask (input i is bit i).  1 means "active" (pressed): the caller
normalises active-low wiring.  An input's new level is accepted once it has held for
`debounce_ms` without a change; a press is reported when an input's accepted level goes
from 0 to 1.  Releases are tracked (so a button must be released before it can be
pressed again) but not reported.

Cost when nothing moves: one comparison per byte.  No allocation per update beyond the
caller's output list; keep int masks within 30 bits on MicroPython (larger ints are
heap objects there), or pass bytes, which have no limit.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Differences are taken modulo 2**30, the period of MicroPython's time.ticks_ms (the
# CircuitPython backend widens supervisor.ticks_ms to the same period), so the clock may
# wrap; an input is never left pending for anything like 2**29 ms.
_TICKS_MASK = const(0x3FFFFFFF)


class Debouncer:
    def __init__(self, count, debounce_ms):
        if count < 1:
            raise ValueError("debouncer needs at least one input")
        if debounce_ms < 0:
            raise ValueError("debounce_ms must not be negative")
        self.count = count
        self.debounce_ms = debounce_ms
        nbytes = (count + 7) >> 3
        self.nbytes = nbytes
        self.raw = bytearray(nbytes)      # level seen at the last update
        self.stable = bytearray(nbytes)   # accepted (debounced) level
        self.pending = bytearray(nbytes)  # inputs whose raw level changed, not yet settled
        self._since = [0] * count         # time of each input's last raw change
        # Inputs past `count` in the last byte are ignored.
        self._top = (1 << (count - ((nbytes - 1) << 3))) - 1

    def reset(self, levels):
        """Take `levels` as already settled, reporting nothing: a button held at boot
        (or a stuck one) must be released and pressed again before it counts."""
        last = self.nbytes - 1
        for j in range(self.nbytes):
            v = levels[j] if not isinstance(levels, int) else (levels >> (j << 3)) & 0xFF
            if j == last:
                v &= self._top
            self.raw[j] = v
            self.stable[j] = v
            self.pending[j] = 0

    def is_down(self, i):
        """The accepted level of input i (True when active)."""
        return bool(self.stable[i >> 3] & (1 << (i & 7)))

    def settled(self):
        """True when no input is waiting out its debounce time."""
        for j in range(self.nbytes):
            if self.pending[j]:
                return False
        return True

    def update(self, levels, now_ms, out=None, table=None):
        """Sample `levels` at `now_ms`.  Each new press is appended to `out` (when given)
        as its input index, or as `table[index]` when a table is given, so a caller can
        pre-build its event tuples.  Returns the number of presses."""
        presses = 0
        as_int = isinstance(levels, int)
        last = self.nbytes - 1
        raw = self.raw
        pend = self.pending
        stab = self.stable
        since = self._since
        wait = self.debounce_ms
        for j in range(self.nbytes):
            v = (levels >> (j << 3)) & 0xFF if as_int else levels[j]
            if j == last:
                v &= self._top
            changed = v ^ raw[j]
            p = pend[j]
            if not (changed | p):
                continue
            base = j << 3
            if changed:
                raw[j] = v
                p |= changed
                for b in range(8):
                    if changed & (1 << b):
                        since[base + b] = now_ms
            s = stab[j]
            for b in range(8):
                bit = 1 << b
                if p & bit and ((now_ms - since[base + b]) & _TICKS_MASK) >= wait:
                    p ^= bit
                    if (v ^ s) & bit:
                        s ^= bit
                        if v & bit:
                            presses += 1
                            if out is not None:
                                out.append(base + b if table is None else table[base + b])
            pend[j] = p
            stab[j] = s
        return presses
