"""The MicroPython backend's `open` (felt.hal.mp's parts assembled from a board
definition), and CircuitPython's assembly (felt.hal.cp): code run once, so the boot
loads it and forgets it (felt.lazy) and only the parts it made stay in the heap.
Nothing the HAL keeps may come from here (a function or an object of a class defined
here would keep this module alive): the IRQ handler is ExpanderButtons.fell, `reset`
machine.reset.
"""

import asyncio

from felt.hal.mp import (CardReader, ExpanderButtons, Hal, Mcp23017, Pixels, Shuffler,
                         UartStream, UartTransport, no_feed)


def _none(*args):
    return None


def checked(board, runtime, title):
    """`board` (a definition from felt.board.load, or a path to one) if it is for
    `runtime`; a ValueError naming `title` otherwise."""
    if isinstance(board, str):
        from felt.board import load
        board = load(board)
    if board["runtime"] != runtime:
        raise ValueError("board %s is for %s, not %s" % (board["name"], board["runtime"], title))
    return board


def assemble(board, io, watchdog=True):
    """The HAL object for a checked board definition, from parts made by `io`.

    `io` is what differs between runtimes (MachineIO here, felt.hal.cp.CircuitIO there):
    `pin_in(pin, pull_up)` and `pin_out(pin)` (made low) give objects with `.value()`;
    `uart(cfg, rxbuf)` a UART (`any`, `readinto`, `write`) for a board's uart section,
    with an rxbuf-byte receive buffer; `i2c(bus)` a bus as Mcp23017 takes; `ticks_ms`,
    the clock; `strip(leds)` the LED chain's wire-order buffer and the function that
    sends it, as (buf, write); `watchdog(ms)` starts the watchdog and returns its feed;
    `reset()` reboots the board; `watchdog_reset()`, whether the watchdog reset it last.
    Optional, where the event loop can wait on them (MachineIO on a board):
    `stream(uart)`, the UART as a stream the event loop waits on, or None; `flag()`, a
    flag the event loop can wait on (ExpanderButtons.listen), or None, and with one
    `on_fall(pin, handler)`, handler(pin) called as the pin falls (an IRQ).
    Pins are claimed in the order below: CircuitIO's same-pin error names them so.
    """
    from felt import lazy
    ticks_ms = io.ticks_ms
    i2c = io.i2c(board["i2c"])
    events, masks = lazy.load("felt.board").button_table(board)
    lazy.forget("felt.board")   # as boot forgets it: ~2 KB of heap the table never uses
    chips = []
    ints = []
    for k, x in enumerate(board["expanders"]):
        chips.append(Mcp23017(i2c, x["address"], masks[2 * k] | masks[2 * k + 1] << 8))
        ints.append(None if x["int"] is None else io.pin_in(x["int"], True))
    buttons = ExpanderButtons(chips, ints, events, masks, board["debounce_ms"])
    flag = getattr(io, "flag", _none)()
    if flag is not None and ints and None not in ints:
        buttons.listen(flag)
        fell = buttons.fell   # not a closure here: it would keep this module alive
        for p in ints:
            io.on_fall(p, fell)
    buttons.start(ticks_ms())
    keypad = _keypad(board, io, i2c, buttons)
    display = getattr(io, "display", _none)(board.get("display"), i2c)
    muck = _bridged(board.get("muck_reader"), io, i2c, buttons)
    stream = getattr(io, "stream", _none)

    cr = board["card_reader"]
    uart = io.uart(cr, 256)
    card_reader = CardReader(uart, cr["max_line"], board["poll_ms"], stream(uart))

    sh = board["shuffler"]
    # Active-low inputs are opto transistors to ground: they want the pull-up (SCHEMA.md).
    inputs = tuple(io.pin_in(sh[n], sh["active_low"]) for n in ("busy", "done", "jam", "present"))
    shuffler = Shuffler(inputs, io.pin_out(sh["start"]), sh["active_low"],
                        sh["start_pulse_ms"], board["debounce_ms"], ticks_ms,
                        _bridged(sh.get("data"), io, i2c, buttons))

    leds = board["leds"]
    buf, write = io.strip(leds)
    pixels = Pixels(buf, leds["order"], leds["max_level"], write)
    pixels.fill((0, 0, 0))
    pixels.write()  # LEDs hold what they last latched until written: start dark

    from felt.hal.link import Link
    uart = io.uart(board["link"], 1024)
    link = Link(UartTransport(uart, board["poll_ms"], stream=stream(uart)), ticks_ms)

    feed = no_feed
    if watchdog:
        feed = io.watchdog(board["watchdog_ms"])
    return Hal(board, buttons, card_reader, shuffler, pixels, link, ticks_ms, feed, io.reset,
               io.watchdog_reset(), keypad, display, muck)


def _keypad(board, io, i2c, buttons):
    """The dealer's keypad (felt.hal.keypad), or None where the board has none.  Its INT
    line wakes the buttons' wait as the expanders' lines do."""
    kp = board.get("keypad")
    if kp is None:
        return None
    from felt.hal.keypad import MatrixKeypad
    rows = columns = 0
    for p in kp["rows"]:
        rows |= 1 << p
    for p in kp["columns"]:
        columns |= 1 << p
    intp = None if kp["int"] is None else io.pin_in(kp["int"], True)
    keypad = MatrixKeypad(Mcp23017(i2c, kp["address"], columns, rows), intp, kp["rows"],
                          kp["columns"], kp["keys"], board["debounce_ms"])
    if buttons.flag is not None and intp is not None:
        io.on_fall(intp, buttons.fell)
    keypad.start(io.ticks_ms())
    return keypad


def _bridged(m, io, i2c, buttons):
    """A device of lines behind an SC16IS750 (felt.hal.uart_bridge: the muck reader,
    the shuffler's data port), or None where the board has none (`m` None).  Its IRQ
    line wakes the buttons' wait as the expanders' lines do."""
    if m is None:
        return None
    from felt.hal.uart_bridge import UartBridge
    irq = io.pin_in(m["irq"], True)      # open drain, active low: the pull-up is ours
    device = UartBridge(i2c, m["address"], m["crystal_hz"], m["baud"], m["max_line"], irq)
    if buttons.flag is not None:
        io.on_fall(irq, buttons.fell)
    device.start(io.ticks_ms())
    return device


class Modules:
    """The named modules as attributes of one object, the `hw` that open() otherwise
    takes stand-ins for.  Imported only when made, on the board, so the backends
    import anywhere."""

    def __init__(self, *names):
        for name in names:
            setattr(self, name, __import__(name))


class MachineIO:
    """assemble()'s `io` on MicroPython: pins, UARTs, I2C and the watchdog from `machine`,
    the LED chain from the built-in `neopixel`, the clock from `time`.  Pins are GPIO
    numbers.  `waits`: the event loop waits on the UARTs (UartStream) and on the
    expanders' INT lines (pin IRQs setting an asyncio.ThreadSafeFlag) instead of
    looking every poll_ms: true on a board (open() without stand-ins)."""

    def __init__(self, hw, waits=False):
        self.machine = hw.machine
        self.neopixel = hw.neopixel
        self.ticks_ms = hw.time.ticks_ms
        self.reset = hw.machine.reset   # machine's own: no method of this module in the HAL
        self.waits = waits

    def pin_in(self, n, pull_up):
        Pin = self.machine.Pin
        return Pin(n, Pin.IN, Pin.PULL_UP if pull_up else None)

    def pin_out(self, n):
        Pin = self.machine.Pin
        return Pin(n, Pin.OUT, value=0)

    def uart(self, cfg, rxbuf):
        Pin = self.machine.Pin
        return self.machine.UART(cfg["uart"], baudrate=cfg["baud"], tx=Pin(cfg["tx"]),
                                 rx=Pin(cfg["rx"]), timeout=0, rxbuf=rxbuf)

    def stream(self, uart):
        return UartStream(uart) if self.waits else None

    def flag(self):
        return asyncio.ThreadSafeFlag() if self.waits else None

    def on_fall(self, pin, handler):
        # A hard IRQ: the handler runs in the interrupt, so the flag is set before the
        # event loop's poll looks again (a soft one could run after its last look).
        pin.irq(handler=handler, trigger=self.machine.Pin.IRQ_FALLING, hard=True)

    def i2c(self, bus):
        Pin = self.machine.Pin
        return self.machine.I2C(bus["id"], sda=Pin(bus["sda"]), scl=Pin(bus["scl"]),
                                freq=bus["freq"])

    def strip(self, leds):
        Pin = self.machine.Pin
        np = self.neopixel.NeoPixel(Pin(leds["pin"], Pin.OUT), leds["count"])
        return np.buf, np.write

    def watchdog(self, ms):
        return self.machine.WDT(timeout=ms).feed

    def display(self, d, i2c):
        """The dealer's display (felt.hal.display), or None: where the board has none,
        where this firmware has no driver for it, or where it does not answer at boot
        (the table plays without it; the keypad still keys)."""
        if d is None:
            return None
        try:
            import ssd1306      # micropython-lib's, frozen into the Pico image
            from felt.hal.display import TextDisplay
            return TextDisplay(ssd1306.SSD1306_I2C(d["width"], d["height"], i2c, d["address"]),
                               d["height"] // 8)
        except (ImportError, OSError):
            return None

    def watchdog_reset(self):
        m = self.machine
        return hasattr(m, "reset_cause") and m.reset_cause() == getattr(m, "WDT_RESET", None)


def open(board, hw=None, watchdog=True):
    """The HAL for a MicroPython board.  `board` is a definition from felt.board.load
    (or a path to one).  `hw` stands in for the modules machine, neopixel and time
    (attributes of those names); `watchdog=False` leaves the watchdog off, for a bench
    session at the REPL (once started it cannot be stopped)."""
    board = checked(board, "micropython", "MicroPython")
    waits = hw is None
    if hw is None:
        hw = Modules("machine", "neopixel", "time")
    return assemble(board, MachineIO(hw, waits), watchdog)
