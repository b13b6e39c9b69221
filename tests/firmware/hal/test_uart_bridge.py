"""A device behind an SC16IS750 (felt.hal.uart_bridge), the muck reader's card codes
here: a line each, through the bridge's
receive FIFO on I2C, read when its IRQ line falls and once a second anyway."""

from felt.hal import uart_bridge as M


class Bridge:
    """An SC16IS750's registers as the driver uses them (channel 0, reg << 3); `fifo` is
    what the reader sent and the board has not read; IRQ low while it holds bytes."""

    def __init__(self):
        self.regs = {}
        self.fifo = bytearray()
        self.fail = False
        self.reads = 0

    def writeto_mem(self, address, sub, buf):
        assert address == 0x48
        if self.fail:
            raise OSError(5)
        self.regs[(sub >> 3, self.regs.get((3, 0), 0) >> 7)] = bytes(buf)
        if sub >> 3 == 3:
            self.regs[(3, 0)] = buf[0]
        if sub >> 3 == 2 and buf[0] & 2:
            self.fifo = bytearray()

    def readfrom_mem_into(self, address, sub, buf):
        if self.fail:
            raise OSError(5)
        self.reads += 1
        if sub >> 3 == 9:
            buf[0] = len(self.fifo)
        elif sub >> 3 == 0:
            n = len(buf)
            buf[:] = self.fifo[:n]
            self.fifo = self.fifo[n:]

    def value(self):            # the IRQ pin
        return 0 if self.fifo else 1


def _reader():
    b = Bridge()
    r = M.UartBridge(b, 0x48, 14745600, 9600, 16, b)
    r.start(0)
    return r, b


def test_the_bridge_is_set_to_the_readers_baud_8n1_its_fifo_and_receive_interrupt_on():
    r, b = _reader()
    assert b.regs[(0, 1)] == bytes((96,)) and b.regs[(1, 1)] == b"\x00"   # 14.7456 MHz / 16 / 96
    assert b.regs[(3, 0)] == 0x03 and b.regs[(2, 0)] == b"\x07" and b.regs[(1, 0)] == b"\x01"
    b.fifo += b"Kd\n"
    r.start(10)                             # set up again at boot: what it held goes
    assert b.fifo == b"" and r.poll(15) is None


def test_each_line_is_a_code_and_a_quiet_reader_reads_nothing():
    r, b = _reader()
    assert r.quiet() and r.poll(5) is None and b.reads == 0
    b.fifo += b"Qd\r\n7c\n"
    assert not r.quiet()
    assert r.poll(10) == "Qd" and r.poll(15) == "7c" and r.poll(20) is None
    assert r.quiet()


def test_a_garbled_or_long_line_is_a_misread():
    r, b = _reader()
    b.fifo += b"Q\xffd\n" + b"A" * 20 + b"\n"
    assert r.poll(0) == "?" and r.poll(0) == "?"


def test_a_bridge_that_stops_answering_is_set_up_again_within_a_second():
    r, b = _reader()
    b.fail = True
    b.fifo += b"As\n"
    assert r.poll(5) is None and r.errors == 1
    b.fail = False
    b.regs = {}
    assert r.poll(500) is None              # not yet: once a second
    assert r.poll(1005) == "As" and b.regs[(3, 0)] == 0x03     # nothing it held lost
