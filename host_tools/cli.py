"""What every felt-* tool does the same way (issue: command-line manners).

- `parser(prog, doc)`: an ArgumentParser with `--version`.
- `run(main, prog)`: a user's mistake (UserError, and argparse's own) is one line on
  stderr and a non-zero exit, never a traceback; a pipe closed early (`| head`) ends
  quietly with 141, as a shell reports a process that SIGPIPE ended; Ctrl-C ends with 130.
- `board_file(name_or_path)`: `--board` takes a board's name (hardware/boards/NAME.json)
  or a file, and refuses a missing or malformed one in a line.
- `progress(total, what)`: a progress bar on stderr, only when stderr is a terminal.
- `colour()`: False when NO_COLOR is set (https://no-color.org): say colours in words.
"""

import argparse
import contextlib
import os
import sys
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BOARDS = REPO / "hardware" / "boards"
SIGPIPE_EXIT = 141   # 128 + SIGPIPE


class UserError(Exception):
    """A mistake of the user's (a bad option, a missing file): its text is the one line
    printed, `status` the exit status."""

    def __init__(self, why, status=2):
        super().__init__(why)
        self.status = status


def version():
    """felt's version as installed, and the firmware's."""
    from felt.table.controller import FIRMWARE
    try:
        mine = metadata.version("felt")
    except metadata.PackageNotFoundError:
        mine = "unknown"
    return "%s (firmware %s)" % (mine, FIRMWARE)


class Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line on stderr (no usage block)."""

    def error(self, message):
        self.exit(2, "%s: %s (see --help)\n" % (self.prog, message))


def parser(prog, doc, **kw):
    """A Parser for tool `prog`, described by the first line of `doc`, with `--version`."""
    kw.setdefault("description", doc.strip().split("\n")[0] if doc else None)
    ap = Parser(prog=prog, **kw)
    ap.add_argument("--version", action="version", version="%(prog)s " + version())
    return ap


def run(main, prog, argv=None):
    """Call main(argv) and return the exit status, with the manners above."""
    try:
        status = main(argv)
        sys.stdout.flush()   # a closed pipe shows here, not at exit
        return status or 0
    except UserError as e:
        print("%s: %s" % (prog, e), file=sys.stderr)
        return e.status
    except BrokenPipeError:
        # Python would complain flushing stdout at exit: point it at nothing instead.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return SIGPIPE_EXIT
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def board_file(name_or_path):
    """The board definition `--board` names: a file, or a name of hardware/boards/.
    Returns its Path after loading it (felt.board.load) to refuse a malformed one."""
    from felt.board import load
    p = Path(name_or_path)
    if not p.is_file() and "/" not in name_or_path and not name_or_path.endswith(".json"):
        p = BOARDS / (name_or_path + ".json")
    if not p.is_file():
        known = ", ".join(sorted(b.stem for b in BOARDS.glob("*.json")))
        raise UserError("no board %r: give a file or one of %s" % (name_or_path, known))
    try:
        load(str(p))
    except ValueError as e:      # json's errors are ValueErrors too
        raise UserError("%s: %s" % (p, e))
    except OSError as e:
        raise UserError("%s: %s" % (p, e.strerror or e))
    return p


def colour():
    """Whether colours may be shown: not when NO_COLOR is set to anything."""
    return not os.environ.get("NO_COLOR")


@contextlib.contextmanager
def progress(total, what):
    """`with progress(n, "hands") as step:` call step() once per item; a bar on stderr
    when stderr is a terminal, nothing otherwise (a pipe, a file, CI)."""
    if not sys.stderr.isatty() or total <= 0:
        yield lambda n=1: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    bar = Progress("[progress.description]{task.description}", BarColumn(),
                   MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    with bar:
        task = bar.add_task(what, total=total)
        yield lambda n=1: bar.advance(task, n)
