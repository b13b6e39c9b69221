"""Every felt-* tool behaves like a good command-line tool (host_tools/cli.py), run as a
user runs it: the venv's console scripts in a subprocess.

A user's mistake is one line on stderr and a non-zero exit, never a traceback; every
tool has --version; a pipe closed early ends quietly and leaves no firmware behind;
`felt-flash build` deletes nothing without --force; a progress bar shows on a terminal
only, and in colour only without NO_COLOR."""

import io
import os
import pty
import re
import select
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from host_tools.floor.broker import add_tables, init

from host_tools import images, signing
from host_tools.emulator import cli as emulator
from host_tools.emulator import session as session_mod

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SCRIPTS = sorted(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"])
COLOUR = re.compile(r"\x1b\[(3[0-9]|38;|9[0-7])")    # an SGR foreground colour


def tool(name, *args, env=None, **kw):
    kw.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.run([str(BIN / name), *map(str, args)], capture_output=True, text=True,
                          timeout=120, cwd=kw.pop("cwd", ROOT), env=env, **kw)


def one_line_refusal(r, *words):
    assert r.returncode != 0, r.stdout
    assert "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_tool_says_its_version(name):
    r = tool(name, "--version")
    assert r.returncode == 0 and r.stderr == ""
    assert re.fullmatch(r"%s \S+ \(firmware .+\)\n" % name, r.stdout), r.stdout


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_tools_help_says_what_it_is_and_what_each_option_does(name):
    # Issue 22: felt-recall's description stopped mid-sentence at its docstring's line
    # end; felt-tech --baud and felt-bench --seed said nothing.
    r = tool(name, "--help", env=dict(os.environ, COLUMNS="80"))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    start = lines.index("") + 1                 # after the usage
    description = " ".join(lines[start:lines.index("", start)])
    assert description.startswith(name + ": ") and description[-1] in ".)", description
    options = lines[lines.index("options:"):]
    silent = [line.strip() for line, after in zip(options, options[1:] + [""])
              if line.startswith("  -") and "  " not in line.strip() and
              not (after.startswith("      ") and after.strip())]
    assert silent == [], silent


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("manners")
    (d / "bad.json").write_text("{nope")
    (d / "noleds.json").write_text('{"name": "noleds", "runtime": "micropython"}')
    private, public = signing.keygen(d / "felt")
    signing.board_key(d / "b1.key")               # a board's own key, as install keeps it
    images.build("pico-11", d / "image", private)
    signing.write_trust(d, private)
    (d / "busy").mkdir()
    (d / "busy" / "mine.txt").write_text("mine")
    (d / "scenario.json").write_text("{}")
    init(str(d / "floor"), ("127.0.0.1", 18883))
    add_tables(str(d / "floor"), ["t1"])
    return d


# (tool, arguments, words the one line holds); {d} is the folder of `files`.
REFUSED = [
    ("felt-emulator", "--hands 0", "--hands"),
    ("felt-emulator", "--hands -5", "--hands"),
    ("felt-emulator", "--players 1 --hands 2", "--players"),
    ("felt-emulator", "--players 9 --game stud7 --hands 2", "--players must be 2..8"),
    ("felt-emulator", "--stack 0 --hands 2", "--stack"),
    ("felt-emulator", "--board no-such-board --hands 2", "no board 'no-such-board'"),
    ("felt-emulator", "--board {d}/missing.json --hands 2", "no board"),
    ("felt-emulator", "--board {d}/bad.json --hands 2", "not valid JSON"),
    ("felt-emulator", "--board {d}/noleds.json --hands 2", "missing"),
    ("felt-emulator", "--straddle --game stud7 --hands 2", "straddle"),
    ("felt-emulator", "--straddle --game draw5 --hands 2", "straddle"),
    ("felt-emulator", "--heap 150K --hands 2", "--runtime micropython"),
    ("felt-emulator", "--runtime micropython --heap 10K --hands 2", "at least 16K"),
    ("felt-emulator", "--trust keys/trust/trust.json --hands 2", "--trust goes with --image"),
    ("felt-emulator", "--tech-key {d}/felt.key --hands 2", "--tech-key goes with --image"),
    ("felt-emulator", "--chip ab12 --hands 2", "--chip goes with --image"),
    ("felt-emulator", "--image {d}/image --runtime micropython --chip AB --hands 2",
     "lower-case hex"),
    ("felt-emulator", "--image {d}/image --hands 2", "--runtime micropython"),
    ("felt-emulator", "--runtime pico --image {d}/image --hands 2", "no Pico's files there"),
    ("felt-emulator", "--runtime pico --image {d}/image --trust {d}/trust.json --hands 2",
     "a Pico's filesystem holds the keys it trusts"),
    ("felt-tech", "--port /dev/ttyNONE --key {d}/felt.key --board-key {d}/b1.key clear",
     "/dev/ttyNONE: no such port: is the board plugged in?"),
    ("felt-tech", "--port /dev/ttyNONE --key {d}/felt.key clear",
     "a technician's key signs for one board: name it with --board ID"),
    ("felt-tech", "--port /dev/ttyNONE --key {d}/felt.key --board b2 clear",
     "keys/boards/b2.key: No such file"),
    ("felt-tech", "--port /dev/ttyNONE --key {d}/felt.key --board-key {d}/bad.json clear",
     "not 32 bytes in hex"),
    ("felt-recall", "--port /dev/ttyNONE", "/dev/ttyNONE: no such port: is the board plugged in?"),
    ("felt-console", "--port /dev/ttyNONE state",
     "/dev/ttyNONE: no such port: is the board plugged in?"),
    ("felt-emulator", "--interactive --hands 2", "--interactive"),
    ("felt-emulator", "--list-games --game omaha", "--list-games"),
    ("felt-emulator", "--rake time", "--hands"),
    ("felt-emulator", "--players 4", "needs a terminal"),
    ("felt-emulator", "--game four-card-poker --players 4", "needs a terminal"),
    ("felt-emulator", "--phh {d}/bad.json --hands 2", "is a file"),
    ("felt-emulator", "--phh {d}/bad.json/phh --hands 2", "Not a directory"),
    ("felt-emulator", "--trace {d}/nope/trace --hands 2", "no folder"),
    ("felt-emulator", "--hands 1 --journal {d}/bad.json", "a journal is there already"),
    ("felt-emulator", "--hands 1 --force", "give --journal"),
    ("felt-flash", "install --image {d}/nope --port /dev/ttyNONE", "no image there"),
    # Issue 22: mpremote blamed "another program" for a board that is not plugged in.
    ("felt-flash", "install --image {d}/image --port /dev/ttyNONE",
     "/dev/ttyNONE: no such port: is the board plugged in?"),
    ("felt-flash", "install --image {d}/image --port /dev/ttyNONE --trust {d}/trust.json",
     "/dev/ttyNONE: no such port: is the board plugged in?"),
    ("felt-flash", "verify --image {d}/image --port /dev/ttyNONE", "/dev/ttyNONE"),
    ("felt-flash", "verify --image {d}/image --dir {d}/nope", "no such folder"),
    ("felt-flash", "verify --image {d}/image --dir {d}/image --port auto", "verify reads one board"),
    ("felt-flash", "provision --board pico-11 --key {d}/felt.key --port /dev/ttyNONE",
     "/dev/ttyNONE: no such port: is the board plugged in?"),
    ("felt-flash", "provision --board pico-11 --key {d}/felt.key --tech {d}/felt.key",
     "not a 32-byte public key"),
    ("felt-flash", "provision --board pico-11 --key {d}/felt.key --dir {d}/nope", "no such folder"),
    ("felt-flash", "install --image {d}/image --dry-run --trust {d}/felt.pub", "not JSON"),
    ("felt-flash", "root --key {d}/felt.key --owners {d}/felt.key --out {d}/new",
     "not a 32-byte public key"),
    ("felt-flash", "root --key {d}/felt.key --out {d}/bad.json", "is a file, not a folder"),
    ("felt-tech", "--port /dev/ttyNONE --key {d}/felt.key root {d}/felt.pub", "not JSON"),
    ("felt-flash", "install --image {d}/image --dry-run", "needs --trust"),
    ("felt-flash", "build --board no-such-board --key {d}/felt.key --out {d}/new",
     "no board"),
    ("felt-flash", "build --board pico-11 --key {d}/nope.key --out {d}/new", "private key"),
    ("felt-flash", "build --board pico-11 --key {d}/felt.key --out {d}/busy", "--force"),
    ("felt-flash", "keygen --out {d}/felt", "never overwritten"),
    ("felt-flash", "keygen --out {d}/bad.json/felt", "bad.json"),
    ("felt-bench", "--hands 0", "--hands"),
    ("felt-bench", "--reps -1", "--reps"),
    ("felt-bench", "--game-hands 0", "--game-hands"),
    ("felt-bench", "--min-heap-hands -1", "--min-heap-hands"),
    ("felt-bench", "--no-mp --table-hands 10", "--no-mp"),
    ("felt-tech", "--port /dev/ttyNONE --key {d}/felt.key clear now", "no argument"),
    ("felt-tech", "--port /dev/ttyNONE --key {d}/felt.key deck C", "A or B"),
    ("felt-tech", "--port /dev/ttyNONE --key {d}/felt.key cfg {d}/nope.json", "nope.json"),
    ("felt-tech", "--port /dev/ttyNONE --key {d}/felt.key --baud 0 clear", "--baud"),
    ("felt-recall", "--journal {d}/nope.jsonl", "no such file"),
    ("felt-recall", "--journal {d}/nope.jsonl --rounds 0", "--rounds"),
    ("felt-recall", "--journal {d}/nope.jsonl --phh {d}/bad.json", "is a file"),
    ("felt-phh", "replay {d}/nope.phh", "nope.phh"),
    # Issue 23: the floor.
    ("felt-emulator", "--floor {d}/nope.json --hands 2", "nope.json: No such file"),
    ("felt-emulator", "--pause 3", "--pause paces a headless run: give --hands"),
    ("felt-emulator", "--floor {d}/bad.json --hands 2", "not a credentials file"),
    ("felt-floor", "table --port /dev/ttyNONE --credentials {d}/floor/tables/t1.json",
     "/dev/ttyNONE: no such port: is the board plugged in?"),
    ("felt-floor", "serve --home {d}/floor --db nosuchdb://x", "--db nosuchdb://x"),
    ("felt-floor", "serve --home {d}/floor --db sqlite:///{d}/nope/floor.db",
     "the database cannot be opened"),
    ("felt-floor", "serve --home {d}/nope", "no floor there: felt-floor init makes one"),
    ("felt-floor", "add-table t2 --home {d}/nope", "no floor there: felt-floor init"),
    ("felt-scenario", "--heap 150K {d}/scenario.json", "--runtime micropython"),
]


@pytest.mark.parametrize("name, args, words", REFUSED,
                         ids=["%s %s" % (n, a.replace("{d}/", "")) for n, a, _ in REFUSED])
def test_a_users_mistake_is_one_line(files, name, args, words):
    r = tool(name, *args.format(d=files).split())
    one_line_refusal(r, "%s: " % name, words)


# A subcommand's own options: argparse names the subcommand in the line.
SUB_REFUSED = [
    ("felt-floor", "table", "--port /dev/ttyNONE --credentials {d}/noleds.json",
     "holds broker, user, password and ca"),
    ("felt-floor", "add-table", "a/b --home {d}/floor", "a table's name"),
    ("felt-floor", "init", "--home {d}/floor2 --broker nohost", "HOST:PORT"),
    ("felt-flash", "build", "--board pico-11 --key {d}/felt.key --chip x1 --out {d}/new",
     "lower-case hex"),
    ("felt-flash", "provision", "--key {d}/felt.key --port /dev/ttyNONE", "--board"),
]


@pytest.mark.parametrize("name, sub, args, words", SUB_REFUSED,
                         ids=["%s %s %s" % (n, s, a.replace("{d}/", ""))
                              for n, s, a, _ in SUB_REFUSED])
def test_a_mistake_in_a_subcommands_options_is_one_line(files, name, sub, args, words):
    r = tool(name, sub, *args.format(d=files).split())
    one_line_refusal(r, "%s %s: " % (name, sub), words)


def test_build_never_deletes_without_force(files):
    r = tool("felt-flash", "build", "--board", "pico-11", "--key", files / "felt.key",
             "--out", files / "busy", "--force")
    one_line_refusal(r, "holds no image")
    assert [p.name for p in (files / "busy").iterdir()] == ["mine.txt"]
    assert (files / "busy" / "mine.txt").read_text() == "mine"


def test_the_emulator_replaces_a_journal_only_with_force(tmp_path):
    # Issue 22: `felt-emulator --hands 1 --journal FILE` deleted a journal there, and
    # its archives, without asking (felt-flash build refuses without --force).
    journal = tmp_path / "journal.jsonl"
    archive = tmp_path / "journal.jsonl.1"
    for path in (journal, archive):
        path.write_text("a table's rounds\n")
    r = tool("felt-emulator", "--hands", "1", "--players", "2", "--journal", journal)
    one_line_refusal(r, "felt-emulator: ", "--force")
    assert journal.read_text() == archive.read_text() == "a table's rounds\n"
    r = tool("felt-emulator", "--hands", "1", "--players", "2", "--journal", journal, "--force")
    assert r.returncode == 0, r.stderr
    assert journal.read_text() != "a table's rounds\n"


def firmware_processes(marker):
    """The pids of processes whose command line holds `marker` (a journal's path)."""
    pids = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if marker.encode() in f.read():
                    pids.append(int(pid))
        except (OSError, ValueError):
            pass
    return pids


def test_a_pipe_closed_early_ends_quietly_and_stops_the_firmware(tmp_path):
    journal = str(tmp_path / "journal.jsonl")
    p = subprocess.Popen([str(BIN / "felt-emulator"), "--hands", "50", "--players", "3",
                          "--journal", journal], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    first = [p.stdout.readline(), p.stdout.readline()]     # `| head -2`
    p.stdout.close()
    assert p.wait(120) in (0, 141)
    assert p.stderr.read() == b""
    p.stderr.close()
    assert all(line.startswith(b"hand ") for line in first)
    assert firmware_processes(journal) == []


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_tool_is_quiet_on_a_pipe_closed_before_it_writes(name):
    read, write = os.pipe()
    os.close(read)              # `| true`: nobody reads
    try:
        r = subprocess.run([str(BIN / name), "--help"], stdin=subprocess.DEVNULL, stdout=write,
                           stderr=subprocess.PIPE, timeout=60, cwd=ROOT)
    finally:
        os.close(write)
    assert r.returncode in (0, 141) and r.stderr == b""


def test_a_pipe_closed_mid_run_stops_the_firmware_too(monkeypatch):
    """The closed pipe seen at the third line (a run longer than the pipe's buffer)."""
    sessions = []

    class Kept(session_mod.Session):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            sessions.append(self)

    class Head:
        lines = 0

        def write(self, text):
            self.lines += text.count("\n")
            if self.lines > 2:
                raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            pass

        def fileno(self):
            raise io.UnsupportedOperation("fileno")

    monkeypatch.setattr(session_mod, "Session", Kept)
    monkeypatch.setattr(sys, "stdout", Head())
    assert emulator.main(["--hands", "20", "--players", "3"]) == 141
    (s,) = sessions
    assert s.fw.proc.poll() is not None


def test_errors_go_to_stderr_and_the_summary_to_stdout(monkeypatch, capsys):
    def failing(self, choose=None):
        raise RuntimeError("the emulated shoe is out of cards")
    monkeypatch.setattr(session_mod.Session, "play_round", failing)
    assert emulator.main(["--hands", "3", "--players", "3"]) == 1
    out = capsys.readouterr()
    assert out.out.startswith("summary: hands=0 ")
    assert "error: the emulated shoe is out of cards" in out.err
    assert "error:" not in out.out


def on_a_pty(args, env):
    """Run felt-emulator with stderr a terminal and stdout a pipe: (stdout, what the
    terminal showed, exit status)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([str(BIN / "felt-emulator"), *args], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=slave, cwd=ROOT, env=env)
    os.close(slave)
    shown = b""
    out = []
    while True:
        ready, _, _ = select.select([master, p.stdout], [], [], 60)
        if not ready:
            break
        if master in ready:
            try:
                shown += os.read(master, 65536)
            except OSError:      # the terminal's other end closed
                pass
        if p.stdout in ready:
            line = p.stdout.readline()
            if not line:
                break
            out.append(line.decode())
    status = p.wait(60)
    try:
        while select.select([master], [], [], 0.2)[0]:
            shown += os.read(master, 65536)
    except OSError:
        pass
    os.close(master)
    p.stdout.close()
    return out, shown.decode(errors="replace"), status


def test_progress_on_a_terminal_only_in_colour_unless_no_color():
    args = ["--hands", "40", "--players", "3", "--seed", "2"]
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["TERM"] = "xterm-256color"
    piped = tool("felt-emulator", *args, env=env)
    assert piped.returncode == 0 and piped.stderr == ""       # not a terminal: no bar
    out, shown, status = on_a_pty(args, env)
    assert status == 0
    assert "".join(out) == piped.stdout                         # the lines as they were
    assert "hands" in shown and "/40" in shown and COLOUR.search(shown)
    out, shown, status = on_a_pty(args, dict(env, NO_COLOR="1"))
    assert status == 0 and "".join(out) == piped.stdout
    assert "hands" in shown and not COLOUR.search(shown)
