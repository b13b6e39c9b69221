"""The house edge of Four Card Poker, measured by playing seeded hands through the
rules core (felt.banked.four_card), for a benchmark to come.

    python -m host_tools.banked_edge [HANDS] [--seed N] [--table I..VII]

One seat wagers an ante and an aces up wager of the same size each hand and plays a
stated simple strategy:
    play 3x the ante with a pair of tens or better,
    play 1x with a pair of threes to nines,
    fold anything less (a pair of twos, no pair).
The edge is the house's net over the wagers' base: for ante and play, per ante wagered
(the play wager's chips are not in the base, as the published figures count it); for
aces up, per aces up wagered.

What to expect: aces up depends on the player's five cards alone, so its edge is exact:
enumerating all C(52,5) hands gives tables I..VII 1.98%, 2.58%, 2.78%, 3.37%, 3.89%,
4.24%, 6.15% (the published range is 1.98% to 6.15%).  Ante and play: the published
2.79% of the ante is for the optimal strategy with one of the dealer's cards face up;
in New Jersey all six are face down (19:47-27.12(d)) and this strategy is simpler, so
expect a little more, about 3 to 3.5%.  Measured (1,000,000 hands, seed 3, table I,
138 s on a shared 2-core host): ante and play 3.13% ± 0.27 of the ante, aces up
2.12% ± 0.26; 100,000 hands take 10 to 15 s on CPython.
"""

import argparse
import random
import sys
import time

from felt.banked.four_card import FourCardPoker
from felt.banked import hands4 as H4
from felt.banked.settings import Settings
from felt.poker import cards as C

ACES_UP_EXACT = {"I": 1.9786, "II": 2.5752, "III": 2.7759, "IV": 3.3724, "V": 3.8917,
                 "VI": 4.2355, "VII": 6.1486}   # percent, by enumeration of C(52,5)
ANTE_PLAY_PUBLISHED = 2.79                      # percent of the ante, optimal strategy
TENS = 8                                        # felt.poker.cards rank of a ten
THREES = 1


def strategy(value):
    """The play wager in antes (0: fold) for the player's best four-card hand."""
    c = H4.category(value)
    if c > H4.PAIR or (c == H4.PAIR and (value >> 12) & 15 >= TENS):
        return 3
    if c == H4.PAIR and (value >> 12) & 15 >= THREES:
        return 1
    return 0


def four_card_edge(hands=100000, seed=1, table="I", unit=10):
    """Play `hands` seeded rounds; a dict with the measured edges (percent), the
    expected ones, the hands and the seconds taken."""
    rng = random.Random(seed)
    settings = Settings("four_card", aces_up=table)
    deck = list(range(C.DECK_SIZE))
    codes = [C.code(c) for c in deck]
    ante_net = aces_net = 0
    ante_sq = aces_sq = 0     # sums of squared per-hand nets, for the standard errors
    started = time.perf_counter()
    for _ in range(hands):
        rng.shuffle(deck)
        r = FourCardPoker([10 * unit], [(unit, unit)], settings)
        out = r.start()
        i = 0
        while r.expecting() is not None:
            out += r.apply(("card", codes[deck[i]]))
            i += 1
        times = strategy(H4.best4(r.hole[0])[0])
        out += r.apply(("play", 0, times) if times else ("fold", 0))
        ante = aces = 0
        for e in out:
            if e[0] == "collect" or e[0] == "pay":
                chips = e[3] if e[0] == "collect" else -e[3]
                if e[2] == "aces_up":
                    aces += chips
                else:
                    ante += chips
        ante_net += ante
        aces_net += aces
        ante_sq += ante * ante
        aces_sq += aces * aces
    seconds = time.perf_counter() - started
    wagered = hands * unit
    return {"hands": hands, "seed": seed, "table": table,
            "ante_play_edge": 100.0 * ante_net / wagered,
            "aces_up_edge": 100.0 * aces_net / wagered,
            "ante_play_se": _se(ante_net, ante_sq, hands, unit),
            "aces_up_se": _se(aces_net, aces_sq, hands, unit),
            "ante_play_published": ANTE_PLAY_PUBLISHED,
            "aces_up_expected": ACES_UP_EXACT[table],
            "seconds": seconds}


def _se(total, squares, n, unit):
    """The standard error, in percent of the wager, of a mean of n per-hand nets."""
    mean = total / n
    var = max(0.0, squares / n - mean * mean)
    return 100.0 * (var / n) ** 0.5 / unit


def main(argv=None):
    p = argparse.ArgumentParser(prog="banked_edge", description=__doc__.splitlines()[0])
    p.add_argument("hands", nargs="?", type=int, default=100000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--table", default="I", choices=sorted(ACES_UP_EXACT))
    a = p.parse_args(argv)
    res = four_card_edge(a.hands, a.seed, a.table)
    print("%(hands)d hands, seed %(seed)d, aces up table %(table)s, %(seconds).1f s" % res)
    print("ante and play: house edge %(ante_play_edge).2f%% ± %(ante_play_se).2f of the ante "
          "(published, optimal strategy: %(ante_play_published).2f%%)" % res)
    print("aces up:       house edge %(aces_up_edge).2f%% ± %(aces_up_se).2f "
          "(exact: %(aces_up_expected).2f%%)" % res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
