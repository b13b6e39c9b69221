"""Four card poker hands, 19:47-27.11: the best four cards of five (a player) or six
(the dealer).

27.11's tables rank, highest first: four of a kind, straight flush, three of a kind,
flush, straight, two pairs, a pair, then no pair (high card).  The ace plays high or
low in a straight, never both: A-2-3-4 is the lowest straight, J-Q-K-A the highest and
Q-K-A-2 none (the rankings section is not in our texts; this is the game as dealt).
Suits have no rank.

The value is an int, larger is better, equal is a tie: the category in bits 16..,
then four 4-bit ranks (felt.poker.cards: 0 is a two, 12 an ace), most significant
first, that break ties within the category.
"""

from felt.poker.evaluate import top

HIGH_CARD = 0
PAIR = 1
TWO_PAIR = 2
STRAIGHT = 3
FLUSH = 4
TRIPS = 5
STRAIGHT_FLUSH = 6
QUADS = 7

NAMES = ("high card", "one pair", "two pairs", "straight", "flush", "three of a kind",
         "straight flush", "four of a kind")

ACE = 12


def _ranks(mask, value, shift):
    """value with the ranks of mask packed from bit `shift` down, highest first."""
    while mask:
        r = top(mask)
        value |= r << shift
        mask &= ~(1 << r)
        shift -= 4
    return value


def evaluate4(a, b, c, d):
    """The value of exactly the four cards a..d (card ints)."""
    m1 = m2 = m3 = m4 = 0   # ranks seen at least once, twice, three, four times
    for card in (a, b, c, d):
        x = 1 << (card >> 2)
        m4 |= m3 & x
        m3 |= m2 & x
        m2 |= m1 & x
        m1 |= x
    if m4:
        return (QUADS << 16) | (top(m4) << 12)
    if m3:
        return (TRIPS << 16) | (top(m3) << 12) | (top(m1 & ~m3) << 8)
    if m2:
        p = top(m2)
        rest = m2 & ~(1 << p)
        if rest:
            return (TWO_PAIR << 16) | (p << 12) | (top(rest) << 8)
        return _ranks(m1 & ~m2, (PAIR << 16) | (p << 12), 8)
    s = a & 3
    flush = (b & 3) == s and (c & 3) == s and (d & 3) == s
    x = (m1 << 1) | (m1 >> 12)   # bit 0 is the ace played low
    run = x & (x >> 1) & (x >> 2) & (x >> 3)
    if run:
        t = top(run) + 2         # run bit j: ranks j-1..j+2
        return ((STRAIGHT_FLUSH if flush else STRAIGHT) << 16) | (t << 12)
    return _ranks(m1, (FLUSH << 16) if flush else 0, 12)


def best4(cards):
    """(value, four cards) of the best four-card hand among four to six cards; the
    first best found when two choices tie (they hold the same hand)."""
    n = len(cards)
    best = -1
    chosen = None
    for i in range(n - 3):
        for j in range(i + 1, n - 2):
            for k in range(j + 1, n - 1):
                for m in range(k + 1, n):
                    v = evaluate4(cards[i], cards[j], cards[k], cards[m])
                    if v > best:
                        best = v
                        chosen = (cards[i], cards[j], cards[k], cards[m])
    return best, chosen


def category(value):
    return value >> 16


def name(value):
    """The hand's name as the sign and the dealer say it: "pair of aces" names the
    aces up wager's lowest paying hand (27.11(a)3)."""
    if value >> 16 == PAIR and (value >> 12) & 15 == ACE:
        return "pair of aces"
    return NAMES[value >> 16]
