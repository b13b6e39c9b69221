"""Low hands: A-5 low, deuce-to-seven low and the three-card A-5 low of Mambo stud.

Same convention as the high evaluator: an int, LARGER IS BETTER, equal is a tie, and
-1 when there is no qualifying hand, so a showdown compares high and low the same way.

13:69F-14.3(f): a low hand ranks as the inverse of the high rankings of (b) and (c).
The value is therefore LOW_TOP - h, where h is a high-style value (category << 20, then
4-bit ranks, most significant first) computed in the low game's own rank order:

- A-5 low (every low game but deuce-to-seven, 14.3(e)-(f)): the ace is the lowest card
  (rank 0 = A, 1 = 2, .. 12 = K, LOW_RANKS), straights and flushes are not considered,
  so h is high card, pair, two pairs, three of a kind, full house or four of a kind
  (evaluate's category numbers).  An unpaired hand beats any paired one; unpaired hands
  compare highest card first (8-6-4-2-A beats 8-6-4-3-2), A-2-3-4-5 is the best.
- Deuce-to-seven (14.3(e), triple draw variation): the ace is only high, straights
  and flushes count against the hand, and A-2-3-4-5 is no straight but ace high; h is
  evaluate()'s value with the wheel demoted.  7-5-4-3-2 unsuited is the best.

Qualifiers (a rank, ace counting 1): "eight or better", 19:47-14.9(j), is no pair and
no card above an eight; Mambo stud's "six or better" (rules README) is three cards, no
pair, none above a six.  A hand that does not qualify is -1.
"""

from felt.poker.evaluate import top, kickers, grouped, STRAIGHT, STRAIGHT_FLUSH, \
    FLUSH, HIGH_CARD, PAIR, TWO_PAIR, TRIPS, FULL_HOUSE, QUADS

LOW_TOP = (9 << 20) - 1  # above every h, so every low value is >= 0 (and < 2**30)
LOW_RANKS = "A23456789TJQK"  # A-5 rank order, best (lowest) first


def a5_mask(mask):
    """A 13-bit rank mask (bit r = rank r, 2..A) re-ordered ace low (bit 0 = A)."""
    return ((mask << 1) | (mask >> 12)) & 0x1FFF


def lowest(mask, n):
    """The n lowest set bits of mask, or 0 if it has fewer than n."""
    out = 0
    while n:
        if not mask:
            return 0
        b = mask & -mask
        out |= b
        mask ^= b
        n -= 1
    return out


def low_ranks(mask, n):
    """The n lowest ranks of an A-5 rank mask packed as a high card h (the highest of
    them in bits 16-19, the next below it, ...), or -1 if the mask has fewer than n."""
    h = 0
    shift = 20 - 4 * n
    while shift < 20:
        if not mask:
            return -1
        b = mask & -mask
        mask ^= b
        h |= top(b) << shift
        shift += 4
    return h


def _a5_five(cards, used):
    """h (ace low, no straights or flushes) of the five cards whose indexes are the
    set bits of `used`."""
    m1 = m2 = m3 = m4 = 0
    i = 0
    for c in cards:
        if used >> i & 1:
            r = c >> 2
            x = 1 if r == 12 else 2 << r   # ace low
            m4 |= m3 & x
            m3 |= m2 & x
            m2 |= m1 & x
            m1 |= x
        i += 1
    if m2:
        return grouped(m1, m2, m3, m4)
    return kickers(m1, 5, HIGH_CARD << 20, 16)


def low_a5(cards, qualifier=None):
    """The best A-5 low among any five of 5..7 cards, 13:69F-14.3(e)-(f).

    With five or more distinct ranks the best low is the five lowest of them.  Fewer
    distinct ranks make a paired low, worse than any unpaired one; it is still a low
    unless a qualifier is asked for.  qualifier=8 is 19:47-14.9(j)'s eight or better
    (no pair, no card above 8): -1 when the cards do not make one."""
    m = 0
    for c in cards:
        m |= 1 << (c >> 2)
    lm = a5_mask(m)
    if qualifier is not None:
        lm &= (1 << qualifier) - 1
    h = low_ranks(lm, 5)
    if h >= 0:
        return LOW_TOP - h
    if qualifier is not None:
        return -1
    n = len(cards)
    if n < 5:
        return -1
    # Fewer than five distinct ranks: the best of the five-card subsets (at most 21,
    # visited as the 5-bit subsets of n bits, Gosper's hack).
    used = 0x1F
    best = LOW_TOP
    while used < (1 << n):
        h = _a5_five(cards, used)
        if h < best:
            best = h
        low = used & -used
        up = used + low
        used = (((up ^ used) >> 2) // low) | up
    return LOW_TOP - best


def low27_5(a, b, c, d, e):
    """low_27() of the five cards a..e passed as ints."""
    # A list sorted in place: quicker than sorted() of a tuple, which copies it.
    ranks = [a >> 2, b >> 2, c >> 2, d >> 2, e >> 2]
    ranks.sort()
    r0, r1, r2, r3, r4 = ranks
    # h is packed with * 16 and +, the same bits as << and | (the nibbles never
    # overlap): CPython runs int * and + quicker, MicroPython both alike.
    if r0 < r1 < r2 < r3 < r4:
        # No pair: evaluate5()'s value without its kickers loop.  The ace plays high
        # only, so A-2-3-4-5 is no straight (r4 - r0 is then 12) but ace high.
        s = a & 3
        flush = (b & 3) == s and (c & 3) == s and (d & 3) == s and (e & 3) == s
        if r4 - r0 == 4:
            return LOW_TOP - ((STRAIGHT_FLUSH if flush else STRAIGHT) * 16 + r4) * 65536
        return LOW_TOP - ((((((FLUSH if flush else HIGH_CARD) * 16 + r4) * 16 + r3) * 16 +
                            r2) * 16 + r1) * 16 + r0)
    # Paired (so no straight or flush): grouped()'s value read off the sorted ranks,
    # the larger group first, then the higher rank, without evaluate5()'s rank masks.
    if r1 == r3:                    # r1 = r2 = r3
        if r0 == r1:
            h = ((QUADS * 16 + r0) * 16 + r4) * 4096
        elif r3 == r4:
            h = ((QUADS * 16 + r1) * 16 + r0) * 4096
        else:
            h = (((TRIPS * 16 + r1) * 16 + r4) * 16 + r0) * 256
    elif r0 == r2:                  # trips low, r3 above them
        if r3 == r4:
            h = ((FULL_HOUSE * 16 + r0) * 16 + r3) * 4096
        else:
            h = (((TRIPS * 16 + r0) * 16 + r4) * 16 + r3) * 256
    elif r2 == r4:                  # trips high, r1 below them
        if r0 == r1:
            h = ((FULL_HOUSE * 16 + r2) * 16 + r0) * 4096
        else:
            h = (((TRIPS * 16 + r2) * 16 + r1) * 16 + r0) * 256
    elif r3 == r4:                  # no trips from here on
        if r0 == r1:
            h = (((TWO_PAIR * 16 + r3) * 16 + r0) * 16 + r2) * 256
        elif r1 == r2:
            h = (((TWO_PAIR * 16 + r3) * 16 + r1) * 16 + r0) * 256
        else:
            h = ((((PAIR * 16 + r3) * 16 + r2) * 16 + r1) * 16 + r0) * 16
    elif r2 == r3:
        if r0 == r1:
            h = (((TWO_PAIR * 16 + r2) * 16 + r0) * 16 + r4) * 256
        else:
            h = ((((PAIR * 16 + r2) * 16 + r4) * 16 + r1) * 16 + r0) * 16
    elif r1 == r2:
        h = ((((PAIR * 16 + r1) * 16 + r4) * 16 + r3) * 16 + r0) * 16
    else:                           # r0 = r1
        h = ((((PAIR * 16 + r0) * 16 + r4) * 16 + r3) * 16 + r2) * 16
    return LOW_TOP - h


def low_27(cards):
    """The deuce-to-seven low of exactly five cards, 13:69F-14.3(e)-(f): the inverse
    of the five-card high ranking, ace high only, straights and flushes count."""
    return low27_5(cards[0], cards[1], cards[2], cards[3], cards[4])


def low3_5(a, b, c, qualifier=6):
    """low3_a5() of the three cards a, b, c passed as ints."""
    x = 1 << (a >> 2)
    m1 = x
    x = 1 << (b >> 2)
    m2 = m1 & x
    m1 |= x
    x = 1 << (c >> 2)
    m3 = m2 & x
    m2 |= m1 & x
    m1 |= x
    lm = a5_mask(m1)
    if not m2:
        if qualifier is not None:
            lm &= (1 << qualifier) - 1
        h = low_ranks(lm, 3)
        return LOW_TOP - h if h >= 0 else -1
    if qualifier is not None:
        return -1
    if m3:
        return LOW_TOP - ((TRIPS << 20) | (top(a5_mask(m3)) << 16))
    p = a5_mask(m2)
    return LOW_TOP - ((PAIR << 20) | (top(p) << 16) | (top(lm & ~p) << 12))


def low3_a5(cards, qualifier=6):
    """The three-card A-5 low of exactly three cards (Mambo stud, rules README): ace
    low, straights and flushes ignored, A-2-3 best.  With the default six-or-better
    qualifier, -1 unless the three cards are unpaired and six or lower.
    qualifier=None ranks every three cards (a pair below any unpaired hand)."""
    return low3_5(cards[0], cards[1], cards[2], qualifier)
