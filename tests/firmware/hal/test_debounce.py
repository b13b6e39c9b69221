from felt.hal.debounce import Debouncer


def _run(deb, samples, table=None):
    """Feed (now_ms, levels) samples; return every press reported, in order."""
    out = []
    for now, levels in samples:
        deb.update(levels, now, out, table)
    return out


def test_press_is_reported_once_after_holding_for_debounce_ms():
    deb = Debouncer(8, 20)
    assert _run(deb, [(0, 0), (5, 1), (10, 1), (20, 1)]) == []
    assert _run(deb, [(25, 1)]) == [0]
    assert _run(deb, [(30, 1), (100, 1), (5000, 1)]) == []


def test_blip_shorter_than_debounce_ms_is_not_a_press():
    deb = Debouncer(8, 20)
    assert _run(deb, [(0, 0), (5, 4), (10, 4), (15, 0), (30, 0), (60, 0)]) == []
    assert not deb.is_down(2)


def test_chatter_restarts_the_wait():
    deb = Debouncer(8, 20)
    # bounces at 0, 10, 20, 30; then steady from 30
    assert _run(deb, [(0, 1), (10, 0), (20, 1), (30, 0), (40, 1), (55, 1)]) == []
    assert _run(deb, [(60, 1)]) == [0]


def test_button_must_be_released_before_it_presses_again():
    deb = Debouncer(4, 10)
    presses = _run(deb, [(0, 1), (10, 1), (20, 1), (30, 0), (35, 1), (50, 1),
                         (60, 0), (70, 0), (80, 1), (90, 1)])
    assert presses == [0, 0]  # the blip at 30-35 never counted as a release


def test_int_mask_and_bytes_give_the_same_presses():
    a = Debouncer(16, 10)
    b = Debouncer(16, 10)
    ints = [(0, 0), (1, 0x0102), (12, 0x0102), (20, 0x8001), (31, 0x8001)]
    as_bytes = [(t, bytes((v & 0xFF, v >> 8))) for t, v in ints]
    assert _run(a, ints) == _run(b, as_bytes) == [1, 8, 0, 15]


def test_many_inputs_in_a_bytearray_report_every_simultaneous_press():
    deb = Debouncer(48, 20)
    levels = bytearray(6)
    levels[0] = 0x01   # input 0
    levels[2] = 0x80   # input 23
    levels[5] = 0x40   # input 46
    out = []
    assert deb.update(levels, 0, out) == 0
    assert deb.update(levels, 20, out) == 3
    assert sorted(out) == [0, 23, 46]
    assert deb.is_down(23) and not deb.is_down(22)


def test_table_entries_are_reported_instead_of_indices():
    deb = Debouncer(3, 5)
    table = [(0, "fold"), (0, "call"), ("dealer", "deal")]
    assert _run(deb, [(0, 4), (5, 4)], table) == [("dealer", "deal")]


def test_reset_treats_buttons_held_at_boot_as_settled():
    deb = Debouncer(8, 10)
    deb.reset(0x03)  # two buttons held (or stuck) at boot
    assert _run(deb, [(0, 3), (50, 3)]) == []
    assert _run(deb, [(60, 1), (70, 1), (80, 3), (90, 3)]) == [1]


def test_inputs_beyond_count_are_ignored():
    deb = Debouncer(3, 0)
    assert _run(deb, [(0, 0xF8), (1, 0xF8)]) == []
    assert _run(deb, [(2, 0xFC)]) == [2]


def test_zero_debounce_accepts_at_once():
    deb = Debouncer(8, 0)
    assert _run(deb, [(7, 0x10)]) == [4]


def test_clock_wrap_at_2_to_the_30_keeps_timing():
    deb = Debouncer(8, 20)
    top = (1 << 30) - 10
    assert _run(deb, [(top, 1), (top + 5, 1)]) == []
    assert _run(deb, [(5, 1)]) == []   # 15 ms after the change, across the wrap
    assert _run(deb, [(10, 1)]) == [0]  # 20 ms after


def test_update_without_out_list_only_counts_and_tracks_state():
    deb = Debouncer(8, 5)
    assert deb.update(0x81, 0) == 0
    assert deb.update(0x81, 5) == 2
    assert deb.is_down(0) and deb.is_down(7)
    assert deb.settled()


def test_settled_is_false_while_an_input_is_pending():
    deb = Debouncer(8, 20)
    deb.update(1, 0)
    assert not deb.settled()
    deb.update(1, 20)
    assert deb.settled()


def test_update_allocates_nothing_on_micropython():
    try:
        import micropython
        micropython.heap_lock
    except (ImportError, AttributeError):
        return  # CPython: nothing to measure
    deb = Debouncer(48, 20)
    levels = bytearray(6)
    table = [(i, "x") for i in range(48)]
    out = []
    deb.update(levels, 0, out, table)
    out.append(None)
    out.pop()  # the list has room for one press
    levels[3] = 0x10
    failed = False
    micropython.heap_lock()
    try:
        for now in range(0, 100, 5):
            deb.update(levels, now, out, table)
    except MemoryError:
        failed = True
    finally:
        micropython.heap_unlock()
    assert not failed
    assert out == [(28, "x")]
