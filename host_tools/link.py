"""The host's end of the serial link to a board: a firmware process's pty
(host_tools.process), a serial port or a socket (felt-tech, felt-console, felt-flash
verify, felt-floor table).

Stop-and-wait, as docs/protocol.md says: every message of an acknowledged kind waits
for its ack or nak, resent with the same seq when none comes in time.  Frames that
arrive meanwhile are queued in order for the caller.
"""

import os
import select
import time
from collections import deque

from felt import protocol as P


class LinkError(RuntimeError):
    """The firmware stopped answering or went away."""


class QueryRefused(LinkError):
    """The board refused a query (`evt refused` naming its kind, e.g. `sign` before any
    configuration) rather than answer it.  str() is the board's reason."""


class Tilted(LinkError):
    """The firmware's program check failed at boot (felt.image): the table never starts.
    str() names the code, the file and why."""


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
                    self._write(self.sender.frame(*reply))
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
