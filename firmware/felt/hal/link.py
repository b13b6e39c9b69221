"""The serial-link backend: every device of the table is a message on the wire.

The emulator and hardware-in-the-loop rigs play the buttons, the shoe's card reader
and the shuffler by sending messages (docs/protocol.md), and receive the card requests,
the shuffler's start pulse and every LED frame.  `Link` (framing, acks, resends over any
byte transport) also serves the technician's console on the hardware backends.
"""

import binascii
import select
import sys

try:
    import asyncio
except ImportError:
    import uasyncio as asyncio

from felt import protocol as P
from felt.hal.clock import sleep_ms, ticks_ms, ticks_us

OUT_BYTES = 4096   # frames waiting for the transport; past this a send waits for it
CHUNK = 256        # bytes offered to the transport at once


class Link:
    """Frames over a transport: `write(bytes) -> int` takes what it can now and never
    waits, `wait(ms)` waits until it may take more, `async read() -> bytes`; `ticks_ms`
    is the board's clock (CircuitPython passes its own).

    Frames go out through a queue of at most OUT_BYTES that pump(), the link's writer
    task, drains as the transport takes them, so a slow UART never holds up the loop
    (the LEDs, the next press).  Nothing is dropped: a frame that would overfill the
    queue waits, the loop with it, until the transport has taken enough (a showdown's
    frames on a 115200-baud UART); a transport that never takes them stops the loop,
    and the watchdog resets the board (felt.guard)."""

    def __init__(self, transport, ticks_ms=ticks_ms, limit=OUT_BYTES):
        self.transport = transport
        self.ticks_ms = ticks_ms
        self.limit = limit
        self.queue = []          # encoded frames not yet taken whole, oldest first
        self.queued = 0          # bytes in the queue not yet taken
        self._head = 0           # bytes of queue[0] already taken
        self.waits = 0           # times a send waited for a full queue
        self.decoder = P.Decoder()
        self.sender = P.Sender()
        self.dedup = P.Dedup()
        self.sleep = sleep_ms    # replaceable, for tests
        self.frame = None        # (seq, kind, payload, session) of the frame being handled
        self.heard = ticks_ms()  # when the last whole frame came (felt.loop: link_lost)
        # Booted with --measure: after each seat press a `perf` frame says how long its
        # LEDs and its whole handling took (felt-bench).  `press` is when it arrived.
        self.measure = False
        self.press = None
        self.led_us = None

    def resume(self, frame):
        """After a power cut: `frame` [seq, kind, payload, session] was applied (the
        journal says so), so a resend of it is acked again, not applied twice."""
        seq, kind, payload = frame[0], frame[1], frame[2]
        self.dedup.session = frame[3] if len(frame) > 3 else None
        self.dedup.remember(seq, kind, payload, P.ack(seq))

    def send(self, kind, payload):
        if kind in P.ACKED:
            if not self.sender.put(kind, payload):
                raise P.ProtocolError("send queue full: the host is not answering")
            self.flush()
        else:
            self._put(self.sender.frame(kind, payload))

    def flush(self):
        data = self.sender.poll(self.ticks_ms())
        if data:
            self._put(data)

    def _put(self, data):
        self.queue.append(data)
        self.queued += len(data)
        self.drain()
        if self.queued > self.limit:
            self.waits += 1
            while self.queued > self.limit and not self.drain():
                self.transport.wait(5)

    def drain(self):
        """Give the transport what it takes now, never waiting; True when all is out."""
        while self.queue:
            data = self.queue[0]
            end = min(len(data), self._head + CHUNK)
            n = self.transport.write(memoryview(data)[self._head:end]) or 0
            self._head += n
            self.queued -= n
            if self._head == len(data):
                self.queue.pop(0)
                self._head = 0
            elif n == 0:
                return False
        return True

    async def pump(self, beat=None):
        """The link's writer task: drain the queue as the transport takes it."""
        while True:
            self.drain()
            if beat is not None:
                beat()
            await sleep_ms(2 if self.queue else 10)

    async def serve(self, handler):
        """Read frames for ever; `handler(kind, payload)` returns None or a refusal."""
        while True:
            data = await self.transport.read()
            self.decoder.feed(data)
            for seq, kind, payload in self.decoder:
                self.heard = self.ticks_ms()
                self._receive(seq, kind, payload, handler)
                # The other tasks (the watchdog's feeding among them) run between two
                # frames: a burst read at once (bogus `tech` frames queued behind a
                # signature check) must not hold the loop for all of them.
                await self.sleep(0)
            self.flush()

    def _receive(self, seq, kind, payload, handler):
        if kind == "ack" or kind == "nak":
            self.sender.settle(kind, payload)
            return
        if kind in P.QUERIES:          # answered by their reply, not acked
            if kind == "hello":
                session = payload.get("session")
                self.dedup.hello(session if isinstance(session, str) else None)
            handler(kind, payload)
            return
        # Everything else is acked or naked, unknown kinds included, so that a sender
        # waiting for an answer stops resending (docs/protocol.md, section 6).
        reply = self.dedup.replay(seq, kind, payload)
        if reply is None:
            self.frame = (seq, kind, payload, self.dedup.session) if kind in P.ACKED else None
            if self.measure and kind == "btn":
                self.press, self.led_us = ticks_us(), None
            try:
                why = handler(kind, payload)
            finally:
                self.frame = None
            reply = P.ack(seq) if why is None else P.nak(seq, why)
            if kind in P.ACKED:
                self.dedup.remember(seq, kind, payload, reply)
        self._put(self.sender.frame(reply[0], reply[1]))
        if self.press is not None:
            done = P.ticks_diff(ticks_us(), self.press)
            self.press = None
            self._put(self.sender.frame("perf", {"led_us": self.led_us, "done_us": done}))

    def lit(self):
        """The LEDs were written (Pixels.write): the first time after a press, noted."""
        if self.press is not None and self.led_us is None:
            self.led_us = P.ticks_diff(ticks_us(), self.press)


class StreamTransport:
    """The link's bytes over a serial device opened by path: the emulator's pty, under
    CPython and the MicroPython unix port alike, or a USB serial adapter.

    The device (in raw mode, as the emulator leaves its pty) gets VMIN = VTIME = 0, so a
    read returns what has arrived and never waits for more; the event loop is told to wake when input is
    waiting (select.poll under MicroPython's asyncio, add_reader under CPython's).
    A write takes what the device has room for now (POLLOUT), never waiting.
    """

    def __init__(self, path, size=256):
        self.stream = _open_file(path, "r+b", buffering=0)
        self.fd = self.stream.fileno()
        self.size = size
        _raw_nonwaiting(self.fd)
        self._out = select.poll()
        self._out.register(self.stream, select.POLLOUT)
        # MicroPython's asyncio waits on the stream itself; CPython's on its descriptor.
        self._reader = asyncio.StreamReader(self.stream) if _MICROPYTHON else None

    def write(self, data):
        if not self._out.poll(0):
            return 0
        return self.stream.write(data) or 0   # at most CHUNK: less than POLLOUT's room

    def wait(self, ms):
        self._out.poll(ms)

    async def read(self):
        """What has arrived, once something has; OSError once the other end has hung up
        (the device readable, yet nothing to read): a firmware whose host has gone
        ends (felt.guard) rather than spin on its device for ever, holding the pipes of
        whoever started it (a test waited on one for good)."""
        if self._reader is not None:
            data = await self._reader.read(self.size)
        else:
            data = self.stream.read(self.size)
            if data:
                return data
            await _cpython_readable(self.fd)
            data = self.stream.read(self.size)
        if not data:
            raise OSError("the link's device hung up")
        return data


_open_file = open  # the built-in: this module's open() makes the HAL
_MICROPYTHON = sys.implementation.name == "micropython"
_VMIN, _VTIME = 6, 5  # Linux's indices into termios' control characters


def _raw_nonwaiting(fd):
    import termios
    attrs = termios.tcgetattr(fd)
    cc = attrs[6]
    cc[getattr(termios, "VMIN", _VMIN)] = 0
    cc[getattr(termios, "VTIME", _VTIME)] = 0
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


async def _cpython_readable(fd):
    loop = asyncio.get_event_loop()
    ready = loop.create_future()
    loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
    try:
        await ready
    finally:
        loop.remove_reader(fd)


class CardReader:
    def __init__(self, link):
        self.link = link

    def want(self, kind, seat=-1):
        P.check_card_kind(kind)
        self.link.send("need", {"what": kind, "seat": seat})


class Shuffler:
    def __init__(self, link):
        self.link = link

    def start(self):
        self.link.send("shuffle", {})


class Pixels:
    """NeoPixel-compatible; `write()` sends the frame, as a strip would show it."""

    def __init__(self, link, n):
        self.link = link
        self.n = n
        self.buf = bytearray(n * 3)

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        j = i * 3
        self.buf[j] = rgb[0]
        self.buf[j + 1] = rgb[1]
        self.buf[j + 2] = rgb[2]

    def __getitem__(self, i):
        j = i * 3
        return (self.buf[j], self.buf[j + 1], self.buf[j + 2])

    def fill(self, rgb):
        for i in range(self.n):
            self[i] = rgb

    def write(self):
        self.link.send("px", {"rgb": binascii.hexlify(self.buf).decode()})
        self.link.lit()


class LinkHal:
    wired = False   # no pins to poll: inputs arrive as messages
    watchdog_reset = False   # no watchdog: the process is killed or exits
    keypad = display = muck = None   # the dealer's place: its messages come as they are

    def __init__(self, board, transport):
        self.board = board
        self.link = Link(transport)
        self.card_reader = CardReader(self.link)
        self.shuffler = Shuffler(self.link)
        self.pixels = Pixels(self.link, board["leds"]["count"])

    def ticks_ms(self):
        return ticks_ms()

    def feed(self):
        pass

    def reset(self):
        """Nothing to reset: main.py ends the process with felt.guard.REBOOT_EXIT, and
        the emulator boots it again on its journal."""


def open(board, transport):
    return LinkHal(board, transport)
