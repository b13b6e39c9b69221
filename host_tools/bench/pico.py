"""felt-bench, part (i): the Pico's own figures, in emulated time, from the real rp2
image on the emulated RP2040 (host_tools/pico: rp2040js at the board's pins), played
through its bridge as `--runtime pico` plays (the chip runs at about a third of real
time: a few minutes of wall time).

One seeded 11-handed fixed-limit hold 'em session, its stacks uneven so that the short
ones are all in and the deep ones bet to the river (side pots); every seat raises while
it may, else calls or checks, so every round reaches a showdown.  The bridge keeps the
chip's moments (Bridge's `timeline`, emulated microseconds), and from them:

- boot: from the chip's start to its `hello` leaving UART0 (the program check, SHA-256
  of every file and the Ed25519 signature, included);
- a seat press to its LEDs: from the expander pin's first edge down to the first bit
  of the WS2812 frame that changes the strip (the debounce and the polling included),
  over every seat press whose LEDs changed before the next press, at least
  MIN_PRESSES of them; every other button press bounces (BOUNCES, in turn: its contact
  opens and closes again within 3 ms of its first edge, or within 6 ms, and as it is
  let go alike), some still open at the firmware's confirming read 2 ms on;
- the showdown press: from the press that ends the river's betting to the first bit of
  the LED frame that lights the winners (the showdown settled), and to the round's
  `end` frame leaving UART0 (after every `show` and `award` frame before it, each
  acked by the host: the link's 115200 baud counts there);
- the heap free (the firmware's `heap` query: gc.mem_free() after a collection) after
  boot (and the configuration) and after the first round's showdown;
- the simulation's speed (the harness's `stats`: emulated seconds per wall second).
"""

import math
import shutil
import time

PLAYERS = 11
SEED = 5
# Short stacks all in at different bets (side pots); deep ones still betting on the river.
STACKS = [8, 12, 16, 20, 24, 30, 36, 42, 200, 200, 200]
MIN_PRESSES = 200    # seat presses timed at least (more rounds while fewer)
MAX_HANDS = 10
# Each button press's bounce in turn (host_tools.pico.bridge.Bridge.bounces): the ms
# after its first edge at which the contact opens and closes again.
BOUNCES = [[], [0.3, 0.6],
           [], [0.2, 0.5, 0.9, 1.4, 2.0, 2.7],     # open at 2-2.7 ms: confirmed later
           [], [1.5, 3, 4.5, 6]]                   # open at every confirmation until 6 ms

GOALS = {"pico_heap_free_after_boot_bytes": (180 * 1024, "at least"),
         "pico_heap_free_after_showdown_bytes": (120 * 1024, "at least"),
         "pico_boot_ms": (1000, "at most"),
         "pico_press_to_led_p99_ms": (10, "at most"),
         "pico_showdown_press_ms": (50, "at most")}


def percentile(values, q):
    """The nearest-rank q-quantile (0 < q <= 1) of `values`, or None when empty."""
    if not values:
        return None
    ranked = sorted(values)
    return ranked[min(len(ranked), max(1, math.ceil(len(ranked) * q))) - 1]


def boot_ms(timeline):
    """The chip's first start to the first `hello` it says, in ms, or None."""
    start = None
    for t, what, detail in timeline:
        if what == "ready" and start is None:
            start = t
        elif what == "said" and detail == "hello" and start is not None:
            return (t - start) / 1000
    return None


def press_to_led_ms(timeline):
    """Each seat press to the first LED frame changing the strip before the next press
    (or a reset), in ms; a press that changed nothing is left out."""
    out = []
    down = None
    for t, what, detail in timeline:
        if what == "down":
            down = t if detail == "btn" else None
        elif what == "reset":
            down = None
        elif what == "leds" and down is not None:
            out.append((t - down) / 1000)
            down = None
    return out


def showdown_ms(timeline):
    """Each showdown's press (the last press before hands are shown) to its result,
    in ms: (to the first bit of the last LED frame before the next press, the winners
    lit; to the round's `end` frame leaving UART0)."""
    out = []
    down = end = lit = None
    shown = False
    for t, what, detail in list(timeline) + [(None, "down", None)]:
        if what == "down":
            if down is not None and end is not None and lit is not None:
                out.append(((lit - down) / 1000, (end - down) / 1000))
            down, end, lit, shown = t, None, None, False
        elif what == "leds":
            lit = t
        elif detail == "evt show":
            shown = True
        elif detail == "evt end" and shown:
            end = t
    return out


def _aggressive(seat, legal):
    for action in ("raise", "bet", "call", "check"):
        if action in legal:
            return action
    return legal[0]


def measure(say=lambda what: None):
    """The figures, as a dict for felt-bench's JSON line (every key but the goals'
    starting `pico_`)."""
    from host_tools.emulator.session import Session, table_config
    cfg = table_config("holdem", PLAYERS)
    cfg["stacks"] = STACKS
    wall = time.monotonic()
    say("the emulated Pico: booting")
    with Session(players=PLAYERS, seed=SEED, config=cfg, runtime="pico", measure=True) as s:
        s.fw.bridge.bounces = BOUNCES
        after_boot = s.link.request("heap", {}, "heap")["free"]
        hands = after_showdown = pots = 0
        while hands < MAX_HANDS and (not hands or
                                     len(press_to_led_ms(s.fw.timeline)) < MIN_PRESSES):
            say("the emulated Pico: hand %d" % (hands + 1))
            s.play_round(_aggressive)
            hands += 1
            if hands == 1:
                after_showdown = s.link.request("heap", {}, "heap")["free"]
                pots = len({e["pot"] for e in s.events if e["e"] == "award"})
        stats = s.fw.bridge.stats()
        timeline = list(s.fw.timeline)
        faults = list(s.faults)
    led = press_to_led_ms(timeline)
    showdowns = showdown_ms(timeline)
    boot = boot_ms(timeline)
    return {
        "pico_heap_free_after_boot_bytes": after_boot,
        "pico_boot_ms": round(boot, 1) if boot is not None else None,
        "pico_press_to_led_p50_ms": _ms(percentile(led, 0.50)),
        "pico_press_to_led_p99_ms": _ms(percentile(led, 0.99)),
        "pico_showdown_press_ms": _ms(showdowns[0][0] if showdowns else None),
        "pico_showdown_end_frame_ms": _ms(showdowns[0][1] if showdowns else None),
        "pico_heap_free_after_showdown_bytes": after_showdown,
        "pico_sim_speed": stats["speed"],
        "pico_clk_sys_mhz": stats["clk_sys_hz"] / 1e6,
        "pico_presses": len(led), "pico_hands": hands, "pico_showdown_pots": pots,
        "pico_faults": faults, "pico_wall_s": round(time.monotonic() - wall, 1),
        "pico_goals": {k: v for k, (v, _) in GOALS.items()},
    }


def _ms(v):
    return None if v is None else round(v, 1)


def run(say=lambda what: None):
    """The figures, printed, and as a dict for the JSON line; without the Pico image or
    the harness's packages, one line saying so and no figures."""
    from host_tools.pico.bridge import PicoMissing, check_ready
    try:
        check_ready()
        if shutil.which("node") is None:
            raise PicoMissing("no `node` on the PATH (Node.js >= 20 runs the harness)")
    except PicoMissing as e:
        print("the emulated Pico: not measured: %s" % e)
        return {}
    figures = measure(say)
    print_pico(figures)
    return figures


def print_pico(f):
    print("the emulated Pico (the rp2 image on rp2040js at %g MHz, emulated time, %d hands "
          "of 11-handed hold 'em, seed %d, %.1f s of wall time at %.2f emulated s per wall "
          "s):" % (f["pico_clk_sys_mhz"], f["pico_hands"], SEED, f["pico_wall_s"],
                   f["pico_sim_speed"]))
    rows = (("heap free after boot", "pico_heap_free_after_boot_bytes", "%d bytes"),
            ("boot to hello", "pico_boot_ms", "%.1f ms"),
            ("press to LED p50", "pico_press_to_led_p50_ms", "%.1f ms"),
            ("press to LED p99", "pico_press_to_led_p99_ms", "%.1f ms"),
            ("showdown press to LEDs", "pico_showdown_press_ms", "%.1f ms"),
            ("  to its end frame", "pico_showdown_end_frame_ms", "%.1f ms"),
            ("heap free after showdown", "pico_heap_free_after_showdown_bytes", "%d bytes"))
    for label, key, fmt in rows:
        v = f[key]
        line = "  %-26s %s" % (label, "-" if v is None else fmt % v)
        if key in GOALS and v is not None:
            goal, how = GOALS[key]
            met = v >= goal if how == "at least" else v <= goal
            line += "; goal %s %s: %s" % (how, fmt % goal, "met" if met else "MISSED")
        print(line)
    print("  over %d seat presses, every other button press bouncing; the showdown's "
          "round had %d pots" % (f["pico_presses"], f["pico_showdown_pots"]))
    if f["pico_faults"]:
        print("  problems: %s" % "; ".join(f["pico_faults"]))
