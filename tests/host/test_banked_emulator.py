"""The house-banked games in the emulator (docs/protocol.md 6.4): headless runs of Four
Card Poker and Texas Hold 'em Bonus Poker with the scripted players and random faults,
the house's result in the summary, chips conserved, the same seed the same output, a
record per round (docs/banked-records.md), the same runs under MicroPython."""

import json
import re
import subprocess
import sys

import pytest

from felt import FIRMWARE
from host_tools.emulator.faults import Faults
from host_tools.micropython import MicroPythonMissing, binary
from sampling import examples, sampled

GAMES = ("four-card-poker", "holdem-bonus")
SUMMARY = r"summary: hands=(\d+) chips_start=(\d+) chips_end=(\d+) house=(-?\d+) faults=(\d+)"


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools.emulator.cli", *args],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)


def summary(r):
    m = re.fullmatch(SUMMARY, r.stdout.strip().splitlines()[-1])
    assert m, r.stdout[-2000:]
    return [int(x) for x in m.groups()]


@pytest.fixture(scope="module", params=GAMES)
def fault_run(request):
    """The 1000-hand fault run of the brief (about 25 s each on CPython)."""
    return request.param, run_cli("--game", request.param, "--hands", "1000", "--players",
                                  "6", "--seed", "5", "--faults", "random")


@pytest.mark.slow
def test_a_thousand_hands_with_faults_conserve_chips_and_show_the_house(fault_run):
    game, r = fault_run
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    assert r.stderr == ""
    hands, start, end, house, injected = summary(r)
    assert hands == 1000 and start == end == 6000
    lines = r.stdout.splitlines()
    assert lines[-2] == "errors: 0"
    rounds = [s for s in lines if s.startswith("hand ")]
    assert len(rounds) == 1000
    won = 0
    for s in rounds:
        m = re.match(r"hand \d+: house=([+-]\d+) winners=\S* dealer=\S+( board=\S+)?", s)
        assert m, s
        won += int(m.group(1))
    assert won == house                 # each round's house result adds up to the session's
    # Every fault kind of a banked table comes up, and no other.
    counts = dict(re.findall(r"(\w+)=(\d+)", [s for s in lines if s.startswith("fault kinds:")][0]))
    assert set(counts) == set(Faults.kinds(game))
    assert all(int(n) > 0 for n in counts.values()), counts
    assert sum(int(n) for n in counts.values()) == injected
    notes = [s for s in lines if s.startswith("fault: ")]
    assert len(notes) == injected
    for s in notes:
        if not s.startswith("fault: power cut "):
            assert re.search(r"\(19:47-27\.12\([a-g]\)\)", s), s
    # A void returns every wager exactly: the round's house result is nothing.
    voids = [s for s in rounds if "called_off=void" in s]
    assert voids and all(" house=+0 " in s for s in voids)


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_output(game):
    args = ("--game", game, "--hands", "30", "--players", "5", "--seed", "9", "--faults",
            "random")
    a, b = run_cli(*args), run_cli(*args)
    assert a.returncode == 0, a.stdout[-2000:] + a.stderr
    assert a.stdout == b.stdout


@pytest.mark.parametrize("game", GAMES)
def test_every_round_has_a_banked_record_that_adds_up(game, tmp_path):
    r = run_cli("--game", game, "--hands", "40", "--players", "6", "--seed", "3",
                "--faults", "random", "--phh", str(tmp_path))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    hands, _, _, house, _ = summary(r)
    files = sorted(tmp_path.iterdir())
    assert len(files) == hands and all(f.suffix == ".banked" for f in files)
    total = 0
    for f in files:
        d = json.loads(f.read_text())
        assert d["format"] == "felt-banked 1" and d["game"] == game
        assert f.name == "hand-%d.banked" % d["hand"]
        for s in range(len(d["stacks"])):
            wagered, paid = d["results"][s]
            assert d["stacks"][s] - wagered + paid == d["finishing_stacks"][s]
        assert d["house"] == sum(w - p for w, p in d["results"])
        if d["called_off"]:
            assert d["house"] == 0 and d["called_off"][2].startswith("19:47-27.12(")
        else:
            assert len(d["dealer"].split()) == (6 if game == "four-card-poker" else 2)
            assert d["shown"][0][0] == -1 or not d["shown"]
        total += d["house"]
    assert total == house


def test_the_terminal_view_and_poker_options_are_refused_at_a_banked_table():
    r = run_cli("--game", "four-card-poker")
    assert r.returncode == 2 and "give --hands N" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    r = run_cli("--game", "holdem-bonus", "--hands", "2", "--rake", "percent")
    assert r.returncode == 2 and "house-banked: it has no --rake" in r.stderr


def _micropython():
    try:
        binary()
    except MicroPythonMissing as e:
        pytest.skip(str(e))


@sampled
@pytest.mark.parametrize("game", GAMES)
def test_micropython_at_the_boards_heap_plays_the_same_rounds(game, tmp_path):
    _micropython()
    hands = examples(100)
    args = ["--game", game, "--hands", str(hands), "--players", "6", "--seed", "5", "--faults",
            "random"]
    mp = run_cli("--runtime", "micropython", "--phh", str(tmp_path), *args)
    cp = run_cli(*args)
    assert mp.returncode == 0, mp.stdout[-2000:] + mp.stderr
    assert mp.stdout == cp.stdout
    assert len(list(tmp_path.glob("*.banked"))) == hands


def test_felt_recall_rebuilds_the_records_the_table_wrote(tmp_path):
    table, recalled = tmp_path / "table", tmp_path / "recalled"
    table.mkdir()
    journal = table / "journal.jsonl"
    r = run_cli("--game", "holdem-bonus", "--hands", "12", "--players", "4", "--seed", "2",
                "--faults", "random", "--journal", str(journal), "--phh", str(table))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    r = subprocess.run([sys.executable, "-m", "host_tools.recall", "--journal", str(journal),
                        "--phh", str(recalled)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "house-banked" in r.stdout and "  house: " in r.stdout
    files = sorted(recalled.iterdir())
    assert len(files) == 10
    for f in files:
        mine = json.loads(f.read_text())
        written = json.loads((table / f.name).read_text())
        assert mine.pop("firmware") is None and written.pop("firmware") == FIRMWARE
        assert mine == written
