"""felt-bench, part (g): the whole firmware in MicroPython's unix port (32-bit, the `.mpy`
files a board loads, the board's heap), played over the link by the emulator.

- the heap in use (after a collection, the firmware's `heap` query) after boot and
  between rounds of a seeded 11-handed hold 'em run;
- from a seat press arriving to its LED frame being written, and to the end of its
  handling, over every press of that run (the firmware's `perf` frames, booted with
  --measure; the unix port here, an RP2040 runs 10 to 30 times slower); beside it the
  anchor, the same figure of the link's loop with an empty handler
  (tests/mp/bench_link_loop.py, in a second unix-port process running all the while
  the table does), so that the press is read against this machine's speed in the same
  seconds, not as a wall time alone;
- the smallest `-X heapsize` that completes the 1000-hand hold 'em fault run, found by
  bisection (a run that reboots, even once, does not complete);
- the program check at boot (felt.image: every file's SHA-256 and the manifest's
  Ed25519 signature), in milliseconds, as the board's log line says.

Every run is of a signed image (felt-flash build, with a key made for the run), as a
board runs: its program checked at boot, the technician's commands signed.

Goals (issue 9): min heap within 150 KB, leaving 30 KB or more of a Pico's 185 KB free;
press to LED p99 within 1 ms here.
"""

import contextlib
import json
import re
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

MIN_HEAP_GOAL = 150 * 1024
PRESS_TO_LED_GOAL_MS = 1.0
ANCHOR_GAP_MS = 5             # between two of the anchor's presses
FAULT_RUN = ["--game", "holdem", "--players", "11", "--seed", "5", "--faults", "random"]


def signed_image(folder):
    """A key pair, a technician's, the trust document naming them and the pico-11 image
    signed with the first, in `folder`: the arguments that run it (felt-emulator
    --image)."""
    from host_tools import images, signing
    private, _ = signing.keygen(Path(folder) / "bench")
    tech_key, tech_pub = signing.keygen(Path(folder) / "tech")
    trust = signing.write_trust(Path(folder) / "trust", private, tech=tech_pub)
    image = Path(folder) / "image"
    images.build("pico-11", image, private)
    signing.first_record(image, trust, "pico-11")
    return {"image": image, "trust": trust, "tech_key": tech_key}


def program_check_ms(signed, boots=5):
    """The median of the program check's time over `boots` boots of the image."""
    from host_tools.process import FirmwareProcess
    took = []
    for _ in range(boots):
        fw = FirmwareProcess(signed["image"] / "board.json", runtime="micropython",
                             image=signed["image"], trust=signed["trust"])
        try:
            kind, p = fw.link.recv()
            took.append(int(re.search(r"in (\d+) ms$", p["msg"]).group(1)))
        finally:
            fw.close()
    return statistics.median(took)


def measure_table(hands, signed, players=11, seed=5):
    """Heap and press figures of a seeded run (no faults) in the unix port."""
    from host_tools.emulator.session import Session
    from host_tools.signing import load_key
    with Session(players=players, seed=seed, runtime="micropython", measure=True,
                 image=signed["image"], board=signed["image"] / "board.json",
                 trust=signed["trust"], tech_key=load_key(signed["tech_key"])) as s:
        after_boot = s.link.request("heap", {}, "heap")["used"]
        between = []
        for _ in range(hands):
            s.play_round()
            between.append(s.link.request("heap", {}, "heap")["used"])
        perf = list(s.link.perf)
    led = sorted([p[0] for p in perf if p[0] is not None])
    showdown = [p[1] for p in perf if p[2]]
    return {"mp_heap_after_boot_bytes": after_boot,
            "mp_heap_between_rounds_bytes": max(between),
            "mp_press_to_led_p50_ms": round(_pct(led, 0.50) / 1000, 3),
            "mp_press_to_led_p99_ms": round(_pct(led, 0.99) / 1000, 3),
            "mp_showdown_press_ms": round(max(showdown) / 1000, 3) if showdown else None,
            "mp_presses": len(led), "mp_showdown_presses": len(showdown),
            "mp_table_hands": hands}


def _anchor_command(signed, presses, gap_ms):
    from host_tools import micropython
    board = signed["image"] / "board.json"
    heap = json.loads(board.read_text())["heap_bytes"]
    return micropython.command(micropython.REPO / "tests" / "mp" / "bench_link_loop.py",
                               [str(board), str(presses), str(gap_ms)], heap,
                               tree=signed["image"])


def _anchor_led_us(p, out):
    if p.returncode:
        raise RuntimeError("bench_link_loop.py exited %d: %s" % (p.returncode, out[-2000:]))
    return json.loads(out.splitlines()[-1])["led_us"]


def empty_handler_led_us(signed, presses, gap_ms=1):
    """The anchor alone: tests/mp/bench_link_loop.py in the unix port, on the signed
    image's files and its board's heap; the led_us of each of `presses` presses."""
    cmd, env = _anchor_command(signed, presses, gap_ms)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    return _anchor_led_us(p, p.stdout + p.stderr)


@contextlib.contextmanager
def anchor_beside(signed, gap_ms=ANCHOR_GAP_MS):
    """The anchor running while the block does: yields a list that holds, after the
    block, the led_us of every press it timed meanwhile."""
    cmd, env = _anchor_command(signed, 0, gap_ms)
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    led_us = []
    try:
        yield led_us
    finally:
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=60)
    led_us.extend(_anchor_led_us(p, out))


def anchored(figures, anchor_us):
    """The anchor's figures, and the press's p99 as a multiple of the anchor's."""
    anchor_us = sorted(anchor_us)
    p99 = _pct(anchor_us, 0.99) / 1000
    figures.update({"mp_empty_handler_p50_ms": round(_pct(anchor_us, 0.50) / 1000, 3),
                    "mp_empty_handler_p99_ms": round(p99, 3),
                    "mp_empty_handler_presses": len(anchor_us),
                    "mp_press_p99_over_empty_handler": round(
                        figures["mp_press_to_led_p99_ms"] / p99, 2)})
    return figures


def _pct(sorted_values, q):
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def completes(heap_bytes, hands, signed, timeout=1800):
    """Whether the fault run completes at this heap: exit 0 and no reboot."""
    cli = Path(sys.executable).with_name("felt-emulator")
    p = subprocess.run([str(cli), "--runtime", "micropython", "--heap", str(heap_bytes),
                        "--hands", str(hands), "--image", str(signed["image"]),
                        "--trust", str(signed["trust"]), "--tech-key", str(signed["tech_key"])]
                       + FAULT_RUN, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=timeout)
    return p.returncode == 0 and not any(
        line.startswith("reboot: ") for line in p.stdout.splitlines())


def min_heap(hands, signed, low=64 * 1024, high=185 * 1024, step=1024, tried=None,
             say=lambda what: None):
    """The smallest heap (to `step`) at which the fault run completes, or None when it
    does not at `high`.  `tried` collects (heap, completed); `say(what)` hears each try."""
    tried = [] if tried is None else tried
    say("the smallest heap: %dK" % (high // 1024))
    ok = completes(high, hands, signed)
    tried.append((high, ok))
    if not ok:
        return None
    while high - low > step:
        mid = (low + high) // 2 // step * step
        say("the smallest heap: %dK (%dK to %dK)" % (mid // 1024, low // 1024, high // 1024))
        ok = completes(mid, hands, signed)
        tried.append((mid, ok))
        if ok:
            high = mid
        else:
            low = mid
    return high


def run(hands, min_heap_hands, say=lambda what: None):
    """Every figure of part (g), printed, and as a dict for the JSON line; `say(what)`
    hears what is under way."""
    with tempfile.TemporaryDirectory(prefix="felt-bench-") as folder:
        say("the whole firmware in MicroPython: %d hands" % hands)
        signed = signed_image(folder)
        with anchor_beside(signed) as anchor:
            figures = measure_table(hands, signed)
        anchored(figures, anchor)
        figures["mp_program_check_ms"] = program_check_ms(signed)
        tried = []
        figures["mp_min_heap_bytes"] = min_heap(min_heap_hands, signed, tried=tried, say=say) \
            if min_heap_hands else None
    figures["mp_min_heap_hands"] = min_heap_hands
    print_table(figures, tried)
    return figures


def print_table(f, tried):
    print("the whole firmware in MicroPython's unix port (32-bit, a signed image's .mpy "
          "files, %d hands of 11-handed hold 'em, seed 5):" % f["mp_table_hands"])
    print("  program check at boot       %7d ms (the median of 5 boots)" % f["mp_program_check_ms"])
    print("  heap in use after boot      %7d bytes" % f["mp_heap_after_boot_bytes"])
    print("  heap between rounds, most   %7d bytes" % f["mp_heap_between_rounds_bytes"])
    p99 = f["mp_press_to_led_p99_ms"]
    print("  press to LED frame          %7.3f ms p50, %.3f ms p99 over %d presses; goal "
          "p99 within %.1f ms: %s (%.0f%%)" % (
              f["mp_press_to_led_p50_ms"], p99, f["mp_presses"], PRESS_TO_LED_GOAL_MS,
              "met" if p99 <= PRESS_TO_LED_GOAL_MS else "MISSED",
              100.0 * p99 / PRESS_TO_LED_GOAL_MS))
    print("  the same, an empty handler  %7.3f ms p50, %.3f ms p99 over %d presses (the "
          "link's loop alone, all the while): the press's p99 is %.1f times it" % (
              f["mp_empty_handler_p50_ms"], f["mp_empty_handler_p99_ms"],
              f["mp_empty_handler_presses"], f["mp_press_p99_over_empty_handler"]))
    if f["mp_showdown_press_ms"] is not None:
        print("  a press that brings the showdown, handled whole: %.3f ms at most (%d)" % (
            f["mp_showdown_press_ms"], f["mp_showdown_presses"]))
    m = f["mp_min_heap_bytes"]
    if not f["mp_min_heap_hands"]:
        print("  smallest heap: not measured (--min-heap-hands 0)")
    elif m is None:
        print("  smallest heap: the %d-hand fault run does not complete even at 185 KB"
              % f["mp_min_heap_hands"])
    else:
        print("  smallest heap completing the %d-hand hold 'em fault run: %d bytes (%.1f KB; "
              "tried %s); goal within %d KB: %s (%.0f%%)" % (
                  f["mp_min_heap_hands"], m, m / 1024,
                  ", ".join("%dK %s" % (h // 1024, "ok" if ok else "no") for h, ok in tried),
                  MIN_HEAP_GOAL // 1024, "met" if m <= MIN_HEAP_GOAL else "MISSED",
                  100.0 * m / MIN_HEAP_GOAL))
