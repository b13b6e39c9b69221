"""The firmware started on a runtime, as the host tools run a board: a process under
CPython or MicroPython's unix port, its serial port the slave end of a fresh pty
(FirmwareProcess), or an emulated Pico (host_tools.pico.process); `start` picks one,
`add_runtime_arguments` and `check_runtime` are every tool's --runtime and --heap.
The host's end of its link is host_tools.link.HostLink.
"""

import os
import pty
import subprocess
import sys
from pathlib import Path

from host_tools import cli
from host_tools.link import HostLink, LinkError, Tilted

FIRMWARE_MAIN = cli.REPO / "firmware" / "main.py"
TILT_EXIT = 3   # felt.start.TILT_EXIT: a tilted firmware that could not say so on the link
RUNTIMES = ("cpython", "micropython", "pico")


def add_runtime_arguments(ap):
    """--runtime and --heap, for every tool that starts the firmware."""
    from host_tools.micropython import parse_heap
    ap.add_argument("--runtime", choices=RUNTIMES, default="cpython",
                    help="run the firmware under CPython (the default), the MicroPython "
                         "unix port, from the .mpy files a board loads, or on an emulated "
                         "Pico: the real image (make pico), its devices at its pins")
    ap.add_argument("--heap", type=cli.checked(parse_heap), metavar="SIZE",
                    help="MicroPython's heap, e.g. 185K (default: the board's heap_bytes)")


def check_runtime(ap, args):
    """Refuse --runtime micropython at once, with how to fix it, when there is no port;
    and --heap for CPython, which has no fixed heap."""
    if args.heap is not None and args.runtime != "micropython":
        ap.error("--heap sizes MicroPython's heap: give --runtime micropython too")
    if args.runtime == "pico":
        if getattr(args, "phh", None):
            ap.error("--phh is for the runtimes on the PC: an emulated Pico keeps no hand "
                     "histories")
        from host_tools.pico.bridge import PicoMissing, check_ready
        try:
            check_ready()
        except PicoMissing as e:
            ap.error(str(e))
    if args.runtime == "micropython":
        from host_tools.micropython import MicroPythonMissing, binary
        try:
            binary()
        except MicroPythonMissing as e:
            ap.error(str(e))


def start(board_path, journal=None, runtime="cpython", seed=0, **options):
    """The firmware on `runtime`, booting: a FirmwareProcess, or on an emulated Pico a
    PicoProcess (host_tools.pico.process), which takes no other `options` but `measure`
    (its bridge's timeline of emulated moments, not perf frames) and `image` (the files
    felt-flash pico wrote, its own key in them)."""
    if runtime != "pico":
        return FirmwareProcess(board_path, journal, runtime=runtime, **options)
    given = sorted(k for k in ("heap", "phh", "chip", "board_key") if options.get(k))
    if given:
        raise ValueError("an emulated Pico takes no %s" % ", ".join(given))
    from host_tools.pico.process import PicoProcess
    return PicoProcess(board_path, journal, seed, options.get("measure", False),
                       image=options.get("image"))


class FirmwareProcess:
    """The firmware as a process, its serial port the slave end of a fresh pty: under
    CPython from firmware/, or under the MicroPython unix port from the `.mpy` files a
    board loads, with the board's heap (`heap`: bytes; the board's `heap_bytes` unless
    given)."""

    def __init__(self, board_path, journal=None, python=sys.executable, phh=None,
                 runtime="cpython", heap=None, measure=False, image=None, trust=None,
                 chip=None, board_key=None):
        """`image`: run a signed image (felt-flash build) as a board flashed with it, its
        program checked at boot against the trust document `trust` (trust.json, felt-flash
        root; MicroPython only), and its own key beside its journal (felt.boardkey: the
        host's copy in the file `board_key`, made there if missing, as felt-flash install
        puts it; else one made beside the journal and kept across its boots;
        `self.board_key` holds it, None without an image).  `chip`: the board's chip id in
        hex, which a runtime without one is given so (felt.runtime.chip_id); None: none."""
        if runtime not in RUNTIMES:
            raise ValueError("runtime must be one of %s" % ", ".join(RUNTIMES))
        self.journal = journal
        self.runtime = runtime
        self.board_key = self.board_key_file = None
        if image is not None and journal:
            from felt import boardkey
            from host_tools import signing
            self.board_key_file = boardkey.path(str(journal))
            if board_key is not None:       # made there first if missing, as install
                Path(self.board_key_file).write_text(signing.board_key(board_key).hex())
            self.board_key = signing.board_key(self.board_key_file)
        args = ["--board", str(board_path)]
        if journal:
            args += ["--journal", str(journal)]
        if phh:
            args += ["--phh", str(phh)]
        if measure:
            args += ["--measure"]   # perf frames after each seat press (HostLink.perf)
        if runtime == "micropython":
            from felt.board import load
            from host_tools import micropython
            if heap is None:
                heap = load(str(board_path))["heap_bytes"]
            tree = micropython.TREE
            if image is not None:
                tree = Path(image).resolve()
                args += ["--image", str(tree), "--trust", str(Path(trust).resolve())]
            else:
                micropython.board_tree()
            self.cmd, self.env = micropython.command(tree / "main.py", args, heap, tree=tree)
        elif image is not None:
            raise ValueError("an image runs on MicroPython: its program is bytecode")
        else:
            self.cmd = [python, str(FIRMWARE_MAIN)] + args
            self.env = dict(os.environ)
            self.env["PYTHONPATH"] = str(cli.REPO / "firmware") + os.pathsep + \
                self.env.get("PYTHONPATH", "")
        self.env.pop("FELT_CHIP", None)
        if chip is not None:
            self.env["FELT_CHIP"] = chip
        self._boot()

    def _boot(self):
        self._start()
        self.link = HostLink(self.master)
        self.link.ended = lambda: self.proc.poll() is not None
        self.link.on_gone = self.reboot

    def _start(self):
        master, slave = pty.openpty()
        tty_name = os.ttyname(slave)
        import tty
        tty.setraw(slave)  # a serial line: no echo, no line discipline
        self.proc = subprocess.Popen(self.cmd + ["--port", tty_name], env=self.env,
                                     stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.slave = slave  # held open so the master never reads EIO before the child opens it
        self.master = master

    def reboot(self):
        """The firmware ended.  If it asked to be rebooted (felt.guard.REBOOT_EXIT: a task
        died), boot it again on its journal, as a board resets, and return its new
        port's fd; otherwise LinkError, with what it printed."""
        from felt.guard import REBOOT_EXIT
        try:
            code = self.proc.wait(5)
        except subprocess.TimeoutExpired:
            raise LinkError("the firmware closed its port but goes on running")
        if code == TILT_EXIT:
            said = [line[len("felt: tilt "):] for line in self.stderr().splitlines()
                    if line.startswith("felt: tilt ")]
            raise Tilted(said[-1] if said else "the firmware exited with %d" % code)
        if code != REBOOT_EXIT:
            raise LinkError("the firmware exited with %d: %s" % (code, self.stderr()[-1500:]))
        self.proc.stderr.close()
        self._close_fds()
        self._start()
        return self.master

    def power_cut(self):
        """The board loses power at once (killed: nothing more is written) and boots
        again, with the same journal, on a fresh port; returns the new link."""
        trace = self.link.trace
        self.proc.kill()
        self.proc.wait()
        self.proc.stderr.close()
        self._close_fds()
        self._boot()
        self.link.trace = trace
        return self.link

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self._close_fds()

    def _close_fds(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def stderr(self):
        if self.proc.poll() is None:
            return ""
        return self.proc.stderr.read().decode(errors="replace")
