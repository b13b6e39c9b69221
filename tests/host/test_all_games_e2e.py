"""Every game through the firmware over the serial link: the emulated table plays it
at its maximum players, chips conserved, nothing refused."""

import subprocess
import sys

import pytest

from felt.poker import variants


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_tools.emulator.cli", *args],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("game", variants.NAMES)
def test_every_game_plays_at_its_maximum_players(game):
    most = variants.get(game).max_players
    r = run("--game", game, "--hands", "12", "--players", str(most), "--seed", "11")
    assert r.returncode == 0, r.stdout + r.stderr
    chips = 1000 * most
    assert r.stdout.splitlines()[-1] == \
        "summary: hands=12 chips_start=%d chips_end=%d faults=0" % (chips, chips)


@pytest.mark.parametrize("structure,rake", [("spread", "percent"), ("pot", "incremental"),
                                            ("no", "time")])
def test_structures_and_rakes_conserve_chips_with_the_rake_shown(structure, rake):
    r = run("--game", "omaha-hilo8", "--structure", structure, "--rake", rake,
            "--hands", "15", "--players", "6", "--seed", "4")
    assert r.returncode == 0, r.stdout + r.stderr
    last = r.stdout.splitlines()[-1].split()
    fields = dict(f.split("=") for f in last[1:])
    assert fields["chips_start"] == fields["chips_end"] and fields["faults"] == "0"
    assert int(fields["rake"]) > 0


def test_list_games_prints_each_name_and_maximum_players():
    r = run("--list-games")
    # Issue 22: the numbers say what they are (they were bare: "stud7 8").
    lines = [line.split("  ", 1) for line in r.stdout.splitlines()]
    assert [(name, said.strip()) for name, said in lines] == \
        [(v.name, "up to %d players" % v.max_players) for v in variants.every()] + \
        [("four-card-poker", "up to 6 players"), ("holdem-bonus", "up to 6 players")]
    assert ["stud7", "up to 8 players"] in [[n, s.strip()] for n, s in lines]
