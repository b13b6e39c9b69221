"""A device that speaks a line of ASCII at a time, behind an NXP SC16IS750 I2C-to-UART
bridge on the I2C bus (hardware/WIRING.md): the board's two UARTs are the link's and the
shoe's.  The muck reader (a card reader of the shoe's kind at the dealer's place, which
a seat's discards pass over) and the shuffler's data port (its deck checks) are such
devices.  The bridge's 64-byte receive FIFO holds what the device sends until the board
reads it, and its IRQ line falls when a line has come (the FIFO's receive timeout, 4
characters' time after the device stops sending), so a quiet device costs the bus
nothing.
"""

from felt.hal.mp import LineAssembler
from felt.protocol import ticks_diff

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Registers (SC16IS750 datasheet, table 10), addressed as reg << 3, channel 0.
_RHR = const(0x00)    # receive holding register; DLL while LCR bit 7 is set
_IER = const(0x01 << 3)   # interrupt enable; DLH while LCR bit 7 is set
_FCR = const(0x02 << 3)   # FIFO control (write)
_LCR = const(0x03 << 3)   # line control
_RXLVL = const(0x09 << 3)  # characters waiting in the receive FIFO
RESYNC_MS = const(1000)   # read at least this often, IRQ line or not (felt.hal.mp)


class UartBridge:
    """`poll(now_ms)`: the next line the device said (felt.hal.mp.MISREAD for a garbled
    one), or None.  I2C errors are counted in `errors`; the bridge is set up
    again once a second until it answers (a brown-out loses its registers)."""

    def __init__(self, i2c, address, crystal_hz, baud, max_line=16, irq=None):
        self.i2c = i2c
        self.address = address
        divisor = crystal_hz // (16 * baud)     # felt.board.divisor
        self._setup = (
            (_LCR, b"\x80"),                                   # the divisor latch
            (_RHR, bytes((divisor & 0xFF,))), (_IER, bytes((divisor >> 8,))),
            (_LCR, b"\x03"),                                   # 8N1
            (_FCR, b"\x01"),                                   # FIFOs on
            (_IER, b"\x01"),                                   # receive interrupt
        )
        self.irq = irq
        self.lines = LineAssembler(max_line)
        self.errors = 0
        self._ok = False
        self._checked = 0
        self._n = bytearray(1)
        self._rx = bytearray(64)

    def start(self, now_ms):
        """Set the bridge up, its FIFOs emptied of what the reader said powering up."""
        self._checked = now_ms
        self._configure()
        if self._ok:
            try:
                self.i2c.writeto_mem(self.address, _FCR, b"\x07")
            except OSError:
                self.errors += 1
                self._ok = False

    def _configure(self):
        try:
            for reg, value in self._setup:
                self.i2c.writeto_mem(self.address, reg, value)
            self._ok = True
        except OSError:
            self.errors += 1
            self._ok = False

    def _pump(self):
        try:
            self.i2c.readfrom_mem_into(self.address, _RXLVL, self._n)
            n = min(self._n[0], len(self._rx))
            if n:
                buf = memoryview(self._rx)[:n]
                self.i2c.readfrom_mem_into(self.address, _RHR, buf)
                self.lines.feed(buf, n)
        except OSError:
            self.errors += 1
            self._ok = False

    def poll(self, now_ms):
        if ticks_diff(now_ms, self._checked) >= RESYNC_MS:
            self._checked = now_ms
            if not self._ok:
                self._configure()
            if self._ok:
                self._pump()
        elif self._ok and not self.lines.codes and (self.irq is None or not self.irq.value()):
            self._pump()
        return self.lines.take()

    def quiet(self):
        """True when only the IRQ line's fall can bring a line (felt.loop waits then)."""
        return self.irq is not None and self.irq.value() and not self.lines.codes
