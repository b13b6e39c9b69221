"""The HAL backends' logic, driven through fake pins, buses and UARTs (no hardware).

Coroutines are stepped by hand (`_run_now`) because the MicroPython VM the tests also
run in has no asyncio.run; the parts take their sleep/spawn as replaceable attributes.
"""

from felt import board as B
from felt import protocol as P
from felt.hal import assembly, cp, mp


def _boards_dir():
    here = __file__.replace("\\", "/")
    return here[:here.rfind("/tests/")] + "/hardware/boards"


def _pico():
    return B.load(_boards_dir() + "/pico-11.json")


def _feather():
    return B.load(_boards_dir() + "/feather-rp2040-cp.json")


def _run_now(coro):
    """Run a coroutine that must finish without really waiting; return its value."""
    try:
        coro.send(None)
    except StopIteration as e:
        return e.args[0] if e.args else None
    raise AssertionError("the coroutine waited")


class _Sleeps:
    """Stands in for asyncio's sleep_ms: records each wait, runs a hook, returns at once."""

    def __init__(self, hook=None):
        self.waits = []
        self.hook = hook

    async def __call__(self, ms):
        self.waits.append(ms)
        if self.hook is not None:
            self.hook()


# ---- fake MCP23017s on a fake I2C bus -----------------------------------------------

class FakeMcp:
    """Registers of an MCP23017 (BANK = 0); `pins` are the levels on its 16 pins."""

    def __init__(self):
        self.regs = bytearray(0x16)
        self.pins = 0xFFFF  # pulled up: nothing pressed
        self.seen = 0xFFFF  # levels at the last GPIO read (interrupt-on-change reference)
        self.gpio_reads = 0
        self.fail = False

    def press(self, pin):
        self.pins &= ~(1 << pin)

    def release(self, pin):
        self.pins |= 1 << pin

    def int_level(self):
        inten = self.regs[0x04] | self.regs[0x05] << 8
        return 0 if (self.pins ^ self.seen) & inten else 1


class FakeI2C:
    def __init__(self, chips):
        self.chips = chips  # address -> FakeMcp

    def _chip(self, address):
        chip = self.chips.get(address)
        if chip is None or chip.fail:
            raise OSError(5)
        return chip

    def readfrom_mem_into(self, address, reg, buf):
        chip = self._chip(address)
        if reg == 0x12:
            chip.gpio_reads += 1
            chip.seen = chip.pins
            buf[0] = chip.pins & 0xFF
            buf[1] = chip.pins >> 8
        else:
            for i in range(len(buf)):
                buf[i] = chip.regs[reg + i]

    def writeto_mem(self, address, reg, buf):
        chip = self._chip(address)
        for i in range(len(buf)):
            chip.regs[reg + i] = buf[i]


class FakeIntPin:
    def __init__(self, chip):
        self.chip = chip

    def value(self):
        return self.chip.int_level()


def _buttons(use_int=True):
    board = _pico()
    events, masks = B.button_table(board)
    fakes = [FakeMcp(), FakeMcp(), FakeMcp()]
    bus = FakeI2C({0x20: fakes[0], 0x21: fakes[1], 0x22: fakes[2]})
    chips = [mp.Mcp23017(bus, 0x20 + k, masks[2 * k] | masks[2 * k + 1] << 8) for k in range(3)]
    ints = [FakeIntPin(f) if use_int else None for f in fakes]
    buttons = mp.ExpanderButtons(chips, ints, events, masks, board["debounce_ms"])
    return buttons, fakes


def _polls(buttons, times):
    out = []
    for t in times:
        out.extend(buttons.poll(t))
    return out


def test_expanders_are_set_up_as_inputs_with_pullups_and_one_int_line():
    buttons, fakes = _buttons()
    buttons.start(0)
    r = fakes[0].regs
    assert r[0x0A] == 0x40  # IOCON.MIRROR
    assert r[0x00] == 0x7F and r[0x01] == 0x7F  # GPA7/GPB7 outputs, the rest inputs
    assert r[0x0C] == 0x7F and r[0x0D] == 0x7F  # pull-ups
    assert r[0x04] == 0x7F and r[0x05] == 0x7F  # pins 0-6, 8-14 wired on expander 0
    assert fakes[2].regs[0x04] == 0x7F and fakes[2].regs[0x05] == 0x7F


def test_seat_button_press_is_reported_as_seat_and_name_once_confirmed():
    buttons, fakes = _buttons()
    buttons.start(0)
    fakes[0].press(9)  # seat 2 check/call
    assert _polls(buttons, [5, 6]) == []                # its first edge, read at 5
    assert buttons.due_ms(6, 5) == 1                    # the confirming read is due at 7
    assert _polls(buttons, [7]) == [(2, "call")]        # CONFIRM_MS after: taken
    assert _polls(buttons, [10, 30, 100]) == []


def test_a_bouncy_press_is_one_press_and_its_release_bounces_are_none():
    buttons, fakes = _buttons()
    buttons.start(0)
    got = []
    for t, down in ((5, 1), (6, 0), (7, 1), (8, 0), (9, 1), (15, 0), (16, 1), (60, 0),
                    (61, 1), (62, 0), (70, 0)):
        (fakes[1].press if down else fakes[1].release)(3)   # seat 5 fold, chattering
        got.extend(buttons.poll(t))
    assert got == [(5, "fold")]
    assert not buttons.debouncer.is_down(16 + 3)
    fakes[1].press(3)                                       # pressed again: a press
    assert _polls(buttons, range(100, 110)) == [(5, "fold")]


def test_dealer_button_press_is_reported_as_dealer():
    buttons, fakes = _buttons()
    buttons.start(0)
    fakes[2].press(11)
    assert _polls(buttons, range(0, 60, 5)) == [("dealer", "deal")]


def test_two_seats_pressing_at_once_are_both_reported():
    buttons, fakes = _buttons()
    buttons.start(0)
    fakes[0].press(0)   # seat 0 fold
    fakes[2].press(10)  # seat 10 raise
    got = _polls(buttons, range(0, 60, 5))
    assert sorted(got, key=repr) == sorted([(0, "fold"), (10, "raise")], key=repr)


def test_button_held_at_boot_is_not_a_press_until_pressed_again():
    buttons, fakes = _buttons()
    fakes[1].press(0)  # seat 4 fold, stuck
    buttons.start(0)
    assert _polls(buttons, range(5, 200, 5)) == []
    fakes[1].release(0)
    assert _polls(buttons, range(200, 300, 5)) == []
    fakes[1].press(0)
    assert _polls(buttons, range(300, 400, 5)) == [(4, "fold")]


def test_a_glitch_gone_by_the_confirming_read_is_not_a_press():
    buttons, fakes = _buttons()
    buttons.start(0)
    fakes[0].press(3)
    buttons.poll(5)
    fakes[0].release(3)
    assert _polls(buttons, range(6, 100)) == []


def test_quiet_expander_with_idle_int_line_is_not_read():
    buttons, fakes = _buttons()
    buttons.start(0)
    before = fakes[0].gpio_reads
    _polls(buttons, range(5, 900, 5))
    assert fakes[0].gpio_reads == before


def test_expander_is_read_every_resync_ms_even_with_idle_int_line():
    buttons, fakes = _buttons()
    buttons.start(0)
    before = fakes[0].gpio_reads
    _polls(buttons, range(5, 2100, 5))
    assert fakes[0].gpio_reads == before + 2


class _Flag:
    """Stands in for asyncio.ThreadSafeFlag (set, clear, wait)."""

    def __init__(self):
        self.state = False
        self.waits = 0

    def set(self):
        self.state = True

    def clear(self):
        self.state = False

    async def wait(self):
        self.waits += 1
        self.state = False


def test_buttons_are_quiet_only_with_a_flag_every_int_line_high_and_nothing_settling():
    buttons, fakes = _buttons()
    buttons.start(0)
    assert not buttons.quiet()          # nothing to wait on: polled every poll_ms
    flag = _Flag()
    buttons.listen(flag)
    flag.set()
    assert buttons.quiet()
    assert not flag.state               # cleared: an edge after the look sets it again
    fakes[2].press(0)                   # its INT line falls
    assert not buttons.quiet()
    buttons.poll(5)                     # read: INT high again, the press settling
    assert fakes[2].int_level() == 1
    assert not buttons.quiet()
    assert _polls(buttons, range(10, 30, 5)) == [(8, "fold")]    # taken at 10
    assert not buttons.quiet()          # its bounces shut out until 30: polled
    buttons.poll(30)
    assert buttons.quiet()


def test_buttons_without_an_int_line_are_never_quiet():
    buttons, fakes = _buttons(use_int=False)
    buttons.listen(_Flag())
    buttons.start(0)
    assert not buttons.quiet()


def test_quiet_buttons_wait_on_the_flag():
    buttons, fakes = _buttons()
    flag = _Flag()
    buttons.listen(flag)
    buttons.start(0)
    assert buttons.quiet()
    _run_now(buttons.wait())
    assert flag.waits == 1


def test_tick_sets_the_flag_every_period_so_a_quiet_wait_ends():
    buttons, fakes = _buttons()
    flag = _Flag()
    buttons.listen(flag)
    seen = []

    def sleeping():                     # what the flag was at each sleep; the third ends
        seen.append(flag.state)
        flag.clear()
        if len(seen) == 3:
            raise _Stop

    buttons.sleep = _Sleeps(sleeping)
    try:
        buttons.tick(100).send(None)
    except _Stop:
        pass
    assert buttons.sleep.waits == [100, 100, 100] and seen == [False, True, True]


class _Stop(Exception):
    pass


def test_expander_without_int_line_is_read_every_poll():
    buttons, fakes = _buttons(use_int=False)
    buttons.start(0)
    before = fakes[1].gpio_reads
    _polls(buttons, [5, 10, 15])
    assert fakes[1].gpio_reads == before + 3


def test_browned_out_expander_is_reconfigured_at_resync():
    buttons, fakes = _buttons()
    buttons.start(0)
    fakes[1].regs[0x0C] = 0  # power-on defaults: pull-ups off
    fakes[1].regs[0x0D] = 0
    buttons.poll(mp.RESYNC_MS)
    assert fakes[1].regs[0x0C] == 0x7F and fakes[1].regs[0x0D] == 0x7F


def test_expander_read_every_poll_is_still_checked_for_brown_out():
    buttons, fakes = _buttons(use_int=False)
    buttons.start(0)
    fakes[0].regs[0x0C] = 0
    _polls(buttons, range(5, 1005, 5))
    assert fakes[0].regs[0x0C] == 0x7F


def test_i2c_errors_keep_last_levels_and_are_counted_not_pressed():
    buttons, fakes = _buttons(use_int=False)
    buttons.start(0)
    fakes[0].press(0)
    assert _polls(buttons, range(5, 40, 5)) == [(0, "fold")]
    fakes[0].fail = True
    fakes[0].release(0)
    fakes[0].press(1)
    assert _polls(buttons, range(40, 500, 5)) == []
    assert buttons.errors >= 1
    assert buttons.faults() == [0]
    assert buttons.debouncer.is_down(0)  # last good level kept: no phantom release
    fakes[0].fail = False
    got = _polls(buttons, range(500, 1200, 5))  # back after the next resync
    assert got == [(0, "call")]
    assert buttons.faults() == []


def test_idle_button_poll_allocates_nothing_on_micropython():
    try:
        import micropython
        micropython.heap_lock
    except (ImportError, AttributeError):
        return
    buttons, fakes = _buttons(use_int=False)  # the worst case: every chip read each poll
    buttons.start(0)
    buttons.poll(1)
    failed = False
    micropython.heap_lock()
    try:
        for t in range(5, 500, 5):
            buttons.poll(t)
    except MemoryError:
        failed = True
    finally:
        micropython.heap_unlock()
    assert not failed


# ---- the card reader ----------------------------------------------------------------

def _codes(chunks, max_line=16):
    a = mp.LineAssembler(max_line)
    out = []
    for c in chunks:
        a.feed(c)
        code = a.take()
        while code is not None:
            out.append(code)
            code = a.take()
    return out, a


def test_reader_lines_become_codes_with_crlf_and_spaces_trimmed():
    out, _ = _codes([b"As\n", b"Td\r\n", b" 9c \n"])
    assert out == ["As", "Td", "9c"]


def test_line_split_across_reads_is_joined():
    out, _ = _codes([b"K", b"h", b"\r", b"\nQ", b"s\n"])
    assert out == ["Kh", "Qs"]


def test_overlong_line_comes_out_as_misread_and_the_next_is_clean():
    out, a = _codes([b"A" * 40 + b"\nAs\n"], max_line=16)
    assert out == [mp.MISREAD, "As"]
    assert a.rejected == 1


def test_non_printable_byte_makes_the_line_a_misread():
    out, a = _codes([b"A\xffs\n", b"\x07\n", b"2c\n"])
    assert out == [mp.MISREAD, mp.MISREAD, "2c"]
    assert a.rejected == 2


def test_nul_bytes_and_empty_lines_are_skipped():
    out, _ = _codes([b"\x00\x00\n\r\n\n", b"\x00Jh\n"])
    assert out == ["Jh"]


def test_printable_garbage_is_passed_on_for_the_rules_core_to_refuse():
    out, _ = _codes([b"Zz\n"])
    assert out == ["Zz"]


def test_waiting_codes_are_bounded_and_overflow_is_counted():
    a = mp.LineAssembler(16, depth=3)
    a.feed(b"2c\n3c\n4c\n5c\n6c\n")
    assert a.codes == ["2c", "3c", "4c"]
    assert a.dropped == 2


def test_feed_takes_only_the_first_bytes_of_a_read_buffer():
    a = mp.LineAssembler()
    buf = bytearray(b"As\nKdXXXX")
    a.feed(buf, 5)
    a.feed(b"\n")
    assert a.codes == ["As", "Kd"]


class FakeUart:
    def __init__(self, *args, **kw):
        self.args = args
        self.kw = kw
        self.rx = bytearray()
        self.tx = []

    def any(self):
        return len(self.rx)

    def readinto(self, buf, n=None):
        n = min(len(buf), len(self.rx), len(buf) if n is None else n)
        if not n:
            return None
        for i in range(n):
            buf[i] = self.rx[i]
        self.rx = self.rx[n:]
        return n

    def write(self, data):
        self.tx.append(bytes(data))
        return len(data)


def test_want_tells_the_shoe_which_card_is_expected_and_for_which_seat():
    u = FakeUart()
    r = mp.CardReader(u)
    r.want("hole", 3)
    r.want("burn")
    r.want("button", 0)  # one card a seat to place the button, 19:47-14.10(c)
    assert u.tx == [b"want hole 3\n", b"want burn -1\n", b"want button 0\n"]
    try:
        r.want("river")
    except ValueError:
        pass
    else:
        assert False


def test_read_returns_the_next_code_from_the_uart():
    u = FakeUart()
    u.rx = bytearray(b"As\r\nKd\n")
    r = mp.CardReader(u)
    assert _run_now(r.read()) == "As"
    assert _run_now(r.read()) == "Kd"
    assert r.poll() is None


def test_a_line_of_the_shoe_is_a_card_face_up_or_of_a_deck_or_the_shoes_status():
    said = mp.CardReader(FakeUart()).said
    assert said("As") == ("card", {"code": "As"})
    assert said("Kd B") == ("card", {"code": "Kd", "deck": "B"})
    assert said("7c up") == ("card", {"code": "7c", "face_up": True})
    assert said("7c A up") == ("card", {"code": "7c", "deck": "A", "face_up": True})
    assert said("?") == ("card", {"code": "?"})               # a misread, refused
    assert said("Zz C") == ("card", {"code": "Zz", "deck": "C"})   # refused as it is
    for status in ("jam", "stop", "incomplete", "bogus"):
        assert said("!" + status) == ("shoe", {"state": status})
    assert said("!out") == ("shoe", {"present": False})
    assert said("!in") == ("shoe", {"present": True})


def test_read_waits_until_the_reader_sends_a_whole_line():
    u = FakeUart()
    r = mp.CardReader(u, poll_ms=7)
    chunks = [b"T", b"h\n"]

    def arrive():
        if chunks:
            u.rx.extend(chunks.pop(0))

    r.sleep = _Sleeps(arrive)
    assert _run_now(r.read()) == "Th"
    assert r.sleep.waits == [7, 7]


class _Stream:
    """Stands in for asyncio.StreamReader over a FakeUart: readinto waits (here: the
    hook makes bytes arrive) and reads what came."""

    def __init__(self, uart, hook):
        self.uart = uart
        self.hook = hook
        self.waits = 0

    async def readinto(self, buf):
        self.waits += 1
        self.hook()
        return self.uart.readinto(buf)


def test_read_with_a_stream_waits_on_it_not_on_a_clock():
    u = FakeUart()
    chunks = [b"T", b"h\n"]
    r = mp.CardReader(u, poll_ms=7, stream=_Stream(u, lambda: u.rx.extend(chunks.pop(0))))
    r.sleep = _Sleeps()
    assert _run_now(r.read()) == "Th"
    assert r.stream.waits == 2 and r.sleep.waits == []


def test_uart_stream_is_readable_while_the_uart_holds_bytes():
    u = FakeUart()
    s = mp.UartStream(u)
    assert s.ioctl(3, 1) == 0           # MP_STREAM_POLL, POLLIN: nothing yet
    u.rx.extend(b"As")
    assert s.ioctl(3, 1) == 1
    assert s.ioctl(4, 0) == -1          # nothing else is asked of it


def test_reader_longer_than_one_read_buffer_is_assembled():
    u = FakeUart()
    u.rx = bytearray(b"\x00" * 100 + b"Ac\n")
    r = mp.CardReader(u)
    assert _run_now(r.read()) == "Ac"


# ---- the shuffler -------------------------------------------------------------------

class FakePin:
    def __init__(self, level=1):
        self.level = level
        self.history = []

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0
        self.history.append(self.level)


class Clock:
    def __init__(self, now=0):
        self.now = now

    def __call__(self):
        return self.now


def _shuffler(pulse_ms=200):
    ins = {"busy": FakePin(), "done": FakePin(), "jam": FakePin(), "present": FakePin(0)}
    out = FakePin(0)
    clock = Clock()
    sh = mp.Shuffler((ins["busy"], ins["done"], ins["jam"], ins["present"]), out, True,
                     pulse_ms, 20, clock)
    return sh, ins, out, clock


def _settle(sh, clock, ms=20):
    sh.state()
    clock.now += ms
    return sh.state()


def test_shuffler_states_come_from_active_low_inputs():
    sh, ins, out, clock = _shuffler()
    assert sh.present() and sh.state() == "idle"
    ins["busy"].level = 0
    assert _settle(sh, clock) == "shuffling"
    ins["busy"].level = 1
    ins["done"].level = 0
    assert _settle(sh, clock) == "done"
    ins["jam"].level = 0
    assert _settle(sh, clock) == "jammed"  # a jam outranks the other signals


def test_shuffler_glitch_shorter_than_debounce_is_not_a_jam():
    sh, ins, out, clock = _shuffler()
    ins["jam"].level = 0
    assert sh.state() == "idle"
    clock.now += 5
    ins["jam"].level = 1
    assert sh.state() == "idle"
    clock.now += 50
    assert sh.state() == "idle"


def test_removed_shuffler_is_not_present_and_reads_idle():
    sh, ins, out, clock = _shuffler()
    ins["present"].level = 1
    ins["busy"].level = 0
    _settle(sh, clock)
    assert not sh.present()
    assert sh.state() == "idle"


class _DataPort:
    """A shuffler's data port (felt.hal.uart_bridge.UartBridge's poll): lines said."""

    def __init__(self):
        self.lines = []

    def poll(self, now_ms):
        return self.lines.pop(0) if self.lines else None


def _checking_shuffler():
    sh, ins, out, clock = _shuffler()
    sh.data = _DataPort()
    sh.spawn = lambda coro: coro.close()
    sh.start()
    ins["busy"].level = 0
    assert _settle(sh, clock) == "shuffling"
    ins["busy"].level = 1
    ins["done"].level = 0
    return sh, clock


def test_a_shuffler_with_a_data_port_is_done_once_its_deck_check_is_said():
    # 13:47-20.38(h): its card recognition's deck check comes with its done.
    sh, clock = _checking_shuffler()
    assert _settle(sh, clock) == "shuffling"       # done, its check not yet said
    sh.data.lines.append("check 51 missing As")
    assert sh.state() == "done"
    assert sh.deck_check() == {"count": 51, "missing": ["As"]}
    sh.pulsing = False
    sh.start()                                      # the next cycle awaits its own
    assert sh.check is None and sh.deck_check() == {}


def test_a_deck_check_never_said_is_no_check_after_a_while():
    sh, clock = _checking_shuffler()
    assert _settle(sh, clock) == "shuffling"
    clock.now += mp.CHECK_MS
    assert sh.state() == "done" and sh.deck_check() == {}


def test_a_deck_check_is_read_as_the_shuffler_says_it_and_a_garbled_one_is_no_deck():
    sh, clock = _checking_shuffler()
    for line, said in (("check 52", {"count": 52}),
                       ("check 53 extra Kd", {"count": 53, "extra": ["Kd"]}),
                       ("check 50 missing As 2c extra Kd", {"count": 50, "missing": ["As", "2c"],
                                                            "extra": ["Kd"]}),
                       ("?", {"count": 0}), ("check", {"count": 0}),
                       ("check 51 missing Zz", {"count": 0}), ("check 51 As", {"count": 0}),
                       ("check 999", {"count": 0}), ("check 51 missing As As", {"count": 0})):
        sh.check = line
        assert sh.deck_check() == said, line


def test_a_shuffler_silent_after_its_start_reads_jammed():
    # 13:47-20.38(o): started, it never says busy or done: it did not start its cycle.
    sh, ins, out, clock = _shuffler()
    sh.spawn = lambda coro: coro.close()
    assert sh.state() == "idle"           # never started: idle however long
    clock.now += 2 * mp.SILENT_MS
    assert sh.state() == "idle"
    sh.start()
    clock.now += mp.SILENT_MS - 1
    assert sh.state() == "idle"
    clock.now += 1
    assert sh.state() == "jammed"
    sh.pulsing = False                    # its pulse over: started again, it answers
    sh.start()
    ins["busy"].level = 0
    assert _settle(sh, clock) == "shuffling"
    ins["busy"].level = 1
    clock.now += 2 * mp.SILENT_MS         # then idle: its own report (stopped), not silence
    assert _settle(sh, clock) == "idle"


def _done_since_the_last_cycle():
    """A shuffler whose done line is still on from its last cycle, started again."""
    sh, ins, out, clock = _shuffler()
    sh.spawn = lambda coro: coro.close()
    ins["done"].level = 0
    assert _settle(sh, clock) == "done"
    sh.start()
    return sh, ins, clock


def test_a_line_on_before_the_start_is_no_answer_and_the_silence_still_counts():
    # 13:47-20.38(o): started with done still on from the last round, it never answers:
    # the table must not wait for ever (SILENT_MS from the start, whatever was on).
    sh, ins, clock = _done_since_the_last_cycle()
    assert sh.state() == "idle"           # the old done is not this cycle's
    clock.now += mp.SILENT_MS - 1
    assert sh.state() == "idle"
    clock.now += 1
    assert sh.state() == "jammed"


def test_a_shuffler_started_with_done_on_answers_with_busy_or_a_done_anew():
    sh, ins, clock = _done_since_the_last_cycle()
    ins["busy"].level = 0                 # busy comes on: it answered
    assert _settle(sh, clock) == "shuffling"
    clock.now += 2 * mp.SILENT_MS
    assert sh.state() == "shuffling"
    sh, ins, clock = _done_since_the_last_cycle()
    ins["done"].level = 1                 # done goes off (its cycle, busy too short) ...
    assert _settle(sh, clock) == "idle"
    ins["done"].level = 0                 # ... and on again: this cycle's
    assert _settle(sh, clock) == "done"
    clock.now += 2 * mp.SILENT_MS
    assert sh.state() == "done"


def test_start_pulses_the_output_for_pulse_ms_once():
    sh, ins, out, clock = _shuffler(pulse_ms=150)
    spawned = []
    sh.spawn = spawned.append
    sh.sleep = _Sleeps()
    assert sh.start() is True
    assert out.level == 1
    assert sh.start() is False  # already pulsing
    assert len(spawned) == 1
    _run_now(spawned[0])
    assert sh.sleep.waits == [150]
    assert out.level == 0 and out.history == [0, 1, 0]
    assert sh.start() is True  # ready for the next shuffle
    spawned[1].close()


# ---- the LED chain ------------------------------------------------------------------

def _pixels(n=4, order="GRB", level=255):
    writes = []
    buf = bytearray(3 * n)
    px = mp.Pixels(buf, order, level, lambda: writes.append(bytes(buf)))
    return px, buf, writes


def test_pixels_are_written_in_the_boards_wire_order():
    px, buf, _ = _pixels(order="GRB")
    px[1] = (10, 20, 30)
    assert list(buf[3:6]) == [20, 10, 30]
    assert px[1] == (10, 20, 30)
    px2, buf2, _ = _pixels(order="RGB")
    px2[0] = (10, 20, 30)
    assert list(buf2[0:3]) == [10, 20, 30]


def test_max_level_caps_every_channel_for_the_power_budget():
    px, buf, _ = _pixels(level=128)
    px[0] = (255, 255, 0)
    assert px[0] == (128, 128, 0)
    px.fill((255, 255, 255))
    assert list(buf) == [128] * 12


def test_fill_range_lights_one_seat_segment_only():
    b = _pico()
    buf = bytearray(3 * b["leds"]["count"])
    px = mp.Pixels(buf, b["leds"]["order"], 255, lambda: None)
    start, n = B.seat_led_range(b, 3)
    px.fill_range(start, n, (0, 0, 9))
    lit = [i for i in range(px.n) if px[i] != (0, 0, 0)]
    assert lit == list(range(18, 24))


def test_pixel_index_out_of_range_raises_and_negative_counts_from_the_end():
    px, buf, _ = _pixels(n=3)
    px[-1] = (1, 2, 3)
    assert px[2] == (1, 2, 3)
    for bad in (3, -4):
        try:
            px[bad] = (1, 1, 1)
        except IndexError:
            pass
        else:
            assert False, bad


def test_write_sends_the_buffer_to_the_driver():
    px, buf, writes = _pixels(n=2)
    px[0] = (1, 2, 3)
    px.write()
    assert writes == [bytes([2, 1, 3, 0, 0, 0])]
    assert len(px) == 2


# ---- the serial link ----------------------------------------------------------------

def _decode(chunks):
    d = P.Decoder()
    for c in chunks:
        d.feed(c)
    return list(d)


def _stop(ms):
    raise _Stop()


def test_uart_transport_read_returns_what_arrived():
    u = FakeUart()
    u.rx = bytearray(b"@1 x {} *0\n")
    t = mp.UartTransport(u)
    assert _run_now(t.read()) == b"@1 x {} *0\n"
    t.write(b"abc")
    assert u.tx == [b"abc"]


def test_uart_transport_read_waits_while_nothing_arrives():
    u = FakeUart()
    t = mp.UartTransport(u, poll_ms=3)
    t.sleep = _Sleeps(lambda: u.rx.extend(b"hi"))
    assert _run_now(t.read()) == b"hi"
    assert t.sleep.waits == [3]


def test_uart_transport_with_a_stream_waits_on_it_not_on_a_clock():
    u = FakeUart()
    u.rx = bytearray(b"ab")
    t = mp.UartTransport(u, poll_ms=3, stream=_Stream(u, lambda: u.rx.extend(b"hi")))
    t.sleep = _Sleeps()
    assert _run_now(t.read()) == b"ab"    # what is there first, without waiting
    assert _run_now(t.read()) == b"hi"
    assert t.stream.waits == 1 and t.sleep.waits == []


def test_shared_link_over_a_uart_acks_a_command_and_hands_it_on():
    from felt.hal.link import Link
    u = FakeUart()
    u.rx = bytearray(b"noise" + P.encode(41, "cfg", {"seats": 9}))
    t = mp.UartTransport(u)
    t.sleep = _stop  # ends serve() once the UART is drained
    link = Link(t)
    link.sleep = _Sleeps()   # between two frames: no event loop here
    got = []
    try:
        link.serve(lambda kind, payload: got.append((kind, payload))).send(None)
    except _Stop:
        pass
    assert got == [("cfg", {"seats": 9})]
    assert [(k, p) for _, k, p in _decode(u.tx)] == [("ack", {"seq": 41})]


# ---- open(): the MicroPython backend with a fake machine module ---------------------

class _Ns:
    pass


def _fake_machine(chips, int_pins):
    """A stand-in for `machine`; int_pins maps GPIO -> chip whose INT it carries."""
    m = _Ns()
    made = {"pins": {}, "uarts": [], "wdt": []}

    class Pin:
        IN = 0
        OUT = 1
        PULL_UP = 2

        def __init__(self, n, mode=-1, pull=-1, value=None):
            self.n = n
            self.mode = mode
            self.pull = pull
            self.level = 1 if pull == 2 else (value or 0)
            made["pins"][n] = self

        def value(self, v=None):
            if v is None:
                chip = int_pins.get(self.n)
                return chip.int_level() if chip is not None else self.level
            self.level = 1 if v else 0

    def I2C(n, sda=None, scl=None, freq=None):
        made["i2c"] = (n, sda.n, scl.n, freq)
        return FakeI2C(chips)

    def UART(n, **kw):
        u = FakeUart(n, **kw)
        made["uarts"].append(u)
        return u

    class WDT:
        def __init__(self, timeout=None):
            self.timeout = timeout
            self.fed = 0
            made["wdt"].append(self)

        def feed(self):
            self.fed += 1

    m.Pin = Pin
    m.I2C = I2C
    m.UART = UART
    m.WDT = WDT
    made["resets"] = 0

    def reset():
        made["resets"] += 1

    m.reset = reset
    return m, made


class _FakeNeoPixel:
    def __init__(self, pin, n):
        self.pin = pin
        self.buf = bytearray(3 * n)
        self.writes = 0

    def write(self):
        self.writes += 1


def _open_pico(watchdog=True, cause=None):
    fakes = [FakeMcp(), FakeMcp(), FakeMcp()]
    chips = {0x20: fakes[0], 0x21: fakes[1], 0x22: fakes[2]}
    machine, made = _fake_machine(chips, {10: fakes[0], 11: fakes[1], 12: fakes[2]})
    if cause is not None:           # machine.reset_cause() and its constants, as on rp2
        machine.PWRON_RESET, machine.WDT_RESET = 1, 3
        machine.reset_cause = lambda: cause
    hw = _Ns()
    hw.machine = machine
    hw.neopixel = _Ns()
    hw.neopixel.NeoPixel = _FakeNeoPixel
    hw.time = _Ns()
    clock = Clock(5000)
    hw.time.ticks_ms = clock
    hal = assembly.open(_pico(), hw=hw, watchdog=watchdog)
    return hal, fakes, made, clock


def test_open_pico_wires_buttons_to_the_expanders_on_i2c0():
    hal, fakes, made, clock = _open_pico()
    assert hal.wired  # main.py starts the button, reader and shuffler tasks
    assert made["i2c"] == (0, 8, 9, 400000)
    fakes[1].press(13)  # seat 7 bet/raise
    got = []
    for _ in range(10):
        clock.now += 5
        got.extend(hal.buttons.poll(hal.ticks_ms()))
    assert got == [(7, "raise")]


def test_open_pico_resets_with_machine_reset():
    # machine's own, not a method of felt.hal.assembly's (which the boot forgets)
    hal, _, made, _ = _open_pico()
    hal.reset()
    assert made["resets"] == 1


def test_open_pico_says_whether_the_watchdog_reset_the_board():
    assert _open_pico(cause=3)[0].watchdog_reset is True
    assert _open_pico(cause=1)[0].watchdog_reset is False
    assert _open_pico()[0].watchdog_reset is False      # a port without reset_cause


def test_open_pico_puts_the_reader_and_link_on_their_uarts():
    hal, fakes, made, clock = _open_pico()
    reader_uart, link_uart = made["uarts"]
    assert reader_uart.args == (1,) and reader_uart.kw["baudrate"] == 9600
    assert link_uart.args == (0,) and link_uart.kw["baudrate"] == 115200
    reader_uart.rx.extend(b"Qh\n")
    assert _run_now(hal.card_reader.read()) == "Qh"
    hal.link.send("log", {"msg": "hi"})
    assert _decode(link_uart.tx) == [(0, "log", {"msg": "hi"})]


def test_open_pico_sizes_the_led_chain_and_starts_dark():
    hal, fakes, made, clock = _open_pico()
    assert hal.pixels.n == 78
    assert hal.pixels[77] == (0, 0, 0)
    hal.pixels[0] = (255, 0, 0)
    assert hal.pixels[0] == (128, 0, 0)  # the board's max_level


def test_open_pico_shuffler_reads_its_gpios_and_drives_start_low():
    hal, fakes, made, clock = _open_pico()
    assert made["pins"][18].level == 0 and made["pins"][18].mode == 1
    made["pins"][17].level = 0  # present (active-low)
    made["pins"][16].level = 0  # jam
    hal.shuffler.state()
    clock.now += 20
    assert hal.shuffler.present() and hal.shuffler.state() == "jammed"


def test_open_pico_starts_the_watchdog_with_the_boards_timeout_unless_told_not_to():
    hal, fakes, made, clock = _open_pico()
    assert [w.timeout for w in made["wdt"]] == [4000]
    hal.feed()
    assert made["wdt"][0].fed == 1
    hal, fakes, made, clock = _open_pico(watchdog=False)
    assert made["wdt"] == []
    hal.feed()


def test_mp_open_refuses_a_circuitpython_board():
    try:
        assembly.open(_feather(), hw=_Ns())
    except ValueError as e:
        assert "not MicroPython" in str(e)
    else:
        assert False


# ---- open(): the CircuitPython backend with fake modules ----------------------------

class _BoardPin:
    def __init__(self, name, source=None):
        self.name = name
        self.source = source  # a callable giving the level, for INT lines


def _fake_cp(chips, int_names, alias=False):
    made = {"uarts": [], "shows": [], "dio": {}}
    hw = _Ns()
    hw.board = _Ns()
    for name in ("SDA", "SCL", "TX", "RX", "D4", "D5", "D6", "D9", "D10", "D11", "D12",
                 "D13", "A0", "A1", "A2", "A3"):
        chip = int_names.get(name)
        setattr(hw.board, name, _BoardPin(name, chip.int_level if chip else None))
    if alias:
        hw.board.LED = hw.board.D13

    dio = _Ns()
    dio.Direction = _Ns()
    dio.Direction.INPUT = "in"
    dio.Direction.OUTPUT = "out"
    dio.Pull = _Ns()
    dio.Pull.UP = "up"

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin
            self.direction = "in"
            self.pull = None
            self._value = None  # not driven: an input reads its pull
            made["dio"][pin.name] = self

        @property
        def value(self):
            if self.pin.source is not None:
                return bool(self.pin.source())
            if self._value is None:
                return self.pull == "up"
            return self._value

        @value.setter
        def value(self, v):
            self._value = bool(v)

    dio.DigitalInOut = DigitalInOut
    hw.digitalio = dio

    class BusI2C:
        def __init__(self, scl, sda, frequency=None):
            made["i2c"] = (scl.name, sda.name, frequency)
            self.mem = FakeI2C(chips)
            self.locked = False

        def try_lock(self):
            if self.locked:
                return False
            self.locked = True
            return True

        def unlock(self):
            self.locked = False

        def writeto_then_readfrom(self, address, out, into):
            assert self.locked
            self.mem.readfrom_mem_into(address, out[0], into)

        def writeto(self, address, buf, end=None):
            assert self.locked
            data = bytes(buf[:end])
            self.mem.writeto_mem(address, data[0], data[1:])

    class BusUART:
        def __init__(self, tx, rx, baudrate=None, timeout=None, receiver_buffer_size=None):
            self.names = (tx.name, rx.name)
            self.baudrate = baudrate
            self.timeout = timeout
            self.fake = FakeUart()
            made["uarts"].append(self)

        @property
        def in_waiting(self):
            return len(self.fake.rx)

        def readinto(self, buf):
            return self.fake.readinto(buf)

        def write(self, data):
            return self.fake.write(data)

    hw.busio = _Ns()
    hw.busio.I2C = BusI2C
    hw.busio.UART = BusUART

    hw.neopixel_write = _Ns()
    hw.neopixel_write.neopixel_write = lambda d, buf: made["shows"].append((d.pin.name, bytes(buf)))

    wd = _Ns()
    wd.fed = 0

    def feed():
        wd.fed += 1

    wd.feed = feed
    hw.microcontroller = _Ns()
    hw.microcontroller.watchdog = wd
    hw.watchdog = _Ns()
    hw.watchdog.WatchDogMode = _Ns()
    hw.watchdog.WatchDogMode.RESET = "reset"
    hw.supervisor = _Ns()
    clock = Clock(100)
    hw.supervisor.ticks_ms = clock
    made["wd"] = wd
    return hw, made, clock


def _open_feather(board=None, alias=False):
    fakes = [FakeMcp(), FakeMcp()]
    hw, made, clock = _fake_cp({0x20: fakes[0], 0x21: fakes[1]},
                               {"D10": fakes[0], "D11": fakes[1]}, alias)
    hal = cp.open(board or _feather(), hw=hw)
    return hal, fakes, made, clock


def test_cp_open_feather_reports_presses_through_busio_i2c():
    hal, fakes, made, clock = _open_feather()
    assert hal.wired
    assert made["i2c"] == ("SCL", "SDA", 400000)
    fakes[1].press(8)  # dealer: deal
    fakes[0].press(12)  # seat 3 check/call
    got = []
    for _ in range(10):
        clock.now += 5
        got.extend(hal.buttons.poll(hal.ticks_ms()))
    assert sorted(got, key=repr) == sorted([("dealer", "deal"), (3, "call")], key=repr)


def test_cp_open_feather_uarts_leds_and_watchdog():
    hal, fakes, made, clock = _open_feather()
    reader, link = made["uarts"]
    assert reader.names == ("D6", "D9") and reader.baudrate == 9600 and reader.timeout == 0
    assert link.names == ("TX", "RX") and link.baudrate == 115200
    reader.fake.rx.extend(b"5d\n")
    assert _run_now(hal.card_reader.read()) == "5d"
    assert hal.pixels.n == 48
    hal.pixels[0] = (0, 255, 0)
    hal.pixels.write()
    name, data = made["shows"][-1]
    assert name == "D5" and data[0] == 128 and len(data) == 144  # GRB, capped
    assert made["wd"].timeout == 4 and made["wd"].mode == "reset"
    hal.feed()
    assert made["wd"].fed == 1


def test_cp_open_shuffler_start_drives_d12():
    hal, fakes, made, clock = _open_feather()
    spawned = []
    hal.shuffler.spawn = spawned.append
    hal.shuffler.sleep = _Sleeps()
    hal.shuffler.start()
    assert made["dio"]["D12"].value is True
    _run_now(spawned[0])
    assert made["dio"]["D12"].value is False


def test_cp_open_refuses_two_names_for_one_pin():
    f = _feather()
    f["shuffler"]["start"] = "LED"
    f["leds"]["pin"] = "D13"
    try:
        _open_feather(f, alias=True)
    except ValueError as e:
        assert "board.LED and board.D13 are the same pin" in str(e) or \
            "board.D13 and board.LED are the same pin" in str(e)
    else:
        assert False


def test_cp_open_refuses_a_pin_the_board_lacks():
    f = _feather()
    f["leds"]["pin"] = "D99"
    try:
        _open_feather(f)
    except ValueError as e:
        assert "no pin board.D99" in str(e)
    else:
        assert False


def test_wide_ticks_carries_the_2_to_the_29_wrap_into_bit_29():
    raw = Clock((1 << 29) - 3)
    t = cp.WideTicks(raw)
    a = t()
    raw.now = 4  # wrapped
    b = t()
    assert mp.ticks_diff(b, a) == 7
    raw.now = (1 << 29) - 1
    c = t()
    raw.now = 2  # wrapped again: back to the bottom of 2**30
    d = t()
    assert mp.ticks_diff(d, c) == 3 and d == 2


def test_busio_adapter_writes_register_then_data_under_the_lock():
    chip = FakeMcp()
    hw, made, clock = _fake_cp({0x20: chip}, {})
    bus = cp.BusioMem(hw.busio.I2C(hw.board.SCL, hw.board.SDA, frequency=100000))
    bus.writeto_mem(0x20, 0x0C, b"\x12\x34")
    assert chip.regs[0x0C] == 0x12 and chip.regs[0x0D] == 0x34
    buf = bytearray(2)
    bus.readfrom_mem_into(0x20, 0x0C, buf)
    assert list(buf) == [0x12, 0x34]
    assert not bus.i2c.locked
