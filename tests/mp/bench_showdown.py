"""The worst showdowns, timed and weighed inside MicroPython (felt-bench runs this in the
unix port as `bench_showdown.py [REPS [BATCH]]`; it prints one JSON line).

Two cases, every player live at the river:
  omaha-hilo8 x10   Omaha high-low eight or better, 10 players (the game's maximum)
  holdem x11        hold 'em, 11 players (the game's maximum)

Each case is played on several deals (seeded decks, and one deck stacked for the
heaviest settling: a low board in Omaha, a royal flush on the board in hold 'em, so
every player ties) and two ways of betting:
  one pot     fixed limit 2/4, blinds 1-2, deep stacks; everybody checks or calls, so
              the showdown step is the last check on the river
  side pots   no limit, blinds 1-2, every stack different; every player moves all-in
              before the flop, so there is a pot per stack (n - 1 side pots) and the
              showdown step is the river card
The showdown step is the one event that makes the round call `_finish` (evaluate every
hand, build the pots, award them).  For each deal and way:
  time   `batch` rounds are replayed up to that event; then, with the collector off
         (gc.collect(); gc.disable()), time.ticks_us / ticks_diff around applying the
         event to each of them in turn, divided by `batch`.  A batch keeps
         each timing well above the clock's resolution.  Done `reps` times; the
         figure of the deal is the median (the max is reported too).  Garbage
         collection pauses are not in it.
  heap   one round replayed up to the event; gc.collect(); gc.disable();
         gc.mem_alloc() before and after applying it, gc.enable(): every byte the step
         allocates with nothing freed, so its peak heap need.
A case reports its worst deal (largest median time; largest heap).  main() returns one
JSON line.
"""

import gc
import json
import sys
import time

from felt.poker import cards as C
from felt.poker.round import Round
from felt.poker.structure import FixedLimit, Structure
from felt.poker.variants import get

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython, to try the driver on the host
    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b

_mem_alloc = getattr(gc, "mem_alloc", lambda: 0)

ONE_POT = FixedLimit(2, 4, (1, 2), 0, 4)
SIDE_POTS = Structure("no", 2, 0, (1, 2), cap=0)
SEEDS = (1, 2, 3)

# Cards stacked on the board (burns stay random).  Omaha: a board with three low
# ranks, so high and low both pay; hold 'em: a royal flush, so every hand ties.
STACKED = {"omaha-hilo8": "Ad 2c 4h 7s Kd", "holdem": "As Ks Qs Js Ts"}
CASES = (("omaha-hilo8", 10), ("holdem", 11))


def shuffled(seed):
    """A deck shuffled by a small LCG: the same on every VM, no random module needed."""
    deck = list(range(C.DECK_SIZE))
    x = seed * 7919 + 17
    for i in range(C.DECK_SIZE - 1, 0, -1):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def board_positions(variant, n):
    """Where the five board cards sit in a deck dealt straight down."""
    hole = sum([st[1] + st[2] for st in variant.steps if st[0] == "deal"]) * n
    # burn, flop 3, burn, turn, burn, river
    return [hole + 1, hole + 2, hole + 3, hole + 5, hole + 7]


def stacked(variant, n, codes, seed):
    deck = shuffled(seed)
    for pos, code in zip(board_positions(variant, n), codes.split()):
        c = C.parse(code)
        i = deck.index(c)
        deck[i], deck[pos] = deck[pos], deck[i]
    return deck


def play(variant, n, way, deck):
    """The events of the whole round, the showdown step last."""
    if way == "one pot":
        structure, stacks = ONE_POT, [1000] * n
    else:
        structure, stacks = SIDE_POTS, [40 + 12 * i for i in range(n)]
    r = Round(stacks, 0, structure, variant)
    r.start()
    events = []
    nxt = 0
    while not r.finished():
        if r.expecting() is not None:
            e = ("card", C.code(deck[nxt]))
            nxt += 1
        else:
            seat = r.to_act
            legal = r.legal_actions(seat)
            if way == "side pots" and ("raise" in legal or "bet" in legal):
                lo, hi = r.raise_bounds(seat)
                e = ("raise" if "raise" in legal else "bet", seat, hi)   # all-in
            elif "call" in legal:
                e = ("call", seat)
            else:
                e = ("check", seat)
        r.apply(e)
        events.append(e)
    live = sum([1 for s in range(n) if r.live(s)])
    assert live == n, "every player must be live at the river"
    return structure, stacks, events, len(r.pots())


def build(variant, structure, stacks, events):
    """A round replayed up to, not including, the showdown step."""
    r = Round(stacks, 0, structure, variant)
    r.start()
    for e in events[:-1]:
        r.apply(e)
    return r


def measure(variant, structure, stacks, events, reps, batch):
    """([µs per showdown step, one figure per batch], bytes allocated by one step,
    the step's effect count).  Each time is a batch of `batch` rounds, replayed
    beforehand, settled back to back with the collector off, divided by `batch`."""
    last = events[-1]
    # The heap: one step alone, every allocation counted.
    r = build(variant, structure, stacks, events)
    gc.collect()
    gc.disable()
    a = _mem_alloc()
    out = r.apply(last)
    b = _mem_alloc()
    gc.enable()
    assert r.finished()
    heap = b - a
    effects = len(out)
    del r, out
    times = []
    for _ in range(reps):
        rounds = [build(variant, structure, stacks, events) for _ in range(batch)]
        gc.collect()
        gc.disable()
        t0 = ticks_us()
        for r in rounds:
            r.apply(last)
        t1 = ticks_us()
        gc.enable()
        times.append(ticks_diff(t1, t0) / batch)
        del rounds, r
    return times, heap, effects


def median(xs):
    xs = sorted(xs)
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


def main(reps=5, batch=40):
    reps = int(reps)
    batch = int(batch)
    result = {"micropython": ".".join([str(x) for x in sys.implementation.version[:3]]),
              "reps": reps, "batch": batch, "deals": 2 * (len(SEEDS) + 1),
              "time": "median of the batch means, worst deal (collector off)",
              "heap": "bytes allocated with the GC disabled, worst deal", "cases": {}}
    for name, n in CASES:
        variant = get(name)
        deals = [("seed %d" % s, shuffled(s)) for s in SEEDS]
        deals.append(("stacked board " + STACKED[name], stacked(variant, n, STACKED[name], 99)))
        runs = []
        for way in ("one pot", "side pots"):
            for label, deck in deals:
                structure, stacks, events, pots = play(variant, n, way, deck)
                times, heap, effects = measure(variant, structure, stacks, events, reps, batch)
                runs.append({"deal": label, "way": way, "pots": pots, "effects": effects,
                             "median_us": round(median(times), 1),
                             "max_us": round(max(times), 1),
                             "heap_bytes": heap})
        slow = max(runs, key=lambda x: x["median_us"])
        big = max(runs, key=lambda x: x["heap_bytes"])
        result["cases"]["%s_x%d" % (name, n)] = {
            "game": name, "players": n,
            "ms": round(slow["median_us"] / 1000, 3),
            "max_ms": round(slow["max_us"] / 1000, 3),   # its slowest batch
            "slowest": "%s, %s" % (slow["way"], slow["deal"]),
            "heap_bytes": big["heap_bytes"],
            "heaviest": "%s, %s" % (big["way"], big["deal"]),
            "runs": runs,
        }
    cases = result["cases"].values()
    result["worst_ms"] = max([c["ms"] for c in cases])
    result["worst_heap_bytes"] = max([c["heap_bytes"] for c in cases])
    return json.dumps(result)


if __name__ == "__main__":
    print(main())


if __name__ == "__main__":
    print(main(*sys.argv[1:3]))
