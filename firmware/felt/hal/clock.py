"""Time on every runtime: MicroPython's ticks_ms, ticks_us and sleep_ms, and stand-ins
for CPython.

ticks_ms and ticks_us wrap at 2**30 on MicroPython; the stand-in does the same, so that
felt.protocol.ticks_diff works on both.
"""

try:
    import asyncio
except ImportError:
    import uasyncio as asyncio

try:
    from time import ticks_ms, ticks_us
except ImportError:  # CPython (CircuitPython boards pass their own clock)
    import time

    def ticks_ms():
        return int(time.monotonic() * 1000) & 0x3FFFFFFF

    def ticks_us():
        return (time.perf_counter_ns() // 1000) & 0x3FFFFFFF


def _sleep_ms_float(ms):
    return asyncio.sleep(ms / 1000)


# MicroPython's asyncio sleeps in whole ms without making a float; CPython lacks sleep_ms.
sleep_ms = getattr(asyncio, "sleep_ms", _sleep_ms_float)
