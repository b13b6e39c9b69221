"""HAL backend for MicroPython boards: `machine`, the built-in `neopixel`, `time`.

The parts of the HAL object described in felt/hal/__init__.py.  Its `open(board)`, which
builds one from a checked board definition (felt.board), is felt.hal.assembly's: code
run once, loaded at boot and forgotten after, so only these parts stay in the heap.
The hardware modules are imported there, inside `open` only, and `open(board, hw=...)`
takes stand-ins for them, so these compile and import anywhere (CPython, the unix port,
CircuitPython, which reuses the parts and their assembly with its own `io`).

The parts are small classes over duck-typed objects, in Peter Hinch's manner:
a pin is anything with `.value()`, an I2C bus anything with `readfrom_mem_into` and
`writeto_mem`, a UART anything with `any`, `readinto` and `write`.  Tests drive them
with fakes.  Steady-state polling allocates nothing: buffers and event tuples are built
once here.
"""

import asyncio

from felt.hal.clock import sleep_ms
from felt.hal.debounce import Debouncer, EagerDebouncer
from felt.protocol import check_card_kind, ticks_diff

try:
    from micropython import const
except ImportError:
    def const(x):
        return x



# ---- MCP23017 on I2C ----------------------------------------------------------------

# Registers with IOCON.BANK = 0 (the power-on default): A and B side by side, so one
# two-byte access covers both ports.
_IODIRA = const(0x00)
_IPOLA = const(0x02)
_GPINTENA = const(0x04)
_INTCONA = const(0x08)
_IOCON = const(0x0A)
_GPPUA = const(0x0C)
_GPIOA = const(0x12)
_OLATA = const(0x14)

# IOCON: MIRROR (either port's change drives both INT pins, so one wire per chip);
# SEQOP clear (the address pointer steps through A then B); INT active-low push-pull.
_IOCON_VALUE = const(0x40)
# Pins 7 of each port (GPA7, GPB7) are output-only (datasheet rev. D): drive them low.
# Every other pin is an input with its 100k pull-up, wired or not, so none floats.
_PORT_INPUTS = const(0x7F)


class Mcp23017:
    """One MCP23017 used for inputs.  `inten` is the wired pins, 16 bits (A low);
    `outputs` the pins driven low besides pins 7 and 15 (a key matrix's rows)."""

    def __init__(self, i2c, address, inten=0x7F7F, outputs=0):
        self.i2c = i2c
        self.address = address
        iodir = 0x7F7F & ~outputs
        self._cfg = (
            (_IOCON, bytes((_IOCON_VALUE,))),
            (_OLATA, b"\x00\x00"),
            (_IODIRA, bytes((iodir & 0xFF, iodir >> 8))),
            (_IPOLA, b"\x00\x00"),
            (_GPPUA, bytes((_PORT_INPUTS, _PORT_INPUTS))),
            (_INTCONA, b"\x00\x00"),  # interrupt on any change from the last read
            (_GPINTENA, bytes((inten & 0xFF, (inten >> 8) & 0xFF))),
        )
        self._check = bytearray(2)

    def configure(self):
        for reg, value in self._cfg:
            self.i2c.writeto_mem(self.address, reg, value)

    def configured(self):
        """True if the pull-ups are as configure() left them (a chip that browned out
        comes back with them off and its inputs floating)."""
        self.i2c.readfrom_mem_into(self.address, _GPPUA, self._check)
        return self._check[0] == _PORT_INPUTS and self._check[1] == _PORT_INPUTS

    def read_into(self, buf):
        """GPIOA, GPIOB into buf[0], buf[1]; also clears the chip's INT output."""
        self.i2c.readfrom_mem_into(self.address, _GPIOA, buf)


# ---- seat and dealer buttons --------------------------------------------------------

RESYNC_MS = const(1000)  # read every expander at least this often, INT line or not
# A press is taken on its first edge once a read this much later still finds the button
# down (EagerDebouncer): noise shorter than that is ignored, bounces after are shut out.
CONFIRM_MS = const(2)


class ExpanderButtons:
    """Seat and dealer buttons on MCP23017s, active-low with pull-ups, debounced eagerly
    (EagerDebouncer: a press taken on its first edge, confirmed CONFIRM_MS later, its
    bounces shut out for debounce_ms after).

    `poll(now_ms)` returns the presses accepted since the last poll as (seat, name) or
    ("dealer", name).  The list is reused by the next poll: use it before then.

    An expander whose INT line is wired is read only when INT is low, while one of its
    inputs is confirming a change, or every RESYNC_MS; without an INT line it is read
    every poll.
    A resync also checks its configuration and rewrites it after a brown-out.  I2C
    errors are counted in `errors` and the expander's last levels kept (no phantom
    presses); `faults()` lists the expanders not answering.

    Between polls the caller sleeps `due_ms(now_ms, poll_ms)` (a confirmation is read as
    soon as it is due), unless the buttons are `quiet()`: every expander has an INT
    line, every line is high and no input is confirming or held, so the next poll would
    read nothing.  Then `await wait()` sleeps until the flag given to
    `listen(flag)` is set: by an INT line's falling edge (an asyncio.ThreadSafeFlag set
    from the pins' IRQ, on a board) or by `tick(ms)`, a task setting it every `ms`: the
    chip idles, instead of waking every poll_ms to find nothing.
    """

    def __init__(self, chips, ints, events, masks, debounce_ms):
        self.chips = chips
        self.ints = ints  # INT pin per chip, or None
        self.flag = None  # set when an INT line falls (listen)
        self.sleep = sleep_ms  # replaceable, for tests
        self.events = events
        self.masks = masks
        n = len(chips)
        self.levels = bytearray(2 * n)
        self.debouncer = EagerDebouncer(16 * n, debounce_ms, CONFIRM_MS)
        self.errors = 0
        self._ok = bytearray(n)  # 1 when configured and answering
        self._checked = [0] * n  # time of each chip's last resync
        self._rx = bytearray(2)
        self._out = []

    def start(self, now_ms):
        """Configure every expander and take the current levels as settled: a button held
        (or stuck) at boot is not a press."""
        for k in range(len(self.chips)):
            self._checked[k] = now_ms
            self._setup(k)
            self._read(k)
        self.debouncer.reset(self.levels)

    def _setup(self, k):
        try:
            self.chips[k].configure()
            self._ok[k] = 1
        except OSError:
            self.errors += 1
            self._ok[k] = 0

    def _read(self, k):
        if not self._ok[k]:
            return
        rx = self._rx
        try:
            self.chips[k].read_into(rx)
        except OSError:
            self.errors += 1
            self._ok[k] = 0
            return
        j = 2 * k
        self.levels[j] = ~rx[0] & self.masks[j]  # active-low: pressed reads 0
        self.levels[j + 1] = ~rx[1] & self.masks[j + 1]

    def _resync(self, k, now_ms):
        self._checked[k] = now_ms
        try:
            ok = self._ok[k] and self.chips[k].configured()
        except OSError:
            self.errors += 1
            ok = False
        if not ok:
            self._setup(k)

    def poll(self, now_ms):
        out = self._out
        while out:  # not clear(): on MicroPython that reallocates the list
            out.pop()
        pend = self.debouncer.pending
        for k in range(len(self.chips)):
            j = 2 * k
            due = ticks_diff(now_ms, self._checked[k]) >= RESYNC_MS
            if due:
                self._resync(k, now_ms)
            intp = self.ints[k]
            if intp is None or not intp.value() or pend[j] or pend[j + 1] or due:
                self._read(k)
        self.debouncer.update(self.levels, now_ms, out, self.events)
        return out

    def listen(self, flag):
        """`flag` (with set, clear and an awaitable wait) is set whenever an INT line
        falls: quiet() may then be true, and wait() waits on it."""
        self.flag = flag

    def fell(self, pin):
        """An INT line fell: the handler of its pin's IRQ (felt.hal.assembly)."""
        self.flag.set()

    def quiet(self):
        """True when waiting for an INT line to fall misses nothing: a flag to wait on
        (listen), every expander's INT line high, and no input confirming or held.
        Clears the flag first, so a line that falls after this look sets it again."""
        flag = self.flag
        if flag is None:
            return False
        flag.clear()
        for intp in self.ints:
            if intp is None or not intp.value():
                return False
        return self.debouncer.settled()

    def due_ms(self, now_ms, most):
        """Ms until the next poll is needed (an input's confirmation or its bounces'
        end), at most `most`."""
        return self.debouncer.due_ms(now_ms, most)

    async def wait(self):
        """Until an INT line falls or tick() sets the flag: call when quiet()."""
        await self.flag.wait()

    async def tick(self, ms):
        """Set the flag every `ms`, for ever: a quiet wait() ends by then.  The timeout
        of every wait, without asyncio.wait_for_ms (its module, and a task each wait,
        in the heap)."""
        while True:
            await self.sleep(ms)
            self.flag.set()

    def faults(self):
        """Indices of the expanders not answering (allocates; for diagnostics)."""
        return [k for k in range(len(self.chips)) if not self._ok[k]]


# ---- the shoe's card reader ---------------------------------------------------------

MISREAD = "?"  # stands for a line the reader garbled; not a card code


class LineAssembler:
    """Card codes from the reader's bytes: one code per line, ending in \\n.

    A \\r before the \\n and NUL bytes (what a UART sees of a line break while the reader
    powers up) are ignored; spaces around the code are trimmed and empty lines skipped.
    A line with any other byte outside printable ASCII, or longer than `max_line`, comes
    out as MISREAD so the controller learns a card passed unread (`rejected` counts
    them).  At most `depth` codes wait; more are dropped and counted in `dropped`.
    """

    def __init__(self, max_line=16, depth=8):
        self._buf = bytearray(max_line)
        self._n = 0
        self._bad = False
        self.depth = depth
        self.codes = []
        self.rejected = 0
        self.dropped = 0

    def feed(self, data, end=None):
        if end is None:
            end = len(data)
        buf = self._buf
        for i in range(end):
            c = data[i]
            if c == 0x0A:
                self._finish()
            elif c == 0x0D or c == 0x00:
                pass
            elif self._bad:
                pass
            elif c < 0x20 or c > 0x7E or self._n >= len(buf):
                self._bad = True
            else:
                buf[self._n] = c
                self._n += 1

    def _finish(self):
        if self._bad:
            code = MISREAD
            self.rejected += 1
        else:
            code = str(bytes(self._buf[:self._n]), "ascii").strip()
        self._n = 0
        self._bad = False
        if not code:
            return
        if len(self.codes) >= self.depth:
            self.dropped += 1
        else:
            self.codes.append(code)

    def take(self):
        """The oldest waiting code, or None."""
        return self.codes.pop(0) if self.codes else None


class CardReader:
    """The shoe's card reader on a UART.  `want(kind, seat)` sends "want <kind> <seat>\\n"
    to the shoe (seat -1 when no seat receives the card); `await read()` returns the
    next code read (`poll()` is the same without waiting: a code or None).

    `stream`: the UART as an asyncio stream (`await stream.readinto(buf)`), when the
    runtime's event loop can wait on it (MicroPython's, on a board): read() then
    sleeps until bytes arrive.  Without one it looks every poll_ms."""

    def __init__(self, uart, max_line=16, poll_ms=5, stream=None):
        self.uart = uart
        self.poll_ms = poll_ms
        self.stream = stream
        self.sleep = sleep_ms  # replaceable, for tests
        self.lines = LineAssembler(max_line)
        self._rx = bytearray(32)

    def want(self, kind, seat=-1):
        check_card_kind(kind)
        self.uart.write(("want %s %d\n" % (kind, seat)).encode())

    def said(self, line):
        """The message (kind, payload) a line of the shoe says (hardware/WIRING.md): a
        card read, its code then, where the reader saw them, `up` (it lay face up in
        the deck) and the deck its back shows (`A`, `B`); or the shoe's own status, a
        line from `!`: `!jam`, `!stop`, `!incomplete` (it failed to deal every card),
        `!out` (the failed shoe is off the table), `!in`.  Words the table does not
        know stay in the message, which the table refuses saying so."""
        if line[:1] == "!":
            word = line[1:]
            if word == "out" or word == "in":
                return "shoe", {"present": word == "in"}
            return "shoe", {"state": word}
        words = line.split()
        card = {"code": words[0] if words else line}
        for w in words[1:]:
            if w == "up":
                card["face_up"] = True
            else:
                card["deck"] = w
        return "card", card

    def _pump(self):
        # Bounded, so a babbling reader cannot hold the event loop.
        for _ in range(8):
            if not self.uart.any():
                return
            n = self.uart.readinto(self._rx)
            if not n:
                return
            self.lines.feed(self._rx, n)

    def poll(self):
        if not self.lines.codes:
            self._pump()
        return self.lines.take()

    async def read(self):
        while True:
            code = self.poll()
            if code is not None:
                return code
            if self.stream is None:
                await self.sleep(self.poll_ms)
            else:
                n = await self.stream.readinto(self._rx)
                if n:
                    self.lines.feed(self._rx, n)


# ---- the shuffler -------------------------------------------------------------------

_BUSY = const(1)
_DONE = const(2)
_JAM = const(4)
_PRESENT = const(8)
_ANSWERS = const(7)     # busy, done or jam: what answers a start pulse
# A shuffler answers its start pulse with busy (or done, or jam) within a second or two;
# one silent this long after it did not start its cycle (13:47-20.38(o)).
SILENT_MS = const(10000)
# A shuffler with a data port reports its deck check as its cycle ends: done is held
# back this long for it, at most.
CHECK_MS = const(2000)
_RANKS = "23456789TJQKA"


class Shuffler:
    """The shuffler's status inputs (busy, done, jam, present: pins in that order) and
    its start output.  Inputs are debounced like buttons, against `ticks_ms`, each time
    the state is asked for, so a glitch on a long cable is not taken for a jam.  A
    shuffler that says nothing for SILENT_MS after its start reads as jammed: a dead
    shuffler, or a busy signal too short for the board to see, never leaves the table
    waiting for a shuffle that will not come.  A line already on at the start (a done
    left on since the last cycle) is no answer until it has gone off: the silence is
    counted from the start whatever was on (13:47-20.38(o))."""

    def __init__(self, inputs, start, active_low, pulse_ms, debounce_ms, ticks_ms, data=None):
        # The status inputs, debounced against ticks_ms.
        self.inputs = inputs
        self.active_low = active_low
        self.ticks_ms = ticks_ms
        self.debouncer = Debouncer(4, debounce_ms)
        self.debouncer.reset(self._levels())
        # The start output, idle low; start() pulses it.
        self.out = start
        start.value(0)
        self.pulse_ms = pulse_ms
        self.pulsing = False
        self.started = None      # ticks_ms of the last start, until the shuffler answers
        self.held = 0            # the answering lines on since before that start
        self.data = data         # its data port (felt.hal.uart_bridge), or None
        self.check = None        # the deck check it last reported on it (a line)
        self._done = None        # ticks_ms it said done, while its check is awaited
        self.sleep = sleep_ms  # replaceable, with spawn, for tests
        self.spawn = asyncio.create_task

    def _levels(self):
        v = 0
        bit = 1
        for p in self.inputs:
            if bool(p.value()) != self.active_low:
                v |= bit
            bit <<= 1
        return v

    def _stable(self):
        self.debouncer.update(self._levels(), self.ticks_ms())
        return self.debouncer.stable[0]

    def present(self):
        return bool(self._stable() & _PRESENT)

    def state(self):
        """"idle", "shuffling", "done" or "jammed"; "idle" while not present."""
        s = self._stable()
        if not s & _PRESENT:
            return "idle"
        if self.started is not None:
            self.held &= s               # a line that went off is held over no more
            if not s & _ANSWERS & ~self.held:
                return "jammed" if ticks_diff(self.ticks_ms(), self.started) >= SILENT_MS \
                    else "idle"
            self.started = None          # it answered
        if s & _JAM:
            return "jammed"
        if s & _BUSY:
            return "shuffling"
        if s & _DONE:
            return self._checked()
        return "idle"

    def _checked(self):
        """"done" once the data port has said its deck check (or CHECK_MS after done
        without one, or where there is no data port); "shuffling" until then."""
        data = self.data
        if data is None:
            return "done"
        now = self.ticks_ms()
        line = data.poll(now)
        while line is not None:
            self.check = line
            line = data.poll(now)
        if self.check is None:
            if self._done is None:
                self._done = now
            if ticks_diff(now, self._done) < CHECK_MS:
                return "shuffling"
        return "done"

    def deck_check(self):
        """The deck check of the cycle done, as `shuf` says it (count, missing, extra),
        from its data port's line `check N [missing C...] [extra C...]`; {} where none
        came.  A line it cannot read is a deck it cannot vouch for: 0 cards."""
        if self.check is None:
            return {}
        words = self.check.split()
        if len(words) < 2 or words[0] != "check" or not words[1].isdigit() or \
                int(words[1]) > 104:
            return {"count": 0}
        out = {"count": int(words[1])}
        key = None
        for w in words[2:]:
            if w == "missing" or w == "extra":
                key = w
                out[w] = []
            elif key is None or len(w) != 2 or w[0] not in _RANKS or w[1] not in "cdhs" \
                    or w in out[key]:
                return {"count": 0}
            else:
                out[key].append(w)
        return out

    def start(self):
        """Drive the start output for pulse_ms (in an asyncio task).  A second start
        during a pulse is ignored.  Returns True if a pulse began."""
        if self.pulsing:
            return False
        self.pulsing = True
        self.check = self._done = None     # the next cycle's deck check is awaited
        self.held = self._stable() & _ANSWERS   # on already: no answer to this pulse
        self.started = self.ticks_ms()
        self.out.value(1)
        self.spawn(self._end_pulse())
        return True

    async def _end_pulse(self):
        try:
            await self.sleep(self.pulse_ms)
        finally:
            self.out.value(0)
            self.pulsing = False


# ---- the LED chain ------------------------------------------------------------------

class Pixels:
    """NeoPixel-compatible: `n`, `pixels[i] = (r, g, b)`, `fill`, `write()`.

    Writes wire-order bytes straight into `buf` (the driver's buffer), scaling every
    channel by max_level / 255: the board's power budget holds whatever the scenes ask
    for.  `pixels[i]` reads back the scaled levels.  `fill_range(start, count, rgb)`
    lights one segment (see felt.board.seat_led_range).
    """

    def __init__(self, buf, order, max_level, write):
        self.buf = buf
        self.n = len(buf) // 3
        self._r = order.index("R")
        self._g = order.index("G")
        self._b = order.index("B")
        self.max_level = max_level
        self._write = write

    def __len__(self):
        return self.n

    def _at(self, i):
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("pixel index out of range")
        return i * 3

    def __setitem__(self, i, rgb):
        o = self._at(i)
        r, g, b = rgb
        lv = self.max_level
        buf = self.buf
        buf[o + self._r] = r * lv // 255
        buf[o + self._g] = g * lv // 255
        buf[o + self._b] = b * lv // 255

    def __getitem__(self, i):
        o = self._at(i)
        buf = self.buf
        return (buf[o + self._r], buf[o + self._g], buf[o + self._b])

    def fill_range(self, start, count, rgb):
        if start < 0 or count < 0 or start + count > self.n:
            raise IndexError("pixel range out of range")
        r, g, b = rgb
        lv = self.max_level
        r = r * lv // 255
        g = g * lv // 255
        b = b * lv // 255
        buf = self.buf
        o = start * 3
        for _ in range(count):
            buf[o + self._r] = r
            buf[o + self._g] = g
            buf[o + self._b] = b
            o += 3

    def fill(self, rgb):
        self.fill_range(0, self.n, rgb)

    def write(self):
        self._write()


# ---- the serial link ----------------------------------------------------------------

class UartTransport:
    """A UART as the byte transport of felt.hal.link.Link (framing, acks and resends
    live there, shared with the link backend): `write(data)`, `await read()` -> bytes.
    `stream` as CardReader's: read() sleeps until bytes arrive, else looks every
    poll_ms."""

    def __init__(self, uart, poll_ms=5, size=64, stream=None):
        self.uart = uart
        self.poll_ms = poll_ms
        self.stream = stream
        self.sleep = sleep_ms  # replaceable, for tests
        self._rx = bytearray(size)

    def write(self, data):
        """What the UART's buffer takes now (made with timeout=0: it never waits)."""
        return self.uart.write(data) or 0

    def wait(self, ms):
        import time
        time.sleep_ms(min(ms, 1))   # a byte leaves a 115200-baud UART every 87 us

    async def read(self):
        while True:
            if self.uart.any():
                n = self.uart.readinto(self._rx)
            elif self.stream is None:
                await self.sleep(self.poll_ms)
                continue
            else:
                n = await self.stream.readinto(self._rx)
            if n:
                return bytes(self._rx[:n])


class UartStream(getattr(asyncio, "ThreadSafeFlag", object)):   # CPython has none
    """A UART as CardReader's and UartTransport's `stream` (`await readinto(buf)`) in
    less heap than asyncio.StreamReader and its module: a ThreadSafeFlag that the event
    loop's poll finds set while the UART holds bytes, so wait() sleeps until some come
    (the UART's RX interrupt wakes the loop)."""

    def __init__(self, uart):
        super().__init__()
        self.uart = uart

    def ioctl(self, req, flags):
        if req == 3:   # MP_STREAM_POLL: readable while bytes wait
            return flags & 1 if self.uart.any() else 0
        return -1

    async def readinto(self, buf):
        await self.wait()
        return self.uart.readinto(buf)


# ---- the HAL object -----------------------------------------------------------------

class Hal:
    """What open() returns: see felt/hal/__init__.py."""

    wired = True  # buttons, reader and shuffler are pins to poll (main.py starts their tasks)

    def __init__(self, board, buttons, card_reader, shuffler, pixels, link, ticks_ms, feed,
                 reset, watchdog_reset=False, keypad=None, display=None, muck=None):
        self.board = board
        self.buttons = buttons
        self.card_reader = card_reader
        self.shuffler = shuffler
        self.pixels = pixels
        self.link = link
        self.ticks_ms = ticks_ms
        self.feed = feed
        self.reset = reset
        self.watchdog_reset = watchdog_reset
        self.keypad = keypad      # the dealer's (felt.hal.keypad), or None
        self.display = display    # the dealer's (felt.hal.display), or None
        self.muck = muck          # the muck reader (felt.hal.uart_bridge), or None


def no_feed():
    """The HAL's feed() with the watchdog off."""
