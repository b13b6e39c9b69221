"""host_tools.bench.pico: the Pico's figures from a bridge's timeline of emulated
moments, on timelines made up here (felt-bench runs the emulated Pico for them)."""

from host_tools.bench.pico import boot_ms, percentile, press_to_led_ms, showdown_ms


def test_percentile_is_the_nearest_rank():
    values = list(range(1, 101))[::-1]
    assert percentile(values, 0.50) == 50
    assert percentile(values, 0.99) == 99
    assert percentile([7], 0.99) == 7
    assert percentile([3, 1], 0.5) == 1
    assert percentile([], 0.5) is None


def test_boot_runs_from_the_chips_start_to_its_first_hello():
    timeline = [(0, "ready", None), (1200, "said", "log"), (1933100, "said", "hello"),
                (2500000, "said", "hello")]
    assert boot_ms(timeline) == 1933.1
    assert boot_ms([(0, "ready", None)]) is None


def test_a_seat_press_pairs_with_the_first_led_frame_before_the_next_press():
    timeline = [
        (1000, "down", "btn"), (46000, "leds", None), (50000, "leds", None),
        (60000, "said", "evt action"),
        (100000, "down", "btn"),                       # changed nothing
        (200000, "down", "dealer"), (230000, "leds", None),   # a dealer's: not counted
        (300000, "down", "btn"), (310000, "reset", "power"), (320000, "leds", None),
        (400000, "down", "btn"), (425500, "leds", None)]
    assert press_to_led_ms(timeline) == [45.0, 25.5]


def test_the_showdown_press_runs_to_the_winners_leds_and_to_the_end_frame():
    timeline = [
        (0, "down", "btn"), (30000, "leds", None), (40000, "said", "evt action"),
        (100000, "down", "btn"), (130000, "leds", None), (150000, "said", "evt action"),
        (170000, "said", "evt show"), (180000, "leds", None), (200000, "said", "evt award"),
        (536000, "said", "evt end"),
        (900000, "said", "heap"),
        (1000000, "down", "dealer"), (1020000, "leds", None), (1100000, "said", "evt end")]
    assert showdown_ms(timeline) == [(80.0, 436.0)]
    assert showdown_ms(timeline[:10]) == [(80.0, 436.0)]    # the timeline's last round
    assert showdown_ms(timeline[:4]) == []
