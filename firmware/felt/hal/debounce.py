"""Debouncing for many inputs at once, with time passed in (deterministic, testable):
`Debouncer` takes a level once it has held still (status lines on long cables, the
keypad); `EagerDebouncer` takes a change on its first edge and then shuts out the
input's bounces (the seat and dealer buttons: a press lit at once).

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


class EagerDebouncer(Debouncer):
    """Eager debouncing, as QMK's sym_eager_pk and ZMK's eager presses do, with a
    confirmation against noise.  An input's change is taken on its first edge: the read
    that first finds its level changed starts a confirmation, and the first read at
    least `confirm_ms` later decides it.  Still changed, the change is taken then (a
    press reported when the level went to 1) and the input is held at its new level for
    `debounce_ms`, whatever it reads: its contact's bounces never count as another
    change.  Back as it was, nothing happened: noise shorter than `confirm_ms` (at least
    confirm_ms - 1 of real time: the clock counts whole ms) is ignored, where a real
    press lasts tens of ms.  The reads between the two are not looked at, so a contact
    bouncing as it closes neither delays the press nor loses it (one open at the
    deciding read starts a new confirmation at its next close).  Releases are
    debounced as presses are, and reported only as a button free to press again.

    `pending` holds the inputs confirming (the caller reads them again to decide),
    `locked` those held; due_ms() says when the next of them is decided.
    """

    def __init__(self, count, debounce_ms, confirm_ms):
        Debouncer.__init__(self, count, debounce_ms)
        if confirm_ms < 0:
            raise ValueError("confirm_ms must not be negative")
        self.confirm_ms = confirm_ms
        self.locked = bytearray(self.nbytes)

    def reset(self, levels):
        Debouncer.reset(self, levels)
        for j in range(self.nbytes):
            self.locked[j] = 0

    def settled(self):
        """True when no input is confirming a change or held after one."""
        for j in range(self.nbytes):
            if self.pending[j] | self.locked[j]:
                return False
        return True

    def due_ms(self, now_ms, most):
        """Ms from `now_ms` until the next input confirming or held is decided (0 when
        one is due), at most `most`: when the caller should update again."""
        left = most
        since = self._since
        for j in range(self.nbytes):
            p = self.pending[j]
            held = self.locked[j]
            if not (p | held):
                continue
            for b in range(8):
                bit = 1 << b
                if (p | held) & bit:
                    wait = self.confirm_ms if p & bit else self.debounce_ms
                    d = wait - ((now_ms - since[(j << 3) + b]) & _TICKS_MASK)
                    if d < left:
                        left = d if d > 0 else 0
        return left

    def update(self, levels, now_ms, out=None, table=None):
        """As Debouncer.update, eagerly (the class docstring)."""
        presses = 0
        as_int = isinstance(levels, int)
        last = self.nbytes - 1
        raw = self.raw
        pend = self.pending
        held = self.locked
        stab = self.stable
        since = self._since
        for j in range(self.nbytes):
            v = (levels >> (j << 3)) & 0xFF if as_int else levels[j]
            if j == last:
                v &= self._top
            raw[j] = v
            s = stab[j]
            busy = (v ^ s) | pend[j] | held[j]
            if not busy:
                continue
            p = pend[j]
            h = held[j]
            base = j << 3
            for b in range(8):
                bit = 1 << b
                if not busy & bit:
                    continue
                i = base + b
                if h & bit:
                    if ((now_ms - since[i]) & _TICKS_MASK) < self.debounce_ms:
                        continue               # a bounce: shut out
                    h ^= bit                   # free again: looked at as any other
                if not p & bit:
                    if (v ^ s) & bit:          # a first edge: confirmed at a later read
                        p |= bit
                        since[i] = now_ms
                    else:
                        continue
                if ((now_ms - since[i]) & _TICKS_MASK) < self.confirm_ms:
                    continue
                p ^= bit
                if (v ^ s) & bit:              # confirmed: taken, then held
                    s ^= bit
                    h |= bit
                    since[i] = now_ms
                    if v & bit:
                        presses += 1
                        if out is not None:
                            out.append(i if table is None else table[i])
            pend[j] = p
            held[j] = h
            stab[j] = s
        return presses
