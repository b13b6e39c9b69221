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
    lines = r.stdout.splitlines()
    assert lines == ["%s %d" % (v.name, v.max_players) for v in variants.every()] + \
        ["four-card-poker 6", "holdem-bonus 6"]     # the house-banked games after them
    assert "stud7 8" in lines and "triple-draw-27 7" in lines and "omaha 10" in lines
