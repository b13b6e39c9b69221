"""What every felt-* tool does the same way (issue: command-line manners).

- `parser(prog, doc)`: an ArgumentParser with `--version`; a bad command line is one
  line; `args.given` names the options the user gave (a default given or not: --trust
  without --image is refused even when it names the default file).
- `count(least, most)`: the type of a count option (--hands, --players): a whole number
  in its range, or one line saying what it must be; `checked(f)` keeps the sentence of
  a type function's ValueError.
- `run(main, prog)`: a user's mistake (UserError, argparse's own, an OSError on a file
  they named) is one line on stderr and a non-zero exit, never a traceback; a pipe
  closed early (`| head`) ends quietly with 141, as a shell reports a process that
  SIGPIPE ended; Ctrl-C ends with 130.  `@command(prog)` on a tool's main(argv=None)
  makes calling it go through run().
- `out_file`, `out_dir`: the types of options naming a file or a folder to write (the
  folder made at once); `write_private(path, data)` writes a file only its owner may
  read (a key, a password).
- `address(text)`: (host, port) of an option's HOST:PORT.
- `board_file(name_or_path)`: `--board` takes a board's name (hardware/boards/NAME.json)
  or a file, and refuses a missing or malformed one in a line; `board_leds(name)` its LED
  layout, or None.
- `link_options(ap)`, `open_link(port, baud)`: a board's link, as every tool takes it
  (--port, --baud, --timeout) and opens it: a serial device, a pty's path or
  socket://HOST:PORT (felt-emulator --serve); one line when it cannot be opened.
- `interruptible()`: Ctrl-C and SIGTERM stop a tool the same way, whatever it was
  started with.
- `progress(total, what)`: a progress bar on stderr, only when stderr is a terminal.
- `colour()`: False when NO_COLOR is set (https://no-color.org): say colours in words.
"""

import argparse
import contextlib
import functools
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
    from felt import FIRMWARE
    try:
        mine = metadata.version("felt")
    except metadata.PackageNotFoundError:
        mine = "unknown"
    return "%s (firmware %s)" % (mine, FIRMWARE)


class Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line on stderr (no usage block), and
    the namespace's `given` is the set of the options (dests) the command line gave."""

    def error(self, message):
        self.exit(2, "%s: %s (see --help)\n" % (self.prog, message))

    def parse_known_args(self, args=None, namespace=None):
        # argparse puts a default only where the namespace has no value yet: a marker
        # there first, and what still holds it afterwards was not given.
        namespace = argparse.Namespace() if namespace is None else namespace
        unset = [a for a in self._actions
                 if a.dest != argparse.SUPPRESS and not hasattr(namespace, a.dest)]
        for a in unset:
            setattr(namespace, a.dest, _UNSET)
        namespace, rest = super().parse_known_args(args, namespace)
        given = set(getattr(namespace, "given", ()))   # a subcommand's, merged in
        for a in unset:
            if getattr(namespace, a.dest) is not _UNSET:
                given.add(a.dest)
            elif a.default is argparse.SUPPRESS:
                delattr(namespace, a.dest)
            else:
                value = a.default
                if isinstance(value, str) and a.type is not None:
                    value = a.type(value)
                setattr(namespace, a.dest, value)
        namespace.given = given
        return namespace, rest


_UNSET = object()


class _Defaults(argparse.HelpFormatter):
    """--help states each option's default, where it has one worth saying."""

    def _get_help_string(self, action):
        text = action.help or ""
        if action.default not in (None, False, argparse.SUPPRESS) and action.option_strings \
                and "default" not in text:
            text += " (default: %(default)s)"
        return text


def parser(prog, doc, **kw):
    """A Parser for tool `prog`, described by the first paragraph of `doc` (a sentence
    cut at its line's end said half of it), with `--version`; its --help states the
    defaults."""
    kw.setdefault("description", " ".join(doc.strip().split("\n\n")[0].split()) if doc else None)
    kw.setdefault("formatter_class", _Defaults)
    ap = Parser(prog=prog, **kw)
    ap.add_argument("--version", action="version", version="%(prog)s " + version())
    return ap


def checked(convert):
    """An argparse type from a function that raises ValueError with a sentence: the
    sentence is the line argparse prints (it would say only "invalid value")."""
    def whole(text):
        try:
            return convert(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e))
    whole.__name__ = convert.__name__
    return whole


def count(least=1, most=None):
    """An argparse type: a whole number from `least` to `most` (no bound when None)."""
    def whole(text):
        try:
            n = int(text)
        except ValueError:
            n = None
        if n is None or n < least or (most is not None and n > most):
            raise argparse.ArgumentTypeError(
                "%r: give a whole number %s" % (text, "%d to %d" % (least, most)
                                                if most is not None else "of %d or more" % least))
        return n
    whole.__name__ = "count"
    return whole


def run(main, prog, argv=None):
    """Call main(argv) and return the exit status, with the manners above (argparse's
    exits, --help and --version included, are returned as statuses too)."""
    try:
        status = _status(main, prog, argv)
        sys.stdout.flush()   # a closed pipe shows here, not at exit
        return status
    except BrokenPipeError:
        # Python would complain flushing stdout at exit: point it at nothing instead.
        try:
            fd = sys.stdout.fileno()
        except (OSError, ValueError):    # no file descriptor (a test's capture)
            fd = None
        if fd is not None:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fd)
            os.close(devnull)
        return SIGPIPE_EXIT
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def _status(main, prog, argv):
    try:
        return main(argv) or 0
    except SystemExit as e:  # argparse's: its line is printed already
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print("%s: %s" % (prog, e.code), file=sys.stderr)
        return 1
    except UserError as e:
        print("%s: %s" % (prog, e), file=sys.stderr)
        return e.status
    except BrokenPipeError:
        raise
    except OSError as e:     # a file or folder the user named: missing, not writable...
        said = e.strerror or str(e)
        print("%s: %s" % (prog, "%s: %s" % (e.filename, said) if e.filename else said),
              file=sys.stderr)
        return 1


def command(prog):
    """`@command("felt-x")` on a tool's main(argv=None): calling it goes through run()."""
    def wrap(main):
        @functools.wraps(main)
        def wrapped(argv=None):
            return run(main, prog, argv)
        return wrapped
    return wrap


def out_file(path):
    """An argparse type: a file to write, in a folder that exists (not a folder itself)."""
    p = Path(path)
    if p.is_dir():
        raise argparse.ArgumentTypeError("%s is a folder: give a file" % path)
    if not p.resolve().parent.is_dir():
        raise argparse.ArgumentTypeError("%s: no folder %s" % (path, p.parent))
    return path


def out_dir(path):
    """An argparse type: a folder to write files in, made here when missing (not a file),
    so that one that cannot be made is said at once."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise argparse.ArgumentTypeError("%s is a file: give a folder" % path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise argparse.ArgumentTypeError("%s: %s" % (e.filename or path, e.strerror or e))
    return path


def write_private(path, data):
    """`data` (bytes or text) to `path`, readable and writable by its owner alone."""
    fd = os.open(path + ".new", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    os.replace(path + ".new", path)


def address(text):
    """(host, port) of HOST:PORT (an empty HOST: localhost); ValueError if malformed."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise ValueError("%r: give HOST:PORT, e.g. localhost:7000" % text)
    return host.strip("[]") or "localhost", int(port)


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
        said = str(e)            # a file that does not read names itself
        raise UserError(said if said.startswith("board file ") else "%s: %s" % (p, said))
    except OSError as e:
        raise UserError("%s: %s" % (p, e.strerror or e))
    return p


def link_options(ap, where=None):
    """--port (in the group `where`, else required), --baud and --timeout."""
    (where or ap).add_argument(
        "--port", required=where is None,
        help="the board's link: a serial device (/dev/ttyUSB0), a pty's path, or "
             "socket://HOST:PORT (felt-emulator --serve)")
    ap.add_argument("--baud", type=count(1), default=115200,
                    help="the link's speed in bits a second (default %(default)s; "
                         "docs/protocol.md, 1)")
    ap.add_argument("--timeout", type=count(1, 600), default=5, metavar="S",
                    help="seconds to wait for each answer (default %(default)s); an emulated "
                         "Pico runs slower than real time: give it 30")


def open_link(port, baud=115200):
    """The serial port of a board's link, opened not to block (HostLink reads its fd)."""
    import serial
    try:
        return serial.serial_for_url(port, baudrate=baud, timeout=0)
    except (serial.SerialException, OSError, ValueError) as e:
        if port.startswith("/") and not os.path.exists(port):
            raise UserError("%s: no such port: is the board plugged in?" % port, 1)
        raise UserError("cannot open %s: %s" % (port, e), 1)


def board_leds(name):
    """The LED layout of the board definition named `name`, or None if it is unknown."""
    from felt.board import load
    try:
        return load(str(board_file(name)))["leds"]
    except (UserError, TypeError):
        return None


def _interrupt(signum, frame):
    raise KeyboardInterrupt


@contextlib.contextmanager
def interruptible():
    """Ctrl-C and SIGTERM raise KeyboardInterrupt within, so that what a tool started
    (a firmware, a broker connection) is closed on the way out: even where the tool was
    started with SIGINT ignored, as a script's `cmd &` without job control starts it
    (CI's served boards were killed, not stopped, for want of it)."""
    import signal
    interrupt = signal.signal(signal.SIGINT, signal.default_int_handler)
    term = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, interrupt)
        signal.signal(signal.SIGTERM, term)


def colour():
    """Whether colours may be shown: not when NO_COLOR is set to anything."""
    return not os.environ.get("NO_COLOR")


@contextlib.contextmanager
def progress(total, what):
    """`with progress(n, "hands") as step:` call step() once per item (step(what=...)
    to say what is under way); a bar on stderr when stderr is a terminal, nothing
    otherwise (a pipe, a file, CI).  What the tool prints meanwhile shows above the bar
    when stdout is that terminal too (print to sys.stdout as it is then: rich stands in
    for it), and goes to its file or pipe untouched otherwise."""
    if not sys.stderr.isatty() or total <= 0:
        yield lambda n=1, what=None: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    bar = Progress("[progress.description]{task.description}", BarColumn(),
                   MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True, soft_wrap=True), transient=True,
                   redirect_stdout=sys.stdout.isatty())
    with bar:
        task = bar.add_task(what, total=total)

        def step(n=1, what=None):
            bar.update(task, advance=n, **({"description": what} if what else {}))
        yield step
