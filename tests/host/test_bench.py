"""host_tools.bench.cli: the figures' unit, on a batch whose time is known."""

import time

from host_tools.bench.cli import best_rate, paired_rates


def test_best_rate_is_items_per_second_of_the_fastest_timing():
    # Ten items that take 10 ms a batch: at most 1000 items per second (a sleep lasts
    # at least what it was asked), and near it on a machine however loaded.
    rate = best_rate(lambda items: time.sleep(0.01), list(range(10)), 3)
    assert 400 < rate <= 1000


def test_paired_rates_compare_two_engines_timed_back_to_back():
    # Ten items a batch: one engine takes 10 ms for it, the other 20 ms.
    fast, slow, ratio = paired_rates(lambda items: time.sleep(0.01), list(range(10)),
                                     lambda items: time.sleep(0.02), list(range(10)), 3)
    assert 400 < fast <= 1000 and 200 < slow <= 500
    assert 1.6 < ratio < 2.4
