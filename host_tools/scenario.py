"""felt-scenario: run rule scenarios against the firmware over the emulated serial link.

A scenario (docs/scenarios.md) is a JSON file: a table configuration, a seed and a list
of steps.  A step sends one device or dealer-panel message, lets the emulator play the
devices and the seeded players up to a point, makes one seat act, or checks what the
firmware said, showed on its LEDs or holds in its state.

    felt-scenario tests/scenarios/*.json

prints one line per failed step (and one per step marked as a known firmware bug) and a
summary `scenarios: N passed, M failed`; the exit status is 1 when a scenario failed or
could not be read.
"""

import json
import re
import sys
import time
from pathlib import Path

from felt.table import config as config_mod
from felt.table import scenes
from felt.table.controller import FROM_DEVICES
from host_tools import cli
from host_tools.link import LinkError
from host_tools.process import add_runtime_arguments, check_runtime
from host_tools.emulator.players import BUTTON_FOR
from host_tools.emulator.session import Session, table_config

# Keys of "table" that go to the emulator's table_config(); any other key is a cfg
# setting of docs/protocol.md that overrides what table_config() made.
TABLE_ARGS = ("game", "players", "stack", "structure", "rake", "button", "straddle", "run_it")
STEP_KINDS = ("send", "cards", "play", "act", "power", "expect")
PLAY_GOALS = ("until_turn", "until_need", "until_end")
POLICIES = ("random", "passive")
EXPECT_KEYS = ("evt", "frame", "times", "last", "in", "nak", "stacks", "chips", "refunds",
               "led_centre", "led_seats", "state", "turn")
WINDOWS = ("step", "round", "all")
FRAME_KEYS = ("evt", "frame", "times", "last")   # only in an evt or frame expectation
# Seat actions the "act" step makes with a seat button, and those that throw cards away.
BUTTON_ACTIONS = tuple(BUTTON_FOR)
CARD_ACTIONS = ("discard", "draw")
# Frames whose handling plays a device: answered only by a "play" step.
REQUESTS = ("shuffle", "need")
PLAY_FRAME_LIMIT = 20000
PLAY_TIME_LIMIT_S = 30.0


class ScenarioError(ValueError):
    """The scenario file itself is malformed."""


# ----- loading ---------------------------------------------------------------------------

def load(path):
    """The scenario in `path`, checked for shape; ScenarioError if malformed."""
    path = Path(path)
    try:
        sc = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ScenarioError("cannot read %s: %s" % (path, e))
    if not isinstance(sc, dict):
        raise ScenarioError("a scenario is a JSON object")
    for k in sc:
        if k not in ("name", "rule", "description", "table", "seed", "steps"):
            raise ScenarioError("unknown key %r" % k)
    if not isinstance(sc.get("rule"), str) or not sc["rule"]:
        raise ScenarioError('"rule" must cite the section the scenario checks')
    if not isinstance(sc.get("table"), dict):
        raise ScenarioError('"table" must be an object')
    if not isinstance(sc.get("seed", 0), int):
        raise ScenarioError('"seed" must be an integer')
    steps = sc.get("steps")
    if not isinstance(steps, list) or not steps:
        raise ScenarioError('"steps" must be a non-empty list')
    for i, st in enumerate(steps):
        why = _step_shape(st)
        if why:
            raise ScenarioError("steps[%d]: %s" % (i, why))
    sc.setdefault("name", path.stem)
    return sc


def _step_shape(st):
    if not isinstance(st, dict):
        return "a step is an object"
    kinds = [k for k in STEP_KINDS if k in st]
    if len(kinds) != 1:
        return "a step has exactly one of %s" % ", ".join(STEP_KINDS)
    kind = kinds[0]
    allowed = {"send": ("as",), "cards": (), "play": ("what", "seat", "policy"),
               "act": (), "power": (), "expect": ()}[kind] + (kind, "note", "bug")
    for k in st:
        if k not in allowed:
            return "unknown key %r in a %s step" % (k, kind)
    if "bug" in st and not isinstance(st["bug"], str):
        return '"bug" names the firmware bug the step shows'
    v = st[kind]
    if kind == "send":
        if not (isinstance(v, list) and len(v) == 2 and isinstance(v[0], str)
                and isinstance(v[1], dict)):
            return 'send is ["kind", {payload}]'
    elif kind == "cards":
        if not (isinstance(v, list) and v and all(isinstance(c, str) for c in v)):
            return "cards is a list of card codes"
    elif kind == "play":
        if v not in PLAY_GOALS:
            return "play is one of %s" % ", ".join(PLAY_GOALS)
        if st.get("policy", "random") not in POLICIES:
            return "policy is one of %s" % ", ".join(POLICIES)
        if "what" in st and v != "until_need":
            return '"what" goes with until_need'
    elif kind == "power":
        if v != "cut":
            return 'power is "cut": the power fails and comes back'
    elif kind == "act":
        if not (isinstance(v, list) and 2 <= len(v) <= 3):
            return 'act is [seat, action] or [seat, action, to-or-cards]'
        if v[1] not in BUTTON_ACTIONS + CARD_ACTIONS:
            return "unknown action %r" % (v[1],)
        if not (isinstance(v[0], int) or v[0] == "turn"):
            return 'the seat is a number or "turn"'
    else:
        if not isinstance(v, dict) or not v:
            return "expect is a non-empty object"
        if v.get("in", "step") not in WINDOWS:
            return '"in" is one of %s' % ", ".join(WINDOWS)
        if "evt" in v and "frame" in v:
            return 'one of "evt" and "frame" per expect step'
        if "evt" in v or "frame" in v:
            # Every other key but times, last and in is a field of the frame.
            if not isinstance(v.get("times", 0), int) or v.get("last", False) not in (True, False):
                return '"times" is a count and "last" true or false'
            return None
        for k in v:
            if k not in EXPECT_KEYS or k in FRAME_KEYS:
                return "unknown expectation %r" % k
    return None


def table_of(sc):
    """(players, cfg) for a scenario's table."""
    t = dict(sc["table"])
    if t.get("game") in config_mod.BANKED:
        return _banked_table(t)
    args = {k: t.pop(k) for k in TABLE_ARGS if k in t and not
            (k == "rake" and isinstance(t[k], dict))}
    cfg = table_config(**args)
    for k, v in t.items():
        if k not in config_mod.KEYS:
            raise ScenarioError("unknown table setting %r" % k)
        cfg[k] = v
    players = args.get("players", 9)
    if "stacks" in t:
        players = len(t["stacks"])
        cfg["seats"] = players
    return players, cfg


def _banked_table(t):
    """(players, cfg) for a house-banked table (docs/scenarios.md): `players` seats of
    `stack` chips, wagers 5 to 50, the ante 5, then the cfg settings given."""
    players, stack = t.pop("players", 3), t.pop("stack", 200)
    cfg = {"game": t.pop("game"), "seats": players, "stacks": [stack] * players,
           "min_wager": 5, "max_wager": 50}
    for k, v in t.items():
        if k not in config_mod.BANKED_KEYS:
            raise ScenarioError("unknown table setting %r" % k)
        cfg[k] = v
    cfg["seats"] = len(cfg["stacks"])
    return cfg["seats"], cfg


# ----- running ---------------------------------------------------------------------------

class Result:
    def __init__(self, name):
        self.name = name
        self.failures = []     # (step index or None, message)
        self.known = []        # (step index, bug, message): failures a "bug" mark expects

    @property
    def passed(self):
        return not self.failures

    def lines(self, label, known=True):
        """One line per failed step, and per known bug unless known is False; in step
        order."""
        rows = [(-1 if i is None else i, "%s: %s: %s" % (
            label, "scenario" if i is None else "steps[%d]" % i, m)) for i, m in self.failures]
        if known:
            rows += [(i, "%s: steps[%d]: known firmware bug (%s): %s" % (label, i, bug, m))
                     for i, bug, m in self.known]
        return [line for _, line in sorted(rows, key=lambda r: r[0])]


class Runner:
    def __init__(self, sc, verbose=None, runtime="cpython", heap=None, phh=None):
        self.sc = sc
        self.runtime = runtime   # what the firmware runs on, and its heap (FirmwareProcess)
        self.heap = heap
        self.phh = phh           # a folder for the rounds' hand histories, or None
        self.verbose = verbose   # verbose(line): each step and the frames it brought
        self.players, self.cfg = table_of(sc)
        self.s = None
        self.frames = []         # (step index, kind, payload): everything the board sent
        self.step = -1           # the step running now
        self.window = -1         # the last step that was not an expectation
        self.reply = None        # (step index, nak reason or None) of the last send or act
        self.request = None      # the last shuffle/need frame or waiting evt not answered
        self.names = {}          # card codes saved by "as"
        self.last_dealt = None

    # -- frames ------------------------------------------------------------------------

    def _record(self, kind, p):
        self.frames.append((self.step, kind, p))
        if kind == "evt":
            e = p.get("e")
            if e == "hand":
                self.s.hole = [[] for _ in range(self.players)]
            if e in ("hand", "end"):
                self.s.turn = None
            elif e == "dealt":     # a wired board names no face-down card: the one fed
                self.last_dealt = p.get("card", self.s.fed)

    def _observe(self, kind, p):
        """A frame outside play: recorded, and shown to the session unless it asks a
        device to do something (those wait for a play step)."""
        self._record(kind, p)
        if kind in REQUESTS or (kind == "evt" and p.get("e") == "waiting"):
            self.request = (kind, p)
            return
        self._take(kind, p)

    def _take(self, kind, p):
        if kind == "evt" and p.get("e") == "discarded":
            seat = p.get("seat", -1)
            # A card found face up belongs to no seat (seat -1): the session would look
            # for it in the last seat's hand.  (A wired board names no discard: the
            # session knows the ones its seat threw.)
            cards = p.get("cards", self.s.thrown.get(seat, ""))
            if seat < 0 or any(c not in self.s.hole[seat] for c in cards.split()):
                self.s.events.append(p)
                return
        self.s.take(kind, p)

    def _settle(self):
        """Wait until the board has said everything about the inputs so far: a state
        query's answer comes after every frame written before it.  The turn the session
        offers is then made to agree with the board's (a dealer's report can end it)."""
        snap = self.s.state()
        for kind, p in self.s.link.drain():
            self._observe(kind, p)
        seat = snap["to_act"] if snap["state"] == "playing" else -1
        if seat < 0:
            self.s.turn = None
        elif self.s.turn is None or self.s.turn[0] != seat:
            legal = [e["legal"] for e in self._events("all")
                     if e.get("e") == "to_act" and e["seat"] == seat][-1:]
            self.s.turn = (seat, legal[0] if legal else [])
        return snap

    def _events(self, window):
        if window == "all":
            return [p for _, k, p in self.frames if k == "evt"]
        if window == "round":
            evts = [p for _, k, p in self.frames if k == "evt"]
            starts = [i for i, p in enumerate(evts) if p.get("e") == "hand"]
            return evts[starts[-1]:] if starts else evts
        return [p for i, k, p in self.frames if k == "evt" and i == self.window]

    def _frames(self, window, kind):
        rows = self.frames if window == "all" else \
            [f for f in self.frames if f[0] == self.window]
        return [p for _, k, p in rows if k == kind]

    # -- placeholders ------------------------------------------------------------------

    def _resolve(self, v, draw=False):
        if isinstance(v, dict):
            return {k: self._resolve(x, draw) for k, x in v.items()}
        if isinstance(v, list):
            return [self._resolve(x, draw) for x in v]
        if isinstance(v, str) and v.startswith("~"):
            # A substring: each $name in it is replaced by its card.
            return re.sub(r"\$[A-Za-z0-9_.]+", lambda m: self._resolve(m.group(0), draw), v)
        if not isinstance(v, str) or not v.startswith("$"):
            return v
        name = v[1:]
        if name == "next":
            if not draw:
                raise ScenarioError("$next draws a card: only in a send step")
            return self.s.shoe.deal()
        if name == "last":
            if self.last_dealt is None:
                raise ScenarioError("$last: no card dealt yet")
            return self.last_dealt
        if name.startswith("hole."):
            try:
                _, seat, i = name.split(".")
                return self.s.hole[int(seat)][int(i)]
            except (ValueError, IndexError):
                raise ScenarioError("%s: no such hole card" % v)
        if name in self.names:
            return self.names[name]
        raise ScenarioError("unknown placeholder %s" % v)

    # -- steps -------------------------------------------------------------------------

    def run(self):
        result = Result(self.sc["name"])
        self.s = Session(players=self.players, seed=self.sc.get("seed", 0), config=self.cfg,
                         runtime=self.runtime, heap=self.heap, phh=self.phh)
        try:
            self.s.open()
            if self.s.faults:
                result.failures.append((None, "; ".join(self.s.faults)))
                return result
            self._settle()
            steps = self.sc["steps"]
            for i, st in enumerate(steps):
                self.step = i
                try:
                    problems = self._run_step(i, st, steps)
                except ScenarioError as e:
                    problems = ["bad step: %s" % e]
                except (LinkError, OSError) as e:
                    why = str(e)
                    err = self.s.fw.stderr().strip()
                    if err:
                        why += "; firmware stderr: " + err.splitlines()[-1]
                    result.failures.append((i, "link failed: %s (remaining steps skipped)"
                                            % why))
                    break
                if "bug" in st:
                    if problems:
                        result.known.append((i, st["bug"], "; ".join(problems)))
                    else:
                        result.failures.append((i, "marked as firmware bug %r but passed: "
                                                "remove the mark" % st["bug"]))
                elif problems:
                    result.failures.append((i, "; ".join(problems)))
        except (LinkError, OSError) as e:
            result.failures.append((None, "the firmware did not start: %s" % e))
        finally:
            self.s.close()
        return result

    def _run_step(self, i, st, steps):
        if self.verbose:
            self.verbose("steps[%d] %s" % (i, json.dumps(st)))
        if "expect" in st:
            return self._expect(st["expect"])
        self.window = i
        if "send" in st:
            problems = self._send(i, st, steps)
        elif "cards" in st:
            problems = []
            for code in st["cards"]:
                problems = self._send(i, {"send": ["card", {"code": code}]}, steps)
                if self.reply[1] is not None:
                    break       # the rest would answer requests never made
        elif "act" in st:
            problems = self._act(i, st, steps)
        elif "power" in st:
            # The board reboots on its journal; what it says at boot is this step's.
            self.s.power_cut()
            self._settle()
            problems = []
        else:
            problems = self._play(st)
        if self.verbose:
            for _, kind, p in [f for f in self.frames if f[0] == i and f[1] != "px"]:
                self.verbose("    < %s %s" % (kind, json.dumps(p, sort_keys=True)))
            if self.reply and self.reply[0] == i and self.reply[1] is not None:
                self.verbose("    nak: %s" % self.reply[1])
        return problems

    def _refusal_expected(self, i, steps):
        for st in steps[i + 1:]:
            if "expect" not in st:
                return False
            if st["expect"].get("nak") is not None:
                return True
        return False

    def _after_reply(self, i, why, steps, what):
        self.reply = (i, why)
        if why is not None and not self._refusal_expected(i, steps):
            return ["%s refused: %s" % (what, why)]
        return []

    def _send(self, i, st, steps):
        kind, payload = st["send"]
        payload = self._resolve(payload, draw=True)
        if "as" in st:
            # The card the message names; a dealer's report without one is about the
            # last card read.
            card = payload.get("code", payload.get("card", self.last_dealt))
            if not isinstance(card, str):
                raise ScenarioError('"as" needs a message about a card')
            self.names[st["as"]] = card
        if kind == "card" and isinstance(payload.get("code"), str):
            why = self.s.feed(payload)     # the shoe's card from now on, on every runtime
        elif kind == "dealer":
            why = self.s.report(payload)
        else:      # a technician's command signed where the board trusts keys (a Pico)
            why = self.s.link.send(*self.s.as_technician(kind, payload))
        if why is None:
            # The devices the message speaks for: a finished shuffle fills the shoe.
            if (kind == "shuf" and payload.get("state") == "done") or \
                    (kind == "dealer" and payload.get("b") == "hand_shuffle_done"):
                self.s.shoe.load(self.s.shuffler.shuffle())
        self._settle()
        return self._after_reply(i, why, steps, "%s %s" % (kind, json.dumps(payload)))

    def _act(self, i, st, steps):
        seat, action = st["act"][0], st["act"][1]
        arg = st["act"][2] if len(st["act"]) == 3 else None
        if seat == "turn":
            if self.s.turn is None:
                return ["act: nobody is on turn"]
            seat = self.s.turn[0]
        if not 0 <= seat < self.players:
            raise ScenarioError("no seat %r" % seat)
        if action in CARD_ACTIONS:
            cards = arg if arg is not None else " ".join(self.s.bots[seat].throw(
                self.s.hole[seat], 1 if action == "discard" else None))
            msg = ("discard", {"seat": seat, "cards": self._resolve(cards)})
        else:
            msg = ("btn", {"seat": seat, "b": BUTTON_FOR[action]})
            if arg is not None:
                msg[1]["to"] = arg
        turn, self.s.turn = self.s.turn, None
        why = self.s.discard(seat, msg[1]["cards"]) if msg[0] == "discard" else \
            self.s.link.send(*msg)
        if why is not None:
            self.s.turn = turn
        self._settle()
        problems = self._after_reply(i, why, steps, "seat %d %s" % (seat, action))
        if why is None and action in ("fold", "check", "call", "bring_in", "bet", "raise",
                                      "decline", "run_it", "run_once"):
            done = [p["a"] for p in self._events("step")
                    if p.get("e") == "action" and p.get("seat") == seat]
            if done and done[0] != action:
                problems.append("seat %d pressed for %s but the board made it %s"
                                % (seat, action, done[0]))
        return problems

    # -- play --------------------------------------------------------------------------

    def _choose(self, seat, legal, policy):
        if policy == "passive":
            for a in ("check", "call", "bring_in", "decline", "run_once", "draw", "discard"):
                if a in legal:
                    return a
        return self.s.bots[seat].choose(legal)

    def _resume(self, snap):
        """Answer what the board waits for now, as the devices would: the request left
        unanswered counts only if the board's state says it still waits for it."""
        state = snap["state"]
        kind, p = self.request or (None, None)
        self.request = None
        if state == "shuffling":
            self._take("shuffle", {})
        elif state in ("hand_shuffle", "cut"):
            self._take("evt", {"e": "waiting", "for": state})
        elif state == "placing" or (state == "playing" and snap["to_act"] < 0):
            self._take("need", p if kind == "need" else {})

    def _play(self, st):
        goal, policy = st["play"], st.get("policy", "random")
        want_seat, want_what = st.get("seat"), st.get("what")
        faults = len(self.s.faults)
        snap = self._settle()
        if snap["state"] == "idle":
            self.s.turn = None
            why = self.s.link.send("dealer", {"b": "deal"})
            snap = self._settle()
            if why is not None:
                return ["play %s: the deal was refused: %s" % (goal, why)]
        self._resume(snap)
        problems = []
        deadline = time.monotonic() + PLAY_TIME_LIMIT_S
        for _ in range(PLAY_FRAME_LIMIT):
            if self.s.turn is not None:
                seat, legal = self.s.turn
                if goal == "until_turn" and want_seat in (None, seat):
                    break
                self.s.act(seat, self._choose(seat, legal, policy))
                if len(self.s.faults) > faults:
                    break       # refused: reported below
                continue
            if time.monotonic() > deadline:
                problems.append("play %s: still playing after %d s" % (goal, PLAY_TIME_LIMIT_S))
                break
            try:
                kind, p = self.s.link.recv()
            except LinkError as e:
                problems.append("play %s: %s (the table waits for nothing the emulator "
                                "plays)" % (goal, e))
                break
            if kind == "need" and goal == "until_need" and \
                    want_seat in (None, p.get("seat")) and want_what in (None, p.get("what")):
                self._record(kind, p)
                self.request = (kind, p)
                break
            self._record(kind, p)
            try:
                self._take(kind, p)
            except RuntimeError as e:      # the emulator's shoe ran out
                problems.append("play %s: %s" % (goal, e))
                break
            if kind == "evt" and p.get("e") == "end":
                if goal != "until_end":
                    problems.append("play %s: the round ended first (called_off=%s)"
                                    % (goal, p.get("called_off")))
                break
        else:
            problems.append("play %s: no end after %d frames" % (goal, PLAY_FRAME_LIMIT))
        self._settle()
        problems += ["play %s: the emulator's input was %s" % (goal, f)
                     for f in self.s.faults[faults:]]
        return problems

    # -- expectations ------------------------------------------------------------------

    def _expect(self, x):
        x = self._resolve(x)
        problems = []
        snap = None
        if "evt" in x or "frame" in x:
            return self._expect_frames(x, x.get("in", "step"))
        if "nak" in x:
            if self.reply is None:
                problems.append("nak: nothing was sent yet")
            else:
                i, why = self.reply
                if x["nak"] is None and why is not None:
                    problems.append("expected steps[%d] accepted, it was refused: %s" % (i, why))
                elif x["nak"] is not None and why is None:
                    problems.append("expected steps[%d] refused (%r), it was accepted"
                                    % (i, x["nak"]))
                elif x["nak"] is not None and x["nak"] not in why and \
                        not (self.s.wired and why.endswith(FROM_DEVICES)):
                    # A message no device of a wired board can say (a misdeal's reason
                    # the panel has no key for): its link refuses it, changing nothing.
                    problems.append("expected a refusal containing %r, got %r" % (x["nak"], why))
        if any(k in x for k in ("stacks", "chips", "state", "turn")):
            snap = self.s.state()
        if "stacks" in x:
            want = x["stacks"]
            if len(want) != len(snap["stacks"]) or any(
                    w is not None and w != g for w, g in zip(want, snap["stacks"])):
                problems.append("stacks %s, expected %s" % (
                    snap["stacks"], json.dumps(want)))
        if "chips" in x:
            # During a round the snapshot's stacks are those the round started with.
            chips = sum(snap["stacks"])
            if snap["state"] == "playing":
                problems.append("chips are counted between rounds, the table is playing")
            elif chips != x["chips"]:
                problems.append("chips on the table %d (stacks %s), expected %d"
                                % (chips, snap["stacks"], x["chips"]))
        if "turn" in x:
            seat = snap["to_act"] if snap["to_act"] >= 0 else None
            if seat != x["turn"]:
                problems.append("seat on turn %s, expected %s" % (seat, x["turn"]))
        if "state" in x:
            diff = _mismatch(x["state"], snap, "state")
            if diff:
                problems.append(diff)
        if "refunds" in x:
            problems += self._expect_refunds(x["refunds"], x.get("in", "round"))
        if "led_centre" in x:
            got = scenes.centre_status(self.s.strip.frame, self.s.board["leds"])
            name = scenes.CENTRE_NAMES[got] if got >= 0 else "unknown colour"
            if not _shows(name, x["led_centre"]):
                problems.append("LED centre shows %r, expected %r" % (name, x["led_centre"]))
        if "led_seats" in x:
            for seat, want in sorted(x["led_seats"].items()):
                got = scenes.seat_status(self.s.strip.frame, self.s.board["leds"], int(seat))
                name = scenes.SEAT_NAMES[got] if got >= 0 else "unknown colour"
                if not _shows(name, want):
                    problems.append("LED of seat %s shows %r, expected %r" % (seat, name, want))
        return problems

    def _expect_frames(self, x, window):
        if "evt" in x:
            rows = [p for p in self._events(window) if p.get("e") == x["evt"]]
            what = "evt %s" % x["evt"]
        else:
            rows = self._frames(window, x["frame"])
            what = "frame %s" % x["frame"]
        fields = {k: v for k, v in x.items() if k not in FRAME_KEYS + ("in",)}
        if x.get("last"):
            rows = rows[-1:]
        hits = [p for p in rows if _mismatch(fields, p, "") is None]
        desc = what + (" " + json.dumps(fields, sort_keys=True) if fields else "")
        times = x.get("times")
        if times is None and not hits:
            seen = "; ".join(json.dumps(p, sort_keys=True) for p in rows[-3:]) or "none"
            return ["no %s in the %s (of that kind: %s)" % (desc, _window_name(window), seen)]
        if times is not None and len(hits) != times:
            return ["%d × %s in the %s, expected %d" % (len(hits), desc,
                                                       _window_name(window), times)]
        return []

    def _expect_refunds(self, want, window):
        got = {}
        for p in self._events(window):
            if p.get("e") == "refund":
                got[p["seat"]] = got.get(p["seat"], 0) + p["amount"]
        if isinstance(want, list):
            want = {s: a for s, a in enumerate(want) if a}
        else:
            want = {int(s): a for s, a in want.items()}
        if got != want:
            return ["refunds %s, expected %s" % (_seats(got), _seats(want))]
        return []


def _shows(name, want):
    """An LED expectation: a scene's name, or "!name" for any scene but that one."""
    return name != want[1:] if want.startswith("!") else name == want


def _seats(d):
    return "{%s}" % ", ".join("%d: %d" % (s, d[s]) for s in sorted(d))


def _window_name(window):
    return {"step": "last step's events", "round": "round's events",
            "all": "scenario's events"}[window]


def _mismatch(want, got, where):
    """None when `got` holds `want` (objects: every key given; a string "~text": any
    string containing text), else what differs."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return "%s is %r, expected an object" % (where or "value", got)
        for k, v in want.items():
            if k not in got:
                return "%s has no %s" % (where or "payload", k)
            m = _mismatch(v, got[k], "%s.%s" % (where, k) if where else k)
            if m:
                return m
        return None
    if isinstance(want, str) and want.startswith("~"):
        if isinstance(got, str) and want[1:] in got:
            return None
    elif want == got and type(want) is type(got):
        return None
    return "%s is %s, expected %s" % (where or "value", json.dumps(got), json.dumps(want))


# ----- entry points -----------------------------------------------------------------------

def run_file(path, verbose=None, runtime="cpython", heap=None, phh=None):
    """Run one scenario file; a Result (a malformed file is one failure).  `phh`: a
    folder the table writes each round's hand history to (felt-emulator --phh)."""
    try:
        sc = load(path)
        runner = Runner(sc, verbose, runtime, heap, phh)
    except ScenarioError as e:
        r = Result(Path(path).stem)
        r.failures.append((None, "invalid scenario: %s" % e))
        return r
    return runner.run()


@cli.command("felt-scenario")
def main(argv=None):
    ap = cli.parser("felt-scenario", __doc__)
    ap.add_argument("files", nargs="+", metavar="FILE", help="scenario JSON files")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="leave out the known firmware bugs' lines")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print each step and the frames the board sent for it (px left out)")
    add_runtime_arguments(ap)
    args = ap.parse_args(argv)
    check_runtime(ap, args)
    passed = failed = 0
    with cli.progress(len(args.files), "scenarios") as step:
        for f in args.files:
            r = run_file(f, print if args.verbose else None, args.runtime, args.heap)
            for line in r.lines(f, known=not args.quiet):
                print(line)
            if r.passed:
                passed += 1
            else:
                failed += 1
            step()
    print("scenarios: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
