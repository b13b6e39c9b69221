"""HAL backend for CircuitPython boards: `board`, `busio`, `digitalio`, `neopixel_write`,
`microcontroller.watchdog`, `supervisor.ticks_ms`.

The parts, and their assembly from a board definition, are the MicroPython backend's
(felt.hal.assembly); this module only makes CircuitPython's objects and adapts them to
the duck types those parts take: pins with `.value()`, an I2C bus with
`readfrom_mem_into`/`writeto_mem`, a UART with `any`.  Hardware modules are imported
inside `open` only; `open(board, hw=...)` takes stand-ins.

LEDs go out through `neopixel_write`, the core module adafruit_neopixel itself calls, so
no library has to be copied to the board and the power cap works as on MicroPython.
"""

from felt.hal.assembly import Modules, assemble, checked


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


class CircuitIO:
    """felt.hal.assembly.assemble()'s `io` on CircuitPython (see MachineIO there).  Pins
    are names in the `board` module; each may be claimed once, so a definition that names
    one pin twice (or two names of one pin) is refused rather than fought over."""

    def __init__(self, hw, board_name):
        self.hw = hw
        self.board_name = board_name
        self._pins = {}  # name -> board pin, as claimed
        self.ticks_ms = WideTicks(hw.supervisor.ticks_ms)

    def _pin(self, name):
        p = getattr(self.hw.board, name, None)
        if p is None:
            raise ValueError("board %s: no pin board.%s on this board" % (self.board_name, name))
        pins = self._pins
        for other in pins:
            if pins[other] is p:  # two names for one pin, e.g. D13 and LED
                raise ValueError("board %s: board.%s and board.%s are the same pin"
                                 % (self.board_name, other, name))
        pins[name] = p
        return p

    def _output(self, name):
        dio = self.hw.digitalio
        d = dio.DigitalInOut(self._pin(name))
        d.direction = dio.Direction.OUTPUT
        d.value = False
        return d

    def pin_in(self, name, pull_up):
        dio = self.hw.digitalio
        d = dio.DigitalInOut(self._pin(name))
        d.direction = dio.Direction.INPUT
        d.pull = dio.Pull.UP if pull_up else None
        return PinIO(d)

    def pin_out(self, name):
        return PinIO(self._output(name))

    def uart(self, cfg, rxbuf):
        return UartIO(self.hw.busio.UART(self._pin(cfg["tx"]), self._pin(cfg["rx"]),
                                         baudrate=cfg["baud"], timeout=0,
                                         receiver_buffer_size=rxbuf))

    def i2c(self, bus):
        return BusioMem(self.hw.busio.I2C(self._pin(bus["scl"]), self._pin(bus["sda"]),
                                          frequency=bus["freq"]))

    def strip(self, leds):
        # neopixel_write takes the DigitalInOut itself, not the PinIO view of it.
        data = self._output(leds["pin"])
        buf = bytearray(3 * leds["count"])
        send = self.hw.neopixel_write.neopixel_write

        def write():
            send(data, buf)

        return buf, write

    def watchdog(self, ms):
        w = self.hw.microcontroller.watchdog
        w.timeout = ms / 1000
        w.mode = self.hw.watchdog.WatchDogMode.RESET
        return w.feed

    def reset(self):
        self.hw.microcontroller.reset()

    def watchdog_reset(self):
        mc = self.hw.microcontroller
        try:
            return mc.cpu.reset_reason == mc.ResetReason.WATCHDOG
        except AttributeError:    # a port that does not say
            return False


def open(board, hw=None, watchdog=True):
    """The HAL for a CircuitPython board.  `board` is a definition from felt.board.load
    (or a path to one); `hw` stands in for the modules board, busio, digitalio,
    microcontroller, neopixel_write, supervisor and watchdog."""
    board = checked(board, "circuitpython", "CircuitPython")
    if hw is None:
        hw = Modules("board", "busio", "digitalio", "microcontroller", "neopixel_write",
                     "supervisor", "watchdog")
    return assemble(board, CircuitIO(hw, board["name"]), watchdog)
