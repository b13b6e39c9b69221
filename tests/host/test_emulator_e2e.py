"""End to end: the firmware under CPython on a pty, every device played by the emulator."""

import subprocess
import sys

from felt.table import scenes
from host_tools.emulator.session import Session


def test_out_of_turn_presses_are_refused_and_leds_show_button_and_action_seat():
    checked = []
    with Session(players=5, seed=3, stack=200) as s:
        def choose(seat, legal):
            # The frame shown for this decision: the button and whose action it is.
            assert s.strip.button_seat() == s.state()["button"]
            assert s.strip.seat_status(seat) == scenes.ACTION
            before = s.state()
            for other in range(5):
                if other != seat:
                    why = s.press(other, "call")
                    assert why is not None and "out of turn" in why
            assert s.state() == before          # refused presses change nothing
            checked.append(seat)
            return s.bots[seat].choose(legal)

        for _ in range(3):
            end = s.play_round(choose)
            assert sum(end["stacks"]) == 1000
        refused = [f for f in s.faults if "out of turn" in f]
        assert len(refused) == 4 * len(checked) and len(s.faults) == len(refused)
    assert len(checked) >= 6


def test_no_button_is_lit_after_a_stud_round():
    # Issue 22: stud has no button, yet after a round its seat 3 was lit as one (the view
    # put a D on it).
    from host_tools.emulator.session import table_config
    cfg = table_config("stud7", 4, 1000, "fixed", "none", "dealer_right", False)
    with Session(players=4, seed=3, config=cfg) as s:
        s.play_round()
        for kind, p in s.link.drain(0.3):
            s.take(kind, p)
        assert (s.strip.button_seat(), s.state()["button"]) == (-1, -1)
        assert scenes.WINNER in [s.strip.seat_status(seat) for seat in range(4)]


def test_led_frames_follow_every_action():
    with Session(players=3, seed=11, stack=100) as s:
        frames_at_turn = []

        def choose(seat, legal):
            frames_at_turn.append((seat, [s.strip.seat_status(i) for i in range(3)]))
            return "fold" if "fold" in legal else legal[0]

        s.play_round(choose)
        for seat, statuses in frames_at_turn:
            assert statuses[seat] == scenes.ACTION
            assert statuses.count(scenes.ACTION) == 1


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools.emulator.cli", *args],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)


def test_headless_run_is_deterministic_and_conserves_chips():
    a = run_cli("--hands", "30", "--players", "9", "--seed", "7")
    b = run_cli("--hands", "30", "--players", "9", "--seed", "7")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    last = a.stdout.strip().splitlines()[-1]
    assert last == "summary: hands=30 chips_start=9000 chips_end=9000 faults=0"
    assert len(a.stdout.strip().splitlines()) == 31


def test_interactive_view_needs_a_terminal():
    r = run_cli("--players", "4")
    assert r.returncode == 2 and "needs a terminal" in r.stderr
