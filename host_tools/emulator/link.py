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
        ready, _, _ = select.select([self.fd], [], [], wait_s)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError as e:
            raise LinkError("the firmware closed the link: %s" % e)
        if self.trace:
            self._trace_read(data)
        self.decoder.feed(data)
        for seq, kind, payload in self.decoder:
            if kind in P.ACKED:
                reply = self.dedup.replay(seq, kind, payload)
                if reply is not None:
                    self._write(P.encode(self.sender._take_seq(), *reply))
                    continue  # a resend: already queued once
                reply = P.ack(seq)
                self.dedup.remember(seq, kind, payload, reply)
                self._write(self.sender.frame(*reply))
            self.inbox.append((kind, payload))
        return True

    def send(self, kind, payload):
        """Send one message; for acked kinds, wait and return None or the nak's reason."""
        if kind not in P.ACKED:
            self._write(self.sender.frame(kind, payload))
            return None
        self.sender.put(kind, payload)
        deadline = time.monotonic() + self.timeout_s
        self._write(self.sender.poll(_now_ms()))
        waiting = self.sender.waiting
        while time.monotonic() < deadline:
            self._pump(0.05)
            for i, (k, p) in enumerate(self.inbox):
                if k in ("ack", "nak") and p.get("seq") == waiting:
                    del self.inbox[i]
                    self.sender.settle(k, p)
                    return None if k == "ack" else p.get("why", "")
            again = self.sender.poll(_now_ms())
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

    def request(self, kind, payload, answer):
        """Send a query and return the payload of the first `answer` frame; the frames
        before it stay queued in order."""
        self.send(kind, payload)
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            for i, (k, p) in enumerate(self.inbox):
                if k == answer:
                    del self.inbox[i]
                    return p
            self._pump(0.05)
        raise LinkError("no %s answer to %s" % (answer, kind))


def _now_ms():
    return int(time.monotonic() * 1000) & 0x3FFFFFFF


RUNTIMES = ("cpython", "micropython")


def add_runtime_arguments(ap):
    """--runtime and --heap, for every tool that starts the firmware."""
    from host_tools.micropython import parse_heap
    ap.add_argument("--runtime", choices=RUNTIMES, default="cpython",
                    help="run the firmware under CPython (the default) or the MicroPython "
                         "unix port, from the .mpy files a board loads")
    ap.add_argument("--heap", type=parse_heap, metavar="SIZE",
                    help="MicroPython's heap, e.g. 185K (default: the board's heap_bytes)")


def check_runtime(ap, args):
    """Refuse --runtime micropython at once, with how to fix it, when there is no port."""
    if args.runtime == "micropython":
        from host_tools.micropython import MicroPythonMissing, binary
        try:
            binary()
        except MicroPythonMissing as e:
            ap.error(str(e))


class FirmwareProcess:
    """The firmware as a process, its serial port the slave end of a fresh pty: under
    CPython from firmware/, or under the MicroPython unix port from the `.mpy` files a
    board loads, with the board's heap (`heap`: bytes; the board's `heap_bytes` unless
    given)."""

    def __init__(self, board_path, journal=None, python=sys.executable, phh=None,
                 runtime="cpython", heap=None):
        if runtime not in RUNTIMES:
            raise ValueError("runtime must be one of %s" % ", ".join(RUNTIMES))
        self.journal = journal
        self.runtime = runtime
        args = ["--board", str(board_path)]
        if journal:
            args += ["--journal", str(journal)]
        if phh:
            args += ["--phh", str(phh)]
        if runtime == "micropython":
            from felt.board import load
            from host_tools import micropython
            if heap is None:
                heap = load(str(board_path))["heap_bytes"]
            micropython.board_tree()
            self.cmd, self.env = micropython.command(micropython.TREE / "main.py", args, heap)
        else:
            self.cmd = [python, str(FIRMWARE_MAIN)] + args
            self.env = dict(os.environ)
            self.env["PYTHONPATH"] = str(REPO / "firmware") + os.pathsep + \
                self.env.get("PYTHONPATH", "")
        self._boot()

    def _boot(self):
        master, slave = pty.openpty()
        tty_name = os.ttyname(slave)
        import tty
        tty.setraw(slave)  # a serial line: no echo, no line discipline
        self.proc = subprocess.Popen(self.cmd + ["--port", tty_name], env=self.env,
                                     stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.slave = slave  # held open so the master never reads EIO before the child opens it
        self.master = master
        self.link = HostLink(master)

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
