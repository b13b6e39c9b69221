from felt.hal.debounce import Debouncer, EagerDebouncer


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


def _allocates_nothing(deb, step, also=None):
    """Updates every `step` ms with a press settling allocate nothing, nor `also(now)`
    after each (MicroPython's heap locked); True on CPython, which has nothing to
    measure."""
    try:
        import micropython
        micropython.heap_lock
    except (ImportError, AttributeError):
        return True
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
        now = 0
        while now < 100:      # not range(0, 100, step): a range object, in the locked heap
            deb.update(levels, now, out, table)
            deb.settled()
            if also is not None:
                also(now)
            now += step
    except MemoryError:
        failed = True
    finally:
        micropython.heap_unlock()
    return not failed and out == [(28, "x")]


def test_update_allocates_nothing_on_micropython():
    assert _allocates_nothing(Debouncer(48, 20), 5)


# ---- EagerDebouncer: the buttons' (first edge taken, confirmed, bounces shut out) ----

def _eager():
    return EagerDebouncer(8, 20, 2)      # the board's debounce_ms, felt.hal.mp.CONFIRM_MS


def test_eager_press_is_taken_on_its_first_edge_at_the_read_confirm_ms_later():
    deb = _eager()
    assert _run(deb, [(0, 0), (10, 1), (11, 1)]) == []   # the edge read at 10; 1 ms on
    assert _run(deb, [(12, 1)]) == [0]                   # confirmed 2 ms after: taken
    assert deb.is_down(0)
    assert _run(deb, [(13, 1), (100, 1), (5000, 1)]) == []   # held: one press


def test_eager_bounces_within_debounce_ms_of_the_press_never_count_as_a_second_press():
    deb = _eager()
    assert _run(deb, [(0, 1), (2, 1)]) == [0]
    # The contact chatters for the next 20 ms, read at every edge: shut out.
    chatter = [(t, (t // 3) & 1) for t in range(3, 22)]
    assert _run(deb, chatter + [(22, 1), (40, 1)]) == []
    assert deb.is_down(0)


def test_eager_reads_between_the_edge_and_its_confirmation_are_bounces_not_a_release():
    deb = _eager()
    # Closed at 0, open at 0.5 (read at 1), closed again by the deciding read at 2.
    assert _run(deb, [(0, 1), (1, 0), (2, 1)]) == [0]


def test_eager_glitch_shorter_than_the_confirmation_is_ignored():
    deb = _eager()
    assert _run(deb, [(0, 0), (5, 1), (6, 0), (7, 0), (30, 0)]) == []
    assert not deb.is_down(0) and deb.settled()
    assert _run(deb, [(40, 1), (42, 1)]) == [0]    # a real press after it still counts


def test_eager_bounce_open_at_the_deciding_read_delays_the_press_but_never_loses_it():
    deb = _eager()
    assert _run(deb, [(0, 1), (2, 0)]) == []        # open as it is decided: not yet
    assert _run(deb, [(3, 1), (4, 1)]) == []        # the next close starts anew
    assert _run(deb, [(5, 1)]) == [0]


def test_eager_release_is_debounced_too_and_frees_the_button_to_press_again():
    deb = _eager()
    assert _run(deb, [(0, 1), (2, 1)]) == [0]
    assert _run(deb, [(50, 0), (51, 1), (52, 0)]) == []   # released, bouncing open
    assert not deb.is_down(0)
    assert _run(deb, [(60, 1), (70, 0), (71, 0)]) == []   # a bounce of the release
    assert _run(deb, [(80, 1), (82, 1)]) == [0]           # pressed again: counted


def test_eager_release_during_the_shut_out_is_taken_when_it_ends():
    deb = _eager()
    assert _run(deb, [(0, 1), (2, 1), (10, 0)]) == [0]    # a quick tap: up within 20 ms
    assert deb.is_down(0)
    assert _run(deb, [(22, 0), (24, 0)]) == []            # the shut-out over: released
    assert not deb.is_down(0)
    assert _run(deb, [(50, 1), (52, 1)]) == [0]


def test_eager_press_held_at_reset_is_not_a_press_until_pressed_again():
    deb = _eager()
    deb.reset(0x01)
    assert _run(deb, [(0, 1), (50, 1)]) == []
    assert _run(deb, [(60, 0), (62, 0), (90, 1), (92, 1)]) == [0]


def test_eager_zero_confirmation_takes_the_press_at_the_first_read():
    deb = EagerDebouncer(8, 20, 0)
    assert _run(deb, [(0, 0), (7, 0x10)]) == [4]


def test_eager_settled_and_due_ms_cover_the_confirmation_and_the_shut_out():
    deb = _eager()
    assert deb.settled() and deb.due_ms(0, 5) == 5
    deb.update(1, 100)
    assert not deb.settled() and deb.due_ms(100, 5) == 2 and deb.due_ms(101, 5) == 1
    assert deb.due_ms(103, 5) == 0                    # overdue: at once
    deb.update(1, 102)                                # taken; held until 122
    assert not deb.settled() and deb.due_ms(102, 5) == 5 and deb.due_ms(119, 5) == 3
    deb.update(1, 122)
    assert deb.settled()


def test_eager_timing_holds_across_the_clock_wrap():
    deb = _eager()
    top = (1 << 30) - 1
    assert _run(deb, [(top, 1)]) == []
    assert _run(deb, [(1, 1)]) == [0]                 # 2 ms after, across the wrap


def test_eager_debouncer_refuses_a_negative_confirmation():
    try:
        EagerDebouncer(8, 20, -1)
    except ValueError as e:
        assert "confirm_ms" in str(e)
    else:
        raise AssertionError("a negative confirm_ms was taken")


def test_eager_update_allocates_nothing_on_micropython():
    deb = EagerDebouncer(48, 20, 2)
    assert _allocates_nothing(deb, 1, lambda now: deb.due_ms(now, 5))
