"""The whole firmware inside MicroPython's unix port, at the board's heap: every scenario
of tests/scenarios/, and seeded runs of the emulator compared with the same runs on
CPython, frame by frame and line by line.

    python tests/mp/compare.py [-j JOBS] [--long]

Each scenario passes as felt-scenario says; each seeded run passes when both runtimes
exit 0 and print the same output, and the frames each side of the link sent are the
same frames in the same order (power cuts included: the emulator kills the unix-port
process and boots it again on its journal), the protocol's resends aside: a frame sent
again because its answer came late is the link working, and a busy machine makes one
on either runtime (`sent_once`: an ack names the frame it answers, not its seq).  `make test` runs the scenarios and a short
run of every game with faults, which between them must inject every fault kind;
`make check` runs the long ones (--long).  Ends with
`micropython-unix: N passed, M failed`; exits 1 if M > 0.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from host_tools.emulator import faults

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

# make check: 200 hands without faults, and 1000 with random faults and power cuts in a
# flop game, a stud game, a draw game (triple draw seats 7 at most: 13:69F-14.12B) and a
# house-banked game.
LONG = [
    ["--hands", "200", "--players", "9", "--seed", "7"],
    ["--game", "holdem", "--hands", "1000", "--players", "8", "--seed", "5", "--faults", "random"],
    ["--game", "stud7", "--hands", "1000", "--players", "8", "--seed", "5", "--faults", "random"],
    ["--game", "triple-draw-27", "--hands", "1000", "--players", "7", "--seed", "5",
     "--faults", "random"],
    # A house-banked table, its own faults (19:47-27.12) and power cuts (about 30 s).
    ["--game", "holdem-bonus", "--hands", "1000", "--players", "6", "--seed", "5",
     "--faults", "random"],
]

# make test: every game, with random faults and power cuts, long enough that every fault
# kind is injected in some run (checked: `fault kinds:` of the CPython side).
QUICK = [["--game", game, "--hands", str(hands), "--players", str(players), "--seed", "5",
          "--faults", "random"] for game, hands, players in (
    ("holdem", 40, 8), ("pineapple", 20, 6), ("crazy-pineapple", 20, 6), ("omaha", 20, 8),
    ("omaha-hilo8", 20, 8), ("stud7", 20, 7), ("stud7-hilo", 20, 7), ("stud7-hilo8", 20, 7),
    ("stud5", 20, 7), ("mambo-stud", 20, 6), ("draw5", 20, 6), ("draw5-low", 20, 6),
    ("triple-draw-a5", 20, 6), ("triple-draw-27", 20, 7), ("four-card-poker", 40, 6),
    ("holdem-bonus", 40, 6))]


RECENT = 64   # how far back a resend or a second answer is looked for, in frames


def frames(trace):
    """The frames each side sent, in order: (host's, firmware's), each frame as its kind
    and payload.  How the two directions interleave depends on timing; each direction's
    order does not, once what the protocol's resends add is taken out (`sent_once`)."""
    if not trace.exists():
        return [], []
    return sent_once(trace.read_text().splitlines())


def sent_once(trace_lines):
    """(host's, firmware's) frames from a trace's lines ("> " sent, "< " read), less a
    frame sent again byte for byte (a resend keeps its seq) and an ack or nak again for a
    frame already answered (the answer to the other side's resend).  A frame's own seq and
    CRC are dropped, and an ack or nak names the frame it answers by that frame's kind and
    payload: a second answer takes a seq of its own, and every seq after it then differs
    by one between the runtimes; what is sent, in what order, and what answers what is
    the check."""
    sent = {">": [], "<": []}
    bodies = {">": {}, "<": {}}      # each side's seq -> its last frame with that seq
    recent = {">": deque(maxlen=RECENT), "<": deque(maxlen=RECENT)}
    answered = {">": deque(maxlen=RECENT), "<": deque(maxlen=RECENT)}
    for line in trace_lines:
        side, raw = line[:1], line[2:].rstrip("\n")
        seq, _, rest = raw.partition(" ")
        body = rest.rsplit(" *", 1)[0]
        kind, _, payload = body.partition(" ")
        if kind == "hello":     # a boot, or the host's first word (never resent): seqs
            recent[side].clear()    # start again
            answered[side].clear()
        elif raw in recent[side]:
            continue
        recent[side].append(raw)
        bodies[side][seq] = body
        if kind in ("ack", "nak"):
            answer = json.loads(payload)
            other = "<" if side == ">" else ">"
            to = bodies[other].get("@%d" % answer["seq"], "a frame not in the trace")
            body = "%s to %s%s" % (kind, to, " why %s" % answer["why"] if kind == "nak" else "")
            if (answer["seq"], body) in answered[side]:
                continue
            answered[side].append((answer["seq"], body))
        sent[side].append(body)
    return sent[">"], sent["<"]


def first_difference(a, b):
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "(nothing)"
        y = b[i] if i < len(b) else "(nothing)"
        if x != y:
            return i, x, y
    return None


def emulate(args, runtime, out_dir):
    trace = out_dir / ("%s.trace" % runtime)
    t0 = time.monotonic()
    p = subprocess.run([str(BIN / "felt-emulator"), "--runtime", runtime, "--trace", str(trace)]
                       + args, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       cwd=str(ROOT))
    return p, trace, time.monotonic() - t0


def compare_run(args):
    """A seeded run on both runtimes; (name, problems, note)."""
    name = "felt-emulator " + " ".join(args)
    with tempfile.TemporaryDirectory(prefix="felt-compare-") as d:
        d = Path(d)
        cp, cp_trace, cp_s = emulate(args, "cpython", d)
        mp, mp_trace, mp_s = emulate(args, "micropython", d)
        problems = []
        for label, p in (("cpython", cp), ("micropython", mp)):
            if p.returncode != 0:
                problems.append("%s exited %d: %s" % (label, p.returncode,
                                                      (p.stdout + p.stderr)[-1500:]))
        diff = first_difference(cp.stdout.splitlines(), mp.stdout.splitlines())
        if diff:
            problems.append("output line %d: cpython %r, micropython %r" % diff)
        for side, a, b in zip(("host", "firmware"), frames(cp_trace), frames(mp_trace)):
            diff = first_difference(a, b)
            if diff:
                problems.append("%s frame %d: cpython %r, micropython %r" % ((side,) + diff))
        last = cp.stdout.strip().splitlines()[-1:] or [""]
        note = "%s; cpython %.1f s, micropython %.1f s" % (last[0], cp_s, mp_s)
    return name, problems, note, injected(cp.stdout)


def injected(stdout):
    """The fault kinds a run injected at least once, from its `fault kinds:` line."""
    for line in stdout.splitlines():
        if line.startswith("fault kinds: "):
            return {k for k, _, n in (w.partition("=") for w in line.split()[2:]) if n != "0"}
    return set()


def scenario(path):
    p = subprocess.run([str(BIN / "felt-scenario"), "--runtime", "micropython", "-q", str(path)],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=str(ROOT))
    problems = [] if p.returncode == 0 else [(p.stdout + p.stderr)[-1500:]]
    return "scenario " + str(path.relative_to(ROOT)), problems, "", set()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-j", "--jobs", type=int, default=2, help="runs at once (default 2)")
    ap.add_argument("--long", action="store_true",
                    help="the long runs (make check) instead of the scenarios and short runs")
    args = ap.parse_args(argv)
    runs = LONG if args.long else QUICK
    scenarios = [] if args.long else sorted((ROOT / "tests" / "scenarios").rglob("*.json"))
    passed = failed = 0
    seen = set()
    with ThreadPoolExecutor(args.jobs) as pool:
        # The long runs first, so the scenarios fill the gaps.
        jobs = [pool.submit(compare_run, r) for r in runs[::-1]]
        jobs += [pool.submit(scenario, s) for s in scenarios]
        for job in jobs:
            name, problems, note, kinds = job.result()
            seen |= kinds
            failed += report(name, problems, note)
            passed += not problems
    if not args.long:
        # The short runs stand for the long ones only while they inject every kind.
        never = sorted(set(faults.KINDS + faults.BANKED_KINDS) - seen)
        problems = ["never injected: %s" % " ".join(never)] if never else []
        failed += report("every fault kind injected", problems, "")
        passed += not problems
    print("micropython-unix: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def report(name, problems, note):
    """Print one result; 1 if it failed."""
    if problems:
        print("FAILED %s" % name)
        for p in problems:
            print("    " + p.replace("\n", "\n    "))
    else:
        print("ok %s%s" % (name, " (%s)" % note if note else ""))
    sys.stdout.flush()
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
