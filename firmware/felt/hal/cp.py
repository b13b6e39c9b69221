"""HAL backend for CircuitPython boards: `board`, `busio`, `digitalio`, `neopixel_write`,
`microcontroller.watchdog`, `supervisor.ticks_ms`.

The parts are the MicroPython backend's (felt.hal.mp); this module only adapts
CircuitPython's objects to the duck types those parts take: pins with `.value()`, an I2C
bus with `readfrom_mem_into`/`writeto_mem`, a UART with `any`.  Hardware modules are
imported inside `open` only; `open(board, hw=...)` takes stand-ins.

LEDs go out through `neopixel_write`, the core module adafruit_neopixel itself calls, so
no library has to be copied to the board and the power cap works as on MicroPython.
"""

from felt.hal.mp import (
    CardReader, ExpanderButtons, Hal, Mcp23017, Pixels, Shuffler, UartTransport)


class PinIO:
    """A digitalio.DigitalInOut seen as a machine.Pin: `value()` reads, `value(v)` sets."""

    def __init__(self, dio):
        self.dio = dio

    def value(self, v=None):
        if v is None:
            return 1 if self.dio.value else 0
        self.dio.value = bool(v)


class BusioMem:
    """A busio.I2C seen as a machine.I2C for register access.  CircuitPython wants the bus
    locked around each transfer; the register byte goes out from a buffer kept here."""

    def __init__(self, i2c, scratch=8):
        self.i2c = i2c
        self._reg = bytearray(1)
        self._out = bytearray(1 + scratch)

    def _lock(self):
        while not self.i2c.try_lock():
            pass

    def readfrom_mem_into(self, address, reg, buf):
        self._reg[0] = reg
        self._lock()
        try:
            self.i2c.writeto_then_readfrom(address, self._reg, buf)
        finally:
            self.i2c.unlock()

    def writeto_mem(self, address, reg, buf):
        n = len(buf)
        out = self._out
        out[0] = reg
        out[1:1 + n] = buf
        self._lock()
        try:
            self.i2c.writeto(address, out, end=1 + n)
        finally:
            self.i2c.unlock()


class UartIO:
    """A busio.UART (made with timeout=0) seen as a machine.UART."""

    def __init__(self, uart):
        self.uart = uart

    def any(self):
        return self.uart.in_waiting

    def readinto(self, buf):
        return self.uart.readinto(buf)

    def write(self, data):
        return self.uart.write(data)


class WideTicks:
    """supervisor.ticks_ms wraps at 2**29; MicroPython's ticks_ms, felt.protocol and the
    debouncer assume 2**30.  Calling this at least once per 2**29 ms (6 days; the event
    loop calls it every few ms) counts the wraps into bit 29."""

    def __init__(self, raw):
        self._raw = raw
        self._last = raw()
        self._high = 0

    def __call__(self):
        t = self._raw()
        if t < self._last:
            self._high ^= 0x20000000
        self._last = t
        return t | self._high


def _no_feed():
    pass


class _Modules:
    def __init__(self):
        import board
        import busio
        import digitalio
        import microcontroller
        import neopixel_write
        import supervisor
        import watchdog
        self.board = board
        self.busio = busio
        self.digitalio = digitalio
        self.microcontroller = microcontroller
        self.neopixel_write = neopixel_write
        self.supervisor = supervisor
        self.watchdog = watchdog


def open(board, hw=None, watchdog=True):
    """The HAL for a CircuitPython board.  `board` is a definition from felt.board.load
    (or a path to one); `hw` stands in for the modules board, busio, digitalio,
    microcontroller, neopixel_write, supervisor and watchdog."""
    if isinstance(board, str):
        from felt.board import load
        board = load(board)
    if board["runtime"] != "circuitpython":
        raise ValueError("board %s is for %s, not CircuitPython" % (board["name"], board["runtime"]))
    from felt.board import button_table
    if hw is None:
        hw = _Modules()
    dio = hw.digitalio
    pins = {}

    def pin(name):
        p = getattr(hw.board, name, None)
        if p is None:
            raise ValueError("board %s: no pin board.%s on this board" % (board["name"], name))
        for other in pins:
            if pins[other] is p:  # two names for one pin, e.g. D13 and LED
                raise ValueError("board %s: board.%s and board.%s are the same pin"
                                 % (board["name"], other, name))
        pins[name] = p
        return p

    def pin_in(name, pull_up):
        d = dio.DigitalInOut(pin(name))
        d.direction = dio.Direction.INPUT
        d.pull = dio.Pull.UP if pull_up else None
        return PinIO(d)

    def pin_out(name):
        d = dio.DigitalInOut(pin(name))
        d.direction = dio.Direction.OUTPUT
        d.value = False
        return d

    def uart(cfg, rxbuf):
        return UartIO(hw.busio.UART(pin(cfg["tx"]), pin(cfg["rx"]), baudrate=cfg["baud"],
                                    timeout=0, receiver_buffer_size=rxbuf))

    ticks_ms = WideTicks(hw.supervisor.ticks_ms)

    bus = board["i2c"]
    i2c = BusioMem(hw.busio.I2C(pin(bus["scl"]), pin(bus["sda"]), frequency=bus["freq"]))
    events, masks = button_table(board)
    chips = []
    ints = []
    for k, x in enumerate(board["expanders"]):
        chips.append(Mcp23017(i2c, x["address"], masks[2 * k] | masks[2 * k + 1] << 8))
        ints.append(None if x["int"] is None else pin_in(x["int"], True))
    buttons = ExpanderButtons(chips, ints, events, masks, board["debounce_ms"])
    buttons.start(ticks_ms())

    cr = board["card_reader"]
    card_reader = CardReader(uart(cr, 256), cr["max_line"], board["poll_ms"])

    sh = board["shuffler"]
    inputs = tuple(pin_in(sh[n], sh["active_low"]) for n in ("busy", "done", "jam", "present"))
    shuffler = Shuffler(inputs, PinIO(pin_out(sh["start"])), sh["active_low"],
                        sh["start_pulse_ms"], board["debounce_ms"], ticks_ms)

    leds = board["leds"]
    data = pin_out(leds["pin"])
    buf = bytearray(3 * leds["count"])
    send = hw.neopixel_write.neopixel_write

    def write():
        send(data, buf)

    pixels = Pixels(buf, leds["order"], leds["max_level"], write)
    pixels.write()

    from felt.hal.link import Link
    link = Link(UartTransport(uart(board["link"], 1024), board["poll_ms"]), ticks_ms)

    feed = _no_feed
    if watchdog:
        w = hw.microcontroller.watchdog
        w.timeout = board["watchdog_ms"] / 1000
        w.mode = hw.watchdog.WatchDogMode.RESET
        feed = w.feed
    return Hal(board, buttons, card_reader, shuffler, pixels, link, ticks_ms, feed)
