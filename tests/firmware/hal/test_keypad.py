"""The dealer's keypad (felt.hal.keypad): a 4x4 matrix on an MCP23017, scanned a row at
a time as QMK scans one, debounced like the buttons, quiet while its INT line is high."""

from felt.hal import keypad as K
from felt.hal import mp

KEYS = "123A456B789C*0#D"
ROWS = (8, 9, 10, 11)        # GPB0-3: driven low one at a time
COLUMNS = (0, 1, 2, 3)       # GPA0-3: inputs with pull-ups


class MatrixChip:
    """An MCP23017 at 0x23 with a key matrix on it: a column reads low while a key held
    on it sits on a row that is an output (IODIR 0) driving low (OLAT 0)."""

    def __init__(self):
        self.regs = bytearray(0x16)
        self.held = set()           # (row pin, column pin)
        self.seen = 0xFFFF          # the pins at the last GPIO read
        self.fail = False
        self.gpio_reads = 0

    def pins(self):
        iodir = self.regs[0x00] | self.regs[0x01] << 8
        olat = self.regs[0x14] | self.regs[0x15] << 8
        v = (0xFFFF & iodir) | (olat & ~iodir)
        for r, c in self.held:
            if not (iodir >> r) & 1 and not (olat >> r) & 1:
                v &= ~(1 << c)
        return v & 0xFFFF

    def int_level(self):
        inten = self.regs[0x04] | self.regs[0x05] << 8
        return 0 if (self.pins() ^ self.seen) & inten else 1

    # The I2C bus the chip is on (felt.hal.mp.Mcp23017's two calls).
    def writeto_mem(self, address, reg, buf):
        assert address == 0x23
        if self.fail:
            raise OSError(5)
        for i in range(len(buf)):
            self.regs[reg + i] = buf[i]

    def readfrom_mem_into(self, address, reg, buf):
        if self.fail:
            raise OSError(5)
        if reg == 0x12:
            self.gpio_reads += 1
            self.seen = v = self.pins()
            buf[0], buf[1] = v & 0xFF, v >> 8
        else:
            for i in range(len(buf)):
                buf[i] = self.regs[reg + i]


class IntPin:
    def __init__(self, chip):
        self.chip = chip

    def value(self):
        return self.chip.int_level()


def _keypad(int_line=True, chip=None):
    chip = chip or MatrixChip()
    cols = rows = 0
    for p in COLUMNS:
        cols |= 1 << p
    for p in ROWS:
        rows |= 1 << p
    kp = K.MatrixKeypad(mp.Mcp23017(chip, 0x23, cols, rows), IntPin(chip) if int_line else None,
                        ROWS, COLUMNS, KEYS, 20)
    kp.start(0)
    return kp, chip


def _hold(chip, key, down=True):
    i = KEYS.index(key)
    rc = (ROWS[i // 4], COLUMNS[i % 4])
    if down:
        chip.held.add(rc)
    else:
        chip.held.discard(rc)


def test_the_rows_are_outputs_and_the_columns_interrupting_inputs_after_start():
    kp, chip = _keypad()
    assert chip.regs[0x00] == 0x7F and chip.regs[0x01] == 0x70   # rows GPB0-3 drive
    assert chip.regs[0x04] == 0x0F and chip.regs[0x05] == 0      # columns interrupt
    assert chip.regs[0x14] == 0 and chip.regs[0x15] == 0         # latches low
    assert kp.quiet()


def test_every_key_is_read_at_its_row_and_column_after_the_debounce():
    for key in KEYS:
        kp, chip = _keypad()
        _hold(chip, key)
        assert not kp.quiet()                  # its column fell: INT is low
        assert kp.poll(5) == []
        assert kp.poll(30) == [key]
        _hold(chip, key, False)
        assert kp.poll(40) == [] and kp.poll(70) == []
        assert kp.quiet()


def test_two_keys_held_on_one_column_are_told_apart_by_their_rows():
    kp, chip = _keypad()
    _hold(chip, "1")
    _hold(chip, "*")
    kp.poll(0)
    assert sorted(kp.poll(25)) == ["*", "1"]


def test_a_key_held_at_boot_is_no_press_until_pressed_again():
    chip = MatrixChip()
    chip.held.add((8, 0))                  # "1"
    kp, _ = _keypad(chip=chip)
    assert kp.poll(5) == [] and kp.poll(50) == []
    _hold(chip, "1", False)
    kp.poll(60)
    kp.poll(90)
    _hold(chip, "1")
    kp.poll(100)
    assert kp.poll(130) == ["1"]


def test_a_bounce_shorter_than_the_debounce_is_no_press():
    kp, chip = _keypad()
    _hold(chip, "5")
    kp.poll(0)
    _hold(chip, "5", False)
    assert kp.poll(10) == [] and kp.poll(40) == []


def test_a_quiet_keypad_reads_nothing_from_the_bus():
    kp, chip = _keypad()
    reads = chip.gpio_reads
    for t in range(5, 500, 5):
        assert kp.poll(t) == []
    assert chip.gpio_reads == reads
    kp.poll(1000)                          # the resync reads it once a second anyway
    assert chip.gpio_reads == reads + 5    # four rows and the idle read


def test_without_an_int_line_it_is_scanned_every_poll():
    kp, chip = _keypad(int_line=False)
    assert not kp.quiet()
    _hold(chip, "9")
    kp.poll(5)
    assert kp.poll(30) == ["9"]


def test_a_chip_that_stops_answering_keeps_its_keys_and_is_set_up_again():
    kp, chip = _keypad(int_line=False)
    _hold(chip, "0")
    kp.poll(0)
    chip.fail = True
    assert kp.poll(25) == ["0"] and kp.errors == 1    # the last levels kept
    chip.regs[0x0C] = 0                               # it browned out meanwhile
    chip.fail = False
    kp.poll(1100)                                     # the resync sets it up again
    assert chip.regs[0x0C] == 0x7F and kp.poll(1105) == []
