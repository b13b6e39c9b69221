"""Never hang (felt.guard, issue 9), the whole firmware in MicroPython's unix port at a
heap too small for it: a task that runs out of memory reboots the firmware (its own
exit code), the emulator boots it again on its journal, the reason is logged after the
reboot, a firmware that cannot get anywhere is given up with a sentence rather than
waited on for ever, and the journal still holds every chip."""

import subprocess
import sys
from pathlib import Path

import pytest

from felt.board import load
from felt.table.controller import Controller
from felt.table.journal import Journal
from host_tools import micropython

from table_fakes import FakeHal, FakePixels

ROOT = Path(__file__).resolve().parents[2]
BOARD = ROOT / "hardware" / "boards" / "pico-11.json"


@pytest.fixture(scope="module")
def unix_port():
    try:
        micropython.binary()
    except micropython.MicroPythonMissing as e:   # make test builds it first
        pytest.skip(str(e))
    # Only what changed, each file moved into place whole: another pytest worker may be
    # running the port from build/mpy (a fresh compile would delete it under that run).
    micropython.board_tree()


def test_a_heap_too_small_reboots_logs_why_never_hangs_and_keeps_every_chip(unix_port, tmp_path):
    journal = tmp_path / "journal.jsonl"
    trace = tmp_path / "trace"
    # A heap the table boots in but cannot play 10-handed Omaha high-low in for long.
    # The window between a heap too small to boot and one that plays on is a KB or two,
    # and it moves as the code changes (warming the cold code at boot moved it from
    # 137K to 150K): heaps are tried from one that plays on downwards, a KB at a time,
    # until one reboots (each a fresh journal and trace).
    for heap in ["%dK" % k for k in range(158, 128, -1)]:
        for f in (journal, trace):
            if f.exists():
                f.unlink()
        p = subprocess.run([str(Path(sys.executable).parent / "felt-emulator"), "--runtime",
                            "micropython", "--heap", heap, "--hands", "12", "--players", "10",
                            "--game", "omaha-hilo8",
                            "--seed", "3", "--journal", str(journal), "--force",
                            "--trace", str(trace)],
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=ROOT,
                           timeout=300)    # no hang: it ends by itself
        reboots = [l for l in p.stdout.splitlines() if l.startswith("reboot: ")]
        if reboots:
            break
    assert reboots and all("MemoryError" in l for l in reboots), p.stdout[-2000:]
    # The reason, in the log after each reboot; and before it, as it went down.
    sent = trace.read_text()
    assert 'log {"msg":"rebooted: ' in sent and 'log {"msg":"rebooting: ' in sent
    if p.returncode != 0:               # it could not play on: said so, not hung
        assert "getting nowhere" in p.stderr, p.stderr[-2000:]
    # Every chip is in the journal: a table booted on it resumes, nothing missing.
    board = load(str(BOARD))
    hal = FakeHal()
    hal.pixels = FakePixels(board["leds"]["count"])
    ctl = Controller(hal, board, Journal(str(journal)))
    assert ctl.locked is None
    snap = ctl.snapshot()
    assert sum(snap["stacks"]) + snap["pot"] + snap["rake"] == 10 * 1000
