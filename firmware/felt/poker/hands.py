"""Showdown hands per game: which cards a player may combine, and the best value.

Every function returns an int, LARGER IS BETTER, equal is a tie, -1 for no qualifying
hand (a low that does not qualify), so high and low pots are settled the same way.
Values of different functions are not comparable with each other; describe() names one
for the logs given its kind.

- holdem_high: any five of the hole cards and the board (Hold 'em, Pineapple).
- omaha_high, omaha_low8: exactly two of the four hole cards and exactly three of the
  board (Omaha high, high-low split eight or better; 13:69F-14.8(a)3).
- stud_high, stud_low: any five of the player's five to seven cards (seven-card stud
  19:47-14.9(i), (k): the high and the low may use different five; five-card stud).
  stud_low(cards, 8) is 19:47-14.9(j) eight or better; stud_low(cards) has no
  qualifier (stud high-low split: rules README).
- mambo_high, mambo_low6: the best three of the player's three cards and the
  community card (Mambo stud, rules README): 13:69F-14.3(c) high, A-5 six-or-better low.
- draw_high, draw_low_a5, draw_low_27: the five cards held (five-card draw, triple
  draw low ball A-5 and deuce-to-seven, 13:69F-14.12B(l)).
"""

from felt import lazy
from felt.poker.evaluate import evaluate, evaluate5, evaluate3, NAMES, \
    H3_NAMES, HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, \
    STRAIGHT_FLUSH, H3_PAIR, H3_TRIPS, H3_STRAIGHT, H3_STRAIGHT_FLUSH

# The low hands' rules, loaded (felt.lazy) by the first low a table's game values or
# names: a game with no low never has them in the heap.
LOWS = "felt.poker.low"

# Kinds of value, for describe().
HIGH = "high"        # five-card high: evaluate, holdem_high, omaha_high, stud_high, draw_high
HIGH3 = "high3"      # three-card high: high3, mambo_high
LOW_A5 = "low_a5"    # five-card A-5 low: low_a5, omaha_low8, stud_low, draw_low_a5
LOW_27 = "low_27"    # deuce-to-seven: low_27, draw_low_27
LOW3 = "low3"        # three-card A-5 low: low3_a5, mambo_low6


def holdem_high(hole, board):
    """The best five of the hole cards and the board (lists), 13:47-20.36(j)."""
    return evaluate(hole + board)   # one list made: a Pico took 100-200 us for two tuples


def omaha_high(hole, board):
    """The best high hand of exactly two hole cards and exactly three board cards.

    The 60 five-card hands are ranked by a cheap key with evaluate()'s order, built
    from rank masks merged from the hole pair and the board triple (no list, no kicker
    packing per hand): category << 26, then the tie-break ranks as masks, which order
    correctly because two sets of as many ranks compare, highest rank first, like the
    masks as numbers.  Only the winning five cards are then evaluated."""
    # Hole pairs: their rank mask, pair bit, suit (-1 unless suited) and indexes.
    h1 = []
    h2 = []
    hs = []
    hij = []
    nh = len(hole)
    for i in range(nh - 1):
        a = hole[i]
        x = 1 << (a >> 2)
        for j in range(i + 1, nh):
            b = hole[j]
            y = 1 << (b >> 2)
            h1.append(x | y)
            h2.append(x & y)
            hs.append((a & 3) if (a & 3) == (b & 3) else -1)
            hij.append((i << 4) | j)
    npairs = len(h1)
    nb = len(board)
    best = -1
    at = 0
    for k in range(nb - 2):
        c = board[k]
        x = 1 << (c >> 2)
        for m in range(k + 1, nb - 1):
            d = board[m]
            y = 1 << (d >> 2)
            p1 = x | y
            p2 = x & y
            for n in range(m + 1, nb):
                e = board[n]
                z = 1 << (e >> 2)
                b1 = p1 | z          # board ranks seen once or more
                b2 = p2 | (p1 & z)   # twice or more
                b3 = p2 & z          # three times
                bs = c & 3
                if (d & 3) != bs or (e & 3) != bs:
                    bs = -2
                for q in range(npairs):
                    a1 = h1[q]
                    a2 = h2[q]
                    m1 = a1 | b1
                    m2 = a2 | b2 | (a1 & b1)
                    if m2:
                        m3 = b3 | (a2 & b1) | (a1 & b2)
                        m4 = (a2 & b2) | (a1 & b3)
                        if m4:
                            key = (QUADS << 26) | (m4 << 13) | (m1 & ~m4)
                        elif m3:
                            if m2 & ~m3:
                                key = (FULL_HOUSE << 26) | (m3 << 13) | (m2 & ~m3)
                            else:
                                key = (TRIPS << 26) | (m3 << 13) | (m1 & ~m3)
                        elif m2 & (m2 - 1):
                            key = (TWO_PAIR << 26) | (m2 << 13) | (m1 & ~m2)
                        else:
                            key = (PAIR << 26) | (m2 << 13) | (m1 & ~m2)
                    else:
                        w = (m1 << 1) | (m1 >> 12)  # bit 0 is the ace played low
                        w &= (w >> 1) & (w >> 2) & (w >> 3) & (w >> 4)
                        if hs[q] == bs:
                            key = (STRAIGHT_FLUSH << 26) | w if w else (FLUSH << 26) | m1
                        elif w:
                            key = (STRAIGHT << 26) | w
                        else:
                            key = m1
                    if key > best:
                        best = key
                        at = (hij[q] << 12) | (k << 8) | (m << 4) | n
    if best < 0:
        return -1
    return evaluate5(hole[at >> 16], hole[(at >> 12) & 15], board[(at >> 8) & 15],
                     board[(at >> 4) & 15], board[at & 15])


def _a5_bit(card):
    r = card >> 2
    return 1 if r == 12 else 2 << r


def omaha_low8(hole, board):
    """The best A-5 eight-or-better low of exactly two hole cards and three board
    cards, or -1.  No combination loop over the board: for two hole cards of distinct
    ranks eight or lower, the best three board cards are the three lowest board ranks
    eight or lower not already held, and a lower five-rank mask is a better low."""
    low = lazy.load(LOWS)
    lowest = low.lowest
    board_low = 0
    for c in board:
        board_low |= _a5_bit(c)
    board_low &= 0xFF  # A..8
    if not lowest(board_low, 3):
        return -1
    best = 0
    nh = len(hole)
    for i in range(nh - 1):
        a = _a5_bit(hole[i])
        if a > 0x80:
            continue
        for j in range(i + 1, nh):
            b = _a5_bit(hole[j])
            if b > 0x80 or b == a:
                continue
            rest = lowest(board_low & ~(a | b), 3)
            if rest:
                low5 = a | b | rest
                if best == 0 or low5 < best:
                    best = low5
    if not best:
        return -1
    return low.LOW_TOP - low.low_ranks(best, 5)


def stud_high(cards):
    """The best five-card high hand of five to seven cards."""
    return evaluate(cards)


def stud_low(cards, qualifier=None):
    """The best five-card A-5 low of five to seven cards; qualifier=8 for eight or
    better (19:47-14.9(j)), -1 when none qualifies."""
    return lazy.load(LOWS).low_a5(cards, qualifier)


def mambo_high(own, community):
    """The best three-card high hand (13:69F-14.3(c)) of the three own cards and the
    community card."""
    a = own[0]
    b = own[1]
    c = own[2]
    best = evaluate3(a, b, c)
    v = evaluate3(a, b, community)
    if v > best:
        best = v
    v = evaluate3(a, c, community)
    if v > best:
        best = v
    v = evaluate3(b, c, community)
    if v > best:
        best = v
    return best


def mambo_low6(own, community):
    """The best three-card A-5 six-or-better low of the three own cards and the
    community card, or -1: the three lowest distinct ranks six or lower among the four
    cards (an unpaired three-card low compares like its rank mask)."""
    low = lazy.load(LOWS)
    m = 1 << (community >> 2)
    for c in own:
        m |= 1 << (c >> 2)
    h = low.low_ranks(low.a5_mask(m) & 0x3F, 3)  # A..6
    if h < 0:
        return -1
    return low.LOW_TOP - h


def draw_high(cards):
    """Five-card draw high: the five cards held."""
    return evaluate5(cards[0], cards[1], cards[2], cards[3], cards[4])


def draw_low_a5(cards):
    """Five-card draw low, triple draw A-5: the five cards held, no qualifier."""
    return lazy.load(LOWS).low_a5(cards)


def draw_low_27(cards):
    """Triple draw deuce-to-seven: the five cards held."""
    return lazy.load(LOWS).low27_5(cards[0], cards[1], cards[2], cards[3], cards[4])


# -- names for the logs --------------------------------------------------------------

RANKS = "23456789TJQKA"
_PLURALS = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
            "tens", "jacks", "queens", "kings", "aces")


def _ranks(h, n, order):
    """The n ranks in the nibbles of h from bit 16 down, as "8-6-4-2-A"."""
    out = []
    shift = 16
    while n:
        out.append(order[(h >> shift) & 15])
        shift -= 4
        n -= 1
    return "-".join(out)


def _describe_high(h):
    cat = h >> 20
    r = (h >> 16) & 15
    q = (h >> 12) & 15
    if cat == STRAIGHT_FLUSH:
        if r == 12:
            return "royal flush"
        return "straight flush, %s high" % RANKS[r]
    if cat == QUADS:
        return "four of a kind, " + _PLURALS[r]
    if cat == FULL_HOUSE:
        return "full house, %s full of %s" % (_PLURALS[r], _PLURALS[q])
    if cat == FLUSH:
        return "flush, " + _ranks(h, 5, RANKS)
    if cat == STRAIGHT:
        return "straight, %s high" % RANKS[r]
    if cat == TRIPS:
        return "three of a kind, " + _PLURALS[r]
    if cat == TWO_PAIR:
        return "two pairs, %s and %s" % (_PLURALS[r], _PLURALS[q])
    if cat == PAIR:
        return "one pair, " + _PLURALS[r]
    return "high card, " + _ranks(h, 5, RANKS)


def _describe_high3(h):
    cat = h >> 20
    r = (h >> 16) & 15
    if cat == H3_STRAIGHT_FLUSH:
        if r == 12:
            return "royal flush"
        return "straight flush, %s high" % RANKS[r]
    if cat == H3_TRIPS:
        return "three of a kind, " + _PLURALS[r]
    if cat == H3_STRAIGHT:
        return "straight, %s high" % RANKS[r]
    if cat == H3_PAIR:
        return "one pair, " + _PLURALS[r]
    return H3_NAMES[cat] + ", " + _ranks(h, 3, RANKS)


# The five cards of each category as counts of its ranks, in nibble order: a pair is
# (2, 1, 1, 1), a full house (3, 2).  Straights and flushes have no groups.
_GROUPS = (b"\x01\x01\x01\x01\x01", b"\x02\x01\x01\x01", b"\x02\x02\x01",
           b"\x03\x01\x01", b"", b"", b"\x03\x02", b"\x04\x01")
_GROUPS3 = (b"\x01\x01\x01", b"\x02\x01", b"", b"\x03")


def _cards(h, groups, order):
    """The ranks of a hand, repeated as held, e.g. "2-2-K-Q-J"."""
    out = []
    shift = 16
    for n in groups:
        out += [order[(h >> shift) & 15]] * n
        shift -= 4
    return "-".join(out)


def kinds(variant):
    """(high, low): the kinds `describe` names a variant's hands by."""
    if variant.hand == "mambo":
        return HIGH3, LOW3
    return HIGH, LOW_27 if variant.low == "27" else LOW_A5


def describe(value, kind):
    """A short name for a value of the given kind (HIGH, HIGH3, LOW_A5, LOW_27, LOW3),
    e.g. "two pairs, kings and nines", "8-6-4-2-A low", "7-5-4-3-2",
    "one pair, 2-2-K-Q-J low"."""
    if value < 0:
        if kind == HIGH or kind == HIGH3:
            return "no hand"
        return "no qualifying low"
    if kind == HIGH:
        return _describe_high(value)
    if kind == HIGH3:
        return _describe_high3(value)
    low = lazy.load(LOWS)
    h = low.LOW_TOP - value
    cat = h >> 20
    if kind == LOW_27:
        if cat == HIGH_CARD:
            return _ranks(h, 5, RANKS)
        return _describe_high(h)
    groups = (_GROUPS3 if kind == LOW3 else _GROUPS)[cat]
    if cat == HIGH_CARD:
        return _cards(h, groups, low.LOW_RANKS) + " low"
    return "%s, %s low" % (NAMES[cat], _cards(h, groups, low.LOW_RANKS))
