"""The link's loop with an empty handler, timed inside MicroPython: the anchor felt-bench
runs beside the firmware's press figure (host_tools/bench/table.py), at the same time,
so that the figure is read against this machine's speed in those very seconds, not as a
wall time alone.  `bench_link_loop.py BOARD_JSON [PRESSES [GAP_MS]]` prints one JSON
line, the `led_us` of every press, sorted, after PRESSES presses GAP_MS apart (by
default 300, 1 ms), or with PRESSES 0 when interrupted (SIGINT).

Each press is a seat's `btn` frame arriving on felt.hal.link.Link.serve (its transport
here in memory, a frame a read); the handler sets one pixel and writes the frame
(felt.hal.link.Pixels, the board's LED count), the least a press does before the LEDs.
Booted with --measure, the firmware's presses are timed by the same `perf` frames: from
the frame's arrival to the LED frame written.
"""

import json
import sys

try:
    import asyncio
except ImportError:
    import uasyncio as asyncio

from felt import protocol as P
from felt.hal import link as L
from felt.hal.clock import sleep_ms

PRESSES = 300


class Done(Exception):
    """Every press has been read."""


class Wire:
    """A transport in memory: `n` presses read one at a time (seats in turn, made as
    they are read, as a host's sender makes them); of what the link writes, only the
    `perf` frames' led_us is kept (the rest, the LED frames among them, taken and
    dropped, as a pty takes them)."""

    def __init__(self, n, gap_ms, seats=11):
        self.host = P.Sender()
        self.left = n               # presses still to come; below 0, no end
        self.gap_ms = gap_ms
        self.seats = seats
        self.decoder = P.Decoder()
        self.led_us = []

    def write(self, data):
        data = bytes(data)          # a memoryview of the link's queue
        if b" perf " in data:       # written after the press's timing ended
            self.decoder.feed(data)
            for _, kind, payload in self.decoder:
                self.led_us.append(payload["led_us"])
        return len(data)

    def wait(self, ms):
        pass

    async def read(self):
        if not self.left:
            raise Done()
        self.left -= 1
        await sleep_ms(self.gap_ms)
        return self.host.frame("btn", {"seat": self.left % self.seats, "b": "fold"})


def led_us(board, n, gap_ms):
    wire = Wire(n if n else -1, gap_ms)
    hal = L.open(board, wire)
    hal.link.measure = True
    lit = [0]

    def handler(kind, payload):         # the empty handler: one pixel, the frame out
        lit[0] = (lit[0] + 1) % hal.pixels.n
        hal.pixels[lit[0]] = (255, 255, 255)
        hal.pixels.write()

    try:
        asyncio.run(hal.link.serve(handler))
    except (Done, KeyboardInterrupt):
        pass
    return sorted(wire.led_us)


def main(argv):
    with open(argv[1]) as f:
        board = json.load(f)
    n = int(argv[2]) if len(argv) > 2 else PRESSES
    gap_ms = int(argv[3]) if len(argv) > 3 else 1
    print(json.dumps({"led_us": led_us(board, n, gap_ms)}))


if __name__ == "__main__":
    main(sys.argv)
