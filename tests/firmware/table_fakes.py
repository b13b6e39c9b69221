"""Stand-ins for the HAL that the controller tests drive (firmware tests: both runtimes)."""

import os

# A four-seat board: three LEDs a seat and two in the centre.
LEDS = {"count": 14, "seats": [[0, 3], [3, 3], [6, 3], [9, 3]], "centre": [12, 2]}
BOARD = {"name": "test", "leds": LEDS}


class FakeLink:
    def __init__(self):
        self.sent = []

    def send(self, kind, payload):
        self.sent.append((kind, payload))


class FakePixels:
    def __init__(self, n):
        self.px = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, i, rgb):
        self.px[i] = rgb

    def write(self):
        self.writes += 1


class FakeDevice:
    def __init__(self):
        self.calls = []

    def want(self, kind, seat=-1):
        self.calls.append((kind, seat))

    def start(self):
        self.calls.append(("start",))


class FakeHal:
    def __init__(self):
        self.link = FakeLink()
        self.pixels = FakePixels(LEDS["count"])
        self.card_reader = FakeDevice()
        self.shuffler = FakeDevice()


def configured(cfg):
    """A controller on the fake HAL, configured with `cfg`; (controller, hal)."""
    from felt.table.controller import Controller
    from felt.table.journal import Journal
    hal = FakeHal()
    ctl = Controller(hal, BOARD, Journal())
    assert ctl.handle("cfg", cfg) is None
    return ctl, hal


def events(hal, name):
    """The payloads of the `evt` frames named `name` the controller sent."""
    return [p for k, p in hal.link.sent if k == "evt" and p["e"] == name]


def scratch_dir(name):
    """A fresh folder to write in: a temporary one on CPython, /<name> in the VM."""
    try:
        import tempfile
        return tempfile.mkdtemp()
    except ImportError:
        path = "/" + name
        try:
            os.mkdir(path)
        except OSError:
            pass
        return path
