"""Hostile link frames against the controller, for the hypothesis test
(test_hostile_frames.py) and the soak (soak.py): tables driven to random points of
play, frames of every kind with fields of every type, and the controller's whole state
frozen so that a refused frame can be shown to have changed nothing."""

import random
import types

from felt import protocol as P
from felt.poker import cards as C
from host_tools.link import QueryRefused
from felt.table.controller import Controller, PLACING, PLAYING
from felt.table.journal import Journal
from felt.table.messages import SPECS

from table_fakes import BOARD, FakeHal

TABLES = [
    {"seats": 3, "stacks": [100, 60, 100], "small_bet": 2, "big_bet": 4, "blinds": [1, 2]},
    {"game": "stud7", "seats": 4, "stacks": [50, 50, 50, 50], "small_bet": 2, "big_bet": 4,
     "ante": 1, "blinds": [], "bring_in": 1,
     "rake": {"method": "percent", "percent": 5, "maximum": 3}},
    {"game": "omaha-hilo8", "seats": 4, "stacks": [80, 80, 30, 80], "structure": "pot",
     "small_bet": 2, "big_bet": 0, "cap": 0, "blinds": [1, 2], "max_wager": 40,
     "rake": {"method": "time", "hourly": 6, "every": 30}},
    {"game": "triple-draw-27", "seats": 3, "stacks": [40, 40, 40], "structure": "no",
     "small_bet": 2, "big_bet": 0, "cap": 0, "blinds": [1, 2],
     "rake": {"method": "incremental", "levels": [[20, 1], [60, 2]], "maximum": 3}},
]

# The table over_link plays on (test_hostile_frames.py, soak.py).
NINE_SEATS = {"seats": 9, "stacks": [1000] * 9, "small_bet": 2, "big_bet": 4, "blinds": [1, 2]}

KINDS = sorted(SPECS) + ["cfg", "teleport"]
KEYS = sorted(set(k for spec in SPECS.values() for k in spec)) + ["zz", "rake", "stacks"]
VALUES = [0, 1, 2, 3, 5, 10, 22, 500, -1, -100, 2 ** 31, 10 ** 12, True, False, None,
          "", "As", "Kd", "2c", "??", "as", "AS", "A", "B", "Z", "fold", "call", "raise",
          "deal", "cut_done", "misdeal", "exposed", "dead_round", "player_away", "done",
          "jammed", "idle", "shuffling", "jam", "ok", "stop", "bogus", "x" * 300,
          [], ["As"], ["As", "As"], [1, 2], [[1, 2]], {}, {"method": "time"},
          "As Kd", "As As", "wrong_start", "no", "yes"]


def table(cfg):
    """A controller on fake devices, configured with cfg."""
    ctl = Controller(FakeHal(), BOARD, Journal())
    assert ctl.handle("cfg", cfg) is None
    return ctl


def play(ctl, rng, steps):
    """Drive the table on with up to `steps` inputs a table would get: deals, shuffles,
    cuts, cards from a shuffled deck, and the seat on turn's buttons."""
    deck = [C.code(c) for c in range(52)]
    rng.shuffle(deck)
    for _ in range(steps):
        if ctl.state == PLAYING and ctl.round.expecting() is not None:
            if not deck:
                return
            ctl.handle("card", {"code": deck.pop()})
        elif ctl.state == PLAYING and ctl.round.to_act >= 0:
            seat = ctl.round.to_act
            legal = ctl.round.legal_actions(seat)
            if "discard" in legal or "draw" in legal:
                ctl.handle("discard", {"seat": seat, "cards": ""})
            else:
                ctl.handle("btn", {"seat": seat, "b": rng.choice(["fold", "call", "call", "raise"])})
        elif ctl.state == PLAYING:
            return
        else:
            for kind, p in (("dealer", {"b": "deal"}), ("shuf", {"state": "done"}),
                            ("dealer", {"b": "cut_done"})):
                ctl.handle(kind, p)
            deck = [C.code(c) for c in range(52)]
            rng.shuffle(deck)


def freeze(o, seen=None):
    """The whole state under `o` as nested tuples, to compare before and after."""
    if isinstance(o, (int, str, bytes, float, type(None))):
        return o
    if isinstance(o, (bytearray, memoryview)):
        return bytes(o)
    if isinstance(o, dict):
        return ("dict",) + tuple(sorted((k, freeze(v)) for k, v in o.items()))
    if isinstance(o, (list, tuple)):
        return (type(o).__name__,) + tuple(freeze(v) for v in o)
    if isinstance(o, types.ModuleType):
        return ("module", o.__name__)     # the game's table: code, not state
    if hasattr(o, "__dict__") or hasattr(o, "__slots__"):   # a Round has slots
        skip = ("hal", "board", "leds", "source", "variant")
        fields = vars(o).items() if hasattr(o, "__dict__") else \
            [(k, getattr(o, k)) for k in o.__slots__ if hasattr(o, k)]
        return (type(o).__name__,) + tuple(sorted((k, freeze(v)) for k, v in fields
                                                  if k not in skip))
    return repr(o)


def random_frame(rng):
    kind = rng.choice(KINDS)
    spec = SPECS.get(kind, {})
    keys = list(spec) if rng.random() < 0.7 else []
    keys += rng.sample(KEYS, rng.randint(0, 2))
    return kind, dict((k, rng.choice(VALUES)) for k in keys)


def judge(ctl, kind, payload):
    """(refused, changed, fault): whether the frame was refused, whether a refused
    frame changed the table, and whether the firmware failed on it (a handler raised
    what no check does: the table locks with internal_fault, docs/tilts.md)."""
    before = freeze(ctl)
    faults = len([r for r in ctl.eventlog.memory if r["code"] == "internal_fault"])
    why = ctl.handle(kind, payload)
    # One after the journal took the frame is acked (docs/protocol.md, 5): a fault still.
    if len([r for r in ctl.eventlog.memory if r["code"] == "internal_fault"]) > faults:
        return why is not None, False, True
    if why is None:
        return False, False, False
    return True, freeze(ctl) != before, False


def fuzz(frames, seed):
    """Counts of `frames` random frames, at random points of play of every table."""
    rng = random.Random(seed)
    counts = {"frames_fuzzed": 0, "refused": 0, "refused_changed_state": 0,
              "internal_faults": 0}
    while counts["frames_fuzzed"] < frames:
        ctl = table(rng.choice(TABLES))
        play(ctl, rng, rng.randint(0, 60))
        for _ in range(20):
            refused, changed, fault = judge(ctl, *random_frame(rng))
            counts["frames_fuzzed"] += 1
            counts["refused"] += refused
            counts["refused_changed_state"] += changed
            counts["internal_faults"] += fault
    return counts



def over_link(link, rng, frames):
    """Send `frames` random frames to a firmware over its link (a HostLink), in bursts
    at random points of play: between them the table is driven on as play() drives a
    controller, from the state the firmware reports.  Returns the rounds played."""
    deck = []
    sent = rounds = 0
    while sent < frames:
        for _ in range(rng.randint(0, 6)):
            kind, payload = random_frame(rng)
            if rng.random() < 0.3:     # a kind of its own: the link takes any a-z_ name
                kind = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_")
                               for _ in range(rng.randint(1, P.MAX_KIND)))
            link.send(kind, payload)
            sent += 1
        for _ in range(rng.randint(1, 12)):
            rounds += len([p for k, p in link.drain() if k == "evt" and p["e"] == "end"])
            try:
                st = link.request("state", {}, "state")
            except QueryRefused:     # a hostile state query's refusal, come late
                continue
            if st["state"] == PLAYING and st["to_act"] >= 0:
                link.send("btn", {"seat": st["to_act"],
                                  "b": rng.choice(["fold", "call", "call", "raise"])})
            elif st["state"] in (PLAYING, PLACING):
                if not deck:
                    deck = [C.code(c) for c in range(52)]
                    rng.shuffle(deck)
                link.send("card", {"code": deck.pop()})
            else:
                for kind, p in (("dealer", {"b": "deal"}), ("shuf", {"state": "done"}),
                                ("dealer", {"b": "hand_shuffle_done"}),
                                ("dealer", {"b": "cut_done"})):
                    link.send(kind, p)
                deck = []
    return rounds + len([p for k, p in link.drain() if k == "evt" and p["e"] == "end"])
