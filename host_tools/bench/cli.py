"""felt-bench: how fast the rules core is, next to PokerKit and treys, on CPython.

    felt-bench                  # or: python -m host_tools.bench
    felt-bench --hands 300 --evals 100000 --reps 5 --game-hands 100 [--no-mp]
               [--table-hands 100] [--min-heap-hands 1000] [--edge-hands 100000]
               [--no-pico]

(a) hands per second of the rules core (felt.poker.round) on random 6-handed
    fixed-limit hold 'em hands played to the showdown, (b) PokerKit's hands per second
    on the very same hands, (c) 7-card evaluations per second of felt.poker.evaluate
    and of treys on the same 7-card sets, (d) the size of the evaluator's tables,
(e) per game of felt.poker.variants: the core's hands per second on seeded hands in
    which everyone checks or calls to the showdown (6 players, fixed limit), and
    PokerKit's on the same hands where PokerKit has the game (FT, PO, FO/8, F7S,
    F7S/8, F2L3D), against the goal of 20 times PokerKit,
(f) inside MicroPython (the unix port, 32-bit, tests/mp/bench_showdown.py on the
    firmware's .mpy files): the time and heap of the worst showdowns, 10-handed
    Omaha high-low and 11-handed hold 'em, against the goal of 64 KB of heap,
(g) the whole firmware in the unix port (host_tools/bench/table.py): heap after boot
    and between rounds, press to LED p50/p99, the showdown press, and the smallest
    heap that completes the 1000-hand hold 'em fault run,
(h) the house edge of Four Card Poker (aces up table I) measured over --edge-hands
    seeded hands through the rules core (host_tools.banked_edge), next to the exact
    aces up edge and the published ante-and-play figure: `four_card_edge` in the JSON,
(i) on the emulated Pico (the rp2 image on rp2040js, host_tools/bench/pico.py), in
    emulated time: heap free after boot and after an 11-handed showdown with side pots,
    boot to hello, press to LED p50/p99, the showdown press, and the emulation's speed;
    without the Pico image or the harness's packages one line says so (`make bench`
    builds both).

Everything random is drawn before timing: decks, the action each player takes, and
every event each engine is fed (PokerKit gets its cards already parsed).  A timed loop
holds only the engine's own work.  Each figure is the best of a few repetitions
(timeit); where two engines are compared, each ratio is the median of timings made in
pairs, back to back (paired_rates).  The last line printed is one JSON object with the
figures.
"""

import collections
import dataclasses
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import timeit

from felt.poker import cards as C
from felt.poker import evaluate as E
from felt.poker.button import clockwise_from
from felt.poker.round import Round
from felt.poker.structure import FixedLimit
from felt.poker import variants as V
from host_tools import cli
from host_tools.banked_edge import four_card_edge

PLAYERS = 6
STACK = 1000              # deep: nobody is all-in, so both engines play identical rules
STRUCTURE = FixedLimit(2, 4, (1, 2), 0, 4)


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
    """Items per second, best of `reps` timings.  timeit's autorange finds how often to
    repeat the batch for a timing to last 0.2 s, so fast engines are not timed on a few
    milliseconds; that timing is the first of the `reps`.  The collector stays on, as in
    play: PokerKit's allocations cost it what they cost a program."""
    timer = timeit.Timer(lambda: run(items), setup=gc.enable)
    loops, first = timer.autorange()
    return loops * len(items) / min([first] + timer.repeat(reps - 1, loops))


def paired_rates(run_a, items_a, run_b, items_b, reps):
    """(a's items per second, b's, a's rate over b's) for two engines compared.  This
    machine runs in phases some tens of percent apart, seconds long: two figures timed
    apart can each fall in either, and their ratio with them.  So each of `reps` pairs
    times a, then b (the next pair b first) back to back, in one phase; the ratio is the
    median of the pairs' ratios.  The rates are each engine's best, as best_rate()."""
    timers = [timeit.Timer(lambda: run_a(items_a), setup=gc.enable),
              timeit.Timer(lambda: run_b(items_b), setup=gc.enable)]
    loops = [t.autorange()[0] for t in timers]
    sizes = (len(items_a), len(items_b))
    rates = ([], [])
    for i in range(reps):
        for k in (0, 1) if i % 2 == 0 else (1, 0):
            rates[k].append(loops[k] * sizes[k] / timers[k].timeit(loops[k]))
    return max(rates[0]), max(rates[1]), statistics.median(a / b for a, b in zip(*rates))


def run_core(hands):
    for button, events, _ in hands:
        r = Round([STACK] * PLAYERS, button, STRUCTURE)
        r.start()
        for e in events:
            r.apply(e)


# ----- every game ----------------------------------------------------------------------------

GAME_PLAYERS = 6
BLIND_STRUCTURE = STRUCTURE                            # 2/4 fixed limit, blinds 1-2, cap 4
STUD_STRUCTURE = FixedLimit(2, 4, (), 1, 4, bring_in=1)  # ante 1, bring-in 1, 2/4
GOAL_VS_POKERKIT = 20       # the rules core at least 20 times PokerKit's hands per second
MP_HEAP_GOAL = 64 * 1024    # the worst showdown within 64 KB of heap on the boards


def game_structure(variant):
    return STUD_STRUCTURE if variant.stud() else BLIND_STRUCTURE


def game_players(variant):
    return min(GAME_PLAYERS, variant.max_players)


def _draw_count(variant, players):
    """Cards each player draws at each draw: as many as the deck holds for everybody
    on every draw without a reshuffle (PokerKit would reshuffle differently), at most 3."""
    steps = variant.steps
    draws = sum(1 for st in steps if st[0] == "draw")
    if not draws:
        return 0
    dealt = sum(st[1] + st[2] for st in steps if st[0] == "deal") * players
    burns = sum(1 for st in steps if st[0] == "burn")
    board = sum(st[1] for st in steps if st[0] == "board")
    return min(3, (C.DECK_SIZE - dealt - burns - board) // (players * draws))


def make_game_hands(variant, count, seed):
    """Felt's events for `count` hands of one game: a shuffled deck, a random button,
    and a passive policy that takes every hand to the showdown: post the bring-in when
    due, else check or call; each player discards (Pineapple) or draws the first cards
    held.  Each hand also keeps what PokerKit needs: which seat each card went to."""
    rng = random.Random("%s/%s" % (seed, variant.name))
    n = game_players(variant)
    structure = game_structure(variant)
    k = _draw_count(variant, n)
    hands = []
    for _ in range(count):
        button = rng.randrange(n)
        deck = list(range(C.DECK_SIZE))
        rng.shuffle(deck)
        r = Round([STACK] * n, button, structure, variant)
        r.start()
        events = []
        dealt = []          # (what, seat, code) per card event
        next_card = 0
        while not r.finished():
            due = r.expecting()
            if due is not None:
                code = C.code(deck[next_card])
                next_card += 1
                event = ("card", code)
                dealt.append((due[0], due[1], code))
            else:
                seat = r.to_act
                legal = r.legal_actions(seat)
                if "discard" in legal or "draw" in legal:
                    kind = "discard" if "discard" in legal else "draw"
                    want = variant.steps[r.step][1] if kind == "discard" else k
                    event = (kind, seat, C.codes(r.hole[seat][:want]))
                elif "bring_in" in legal:
                    event = ("bring_in", seat)
                else:
                    event = ([a for a in legal if a in ("check", "call")][0], seat)
            r.apply(event)
            events.append(event)
        hands.append({"button": button, "events": events, "dealt": dealt,
                      "order": r.clockwise(), "stacks": list(r.stacks),
                      "live": sum(1 for s in range(n) if r.live(s))})
    return hands


def _pk_automations():
    from pokerkit import Automation
    return (Automation.ANTE_POSTING, Automation.BET_COLLECTION,
            Automation.BLIND_OR_STRADDLE_POSTING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
            Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)


def _pk_capped(game, structure):
    """Felt's cap on PokerKit's streets (see pokerkit_game): one raise fewer pre-flop
    where the big blind is the opening bet."""
    cap = structure.cap
    first = cap - 1 if structure.blinds else cap
    game.streets = tuple(dataclasses.replace(s, max_completion_betting_or_raising_count=c)
                         for s, c in zip(game.streets, (first,) + (cap,) * 9))
    return game


def pokerkit_games():
    """{Felt game: (PokerKit's code, a PokerKit game)} for the games PokerKit has.
    PokerKit has no fixed-limit Omaha high, so Omaha runs as pot-limit Omaha (PO): with
    every player checking or calling, the same hands give the same actions and chips."""
    import pokerkit as pk
    a = _pk_automations()
    b, st = BLIND_STRUCTURE, STUD_STRUCTURE
    return {
        "holdem": ("FT", _pk_capped(pk.FixedLimitTexasHoldem(
            a, True, b.ante, b.blinds, b.small_bet, b.big_bet), b)),
        "omaha": ("PO", pk.PotLimitOmahaHoldem(a, True, b.ante, b.blinds, b.small_bet)),
        "omaha-hilo8": ("FO/8", _pk_capped(pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter(
            a, True, b.ante, b.blinds, b.small_bet, b.big_bet), b)),
        "stud7": ("F7S", _pk_capped(pk.FixedLimitSevenCardStud(
            a, True, st.ante, st.bring_in, st.small_bet, st.big_bet), st)),
        "stud7-hilo8": ("F7S/8", _pk_capped(pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter(
            a, True, st.ante, st.bring_in, st.small_bet, st.big_bet), st)),
        "triple-draw-27": ("F2L3D", _pk_capped(pk.FixedLimitDeuceToSevenLowballTripleDraw(
            a, True, b.ante, b.blinds, b.small_bet, b.big_bet), b)),
    }


def pokerkit_game_script(game, hand):
    """The hand as PokerKit operations, found by playing it once through PokerKit:
    whatever PokerKit asks for next (a burn, a hole card for player i, board cards, a
    discard, an action) is taken from what Felt dealt or did, in Felt's order.  Every
    action checks that PokerKit has the same seat to act.  Returns (ops, PokerKit's
    finishing stacks in Felt's seat order)."""
    from pokerkit import Card
    order = hand["order"]
    index = {seat: i for i, seat in enumerate(order)}
    n = len(order)
    holes = [collections.deque() for _ in range(n)]
    burns = collections.deque()
    board = collections.deque()
    for what, seat, code in hand["dealt"]:
        if what in ("hole", "up"):
            holes[index[seat]].append(code)
        elif what == "burn":
            burns.append(code)
        else:
            board.append(code)
    discards = [collections.deque() for _ in range(n)]
    actions = collections.deque()
    for e in hand["events"]:
        if e[0] in ("discard", "draw"):
            discards[index[e[1]]].append(e[2])
        elif e[0] != "card":
            actions.append(e)

    def cards(codes):
        return tuple(Card.parse("".join(codes.split())))

    state = game([STACK] * n, n)
    ops = []
    while state.status:
        if state.can_burn_card() and burns:
            op = ("burn_card", (cards(burns.popleft()),))
        elif state.can_deal_hole():
            i = state.hole_dealee_index
            op = ("deal_hole", (cards(holes[i].popleft()), i))
        elif state.can_deal_board():
            k = state.street.board_dealing_count
            op = ("deal_board", (cards("".join(board.popleft() for _ in range(k))),))
        elif state.can_stand_pat_or_discard():
            i = state.stand_patter_or_discarder_index
            op = ("stand_pat_or_discard", (cards(discards[i].popleft()),))
        elif state.actor_index is not None:
            kind, seat = actions.popleft()[:2]
            assert state.actor_index == index[seat], (kind, seat, state.actor_index)
            op = ({"fold": "fold", "check": "check_or_call", "call": "check_or_call",
                   "bring_in": "post_bring_in"}.get(kind, "complete_bet_or_raise_to"), ())
        elif state.can_burn_card():
            raise AssertionError("PokerKit burns more cards than Felt")
        else:
            raise AssertionError("PokerKit is stuck")
        getattr(state, op[0])(*op[1])
        ops.append(op)
    assert not actions and not any(holes) and not board, "Felt did more than PokerKit"
    stacks = [0] * n
    for i, seat in enumerate(order):
        stacks[seat] = state.stacks[i]
    return ops, stacks


def core_game_runner(variant):
    n = game_players(variant)
    structure = game_structure(variant)

    def run(hands):
        for h in hands:
            r = Round([STACK] * n, h["button"], structure, variant)
            r.start()
            for e in h["events"]:
                r.apply(e)
    return run


def pokerkit_game_runner(game, n):
    def run(scripts):
        for ops in scripts:
            s = game([STACK] * n, n)
            for name, args in ops:
                getattr(s, name)(*args)
    return run


def bench_games(count, seed, reps, step=lambda n=1, what=None: None):
    """Per game: the hands, the core's and (where it has the game) PokerKit's hands/s."""
    pk_games = pokerkit_games()
    rows = []
    for v in V.every():
        step(0, "game %s" % v.name)
        hands = make_game_hands(v, count, seed)
        n = game_players(v)
        actions = sum(1 for h in hands for e in h["events"] if e[0] != "card")
        row = {"name": v.name, "players": n, "hands": hands,
               "actions": actions / len(hands),
               "showdown": sum(h["live"] for h in hands) / len(hands),
               "draw": _draw_count(v, n),
               "core": None, "pk_code": None, "pk": None, "ratio": None, "pk_differ": 0}
        if v.name not in pk_games:
            row["core"] = best_rate(core_game_runner(v), hands, reps)
        else:
            code, game = pk_games[v.name]
            scripts = []
            for h in hands:
                ops, stacks = pokerkit_game_script(game, h)
                scripts.append(ops)
                if stacks != h["stacks"]:
                    row["pk_differ"] += 1
            row["pk_code"] = code
            row["core"], row["pk"], row["ratio"] = paired_rates(
                core_game_runner(v), hands, pokerkit_game_runner(game, n), scripts, reps)
        rows.append(row)
        step()
    return rows


def print_games(rows, count):
    print("games: %d hands each, %d players or the game's most, fixed limit 2/4 (blinds "
          "1-2; stud: ante 1, bring-in 1), everyone checks or calls to the showdown "
          "(draws: the first cards held)" % (count, GAME_PLAYERS))
    print("  %-16s %7s %5s %12s  %-6s %11s %8s  %s" % (
        "game", "actions", "draw", "core hands/s", "PK", "PK hands/s", "core/PK",
        "goal %dx PK" % GOAL_VS_POKERKIT))
    for r in rows:
        line = "  %-16s %7.1f %5s %12.0f" % (r["name"], r["actions"], r["draw"] or "",
                                             r["core"])
        if r["pk"]:
            line += "  %-6s %11.0f %7.1fx  %s" % (
                r["pk_code"], r["pk"], r["ratio"],
                "met" if r["ratio"] >= GOAL_VS_POKERKIT else "MISSED")
            if r["pk_differ"]:
                line += " (finishing stacks differ on %d hands)" % r["pk_differ"]
        else:
            line += "  %-6s" % "-"
        print(line.rstrip())
    missed = [r["name"] for r in rows if r["pk"] and r["ratio"] < GOAL_VS_POKERKIT]
    print("  goal %dx PokerKit: %s" % (GOAL_VS_POKERKIT, "missed by " + ", ".join(missed)
                                        if missed else "met by every game PokerKit has"))


def run_mp_showdowns(reps, batch, timeout=600):
    """tests/mp/bench_showdown.py in MicroPython's unix port: (its JSON, None) or
    (None, why not)."""
    from host_tools import micropython
    script = micropython.REPO / "tests" / "mp" / "bench_showdown.py"
    try:
        micropython.board_tree()
        # Room enough for the replays; the figures are bytes allocated, not this size.
        cmd, env = micropython.command(script, [str(reps), str(batch)], 8 * 1024 * 1024)
        p = subprocess.run(cmd, env=env, cwd=str(micropython.REPO), capture_output=True,
                           text=True, timeout=timeout)
    except micropython.MicroPythonMissing as e:
        return None, str(e)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % timeout
    lines = [line for line in p.stdout.splitlines() if line.startswith("{")]
    if p.returncode or not lines:
        return None, "micropython exited %d: %s" % (p.returncode, (p.stdout + p.stderr).strip()[-2000:])
    return json.loads(lines[-1]), None


def print_mp(mp):
    print("MicroPython %s (unix port, 32-bit), the worst showdowns, every player live "
          "at the river; the step that settles the round:" % mp["micropython"])
    print("  time: median of %d batches of %d, worst of %d deals; heap: bytes allocated "
          "with the GC off, worst deal" % (mp["reps"], mp["batch"], mp["deals"]))
    for key, c in mp["cases"].items():
        print("  %-16s %6.2f ms median, %.2f ms slowest batch  [%s]" % (
            key, c["ms"], c["max_ms"], c["slowest"]))
        print("  %-16s %6d bytes of heap  [%s]" % ("", c["heap_bytes"], c["heaviest"]))
    heap = mp["worst_heap_bytes"]
    print("  worst: %.2f ms, %d bytes of heap; goal within %d KB: %s (%.0f%%)" % (
        mp["worst_ms"], heap, MP_HEAP_GOAL // 1024,
        "met" if heap <= MP_HEAP_GOAL else "MISSED", 100.0 * heap / MP_HEAP_GOAL))


def table_bytes(module):
    """The evaluator's lookup tables: its module-level bytes objects."""
    tables = {k: len(v) for k, v in vars(module).items()
              if isinstance(v, (bytes, bytearray))}
    return sum(tables.values()), tables


MP_OPTIONS = ("mp_reps", "mp_batch", "table_hands", "min_heap_hands")


@cli.command("felt-bench")
def main(argv=None):
    ap = cli.parser("felt-bench", __doc__)
    ap.add_argument("--hands", type=cli.count(1), default=300, help="distinct hands (default 300)")
    ap.add_argument("--evals", type=cli.count(1), default=50_000,
                    help="distinct 7-card sets (default 50000)")
    ap.add_argument("--reps", type=cli.count(1), default=5,
                    help="timings per figure, best kept; where two engines are compared, "
                         "pairs of timings, the median of their ratios kept (default 5)")
    ap.add_argument("--seed", type=int, default=1,
                    help="seeds the hands and card sets dealt, so runs compare")
    ap.add_argument("--game-hands", type=cli.count(1), default=100,
                    help="distinct hands per game (default 100)")
    ap.add_argument("--mp-reps", type=cli.count(1), default=5,
                    help="timed batches per MicroPython showdown, median kept (default 5)")
    ap.add_argument("--mp-batch", type=cli.count(1), default=40,
                    help="showdowns per timed batch in MicroPython (default 40)")
    ap.add_argument("--table-hands", type=cli.count(1), default=100,
                    help="hands of the whole firmware in MicroPython, for its heap and "
                         "press figures (default 100)")
    ap.add_argument("--min-heap-hands", type=cli.count(0), default=1000,
                    help="hands of the fault run whose smallest heap is bisected "
                         "(default 1000; 0 skips it)")
    ap.add_argument("--edge-hands", type=cli.count(0), default=100_000,
                    help="seeded hands of Four Card Poker (aces up table I) whose house "
                         "edge is measured through the rules core (default 100000; 0 "
                         "skips it)")
    ap.add_argument("--no-mp", action="store_true",
                    help="skip everything measured in MicroPython")
    ap.add_argument("--no-pico", action="store_true",
                    help="skip the emulated Pico's figures (a few minutes)")
    args = ap.parse_args(argv)
    if args.no_mp:
        for option in MP_OPTIONS:
            if option in args.given:
                ap.error("--%s is measured in MicroPython, which --no-mp skips"
                         % option.replace("_", "-"))

    try:
        import pokerkit  # noqa: F401
        import treys
    except ImportError as e:
        raise cli.UserError("needs the test extras (pip install -e '.[test]'): %s" % e, 1)

    # The parts, each a step of the progress bar: (a) to (d), each game, (h), (f), (g), (i).
    parts = 5 + len(V.NAMES) + (0 if args.no_mp else 2) + (0 if args.no_pico else 1)
    with cli.progress(parts, "felt-bench") as step:
        return _bench(args, step, treys)


def _bench(args, step, treys):
    print("Python %s" % sys.version.split()[0])

    # (a), (b): the same hands through both engines.
    step(0, "the rules core and PokerKit")
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
    core, pk, core_vs_pk = paired_rates(run_core, hands, pokerkit_game_runner(game, PLAYERS),
                                        scripts, args.reps)
    print("hands: %d six-handed fixed-limit hold 'em hands to the showdown, %.1f actions "
          "each" % (len(hands), actions / len(hands)))
    print("  rules core  %10.0f hands/s" % core)
    print("  PokerKit    %10.0f hands/s   (pokerkit %s)" % (pk, _version("pokerkit")))
    print("  core / PokerKit: %.1fx" % core_vs_pk)
    step(2, "7-card evaluations")

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

    felt7, treys7, felt_vs_treys = paired_rates(run_felt, sets, run_treys, treys_sets,
                                                args.reps)
    print("7-card evaluations: %d distinct sets" % len(sets))
    print("  felt evaluate  %10.0f /s" % felt7)
    print("  treys          %10.0f /s   (treys %s)" % (treys7, _version("treys")))
    print("  felt / treys: %.1fx" % felt_vs_treys)
    step()

    # (d)
    size, tables = table_bytes(E)
    print("evaluator tables: %d bytes (%s)" % (
        size, ", ".join("%s %d" % kv for kv in sorted(tables.items()))))
    step()

    # (e): every game, and PokerKit on those it has.
    rows = bench_games(args.game_hands, args.seed, args.reps, step)
    print_games(rows, args.game_hands)
    games = {}
    for r in rows:
        games[r["name"]] = {
            "core_hands_per_s": round(r["core"], 1),
            "pokerkit_hands_per_s": round(r["pk"], 1) if r["pk"] else None,
            "ratio": round(r["ratio"], 2) if r["pk"] else None}

    # (h): the house edge of Four Card Poker, measured against the expected one.
    edge = None
    if args.edge_hands:
        step(0, "Four Card Poker's house edge")
        edge = four_card_edge(args.edge_hands, args.seed)
        print_edge(edge)
    step()

    # (f): the worst showdowns inside MicroPython.
    mp = None
    if args.no_mp:
        print("MicroPython showdowns: skipped (--no-mp)")
    else:
        step(0, "MicroPython showdowns")
        mp, why = run_mp_showdowns(args.mp_reps, args.mp_batch)
        step()
        if mp is None:
            print("MicroPython showdowns: not measured: %s" % why)
        else:
            print_mp(mp)

    # (g): the whole firmware inside MicroPython.
    table = {}
    if not args.no_mp and mp is not None:
        from host_tools.bench import table as bench_table
        table = bench_table.run(args.table_hands, args.min_heap_hands,
                                lambda what: step(0, what))
        step()

    # (i): the emulated Pico, in emulated time.
    pico = {}
    if args.no_pico:
        print("the emulated Pico: skipped (--no-pico)")
    else:
        from host_tools.bench import pico as bench_pico
        pico = bench_pico.run(lambda what: step(0, what))
        step()

    print(json.dumps(dict({
        "core_hands_per_s": round(core, 1),
        "pokerkit_hands_per_s": round(pk, 1),
        "core_vs_pokerkit": round(core_vs_pk, 2),
        "eval7_per_s": round(felt7, 1),
        "treys_eval7_per_s": round(treys7, 1),
        "eval7_vs_treys": round(felt_vs_treys, 2),
        "eval_table_bytes": size,
        "hands": len(hands),
        "actions_per_hand": round(actions / len(hands), 2),
        "eval_sets": len(sets),
        "python": sys.version.split()[0],
        "games": games,
        "game_hands": args.game_hands,
        "goal_core_vs_pokerkit": GOAL_VS_POKERKIT,
        "mp_worst_showdown_ms": mp["worst_ms"] if mp else None,
        "mp_worst_showdown_heap_bytes": mp["worst_heap_bytes"] if mp else None,
        "mp_showdowns": {key: {"ms": c["ms"], "max_ms": c["max_ms"],
                               "heap_bytes": c["heap_bytes"], "players": c["players"],
                               "slowest": c["slowest"], "heaviest": c["heaviest"]}
                         for key, c in mp["cases"].items()} if mp else None,
        "mp_heap_goal_bytes": MP_HEAP_GOAL,
        "micropython": mp["micropython"] if mp else None,
        "four_card_edge": edge_figures(edge),
    }, **table, **pico)))


def print_edge(e):
    print("Four Card Poker house edge: %d seeded hands, aces up table %s, %.1f s"
          % (e["hands"], e["table"], e["seconds"]))
    print("  ante and play  %5.2f%% +- %.2f of the ante (published, optimal strategy: "
          "%.2f%%; this strategy is simpler)" % (
              e["ante_play_edge"], e["ante_play_se"], e["ante_play_published"]))
    print("  aces up        %5.2f%% +- %.2f (exact: %.2f%%)  measured / exact %.2f" % (
        e["aces_up_edge"], e["aces_up_se"], e["aces_up_expected"],
        e["aces_up_edge"] / e["aces_up_expected"]))


def edge_figures(e):
    """The JSON line's figures of four_card_edge's result (None: not measured)."""
    if e is None:
        return None
    return {"hands": e["hands"], "table": e["table"], "seconds": round(e["seconds"], 1),
            "ante_play_pct": round(e["ante_play_edge"], 3),
            "ante_play_se_pct": round(e["ante_play_se"], 3),
            "ante_play_published_pct": e["ante_play_published"],
            "ante_play_vs_published": round(e["ante_play_edge"] / e["ante_play_published"], 3),
            "aces_up_pct": round(e["aces_up_edge"], 3),
            "aces_up_se_pct": round(e["aces_up_se"], 3),
            "aces_up_exact_pct": e["aces_up_expected"],
            "aces_up_vs_exact": round(e["aces_up_edge"] / e["aces_up_expected"], 3)}


def _version(dist):
    from importlib.metadata import version
    return version(dist)


if __name__ == "__main__":
    sys.exit(main())
