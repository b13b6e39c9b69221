"""An independent, plain reading of the house-banked games' rules, for the host tests
to check felt.banked against: a brute-force four-card classifier and the posted odds,
written out here from the regulation's text rather than imported from the firmware.

Cards are Felt's ints (rank * 4 + suit, rank 0 a two, 12 an ace)."""

from collections import Counter
from itertools import combinations

# Categories, lowest first (19:47-27.11's tables, highest first, read backwards).
CATEGORIES = ["high card", "pair", "two pairs", "straight", "flush", "three of a kind",
              "straight flush", "four of a kind"]

# 19:47-27.11(a)2 and (a)3, keyed by category name; "pair of aces" is the pair row.
ANTE_BONUS = {"four of a kind": 25, "straight flush": 20, "three of a kind": 2}
ACES_UP_ROWS = ["four of a kind", "straight flush", "three of a kind", "flush",
                "straight", "two pairs", "pair of aces"]
ACES_UP = {"I": [50, 40, 9, 6, 4, 2, 1], "II": [50, 40, 7, 6, 5, 2, 1],
           "III": [50, 30, 9, 6, 4, 2, 1], "IV": [50, 30, 7, 6, 5, 2, 1],
           "V": [50, 40, 8, 5, 4, 3, 1], "VI": [50, 40, 8, 6, 4, 2, 1],
           "VII": [50, 40, 7, 5, 4, 3, 1]}


def key4(cards):
    """(category index, tie-break ranks) of exactly four cards: compare as tuples."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    by_group = [r for r, _ in sorted(counts.items(), key=lambda kv: (kv[1], kv[0]),
                                     reverse=True)]
    distinct = sorted(counts)
    top = None
    if len(distinct) == 4:
        if distinct[3] - distinct[0] == 3:
            top = distinct[3]
        elif distinct == [0, 1, 2, 12]:      # A-2-3-4: the ace plays low
            top = 2
    if shape == [4]:
        return (7, by_group)
    if top is not None and flush:
        return (6, [top])
    if shape == [3, 1]:
        return (5, by_group)
    if flush:
        return (4, ranks)
    if top is not None:
        return (3, [top])
    if shape == [2, 2]:
        return (2, by_group)
    if shape == [2, 1, 1]:
        return (1, by_group)
    return (0, ranks)


def best_key(cards):
    """The best key4 of any four of the cards."""
    return max(key4(four) for four in combinations(cards, 4))


def row_name(key):
    name = CATEGORIES[key[0]]
    if name == "pair":
        return "pair of aces" if key[1][0] == 12 else None
    return name


def four_card_net(hole, dealer, ante, times, aces_up, table):
    """The seat's net chips for a four card poker hand; times 0 is a fold."""
    p = best_key(hole)
    net = 0
    if ante:
        if not times:
            net -= ante                                   # 27.10(c)
        else:
            play = ante * times
            net += ante + play if p >= best_key(dealer) else -(ante + play)  # 27.11(a)1
            net += ante * ANTE_BONUS.get(CATEGORIES[p[0]], 0)                # 27.11(a)2
    if aces_up:
        row = row_name(p)
        if row in ACES_UP_ROWS:
            net += aces_up * ACES_UP[table][ACES_UP_ROWS.index(row)]         # 27.11(a)3
        else:
            net -= aces_up
    return net


# Texas hold 'em bonus poker's posted bonus table (see felt.banked.paytables).
def bonus_odds(hole, dealer):
    ranks = sorted((c // 4 for c in hole), reverse=True)
    suited = hole[0] % 4 == hole[1] % 4
    if ranks == [12, 12]:
        return 1000 if sorted(c // 4 for c in dealer) == [12, 12] else 30
    if ranks[0] == ranks[1]:
        return 10 if ranks[0] >= 9 else 3
    if ranks == [12, 11]:
        return 25 if suited else 15
    if ranks in ([12, 10], [12, 9]):
        return 20 if suited else 5
    return 0
