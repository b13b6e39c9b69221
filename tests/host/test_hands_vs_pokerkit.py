"""Three-card high, low hands and per-game constructions against PokerKit 0.7.7.

Felt's values are ints, larger is better, equal ties, -1 for no qualifying hand
(felt.poker.evaluate, .low, .hands).  PokerKit's hands compare with < and ==, low hands
inverted for us; "no qualifying hand" is from_game_or_none() returning None.  What must
agree is the order of any two hands, ties included.

PokerKit's hand types and the rules they stand for here:
- RhodeIslandHoldemHand: three cards, straight flush > trips > straight > flush > pair
  > high card, A-2-3 lowest straight, no K-A-2: 13:69F-14.3(c).  Checked on all 22,100
  three-card hands, and as Mambo stud's best three of four.
- RegularLowHand: A-5 low, straights and flushes ignored, pairs allowed (best five of
  five to seven cards): 13:69F-14.3(e)-(f) low without qualifier (razz, stud high-low,
  five-card draw low, triple draw A-5).
- EightOrBetterLowHand / OmahaEightOrBetterLowHand: 19:47-14.9(j), stud and Omaha.
- OmahaHoldemHand: exactly two hole cards and three board cards.
- StandardLowHand: PokerKit 0.7.7 has no class named DeuceToSevenLowHand; its
  deuce-to-seven games (FixedLimitDeuceToSevenLowballTripleDraw) use StandardLowHand,
  the inverse of the high ranking with no ace-low straight: 13:69F-14.3(e)-(f).
- PokerKit has no three-card low: Mambo stud's six-or-better low is checked against a
  reference written here from the rules README's text.
StandardHighHand is checked in test_evaluate_vs_pokerkit.py.
"""

import random
from itertools import combinations, combinations_with_replacement

import pytest

from sampling import examples, first, sampled

pokerkit = pytest.importorskip("pokerkit")
from pokerkit import (  # noqa: E402
    Card, EightOrBetterLowHand, OmahaEightOrBetterLowHand, OmahaHoldemHand,
    RegularLowHand, RhodeIslandHoldemHand, StandardLowHand)

from felt.poker import cards as C  # noqa: E402
from felt.poker.evaluate import evaluate3, high3  # noqa: E402
from felt.poker.low import low_a5, low_27, low3_a5  # noqa: E402
from felt.poker.hands import (  # noqa: E402
    omaha_high, omaha_low8, stud_low, mambo_high, mambo_low6, draw_low_27, draw_low_a5)

PK_CARD = [next(iter(Card.parse(C.code(c)))) for c in range(C.DECK_SIZE)]
DECK = list(range(C.DECK_SIZE))


def sign(x):
    return (x > 0) - (x < 0)


def pk(cards):
    return [PK_CARD[c] for c in cards]


def pk_cmp(a, b):
    """-1, 0, 1 for two PokerKit hands, None (no qualifying hand) below any hand."""
    if a is None or b is None:
        return (a is not None) - (b is not None)
    return (a > b) - (a < b)


def felt_cmp(a, b):
    return sign(a - b)


def check_sorted_chain(items, felt_value, pk_hand):
    """Sort items by Felt's value and check PokerKit orders every neighbouring pair the
    same way (< or ==).  Both orders are total preorders, so agreeing on neighbours of
    the sorted chain is agreeing on every pair, ties included."""
    rows = sorted([(felt_value(x), x) for x in items])
    hands = [pk_hand(x) for _, x in rows]
    bad = []
    for i in range(len(rows) - 1):
        ours = felt_cmp(rows[i][0], rows[i + 1][0])
        theirs = pk_cmp(hands[i], hands[i + 1])
        if ours != theirs and len(bad) < 5:
            bad.append("%s vs %s: Felt %d, PokerKit %d" % (
                C.codes(rows[i][1]), C.codes(rows[i + 1][1]), ours, theirs))
    assert not bad, "\n".join(bad)
    return rows


def check_pairs(deals, felt_value, pk_hand):
    """deals: (a, b) pairs of whatever felt_value/pk_hand take; compare their orders."""
    bad = []
    ties = 0
    for a, b in deals:
        ours = felt_cmp(felt_value(a), felt_value(b))
        theirs = pk_cmp(pk_hand(a), pk_hand(b))
        ties += ours == 0
        if ours != theirs and len(bad) < 5:
            bad.append("%r vs %r: Felt %d, PokerKit %d" % (a, b, ours, theirs))
    assert not bad, "\n".join(bad)
    return ties


def unsuited(ranks):
    """Five cards of the given ranks that are not all of one suit: suits in turn for
    five distinct ranks, otherwise each repeat of a rank in the next suit."""
    if len(set(ranks)) == 5:
        return [r * 4 + i % 4 for i, r in enumerate(ranks)]
    return [r * 4 + ranks[:i].count(r) for i, r in enumerate(ranks)]


def five_card_classes():
    """One hand per five-card rank multiset (6,175), plus a suited copy of each set of
    five distinct ranks (1,287): every class of five-card hand that PokerKit's lookups
    tell apart (7,462)."""
    hands = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        hands.append(unsuited(ranks))
        if len(set(ranks)) == 5:
            hands.append([r * 4 + 2 for r in ranks])  # all hearts
    return hands


# -- three-card high, 13:69F-14.3(c) ---------------------------------------------------

def rule_high3_key(cards):
    """13:69F-14.3(c) and (d) read directly: (category, tie-break ranks), larger better."""
    ranks = sorted([c >> 2 for c in cards], reverse=True)
    suited = len({c & 3 for c in cards}) == 1
    distinct = len(set(ranks)) == 3
    straight_top = None
    if distinct and ranks[0] - ranks[2] == 2:
        straight_top = ranks[0]
    elif ranks == [12, 1, 0]:  # A-2-3, the ace low; K-A-2 is not listed
        straight_top = 1
    if straight_top is not None:
        return (5 if suited else 3, [straight_top])
    if not distinct:
        if ranks[0] == ranks[2]:
            return (4, [ranks[0]])
        pair = ranks[1]
        return (1, [pair, ranks[0] + ranks[2] - pair])
    return (2 if suited else 0, ranks)


def test_three_card_high_every_hand_like_rhode_island_hand_14_3_c():
    hands = [list(h) for h in combinations(DECK, 3)]
    rows = check_sorted_chain(hands, high3, lambda h: RhodeIslandHoldemHand(pk(h)))
    # and like the rule's text read directly
    for i in range(len(rows) - 1):
        a, b = rows[i][1], rows[i + 1][1]
        ka, kb = rule_high3_key(a), rule_high3_key(b)
        assert felt_cmp(rows[i][0], rows[i + 1][0]) == (ka > kb) - (ka < kb), (a, b)


@sampled
def test_mambo_high_best_three_of_four_like_pokerkit_14_3_c():
    rng = random.Random(1437)
    deals = []
    for _ in range(examples(20000)):
        cs = rng.sample(DECK, 7)
        com = cs[6]
        deals.append(((tuple(cs[:3]), com), (tuple(cs[3:6]), com)))
    ties = check_pairs(deals, lambda d: mambo_high(d[0], d[1]),
                       lambda d: RhodeIslandHoldemHand.from_game(pk(d[0]), pk([d[1]])))
    assert ties > 0


# -- three-card A-5 low, Mambo stud six or better (rules README) -----------------------

def rule_low3_key(cards, qualifier):
    """The README's Mambo low read directly: A-5 order (ace = 1), straights and flushes
    ignored, inverse of the three-card high ranking of 13:69F-14.3(c)/(f).  Returns a
    key, SMALLER is better, or None if the qualifier (three cards <= 6, no pair) fails."""
    faces = sorted([(c >> 2) + 2 if (c >> 2) < 12 else 1 for c in cards], reverse=True)
    groups = sorted([(faces.count(f), f) for f in set(faces)], reverse=True)
    if qualifier is not None and (len(groups) < 3 or faces[0] > qualifier):
        return None
    return ([n for n, _ in groups], [f for _, f in groups])  # (1,1,1) < (2,1) < (3,)


def rule_mambo_low6_key(own, community):
    keys = [rule_low3_key(s, 6) for s in combinations(list(own) + [community], 3)]
    keys = [k for k in keys if k is not None]
    return min(keys) if keys else None


def key_cmp(a, b):
    """-1, 0, 1 for two SMALLER-is-better keys, None below any key."""
    if a is None or b is None:
        return (a is not None) - (b is not None)
    return (a < b) - (a > b)


def test_three_card_low_every_hand_like_the_rule_text():
    for qualifier in (6, None):
        rows = sorted([(low3_a5(list(h), qualifier), h) for h in combinations(DECK, 3)])
        for i in range(len(rows) - 1):
            a, b = rows[i][1], rows[i + 1][1]
            ka, kb = rule_low3_key(a, qualifier), rule_low3_key(b, qualifier)
            assert felt_cmp(rows[i][0], rows[i + 1][0]) == key_cmp(ka, kb), (a, b)
            assert (rows[i][0] == -1) == (ka is None)


@sampled
def test_mambo_low6_best_three_of_four_like_the_rule_text():
    rng = random.Random(6)
    for _ in range(examples(30000)):
        cs = rng.sample(DECK, 7)
        a, b, com = cs[:3], cs[3:6], cs[6]
        ours = felt_cmp(mambo_low6(a, com), mambo_low6(b, com))
        theirs = key_cmp(rule_mambo_low6_key(a, com), rule_mambo_low6_key(b, com))
        assert ours == theirs, (C.codes(a), C.codes(b), C.code(com))
        assert (mambo_low6(a, com) == -1) == (rule_mambo_low6_key(a, com) is None)


# -- five-card lows: every class -------------------------------------------------------

def test_deuce_to_seven_every_five_card_class_like_standard_low_hand_14_3_e_f():
    check_sorted_chain(five_card_classes(), low_27, lambda h: StandardLowHand(pk(h)))


def test_a5_low_every_five_card_class_like_regular_low_hand_14_3_e_f():
    check_sorted_chain(five_card_classes(), low_a5, lambda h: RegularLowHand(pk(h)))


def test_a5_eight_or_better_every_five_card_class_like_pokerkit_14_9_j():
    check_sorted_chain(five_card_classes(), lambda h: low_a5(h, 8),
                       lambda h: EightOrBetterLowHand.from_game_or_none(pk(h)))


# -- five of five to seven cards, random deals -----------------------------------------

@sampled
@pytest.mark.parametrize("n", [5, 6, 7])
def test_a5_low_best_five_like_regular_low_hand(n):
    rng = random.Random(1400 + n)
    deals = [(tuple(rng.sample(DECK, n)), tuple(rng.sample(DECK, n))) for _ in range(examples(8000))]
    check_pairs(deals, lambda h: low_a5(h), lambda h: RegularLowHand.from_game(pk(h)))


@sampled
@pytest.mark.parametrize("n", [5, 6, 7])
def test_a5_low_paired_hands_like_regular_low_hand(n):
    """Cards from four or five ranks only, so most hands pair, two pair, trip up..."""
    rng = random.Random(2400 + n)
    deals = []
    for _ in range(examples(6000)):
        ranks = rng.sample(range(13), rng.choice((2, 3, 4, 5)))
        small = [r * 4 + s for r in ranks for s in range(4)]
        if len(small) < 2 * n:
            small += rng.sample([c for c in DECK if c not in small], 2 * n - len(small))
        cs = rng.sample(small, 2 * n)
        deals.append((tuple(cs[:n]), tuple(cs[n:])))
    ties = check_pairs(deals, lambda h: low_a5(h),
                       lambda h: RegularLowHand.from_game(pk(h)))
    assert ties > 0


@sampled
def test_draw_lows_like_pokerkit():
    rng = random.Random(1412)
    deals = [(tuple(rng.sample(DECK, 5)), tuple(rng.sample(DECK, 5))) for _ in range(examples(10000))]
    check_pairs(deals, draw_low_a5, lambda h: RegularLowHand(pk(h)))
    check_pairs(deals, draw_low_27, lambda h: StandardLowHand(pk(h)))


@sampled
@pytest.mark.parametrize("chunk", range(2))
def test_stud_eight_or_better_like_pokerkit_14_9_j(chunk):
    rng = random.Random(1490 + chunk)
    deals = []
    for _ in range(examples(10000)):
        cs = rng.sample(DECK, 14)
        deals.append((tuple(cs[:7]), tuple(cs[7:])))
    ties = check_pairs(deals, lambda h: stud_low(h, 8),
                       lambda h: EightOrBetterLowHand.from_game_or_none(pk(h)))
    assert ties > 0  # both without a low, or the same five low ranks


# -- Omaha ----------------------------------------------------------------------------

def omaha_deals(seed, count):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cs = rng.sample(DECK, 13)
        board = tuple(cs[:5])
        out.append(((tuple(cs[5:9]), board), (tuple(cs[9:13]), board)))
    return out


@sampled
@pytest.mark.parametrize("chunk", first(range(4), 1))
def test_omaha_high_like_pokerkit(chunk):
    ties = check_pairs(omaha_deals(1480 + chunk, examples(2500)), lambda d: omaha_high(d[0], d[1]),
                       lambda d: OmahaHoldemHand.from_game(pk(d[0]), pk(d[1])))
    assert ties > 0


@sampled
def test_omaha_high_clustered_deals_like_pokerkit():
    """Cards from few ranks and suits, so that flushes, full houses, quads and straight
    flushes come up often."""
    rng = random.Random(1483)
    deals = []
    while len(deals) < examples(4000):
        ranks = rng.sample(range(13), rng.choice((4, 5, 6, 7)))
        suits = rng.sample(range(4), rng.choice((2, 3, 4)))
        pool = [r * 4 + s for r in ranks for s in suits]
        if len(pool) < 13:
            continue
        cs = rng.sample(pool, 13)
        board = tuple(cs[:5])
        deals.append(((tuple(cs[5:9]), board), (tuple(cs[9:13]), board)))
    ties = check_pairs(deals, lambda d: omaha_high(d[0], d[1]),
                       lambda d: OmahaHoldemHand.from_game(pk(d[0]), pk(d[1])))
    assert ties > 0


@sampled
@pytest.mark.parametrize("chunk", first(range(4), 1))
def test_omaha_low8_like_pokerkit(chunk):
    ties = check_pairs(
        omaha_deals(1481 + 10 * chunk, examples(4000)), lambda d: omaha_low8(d[0], d[1]),
        lambda d: OmahaEightOrBetterLowHand.from_game_or_none(pk(d[0]), pk(d[1])))
    assert ties > 0


@sampled
def test_omaha_low8_on_low_boards_like_pokerkit():
    """Boards of three or more low cards, so that most hands have a low to compare."""
    rng = random.Random(1488)
    low = [c for c in DECK if (c >> 2) < 7 or (c >> 2) == 12]  # A..8
    deals = []
    for _ in range(examples(5000)):
        board = rng.sample(low, 3) + rng.sample(DECK, 2)
        if len(set(board)) < 5:
            continue
        rest = [c for c in DECK if c not in board]
        hole = rng.sample(rest, 8)
        deals.append(((tuple(hole[:4]), tuple(board)), (tuple(hole[4:]), tuple(board))))
    check_pairs(deals, lambda d: omaha_low8(d[0], d[1]),
                lambda d: OmahaEightOrBetterLowHand.from_game_or_none(pk(d[0]), pk(d[1])))


def test_high3_argument_forms_agree():
    for h in combinations(range(0, 52, 5), 3):
        assert high3(list(h)) == evaluate3(*h)
