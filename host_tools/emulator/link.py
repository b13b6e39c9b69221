"""The host's end of the serial link to a firmware process on a pty.

Stop-and-wait, as docs/protocol.md says: every message of an acknowledged kind waits
for its ack or nak, resent with the same seq when none comes in time.  Frames that
arrive meanwhile are queued in order for the caller.
"""

import os
import pty
import select
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

from felt import protocol as P

REPO = Path(__file__).resolve().parents[2]
FIRMWARE_MAIN = REPO / "firmware" / "main.py"


class LinkError(RuntimeError):
    """The firmware stopped answering or went away."""


class QueryRefused(LinkError):
    """The board refused a query (`evt refused` naming its kind, e.g. `sign` before any
    configuration) rather than answer it.  str() is the board's reason."""


class Tilted(LinkError):
    """The firmware's program check failed at boot (felt.image): the table never starts.
    str() names the code, the file and why."""


TILT_EXIT = 3   # felt.start.TILT_EXIT: a tilted firmware that could not say so on the link


class _Gone(Exception):
    """The firmware's end of the pty closed: the process ended."""


MAX_REBOOTS_IN_A_ROW = 3   # reboots with no frame acknowledged between them


class HostLink:
    def __init__(self, fd, timeout_s=5.0):
        self.fd = fd
        self.timeout_s = timeout_s
        self.decoder = P.Decoder()
        self.sender = P.Sender()
        self.dedup = P.Dedup()
        self.inbox = deque()
        self.resends = 0
        self.trace = None      # trace(direction, line): every line sent ">" and read "<"
        self._partial = b""
        # The clock resends go by: the board's, where it runs slower than the wall's
        # (an emulated Pico), so that a slow answer is not taken for a lost frame.
        self.now_ms = _now_ms
        # ended() says whether the firmware's process has ended (its port stays open:
        # the host holds the pty's other end); on_gone() then boots it again and
        # returns the new port's fd, or raises LinkError (FirmwareProcess.reboot).
        self.ended = None
        self.on_gone = None
        self.reboots = []      # why the firmware rebooted, each time (its log after boot)
        self.reported = 0      # of those, how many the emulator has printed
        self._in_a_row = 0
        self._acked = 0        # host frames acknowledged since the firmware booted
        self._held = None      # (inbox position, boot frames) until the resend is answered
        # A firmware booted with --measure (felt-bench): (led_us, done_us, showdown) per
        # seat press, from its perf frames; showdown: the press brought one.
        self.perf = []
        self._shown = False

    def _write(self, data):
        if self.trace:
            self.trace(">", data)
        os.write(self.fd, data)

    def _trace_read(self, data):
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()
        for line in lines:
            self.trace("<", line + b"\n")

    def _pump(self, wait_s):
        """Read what the firmware wrote within wait_s; acknowledge its acked frames."""
        try:
            frames = self._read(wait_s)
        except _Gone as e:
            self._reconnect(e)
            return True
        if frames is None:
            return False
        self.inbox.extend(frames)
        return True

    def _read(self, wait_s):
        """The frames that arrived within wait_s (None if nothing did), acked kinds
        acknowledged; _Gone when the process ended."""
        ready, _, _ = select.select([self.fd], [], [], wait_s)
        if not ready:
            if self.ended is not None and self.ended():
                raise _Gone("the firmware's process ended")
            return None
        try:
            data = os.read(self.fd, 65536)
        except OSError as e:
            raise _Gone(str(e))
        if not data:      # a socket's end of file (felt-console over socket://)
            raise _Gone("the other end closed the connection")
        if self.trace:
            self._trace_read(data)
        self.decoder.feed(data)
        frames = []
        for seq, kind, payload in self.decoder:
            if kind in P.ACKED:
                reply = self.dedup.replay(seq, kind, payload)
                if reply is not None:
                    self._write(P.encode(self.sender._take_seq(), *reply))
                    continue  # a resend: already queued once
                reply = P.ack(seq)
                self.dedup.remember(seq, kind, payload, reply)
                self._write(self.sender.frame(*reply))
            if kind == "perf":
                self.perf.append((payload["led_us"], payload["done_us"], self._shown))
                self._shown = False
                continue
            if kind == "evt" and payload.get("e") == "show":
                self._shown = True
            frames.append((kind, payload))
        return frames

    def _reconnect(self, gone):
        """The firmware ended (felt.guard: a task died, it asks to be rebooted): boot it
        again on its journal, as a board resets, and read what it says at boot (up to
        its first LED frame).  The frame in flight is resent as usual (its journal acks
        it again if it was applied); if the resend is applied only now, what the boot
        asked for (a card, a turn) is stale, and dropped then (send)."""
        if self.on_gone is None:
            raise LinkError("the firmware closed the link: %s" % gone)
        while True:
            self._in_a_row = self._in_a_row + 1 if self._acked == 0 else 1
            if self._in_a_row > MAX_REBOOTS_IN_A_ROW:
                raise LinkError("the firmware rebooted %d times in a row, getting nowhere: %s"
                                % (self._in_a_row - 1, gone))
            self.fd = self.on_gone()
            self.decoder, self.dedup, self._partial, self._acked = P.Decoder(), P.Dedup(), b"", 0
            boot = []
            deadline = time.monotonic() + self.timeout_s
            try:
                while not boot or boot[-1][0] != "px":
                    if time.monotonic() > deadline:
                        raise LinkError("the firmware did not boot again")
                    boot += self._read(0.05) or []
            except _Gone as e:   # it died again while booting
                gone = _said(boot, "rebooting: ") or e
                continue
            finally:
                self.reboots.append(_said(boot, "rebooted: ") or "no reason given")
            break
        if self.sender.waiting is None:
            self.inbox.extend(boot)
        else:
            self._held = (len(self.inbox), boot)

    def _settled(self, i):
        """The frame in flight was answered at inbox[i] (removed): put the boot frames
        held since a reboot back in their place, less what the resend made stale."""
        self._acked += 1
        if self._held is None:
            return
        at, boot = self._held
        self._held = None
        after = list(self.inbox)
        made = [f for f in after[at:i] if f[0] not in ("ack", "nak") and not _refusal(f)]
        if made:
            boot = [f for f in boot if not _asks(f)]
        self.inbox = deque(after[:at] + boot + after[at:])

    def send(self, kind, payload):
        """Send one message; for acked kinds, wait and return None or the nak's reason."""
        if kind not in P.ACKED:
            self._write(self.sender.frame(kind, payload))
            return None
        self.sender.put(kind, payload)
        deadline = time.monotonic() + self.timeout_s
        self._write(self.sender.poll(self.now_ms()))
        waiting = self.sender.waiting
        while time.monotonic() < deadline:
            self._pump(0.05)
            for i, (k, p) in enumerate(self.inbox):
                if k in ("ack", "nak") and p.get("seq") == waiting:
                    del self.inbox[i]
                    self.sender.settle(k, p)
                    self._settled(i)
                    return None if k == "ack" else p.get("why", "")
            again = self.sender.poll(self.now_ms())
            if again:
                self.resends += 1
                self._write(again)
        raise LinkError("no answer to %s %r within %.1f s" % (kind, payload, self.timeout_s))

    def recv(self, timeout_s=None):
        """The next (kind, payload) from the firmware, acks excluded."""
        deadline = time.monotonic() + (self.timeout_s if timeout_s is None else timeout_s)
        while True:
            while self.inbox:
                kind, payload = self.inbox.popleft()
                if kind not in ("ack", "nak"):
                    return kind, payload
            if time.monotonic() > deadline:
                raise LinkError("the firmware said nothing for %.1f s" % self.timeout_s)
            self._pump(0.05)

    def drain(self, wait_s=0.0):
        """Every frame that has arrived (within wait_s), without blocking longer."""
        self._pump(wait_s)
        out = [f for f in self.inbox if f[0] not in ("ack", "nak")]
        self.inbox.clear()
        return out

    def hear(self, test, board_ms):
        """Hear the firmware until a frame it sent passes `test` or `board_ms` of its own
        clock have gone by (now_ms: an emulated Pico's runs slower than the wall's); the
        frames stay queued.  True if one passed."""
        start = self.now_ms()
        at = len(self.inbox)
        while P.ticks_diff(self.now_ms(), start) < board_ms:
            if any(test(f) for f in list(self.inbox)[at:]):
                return True
            self._pump(0.2)
        return any(test(f) for f in list(self.inbox)[at:])

    def request(self, kind, payload, answer):
        """Send a query and return the payload of the first `answer` frame; the frames
        before it stay queued in order.  QueryRefused if the board refuses it instead
        (a refusal of the same kind queued before it was sent is another's)."""
        sent_at = len(self.inbox)
        self.send(kind, payload)
        deadline = time.monotonic() + self.timeout_s
        boots = len(self.reboots)
        while time.monotonic() < deadline:
            for i, (k, p) in enumerate(self.inbox):
                if k == answer:
                    del self.inbox[i]
                    return p
                if i >= sent_at and _refusal((k, p)) and p.get("what") == kind:
                    del self.inbox[i]
                    raise QueryRefused(p.get("why", ""))
            self._pump(0.05)
            if len(self.reboots) != boots:   # the firmware rebooted: ask again
                boots = len(self.reboots)
                self.send(kind, payload)
        raise LinkError("no %s answer to %s" % (answer, kind))


def _said(frames, prefix):
    """What the firmware's last log line beginning with `prefix` said after it."""
    said = [p["msg"][len(prefix):] for k, p in frames
            if k == "log" and p.get("msg", "").startswith(prefix)]
    return said[-1] if said else None


def _asks(frame):
    """A frame asking the devices for something: a card, a player's action."""
    kind, p = frame
    return kind == "need" or (kind == "evt" and p.get("e") == "to_act")


def _refusal(frame):
    return frame[0] == "evt" and frame[1].get("e") == "refused"


def _now_ms():
    return int(time.monotonic() * 1000) & 0x3FFFFFFF


RUNTIMES = ("cpython", "micropython", "pico")


def add_runtime_arguments(ap):
    """--runtime and --heap, for every tool that starts the firmware."""
    from host_tools import cli
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
            from host_tools import flash
            self.board_key_file = boardkey.path(str(journal))
            if board_key is not None:       # made there first if missing, as install
                Path(self.board_key_file).write_text(flash.board_key(board_key).hex())
            self.board_key = flash.board_key(self.board_key_file)
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
            self.env["PYTHONPATH"] = str(REPO / "firmware") + os.pathsep + \
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
