"""felt-bench: how fast the rules core is, next to PokerKit and treys, on CPython.

    felt-bench                  # or: python -m host_tools.bench
    felt-bench --hands 300 --evals 100000 --reps 3

(a) hands per second of the rules core (felt.poker.round) on random 6-handed
    fixed-limit hold 'em hands played to the showdown, (b) PokerKit's hands per second
    on the very same hands, (c) 7-card evaluations per second of felt.poker.evaluate
    and of treys on the same 7-card sets, (d) the size of the evaluator's tables.

Everything random is drawn before timing: decks, the action each player takes, and
every event each engine is fed (PokerKit gets its cards already parsed).  A timed loop
holds only the engine's own work.  Each figure is the best of a few repetitions
(time.perf_counter).  The last line printed is one JSON object with the figures.
"""

import argparse
import dataclasses
import json
import random
import sys
import time

from felt.poker import cards as C
from felt.poker import evaluate as E
from felt.poker.button import clockwise_from
from felt.poker.round import Round
from felt.poker.structure import FixedLimit

PLAYERS = 6
STACK = 1000              # deep: nobody is all-in, so both engines play identical rules
STRUCTURE = FixedLimit(2, 4, (1, 2), 0, 4)
MIN_TIMED = 0.2           # seconds: repeat a batch until one timing lasts at least this


# ----- the hands -----------------------------------------------------------------------------

def make_hands(count, seed):
    """Felt's event list for each hand: a shuffled deck and a seeded policy.

    Nobody folds, so every hand reaches the showdown; players check or call, and bet
    or raise one time in four while the rules allow it.  With deep stacks and six
    players in to the end, neither short all-ins nor the heads-up cap rule arise, so
    PokerKit, given Felt's cap (see pokerkit_game), allows exactly the same actions."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        button = rng.randrange(PLAYERS)
        deck = list(range(C.DECK_SIZE))
        rng.shuffle(deck)
        r = Round([STACK] * PLAYERS, button, STRUCTURE)
        r.start()
        events = []
        next_card = 0
        while not r.finished():
            if r.expecting() is not None:
                event = ("card", C.code(deck[next_card]))
                next_card += 1
            else:
                legal = r.legal_actions(r.to_act)
                wager = [a for a in legal if a in ("bet", "raise")]
                passive = [a for a in legal if a in ("check", "call")]
                action = wager[0] if wager and rng.random() < 0.25 else passive[0]
                event = (action, r.to_act)
            r.apply(event)
            events.append(event)
        hands.append((button, events, list(r.stacks)))
    return hands


def pokerkit_game():
    """PokerKit's fixed-limit hold 'em with Felt's cap: PokerKit counts raises after
    the blinds, Felt counts the big blind as the bet, so one raise fewer pre-flop."""
    from pokerkit import Automation, FixedLimitTexasHoldem

    game = FixedLimitTexasHoldem(
        (Automation.ANTE_POSTING, Automation.BET_COLLECTION,
         Automation.BLIND_OR_STRADDLE_POSTING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
         Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING),
        True, STRUCTURE.ante, STRUCTURE.blinds, STRUCTURE.small_bet, STRUCTURE.big_bet)
    cap = STRUCTURE.cap
    caps = (cap - 1, cap, cap, cap)
    game.streets = tuple(dataclasses.replace(s, max_completion_betting_or_raising_count=c)
                         for s, c in zip(game.streets, caps))
    return game


def pokerkit_script(events):
    """The same hand as PokerKit operations, (method name, args).  PokerKit's player 0
    is the first seat left of the button and its last player the button, which is
    the order Felt deals the hole cards in; its actions need no seat."""
    from pokerkit import Card

    def card(code):
        return tuple(Card.parse(code))

    ops = []
    runs = []  # the events in runs of cards and runs of actions
    for e in events:
        if runs and (runs[-1][0][0] == "card") == (e[0] == "card"):
            runs[-1].append(e)
        else:
            runs.append([e])
    holes, rest = runs[0], runs[1:]
    for k, (_, code) in enumerate(holes):
        ops.append(("deal_hole", (card(code), k % PLAYERS)))
    for run in rest:
        if run[0][0] == "card":   # the burn, then the street's community cards
            ops.append(("burn_card", (card(run[0][1]),)))
            ops.append(("deal_board", (card("".join(code for _, code in run[1:])),)))
        else:
            ops += [("fold" if a == "fold" else
                     "check_or_call" if a in ("check", "call") else
                     "complete_bet_or_raise_to", ()) for a, _ in run]
    return ops


# ----- timing --------------------------------------------------------------------------------

def best_rate(run, items, reps):
    """Items per second, best of `reps` timings; a timing repeats the batch as often
    as needed to last MIN_TIMED, so fast engines are not timed on a few milliseconds."""
    loops = 1
    while True:
        t = time.perf_counter()
        for _ in range(loops):
            run(items)
        if time.perf_counter() - t >= MIN_TIMED:
            break
        loops *= 2
    best = 0.0
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(loops):
            run(items)
        best = max(best, loops * len(items) / (time.perf_counter() - t))
    return best


def run_core(hands):
    for button, events, _ in hands:
        r = Round([STACK] * PLAYERS, button, STRUCTURE)
        r.start()
        for e in events:
            r.apply(e)


def pokerkit_runner(game):
    def run(scripts):
        for ops in scripts:
            s = game([STACK] * PLAYERS, PLAYERS)
            for name, args in ops:
                getattr(s, name)(*args)
    return run


def table_bytes(module):
    """The evaluator's lookup tables: its module-level bytes objects."""
    tables = {k: len(v) for k, v in vars(module).items()
              if isinstance(v, (bytes, bytearray))}
    return sum(tables.values()), tables


def main(argv=None):
    ap = argparse.ArgumentParser(prog="felt-bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=300, help="distinct hands (default 300)")
    ap.add_argument("--evals", type=int, default=50_000,
                    help="distinct 7-card sets (default 50000)")
    ap.add_argument("--reps", type=int, default=3, help="timings per figure, best kept")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    try:
        import pokerkit  # noqa: F401
        import treys
    except ImportError as e:
        sys.exit("felt-bench needs the test extras (pip install -e '.[test]'): %s" % e)

    print("Python %s" % sys.version.split()[0])

    # (a), (b): the same hands through both engines.
    hands = make_hands(args.hands, args.seed)
    game = pokerkit_game()
    scripts = [pokerkit_script(events) for _, events, _ in hands]
    actions = sum(1 for _, events, _ in hands for e in events if e[0] != "card")
    for (button, events, stacks), ops in zip(hands, scripts):  # same hands, same result
        s = game([STACK] * PLAYERS, PLAYERS)
        for name, a in ops:
            getattr(s, name)(*a)
        order = clockwise_from(button, [True] * PLAYERS)
        assert list(s.stacks) == [stacks[seat] for seat in order], (button, events)
    core = best_rate(run_core, hands, args.reps)
    pk = best_rate(pokerkit_runner(game), scripts, args.reps)
    print("hands: %d six-handed fixed-limit hold 'em hands to the showdown, %.1f actions "
          "each" % (len(hands), actions / len(hands)))
    print("  rules core  %10.0f hands/s" % core)
    print("  PokerKit    %10.0f hands/s   (pokerkit %s)" % (pk, _version("pokerkit")))
    print("  core / PokerKit: %.1fx" % (core / pk))

    # (c): 7-card evaluations on the same sets.
    rng = random.Random(args.seed)
    sets = [rng.sample(range(C.DECK_SIZE), 7) for _ in range(args.evals)]
    treys_sets = [([treys.Card.new(C.code(c)) for c in cards[:5]],
                   [treys.Card.new(C.code(c)) for c in cards[5:]]) for cards in sets]
    evaluate = E.evaluate
    ev = treys.Evaluator()
    treys_evaluate = ev.evaluate

    def run_felt(items):
        for cards in items:
            evaluate(cards)

    def run_treys(items):
        for board, hand in items:
            treys_evaluate(board, hand)

    felt7 = best_rate(run_felt, sets, args.reps)
    treys7 = best_rate(run_treys, treys_sets, args.reps)
    print("7-card evaluations: %d distinct sets" % len(sets))
    print("  felt evaluate  %10.0f /s" % felt7)
    print("  treys          %10.0f /s   (treys %s)" % (treys7, _version("treys")))
    print("  felt / treys: %.1fx" % (felt7 / treys7))

    # (d)
    size, tables = table_bytes(E)
    print("evaluator tables: %d bytes (%s)" % (
        size, ", ".join("%s %d" % kv for kv in sorted(tables.items()))))

    print(json.dumps({
        "core_hands_per_s": round(core, 1),
        "pokerkit_hands_per_s": round(pk, 1),
        "core_vs_pokerkit": round(core / pk, 2),
        "eval7_per_s": round(felt7, 1),
        "treys_eval7_per_s": round(treys7, 1),
        "eval7_vs_treys": round(felt7 / treys7, 2),
        "eval_table_bytes": size,
        "hands": len(hands),
        "actions_per_hand": round(actions / len(hands), 2),
        "eval_sets": len(sets),
        "python": sys.version.split()[0],
    }))


def _version(dist):
    from importlib.metadata import version
    return version(dist)


if __name__ == "__main__":
    main()
