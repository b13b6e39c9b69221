"""felt-recall (host_tools/recall.py) after 1000 rounds with faults and power cuts: the
board's journal and archives hold the last ten rounds, and felt-recall prints exactly
those, from the journal files and over the link from the firmware in MicroPython's
unix port (at the board's heap); each is written as the hand history the table wrote
for it (--phh), and felt-phh check passes on them (issue 10, item 6)."""

import os
import pty
import re
import subprocess
import tty

import pytest

from host_tools import micropython
from served import BIN, ROOT, Served


def tool(name, *args):
    return subprocess.run([str(BIN / name), *map(str, args)], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, cwd=ROOT, timeout=900)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """1000 rounds of 11-handed hold 'em with every fault, power cuts among them; the
    folder holding the journal and the table's own hand histories (phh/)."""
    folder = tmp_path_factory.mktemp("recall")
    r = tool("felt-emulator", "--game", "holdem", "--hands", 1000, "--players", 11,
             "--seed", 5, "--faults", "random", "--journal", folder / "journal.jsonl",
             "--phh", folder / "phh")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    cuts = re.search(r"power_cut=(\d+)", r.stdout)
    assert cuts and int(cuts.group(1)) > 20
    last = int([s for s in r.stdout.splitlines() if s.startswith("hand ")][-1].split()[1][:-1])
    return folder, last


def recalled(stdout):
    """The hand numbers felt-recall printed, in its order."""
    return [int(s.split()[1][:-1]) for s in stdout.splitlines() if s.startswith("hand ")]


def check_histories(folder, written, last):
    """Each history written is the table's own for that hand (the table writes one for
    every round, a called-off one too); felt-phh check passes on them all."""
    assert sorted(p.name for p in written.iterdir()) == sorted(
        "hand-%d.phh" % h for h in range(last - 9, last + 1))
    for path in written.iterdir():
        assert path.read_text() == (folder / "phh" / path.name).read_text(), path.name
    r = tool("felt-phh", "check", *sorted(written.iterdir()))
    assert r.returncode == 0 and r.stdout.count("ok ") == 10, r.stdout


@pytest.mark.slow   # 1000 rounds played first
def test_the_last_ten_rounds_are_recalled_from_the_journal_files(played, tmp_path):
    folder, last = played
    r = tool("felt-recall", "--journal", folder / "journal.jsonl", "--phh", tmp_path)
    assert r.returncode == 0, r.stderr
    assert recalled(r.stdout) == list(range(last - 9, last + 1))
    assert " wins " in r.stdout and " the main pot" in r.stdout and "board card " in r.stdout
    check_histories(folder, tmp_path, last)
    called_off = [p for p in tmp_path.iterdir() if "_called_off" in p.read_text()]
    said = re.search(r"^  irregularity, (void|dead|misdeal): ", r.stdout, re.M)
    assert bool(said) == bool(called_off)
    # The archives are bounded: what ten rounds need, and no more.
    names = sorted(os.listdir(folder))
    assert "journal.jsonl.1" in names and "journal.jsonl.4" not in names


@pytest.mark.slow   # 1000 rounds played first
def test_a_damaged_journal_is_recalled_as_far_as_it_reads(played, tmp_path):
    # An event of the newest round and the header of the one before do not read: the
    # rounds still come, saying so (a locked table recalls what it can).
    folder, last = played
    for name in ("journal.jsonl", "journal.jsonl.1", "journal.jsonl.2"):
        if (folder / name).exists():
            (tmp_path / name).write_bytes((folder / name).read_bytes())
    lines = (tmp_path / "journal.jsonl").read_bytes().split(b"\n")
    headers = [i for i in range(len(lines)) if b'"round":{' in lines[i]]
    lines[headers[-1] + 3] = lines[headers[-1] + 3].replace(b'"event":[', b'"event":(')
    lines[headers[-2]] = lines[headers[-2]][:-5] + b"#####"
    (tmp_path / "journal.jsonl").write_bytes(b"\n".join(lines))
    r = tool("felt-recall", "--journal", tmp_path / "journal.jsonl", "--phh", tmp_path / "phh")
    assert r.returncode == 0, r.stderr
    # Neither damaged round is written as a history: each says why.
    assert "  written: none, its header could not be read" in r.stdout
    assert "  written: none, the rules core cannot rebuild it: " in r.stdout
    assert len(list((tmp_path / "phh").iterdir())) == 8
    assert "could not be read: the journal line %d" % (headers[-1] + 4) in r.stdout
    assert "round (its header could not be read)" in r.stdout
    assert "could not be read: the journal line %d" % (headers[-2] + 1) in r.stdout
    assert recalled(r.stdout)[-1] == last and len(recalled(r.stdout)) == 9


@pytest.mark.slow   # 1000 rounds played first
def test_the_last_ten_rounds_are_recalled_over_the_link_from_micropython(played, tmp_path):
    # The firmware in MicroPython's unix port at the board's heap, booted on the journal
    # as a board is, its link served on a TCP port.
    try:
        micropython.binary()
    except micropython.MicroPythonMissing as e:
        pytest.skip(str(e))
    folder, last = played
    board = Served("--runtime", "micropython", "--journal", folder / "journal.jsonl")
    try:
        r = tool("felt-recall", "--port", board.url, "--phh", tmp_path)
    finally:
        board.stop()
    assert r.returncode == 0, r.stderr
    assert recalled(r.stdout) == list(range(last - 9, last + 1))
    from_files = tool("felt-recall", "--journal", folder / "journal.jsonl")
    assert [s for s in r.stdout.splitlines() if not s.startswith("  written: ")] == \
        [s for s in from_files.stdout.splitlines() if not s.startswith("MACs: ")]
    check_histories(folder, tmp_path, last)


def test_a_port_where_no_board_answers_is_one_line():
    # A pty with nothing at its other end: the hello goes unanswered (bad input: one
    # line, status 1, no traceback).
    master, slave = pty.openpty()
    tty.setraw(slave)
    try:
        r = tool("felt-recall", "--port", os.ttyname(slave))
    finally:
        os.close(master)
        os.close(slave)
    assert r.returncode == 1
    assert r.stderr == "felt-recall: no hello answer to hello\n", r.stderr


def test_a_file_that_is_no_journal_is_one_line_and_a_failure(tmp_path):
    # Issue 22: a file of two words printed "0 rounds, oldest first" and exited 0.
    words = tmp_path / "words.txt"
    words.write_text("two words\n")
    r = tool("felt-recall", "--journal", words)
    assert (r.returncode, r.stdout) == (1, ""), r
    assert r.stderr == "felt-recall: --journal %s: no line reads as a journal's record " \
                       "(first: words.txt: not a journal record)\n" % words, r.stderr


def test_a_hi_lo_showdown_is_recalled_with_both_hands(tmp_path):
    # Omaha hi-lo: a hand shown names its high and its low (the low's kind by the
    # variant, felt.poker.hands.kinds), never "the rules core cannot rebuild it".
    r = tool("felt-emulator", "--game", "omaha-hilo8", "--hands", 30, "--players", 6,
             "--seed", 3, "--journal", tmp_path / "journal.jsonl")
    assert r.returncode == 0, r.stderr
    r = tool("felt-recall", "--journal", tmp_path / "journal.jsonl")
    assert r.returncode == 0, r.stderr
    assert "cannot rebuild" not in r.stdout
    assert re.search(r"  seat \d+ shows .*: .*, low [2-8A-]+ low\n", r.stdout), r.stdout


def test_a_bet_or_raise_is_recalled_as_its_total_as_the_view_says_it():
    # Issue 22: recall said "raise 3" (chips added) where hand histories say "raise to
    # 4": fixed limit 2/4, the small blind of 1 raises by 3, to 4.  Its lines are the
    # view's and the console's (words.Narrator).
    from host_tools.recall import describe
    header = {"hand": 1, "game": "holdem", "button": 0, "stacks": [100, 100, 100],
              "rake": {"every": 30, "hourly": 0, "levels": [], "maximum": 0,
                       "method": "none", "per": "player", "percent": 0},
              "structure": {"ante": 0, "big_bet": 4, "blinds": [1, 2], "bring_in": 0,
                            "cap": 4, "check_raise": True, "small_bet": 2,
                            "straddle": False, "structure": "fixed"}}
    cards = "As Ks Qs Js Ts 9s".split()
    events = [["card", c] for c in cards] + [["call", 0], ["raise", 1], ["call", 2],
                                             ["call", 0]] + \
        [["card", c] for c in "2c 3d 4h 5s".split()] + [["bet", 1], ["raise", 2]]
    lines = describe({"header": header, "events": events, "unread": []})
    actions = [line.strip() for line in lines
               if re.match(r"  seat \d+ (bets|raises|calls) ", line)]
    assert actions == ["seat 0 calls 2", "seat 1 raises to 4", "seat 2 calls 2",
                       "seat 0 calls 2", "seat 1 bets to 2", "seat 2 raises to 4"], lines


def test_a_boards_journal_is_recalled_with_its_macs_checked_by_its_key_or_unchecked(tmp_path):
    # The board keeps its key beside the journal (felt.boardkey): each record carries
    # its MAC, across the emulator's power cuts and resumes.  felt-recall reads the
    # rounds without the key (the MACs unchecked) and with it (--board-key): then a
    # record edited with its checksum computed again is a line that could not be read.
    from felt import boardkey
    from felt.table import journal
    journal_file = tmp_path / "journal.jsonl"
    key_file = tmp_path / ("journal.jsonl" + boardkey.SUFFIX)
    key_file.write_text(bytes(range(32)).hex())
    r = tool("felt-emulator", "--game", "holdem", "--hands", 12, "--players", 4, "--seed", 3,
             "--faults", "random", "--journal", journal_file)
    assert r.returncode == 0 and "errors: 0" in r.stdout, r.stdout[-2000:] + r.stderr
    assert int(re.search(r"power_cut=(\d+)", r.stdout).group(1)) > 0
    lines = journal_file.read_bytes().split(b"\n")
    assert all(len(line.split(b" ")[2]) == 16 for line in lines[:-1])   # MACs written
    unchecked = tool("felt-recall", "--journal", journal_file)
    checked = tool("felt-recall", "--journal", journal_file, "--board-key", key_file)
    assert unchecked.returncode == 0 and checked.returncode == 0, checked.stderr
    assert "MACs: not checked (no --board-key)\n" in unchecked.stdout
    assert "MACs: checked by the board's key" in checked.stdout
    assert recalled(checked.stdout) == recalled(unchecked.stdout) and \
        len(recalled(checked.stdout)) == 10 and "could not be read:" not in checked.stdout
    h = [i for i in range(len(lines)) if b'"round":{' in lines[i]][-3]
    n = min(i for i in range(h, len(lines)) if b' {"event":["card",' in lines[i])
    seq, _, rest = lines[n].split(b" ", 2)
    rest = rest.replace(b'{"event":["card","', b'{"event":["card","x', 1)   # its code
    lines[n] = b"%s %s %s" % (seq, journal.crc_text(seq, rest), rest)
    journal_file.write_bytes(b"\n".join(lines))
    unread = "could not be read: the journal line %d" % (n + 1)
    checked = tool("felt-recall", "--journal", journal_file, "--board-key", key_file)
    assert checked.returncode == 0 and unread in checked.stdout, checked.stdout
    unchecked = tool("felt-recall", "--journal", journal_file)
    assert unchecked.returncode == 0 and unread not in unchecked.stdout
    key_file.write_text("not a key")
    bad = tool("felt-recall", "--journal", journal_file, "--board-key", key_file)
    assert bad.returncode == 1 and bad.stderr.startswith(
        "felt-recall: --board-key %s: not a board's key: " % key_file), bad.stderr
