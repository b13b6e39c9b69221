from host_tools.bench import table


def test_the_anchor_times_every_press_of_the_links_loop_with_an_empty_handler(tmp_path):
    # tests/mp/bench_link_loop.py in the unix port, on a signed image's files and heap
    led_us = table.empty_handler_led_us(table.signed_image(tmp_path), 20)
    assert len(led_us) == 20 and all(0 < us < 1_000_000 for us in led_us), led_us
    assert led_us == sorted(led_us)


def test_the_press_is_read_as_a_multiple_of_the_anchor():
    figures = table.anchored({"mp_press_to_led_p99_ms": 1.5}, [300] * 99 + [500])
    assert figures["mp_empty_handler_p99_ms"] == 0.5           # the 100th of 100: nearest rank
    assert figures["mp_empty_handler_p50_ms"] == 0.3
    assert figures["mp_press_p99_over_empty_handler"] == 3.0
    assert figures["mp_empty_handler_presses"] == 100


def test_the_anchor_beside_a_block_times_presses_until_the_block_ends(tmp_path):
    import time
    with table.anchor_beside(table.signed_image(tmp_path), gap_ms=5) as led_us:
        time.sleep(1.0)
        assert led_us == []                     # filled when the block is over
    assert 10 <= len(led_us) <= 200, len(led_us)
