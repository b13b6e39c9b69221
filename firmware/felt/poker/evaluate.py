"""High hand evaluation: the best five-card hand among five to seven cards.

13:47-20.34(b)-(c) and (e): the value is an int, larger is better, equal is a tie.
Bits 20.. hold the category (0 high card .. 8 straight flush, a royal flush being the
top straight flush); below it, five 4-bit ranks, most significant first, that break ties
within the category (the "highest card not contained in the other hand" of (e)).

The evaluator works on 13-bit rank masks rather than the 21 five-card subsets, so one
call costs a handful of bit operations; its only table is 128 bytes.

Also here: evaluate5(a, b, c, d, e), the same value for exactly five cards passed as
ints (for constructions that try many hands), and high3 / evaluate3, the three-card
high hand of 13:69F-14.3(c).  Low hands are in felt.poker.low; per-game constructions
(Omaha, stud, Mambo, draw) and describe() in felt.poker.hands.
"""

HIGH_CARD = 0
PAIR = 1
TWO_PAIR = 2
TRIPS = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
QUADS = 7
STRAIGHT_FLUSH = 8

NAMES = ("high card", "one pair", "two pairs", "three of a kind", "straight", "flush",
         "full house", "four of a kind", "straight flush")


def _top_bits_table():
    t = bytearray(128)
    for i in range(1, 128):
        b = 0
        while i >> (b + 1):
            b += 1
        t[i] = b
    return bytes(t)


_TOP7 = _top_bits_table()  # index of the highest set bit of a 7-bit number


def top(mask):
    """The highest rank in a non-empty 13-bit rank mask."""
    if mask >> 7:
        return 7 + _TOP7[mask >> 7]
    return _TOP7[mask]


def straight_top(mask):
    """The top rank of the best straight in a rank mask, or -1.

    The ace also plays low, below the two, and never wraps around (K-A-2 is no
    straight): 13:47-20.34(c)2 and 6."""
    x = (mask << 1) | (mask >> 12)  # bit 0 is the ace played low
    s = x & (x >> 1) & (x >> 2) & (x >> 3) & (x >> 4)
    if s:
        return top(s) + 3
    return -1


def kickers(mask, n, value, shift):
    """Pack the n highest ranks of mask into value, from bit `shift` downwards."""
    while n and mask:
        r = 7 + _TOP7[mask >> 7] if mask >> 7 else _TOP7[mask]   # top(mask), inline
        value |= r << shift
        mask &= ~(1 << r)
        shift -= 4
        n -= 1
    return value


def evaluate(cards):
    """The value of the best five-card high hand that the cards make."""
    m1 = m2 = m3 = m4 = 0   # ranks seen at least once, twice, three and four times
    counts = 0              # four 4-bit counters of cards per suit
    s0 = s1 = s2 = s3 = 0   # rank mask per suit
    for c in cards:
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
        t = straight_top(flush)
        if t >= 0:
            return (STRAIGHT_FLUSH << 20) | (t << 16)
    if m4:
        q = top(m4)
        return kickers(m1 & ~(1 << q), 1, (QUADS << 20) | (q << 16), 12)
    if m3:
        t = top(m3)
        pairs = m2 & ~(1 << t)
        if pairs:
            return (FULL_HOUSE << 20) | (t << 16) | (top(pairs) << 12)
    if flush:
        return kickers(flush, 5, FLUSH << 20, 16)
    t = straight_top(m1)
    if t >= 0:
        return (STRAIGHT << 20) | (t << 16)
    if m3:
        t = top(m3)
        return kickers(m1 & ~(1 << t), 2, (TRIPS << 20) | (t << 16), 12)
    if m2:
        p = top(m2)
        rest = m2 & ~(1 << p)
        if rest:
            q = top(rest)
            return kickers(m1 & ~((1 << p) | (1 << q)), 1,
                            (TWO_PAIR << 20) | (p << 16) | (q << 12), 8)
        return kickers(m1 & ~(1 << p), 3, (PAIR << 20) | (p << 16), 12)
    return kickers(m1, 5, HIGH_CARD << 20, 16)


def category(value):
    return value >> 20


def name(value):
    return NAMES[value >> 20]


def grouped(m1, m2, m3, m4):
    """The value of exactly five cards with a paired rank, from their rank masks (ranks
    seen at least once, twice, three and four times).  Five paired cards make no
    straight or flush, so only the grouping counts; the layout is evaluate()'s."""
    if m4:
        return (QUADS << 20) | (top(m4) << 16) | (top(m1 & ~m4) << 12)
    if m3:
        t = top(m3)
        if m2 & ~m3:
            return (FULL_HOUSE << 20) | (t << 16) | (top(m2 & ~m3) << 12)
        return kickers(m1 & ~m3, 2, (TRIPS << 20) | (t << 16), 12)
    p = top(m2)
    rest = m2 & ~(1 << p)
    if rest:
        return (TWO_PAIR << 20) | (p << 16) | (top(rest) << 12) | (top(m1 & ~m2) << 8)
    return kickers(m1 & ~m2, 3, (PAIR << 20) | (p << 16), 12)


def evaluate5(a, b, c, d, e):
    """evaluate() of exactly the five cards a..e, passed as five ints (no list), for
    the constructions that try many five-card hands (Omaha's 60).  Same values."""
    x = 1 << (a >> 2)
    m1 = x
    x = 1 << (b >> 2)
    m2 = m1 & x
    m1 |= x
    x = 1 << (c >> 2)
    m3 = m2 & x
    m2 |= m1 & x
    m1 |= x
    x = 1 << (d >> 2)
    m4 = m3 & x
    m3 |= m2 & x
    m2 |= m1 & x
    m1 |= x
    x = 1 << (e >> 2)
    m4 |= m3 & x
    m3 |= m2 & x
    m2 |= m1 & x
    m1 |= x
    if m2:
        return grouped(m1, m2, m3, m4)
    t = straight_top(m1)
    s = a & 3
    if (b & 3) == s and (c & 3) == s and (d & 3) == s and (e & 3) == s:
        if t >= 0:
            return (STRAIGHT_FLUSH << 20) | (t << 16)
        return kickers(m1, 5, FLUSH << 20, 16)
    if t >= 0:
        return (STRAIGHT << 20) | (t << 16)
    return kickers(m1, 5, HIGH_CARD << 20, 16)


# Three-card high hands, 13:69F-14.3(c) and 13:47-20.34(d): a straight beats a flush
# here, and three of a kind beats both.  Same layout: category << 20, then the ranks
# that break ties (d), most significant first, in bits 16, 12 and 8.
H3_HIGH_CARD = 0
H3_PAIR = 1
H3_FLUSH = 2
H3_STRAIGHT = 3
H3_TRIPS = 4
H3_STRAIGHT_FLUSH = 5

H3_NAMES = ("high card", "one pair", "flush", "straight", "three of a kind",
            "straight flush")


def evaluate3(a, b, c):
    """high3() of the three cards a, b, c passed as ints."""
    ra = a >> 2
    rb = b >> 2
    rc = c >> 2
    if ra == rb:
        if rb == rc:
            return (H3_TRIPS << 20) | (ra << 16)
        return (H3_PAIR << 20) | (ra << 16) | (rc << 12)
    if ra == rc or rb == rc:
        return (H3_PAIR << 20) | (rc << 16) | ((ra + rb - rc) << 12)
    m = (1 << ra) | (1 << rb) | (1 << rc)
    x = (m << 1) | (m >> 12)  # bit 0 is the ace played low: A-2-3, never K-A-2
    s = (a & 3) == (b & 3) == (c & 3)
    run = x & (x >> 1) & (x >> 2)
    if run:
        t = top(run) + 1
        if s:
            return (H3_STRAIGHT_FLUSH << 20) | (t << 16)
        return (H3_STRAIGHT << 20) | (t << 16)
    return kickers(m, 3, (H3_FLUSH << 20) if s else (H3_HIGH_CARD << 20), 16)


def high3(cards):
    """The three-card high hand of exactly three cards, 13:69F-14.3(c)-(d)."""
    return evaluate3(cards[0], cards[1], cards[2])
