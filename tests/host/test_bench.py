"""host_tools.bench: the figures' unit, on a batch whose time is known."""

import time

from host_tools.bench import best_rate


def test_best_rate_is_items_per_second_of_the_fastest_timing():
    # Ten items that take 10 ms a batch: at most 1000 items per second (a sleep lasts
    # at least what it was asked), and near it on a machine however loaded.
    rate = best_rate(lambda items: time.sleep(0.01), list(range(10)), 3)
    assert 400 < rate <= 1000
