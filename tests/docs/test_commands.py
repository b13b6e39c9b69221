"""The commands README.md and docs/board.md give, run as they are typed (issue 22): every
line of their ```sh blocks, in the order the page gives them, from a checkout with
`.venv/bin` on the PATH, as the pages say.

The checkout is this one seen through links, with `keys/` and `build/pico/flash` of its
own, so the commands write there and not here (`checkout`).  No board is plugged in, so:

- a `felt-emulator ... --serve HOST:PORT` line, which a page gives for a board not at
  hand, starts that served board (on a free port); `/dev/ttyUSB0`, the board's link, is
  then the board last served, with `--timeout 30` to felt-console and felt-tech, as the
  page says;
- `/dev/ttyACM0`, a board's USB REPL, is a port that is not there: such a command must
  get as far as the board (its files, keys and image accepted) and say that no board is
  plugged in; with `--dry-run` it runs whole;
- `make test` and `make check` are what `.ci/run` runs, this test among them;
- `make run`, the terminal view, runs on a terminal (a pty) of 80x24 and quits on q.

Every other command must succeed (exit status 0).
"""

import os
import re
import select
import signal
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from host_tools.floor.broker import free_port

REPO = Path(__file__).resolve().parents[2]
NO_BOARD = "no such port: is the board plugged in?"
WAITING = ("felt-console", "felt-tech")      # tools that take --timeout for a slow board


def blocks(page, kind):
    """The contents of the page's fenced blocks of `kind` (sh, json), dedented."""
    text = (REPO / page).read_text()
    found = re.finditer(r"^( *)```%s\n(.*?)^\1```$" % kind, text, re.M | re.S)
    return [textwrap.dedent(m.group(2)) for m in found]


def commands(page):
    return [line.strip() for block in blocks(page, "sh") for line in block.splitlines()
            if line.strip()]


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A checkout to type the commands in: every entry of this one linked, but for a
    `build/` and `build/pico/` of its own (their entries linked) and no `keys/`; and
    ../shared beside it."""
    root = tmp_path_factory.mktemp("docs")
    (root / "shared").symlink_to((REPO / ".." / "shared").resolve())
    here = root / "felt"
    for real, mine, skip in ((REPO, here, ("build", "keys")),
                             (REPO / "build", here / "build", ("pico",)),
                             (REPO / "build" / "pico", here / "build" / "pico", ("flash",))):
        mine.mkdir()
        for entry in real.iterdir():
            if entry.name not in skip:
                (mine / entry.name).symlink_to(entry)
    return here


def environment(checkout):
    env = dict(os.environ, PATH="%s:%s" % (checkout / ".venv" / "bin", os.environ["PATH"]))
    env.pop("MAKEFLAGS", None)
    env.pop("MAKELEVEL", None)
    return env


def run(line, checkout, timeout=600):
    return subprocess.run(["bash", "-c", line], cwd=checkout, env=environment(checkout),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout)


class Served:
    """A `felt-emulator --serve` line of a page, started on a free port."""

    def __init__(self, line, checkout):
        self.address = "127.0.0.1:%d" % free_port()
        line = re.sub(r"--serve \S+", "--serve " + self.address, line)
        self.proc = subprocess.Popen(["bash", "-c", "exec " + line], cwd=checkout,
                                     env=environment(checkout), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.said = self._until(b"link is at", 120)

    def _until(self, words, timeout):
        said, end = b"", time.monotonic() + timeout
        while words not in said:
            assert time.monotonic() < end and self.proc.poll() is None, said
            if select.select([self.proc.stdout], [], [], 1)[0]:
                said += os.read(self.proc.stdout.fileno(), 4096)
        return said.decode()

    def stop(self):
        self.proc.send_signal(signal.SIGINT)        # Ctrl-C, as the page says
        assert self.proc.wait(60) == 0
        self.proc.stdout.close()


def on_the_board(line, served, checkout):
    """The line with the board's ports as this test has them."""
    if "/dev/ttyUSB0" in line:
        assert served is not None, "%s: no served board to stand for the link" % line
        slow = " --timeout 30" if line.split()[0] in WAITING else ""
        line = line.replace("/dev/ttyUSB0", "socket://%s%s" % (served.address, slow))
    return line.replace("/dev/ttyACM0", str(checkout / "no-board" / "ttyACM0"))


def check(line, checkout, served):
    """Run one line of a page (not a served board's) and check what it did."""
    typed = on_the_board(line, served, checkout)
    got = run(typed, checkout)
    said = "%s\n%s%s" % (typed, got.stdout, got.stderr)
    if "/dev/ttyACM0" in line and "--dry-run" not in line:
        assert got.returncode == 1 and NO_BOARD in got.stderr, said
        assert len(got.stderr.splitlines()) == 1, said
    else:
        assert got.returncode == 0, said
    return got


def test_every_command_of_the_board_guide_runs(checkout):
    """docs/board.md: the image, the keys, the Pico's files, an emulated Pico flashed with
    them checked, verified and configured; an image of .mpy files built, installed (no
    board), verified and configured on an emulated board; then played on the emulator."""
    (table,) = blocks("docs/board.md", "json")
    (checkout / "table.json").write_text(table)
    served, lines = None, commands("docs/board.md")
    assert len(lines) >= 12, lines
    try:
        for line in lines:
            if "--serve" in line:
                if served is not None:
                    served.stop()
                served = Served(line, checkout)
                continue
            got = check(line, checkout, served)
            if line.startswith("felt-console"):
                assert "technician's commands signed" in got.stdout, got.stdout
            if line.startswith("felt-flash verify") and "--port" in line:
                assert "the program is the image" in got.stdout, got.stdout
            if line.startswith("felt-tech"):
                assert got.stdout.endswith(": done\n"), got.stdout
    finally:
        if served is not None:
            served.stop()
    assert served is not None and "--runtime pico" in " ".join(lines)


def test_every_command_of_the_readme_runs(checkout):
    lines = [line.split("#")[0].strip() for line in commands("README.md")]
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    for line in lines:
        if line in ("make test", "make check"):
            assert line in ci                     # CI runs them, and so this test
        elif line == "make run":
            assert view_opens_and_quits(line, checkout)
        else:
            assert "summary:" in check(line, checkout, None).stdout
    assert {"make run", "make test"} <= set(lines)


def view_opens_and_quits(line, checkout):
    """`make run` on a terminal of 80x24: the view draws its LEDs' line; q quits it."""
    import fcntl
    import pty
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen(["bash", "-c", line], cwd=checkout,
                            env=dict(environment(checkout), TERM="xterm-256color"),
                            stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    drawn, end = b"", time.monotonic() + 120
    try:
        while b"LEDs" not in drawn:
            assert time.monotonic() < end and proc.poll() is None, drawn[-2000:]
            if select.select([master], [], [], 1)[0]:
                drawn += os.read(master, 65536)
        os.write(master, b"q")
        while proc.poll() is None and time.monotonic() < end:
            if select.select([master], [], [], 1)[0]:
                try:
                    os.read(master, 65536)
                except OSError:             # the terminal closed with the view
                    break
        return proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        os.close(master)
