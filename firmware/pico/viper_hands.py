"""The Pico image's viper build of felt.poker.evaluate's evaluate(): the showdown's
hand values in machine words (issue 40): 44 us a seven-card hand there at 125 MHz,
against 285 us.

Frozen into the rp2 image only (manifest.py: compiled for the RP2040's Thumb code), so
felt.poker.evaluate takes it where it imports and keeps its own, plain evaluate()
everywhere else (CPython, the unix port's board files, a CircuitPython board's source).
The same values for every hand of one to seven cards, in evaluate()'s layout (the
category in bits 20.., five 4-bit tie-break ranks below it):
tests/firmware/poker/test_viper_hands.py checks it against the plain one over every
class of seven-card hand, on CPython (where the decorator below does nothing) and in
MicroPython's unix port (where viper compiles it), and the scenario
20.34_every_category_at_one_showdown on the emulated Pico.

One function, calling none: MicroPython 1.27's viper for the RP2040 (armv6m) passed a
constant argument of a viper call wrongly (kickers(flush, 5, 5 << 20, 16) took 0xF000
for 5 << 20), so each "highest rank of a mask" is a loop written out in place.
"""

import sys

if sys.implementation.name == "micropython":
    from micropython import const   # viper's mark is the compiler's: nothing to import
else:   # CPython runs the same code as Python (a stub package's viper would refuse it)
    class micropython:
        @staticmethod
        def viper(f):
            return f

    def const(x):
        return x

# felt.poker.evaluate's categories, as constants viper compiles in.
_PAIR = const(1)
_TWO_PAIR = const(2)
_TRIPS = const(3)
_STRAIGHT = const(4)
_FLUSH = const(5)
_FULL_HOUSE = const(6)
_QUADS = const(7)
_STRAIGHT_FLUSH = const(8)


@micropython.viper
def evaluate(cards) -> int:
    """The value of the best five-card high hand that the cards make."""
    m1 = 0      # ranks seen at least once, twice, three and four times
    m2 = 0
    m3 = 0
    m4 = 0
    counts = 0  # four 4-bit counters of cards per suit
    s0 = 0      # rank mask per suit
    s1 = 0
    s2 = 0
    s3 = 0
    n = int(len(cards))
    i = 0
    while i < n:
        c = int(cards[i])
        i += 1
        b = 1 << (c >> 2)
        s = c & 3
        counts += 1 << (s << 2)
        if s == 0:
            s0 |= b
        elif s == 1:
            s1 |= b
        elif s == 2:
            s2 |= b
        else:
            s3 |= b
        if m1 & b:
            if m2 & b:
                if m3 & b:
                    m4 |= b
                else:
                    m3 |= b
            else:
                m2 |= b
        else:
            m1 |= b

    flush = 0
    five = (counts + 0x3333) & 0x8888  # a nibble of 5 or more sets its top bit
    if five:
        if five & 0x8:
            flush = s0
        elif five & 0x80:
            flush = s1
        elif five & 0x800:
            flush = s2
        else:
            flush = s3
    # A straight's run: the top rank of every five in a row (the ace also low, below
    # the two, bit 0 of x), of the flush's ranks when there is a flush, else of all.
    x = flush if flush else m1
    x = (x << 1) | (x >> 12)
    run = x & (x >> 1) & (x >> 2) & (x >> 3) & (x >> 4)
    if flush and run:
        t = 9
        while not (run >> t) & 1:
            t -= 1
        return (_STRAIGHT_FLUSH << 20) | ((t + 3) << 16)

    # The hand's leading ranks (its quads, trips, pairs) in `value`; its kickers: the
    # `k` highest ranks of `rest`, packed from bit `shift` down.
    t = 12              # the highest rank of three of a kind, if any
    while m3 and not (m3 >> t) & 1:
        t -= 1
    if m4:
        q = 12
        while not (m4 >> q) & 1:
            q -= 1
        value = (_QUADS << 20) | (q << 16)
        rest = m1 & ~(1 << q)
        k = 1
        shift = 12
    elif m3 and m2 & ~(1 << t):
        p = 12
        while not ((m2 & ~(1 << t)) >> p) & 1:
            p -= 1
        return (_FULL_HOUSE << 20) | (t << 16) | (p << 12)
    elif flush:
        value = _FLUSH << 20
        rest = flush
        k = 5
        shift = 16
    elif run:
        t = 9
        while not (run >> t) & 1:
            t -= 1
        return (_STRAIGHT << 20) | ((t + 3) << 16)
    elif m3:
        value = (_TRIPS << 20) | (t << 16)
        rest = m1 & ~(1 << t)
        k = 2
        shift = 12
    elif m2:
        p = 12
        while not (m2 >> p) & 1:
            p -= 1
        q = p - 1
        while q >= 0 and not (m2 >> q) & 1:
            q -= 1
        if q >= 0:
            value = (_TWO_PAIR << 20) | (p << 16) | (q << 12)
            rest = m1 & ~((1 << p) | (1 << q))
            k = 1
            shift = 8
        else:
            value = (_PAIR << 20) | (p << 16)
            rest = m1 & ~(1 << p)
            k = 3
            shift = 12
    else:
        value = 0       # high card: category 0
        rest = m1
        k = 5
        shift = 16
    r = 12
    while k and rest:
        while not (rest >> r) & 1:
            r -= 1
        value |= r << shift
        rest &= ~(1 << r)
        shift -= 4
        k -= 1
    return value
