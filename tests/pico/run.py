"""The firmware image on the emulated Pico (`--runtime pico`): the real rp2 port with felt
frozen, its devices at their pins (host_tools/pico).  Each case boots a board and plays
through the bridge as felt-emulator does.

    python tests/pico/run.py [NAME...]     # the cases whose names contain a NAME

Ends with `pico: N passed, M failed`; exits 1 if M > 0.  About 20-40 s of wall time a
case: the chip runs at about a third of real time.
"""

import os
import subprocess
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "firmware")]

from felt.table import scenes  # noqa: E402
from host_tools.emulator.session import Session, table_config  # noqa: E402


def session(game="holdem", players=3, seed=3, inject=None):
    cfg = table_config(game, players, 1000, "fixed", "none", "dealer_right", False)
    return Session(players=players, seed=seed, config=cfg, runtime="pico", inject=inject,
                   trace=os.environ.get("PICO_TRACE_FILE"))


def conserved(s, start):
    end = s.state()
    assert sum(end["stacks"]) + end["pot"] + end.get("house", 0) == start, end


def first_turn(s):
    """Deal, and play the devices' part until a seat is to act: (seat, legal)."""
    s.deal()
    while s.turn is None:
        s.take(*s.link.recv())
    return s.turn


def test_boot_checks_the_program_and_says_hello():
    with session() as s:
        assert s.hello["signed"] and s.hello["board"] == "pico-11", s.hello
        logs = [p["msg"] for k, p in s.link.drain(0.5) if k == "log"]
        assert s.fw.bridge.resets == [], s.fw.bridge.resets
        assert s.state()["state"] == "idle"
        assert not [m for m in logs if "tilt" in m], logs


def test_a_stud_hand_deals_up_cards_through_the_card_reader():
    with session("stud7", players=4) as s:
        s.play_round()
        ups = [e for e in s.events if e["e"] == "dealt" and e["what"] == "up"]
        assert len(ups) >= 4, s.events          # third street at least: one up card each
        assert not s.faults, s.faults
        conserved(s, 4000)


def test_seat_buttons_reach_the_leds_on_gp22():
    with session() as s:
        seat = first_turn(s)[0]
        for kind, p in s.link.drain(0.5):
            s.take(kind, p)
        assert s.strip.seat_status(seat) == scenes.ACTION, s.strip.frame
        s.act(seat, "fold")      # pressed on its expander pin
        for kind, p in s.link.drain(0.5):
            s.take(kind, p)
        assert s.strip.seat_status(seat) == scenes.FOLDED, s.strip.frame
        assert [e for e in s.events if e["e"] == "action" and e["seat"] == seat]


def test_a_shuffler_jam_on_its_line_calls_for_a_hand_shuffle():
    with session(inject="manual") as s:
        s.arm_fault("shuffler_jam")
        s.play_round()
        kinds = [e.get("for") for e in s.events if e["e"] == "waiting"]
        assert "hand_shuffle" in kinds, s.events     # 13:47-20.38(o)
        assert not s.faults, s.faults
        conserved(s, 3000)


def test_a_house_banked_round_settles_with_the_house():
    with session("four-card-poker", players=3) as s:
        end = s.play_round()
        assert "house_round" in end, end
        assert not s.faults, s.faults
        conserved(s, 3000)


def test_a_power_cut_mid_round_resumes_from_the_journal_on_flash():
    with session() as s:
        first_turn(s)
        before = s.state()
        frames = s.power_cut()
        assert any(k == "evt" and p.get("e") == "resumed" for k, p in frames), frames
        after = s.state()
        assert (after["hand"], after["stacks"], after["pot"]) == \
            (before["hand"], before["stacks"], before["pot"]), (before, after)
        s.turn = None
        while s.ended is None:
            s.take(*s.link.recv())
            if s.turn is not None:
                seat, legal = s.turn
                s.act(seat, s.bots[seat].choose(legal))
        assert s.fw.bridge.resets == ["power"], s.fw.bridge.resets
        conserved(s, 3000)


def test_holdem_plays_as_on_cpython():
    plays_as_on_cpython(["--hands", "3", "--players", "4", "--seed", "11"])


def test_four_card_poker_plays_as_on_cpython():
    # Every round line shows the dealer's six cards: a board that saw no shuffler on its
    # lines shuffled by hand and dealt A<->T, K<->Q swapped (host_tools/pico/bridge.py).
    plays_as_on_cpython(["--game", "four-card-poker", "--hands", "2", "--players", "6",
                         "--seed", "3"])


def plays_as_on_cpython(args):
    emulator = str(Path(sys.executable).with_name("felt-emulator"))
    cpython = subprocess.run([emulator] + args, capture_output=True, text=True,
                             stdin=subprocess.DEVNULL, timeout=120)
    pico = subprocess.run([emulator, "--runtime", "pico"] + args, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=600)
    assert pico.returncode == 0 and cpython.returncode == 0, pico.stderr[-2000:]
    assert pico.stdout == cpython.stdout, (pico.stdout, cpython.stdout)


def main(argv):
    cases = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]
    if argv:
        cases = [(n, f) for n, f in cases if any(a in n for a in argv)]
    passed = failed = 0
    for name, fn in cases:
        start = time.monotonic()
        try:
            fn()
        except Exception:  # noqa: BLE001 - a failing case is reported, the others run
            failed += 1
            print("FAIL %s" % name)
            traceback.print_exc()
        else:
            passed += 1
            print("ok   %s (%.0f s)" % (name, time.monotonic() - start))
        sys.stdout.flush()
    print("pico: %d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
