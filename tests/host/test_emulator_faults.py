"""Fault injection in the emulator (host_tools.emulator.faults) against the real firmware.

Random faults in headless runs: the run ends cleanly, chips are conserved and most fault
kinds come up; the same seed gives the same output; without faults the output is what
the fault-free path gives.  Then the decks' rule seen from the emulator, and the view's
fault keys.
"""

import asyncio
import io
import re
import subprocess
import sys
import types

import pytest

from once import once
from host_tools.emulator import cli, faults
from host_tools.emulator.session import Session, table_config
from host_tools.emulator.view import FeltView


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools.emulator.cli", *args],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)


def fault_kinds(stdout):
    line = [s for s in stdout.splitlines() if s.startswith("fault kinds: ")][-1]
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line)}


@pytest.fixture(scope="module")
def holdem_run(tmp_path_factory, worker_id):
    def run(folder):
        r = run_cli("--game", "holdem", "--hands", "150", "--players", "6", "--seed", "5",
                    "--faults", "random")
        return {"returncode": r.returncode, "stdout": r.stdout, "stderr": r.stderr}
    return types.SimpleNamespace(**once(tmp_path_factory, worker_id, "holdem-faults", run))


@pytest.mark.parametrize("game", ["holdem", "stud7"])
def test_random_faults_run_clean_conserve_chips_and_cover_the_kinds(game, holdem_run):
    r = holdem_run if game == "holdem" else run_cli(
        "--game", game, "--hands", "150", "--players", "6", "--seed", "5", "--faults", "random")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    lines = r.stdout.strip().splitlines()
    summary = lines[-1]
    m = re.fullmatch(r"summary: hands=150 chips_start=(\d+) chips_end=(\d+) faults=(\d+)",
                     summary)
    assert lines[-2] == "errors: 0"
    assert m, summary
    assert m.group(1) == m.group(2) == "6000"
    kinds = fault_kinds(r.stdout)
    assert set(kinds) == set(faults.KINDS)
    assert sum(kinds.values()) == int(m.group(3)) >= 25
    assert sum(1 for n in kinds.values() if n) >= 9, kinds
    assert r.stderr == ""               # no `error:` line
    # One line per injected fault, with the rule's section as the firmware reported it.
    notes = [s for s in lines if s.startswith("fault: ")]
    assert len(notes) == int(m.group(3))
    for s in notes:
        if s.startswith("fault: power cut "):
            # No rule covers a power cut: the table comes back from its journal.
            assert re.search(r": the table resumed (hand \d+|between rounds) from its journal", s)
            continue
        assert re.match(r"fault: ([a-z ]+) at hand \d+: .*\((13:47|19:47)-[\d.]+\([a-z]\)", s), s
    # Rounds called off are visible, and each round says which deck it was dealt with.
    hands = [s for s in lines if s.startswith("hand ")]
    assert len(hands) == 150 and all(re.search(r" deck=[AB]$", s) for s in hands)
    assert any("called_off=" in s for s in hands)


def test_the_same_seed_gives_the_same_faults(holdem_run):
    again = run_cli("--game", "holdem", "--hands", "150", "--players", "6", "--seed", "5",
                    "--faults", "random")
    assert again.stdout == holdem_run.stdout
    other = run_cli("--game", "holdem", "--hands", "40", "--players", "6", "--seed", "6",
                    "--faults", "random")
    assert other.stdout != holdem_run.stdout


def headless(argv):
    out = io.StringIO()
    code = cli.headless(cli.parse_args(argv), out)
    return code, out.getvalue()


def test_without_faults_the_output_is_the_fault_free_paths(monkeypatch):
    argv = ["--hands", "40", "--players", "9", "--seed", "7"]
    code, plain = headless(argv)
    assert code == 0
    lines = plain.strip().splitlines()
    assert lines[-1] == "summary: hands=40 chips_start=9000 chips_end=9000 faults=0"
    assert all(s.startswith("hand ") for s in lines[:-1]) and len(lines) == 41
    # The fault machinery with nothing to inject (deck labels on every card, the table
    # checked between rounds) plays exactly the same rounds: its RNG is a stream of its own.
    monkeypatch.setattr(faults, "RATES", {k: 0 for k in faults.RATES})
    monkeypatch.setattr(faults, "BOOST", {})
    code, quiet = headless(argv + ["--faults", "random"])
    assert code == 0
    rounds = [re.sub(r" deck=[AB]$", "", s) for s in quiet.splitlines() if s.startswith("hand ")]
    assert rounds == lines[:-1]
    assert quiet.strip().splitlines()[-1] == \
        "summary: hands=40 chips_start=9000 chips_end=9000 faults=0"


def test_a_retired_deck_is_not_dealt_again_until_the_technician_registers_it():
    with Session(players=4, seed=3, stack=200, config=table_config(players=4, stack=200),
                 inject="manual") as s:
        assert s.play_round()["deck"] == "A"
        s.arm_fault("foreign_card")        # a card of deck A while B is in play: an extra card
        end = s.play_round()
        assert end["deck"] == "B" and end["called_off"] == "dead"
        assert sum(end["stacks"]) == 800
        assert any("13:47-20.38(h)" in n for n in s.notes)
        assert s.state()["decks"] == {"in_play": "A", "retired": ["B"]}
        # The round after is dealt with the other deck, and B stays sealed meanwhile.
        end = s.play_round()
        assert end["deck"] == "A" and end["called_off"] is None
        assert s.state()["decks"] == {"in_play": "A", "retired": ["B"]}
        assert not [n for n in s.notes if n.startswith("technician")]
        # Only now the technician registers a checked deck B; the decks alternate again.
        assert s.play_round()["deck"] == "A"
        assert "technician: deck B registered" in " ".join(s.notes)
        assert s.state()["decks"] == {"in_play": "B", "retired": []}
        assert s.play_round()["deck"] == "B"
        assert s.faults == []


def test_a_power_cut_brings_the_table_back_from_its_journal_and_play_goes_on():
    with Session(players=4, seed=3, stack=200, config=table_config(players=4, stack=200),
                 inject="manual") as s:
        s.play_round()
        s.deal()
        while s.turn is None:                 # the hole cards are dealt, a player is to act
            s.take(*s.link.recv())
        before, pid = s.state(), s.fw.proc.pid
        s.inject_fault("power_cut")
        assert s.fw.proc.pid != pid and s.fw.proc.poll() is None   # a new firmware process
        after = s.state()
        assert {k: after[k] for k in faults.RESUMED} == {k: before[k] for k in faults.RESUMED}
        assert after["state"] == "playing" and after["hand"] == 2
        assert s.notes[-1].startswith("fault: power cut at hand 2: the power failed and "
                                      "came back: the table resumed hand 2 from its journal")
        s.turn = None
        while s.ended is None:                 # the same round, played to its end
            s.take(*s.link.recv())
            if s.turn is not None:
                seat, legal = s.turn
                s.act(seat, s.bots[seat].choose(legal))
        assert s.ended["hand"] == 2 and sum(s.ended["stacks"]) == 800
        # Between rounds too: the next round is dealt as if nothing happened.
        s.inject_fault("power_cut")
        assert "between rounds" in s.notes[-1]
        assert s.play_round()["hand"] == 3
        assert s.faults == []


def test_every_fault_kind_has_its_injection():
    assert set(faults.INJECT) == set(faults.KINDS + faults.BANKED_KINDS + faults.WIRED_KINDS)


def test_a_fault_with_nothing_to_act_on_says_why_and_draws_nothing():
    """Between rounds nobody holds cards: the faults that need a hand, a card being dealt
    or a forced bet are not injected, and the faults' seeded stream is left as it was, so
    the run goes on as if they had never been picked."""
    with Session(players=4, seed=3, stack=200, inject="random",
                 config=table_config("stud7", players=4, stack=200)) as s:
        stream = s.fx.rng.getstate()
        for inject, kind, why in [
                (faults.kill_a_hand, "foul", "no player holds cards"),
                (faults.kill_a_hand, "player_away", "no player holds cards"),
                (faults.take_back_a_card, "off_table", "no card of the deal under way"),
                (faults.expose_hole_cards, "exposed", "no hole card being dealt"),
                (faults.fold_a_forced_bet, "forced_bet", "no player who owes")]:
            attempt = faults.Attempt(kind, 1, None)
            inject(s.fx, attempt)
            assert attempt.skipped.startswith(why) and attempt.frames == [], kind
        assert s.fx.rng.getstate() == stream


from test_view import dealt, log_text, seat_rows, wait_for  # noqa: E402 - the view tests' helpers


def test_view_keys_inject_faults_and_the_log_shows_the_rules():
    session = Session(players=4, seed=3, stack=200, config=table_config(players=4, stack=200),
                      inject="manual")
    app = FeltView(session)
    try:
        session.open()

        async def drive():
            async with app.run_test(size=(200, 50)) as pilot:
                await pilot.press("J")           # the shuffler jams at the next shuffle
                await pilot.press("d")
                await wait_for(pilot, lambda: session.turn is not None)
                log = log_text(app)
                assert "fault: shuffler jam" in log and "13:47-20.38(o)" in log
                assert "shuffled (by hand)" in log
                await pilot.press("E")           # a hole card turned up while dealing
                await wait_for(pilot, lambda: "fault: exposed" in log_text(app))
                assert "13:47-20.38(n)" in log_text(app)
                await wait_for(pilot, lambda: session.turn is not None)
                # The exposed card is replaced: the seat shows what it holds now.
                gone = [e for e in session.events if e["e"] == "discarded" and e["seat"] >= 0]
                assert len(gone) == 1
                seat, card = gone[0]["seat"], gone[0]["cards"]
                await pilot.pause(0.1)
                cards, last = seat_rows(app)[seat][2].split("  ", 1)
                held = [c for c, _ in dealt(session, seat)]
                assert card not in cards and card not in held and len(held) == 2
                assert cards == " ".join(held) and last.strip() == "card replaced"
                await pilot.press("M")           # misdeal before two voluntary wagers
                await wait_for(pilot, lambda: session.ended is not None)
                assert session.ended["called_off"] == "misdeal"
                log = log_text(app)
                assert "fault: misdeal" in log and "irregularity, misdeal" in log
                assert sum(session.ended["stacks"]) == 800
                await pilot.press("Z")           # a power cut between rounds: in words
                await wait_for(pilot, lambda: "resumed between rounds" in log_text(app))
                assert "the table resumed between rounds from its journal (after hand 1)" \
                    in log_text(app)
                assert "{" not in log_text(app)
                await pilot.press("q")
                await wait_for(pilot, lambda: not app.is_running)

        asyncio.run(drive())
    finally:
        app.close_session()


def test_every_round_has_a_hand_history_and_a_called_off_one_says_why(tmp_path):
    """The table writes a PHH for every round (docs/phh.md), a round called off too, with
    `_called_off` and why with its section (13:47-20.38(f), (h), 19:47-27.12(f)); felt-phh
    rebuilds each one to the stacks the table ended with."""
    r = run_cli("--game", "holdem", "--hands", "60", "--players", "6", "--seed", "5",
                "--faults", "random", "--phh", str(tmp_path))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    hands = [s for s in r.stdout.splitlines() if s.startswith("hand ")]
    called = {int(s.split()[1][:-1]): re.search(r"called_off=(\w+)", s).group(1)
              for s in hands if "called_off=" in s}
    assert called, "no round was called off: choose another seed"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        "hand-%d.phh" % int(s.split()[1][:-1]) for s in hands)
    for n, kind in called.items():
        text = (tmp_path / ("hand-%d.phh" % n)).read_text()
        assert "_called_off = %r" % kind in text.replace('"', "'")
        why = re.search(r"_called_off_why = ['\"](.+) ((13|19):47-[\d.]+\([a-z]\)\d?)['\"]", text)
        assert why, text
    check = subprocess.run([sys.executable, "-m", "host_tools.phh", "check",
                            *sorted(map(str, tmp_path.iterdir()))],
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 0 and check.stdout.count("ok ") == len(hands), check.stdout


def test_a_silent_shuffler_is_a_wired_boards_fault_and_is_refused_on_the_link():
    # Its lines are timed by a wired board's driver (felt.hal.mp.Shuffler, 13:47-20.38(o));
    # where the shuffler is messages of the link nothing would ever come: a clear error.
    with Session(players=4, seed=3, stack=200, config=table_config(players=4, stack=200),
                 inject="manual") as s:
        with pytest.raises(ValueError, match="only a wired board times its shuffler"):
            s.arm_fault("shuffler_silent")
        assert s.play_round()["called_off"] is None and s.faults == []
