"""Stand-ins for the HAL that the controller tests drive (firmware tests: both runtimes)."""

import asyncio
import os

from felt import protocol as P
from felt.hal import link as L

# A four-seat board: three LEDs a seat and two in the centre.
LEDS = {"count": 14, "seats": [[0, 3], [3, 3], [6, 3], [9, 3]], "centre": [12, 2]}
BOARD = {"name": "test", "leds": LEDS}


class FakeLink:
    def __init__(self):
        self.sent = []
        self.frame = None        # the link frame being handled (felt.hal.link.Link)
        self.resumed = None

    def resume(self, frame):
        self.resumed = frame

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
        P.check_card_kind(kind)     # as every real card reader does
        self.calls.append((kind, seat))

    def start(self):
        self.calls.append(("start",))


class FakeHal:
    wired = False      # its devices are messages, as on the emulator's link (a test sets it)
    keypad = display = muck = None    # no dealer's panel (felt.table.panel)

    def __init__(self):
        self.link = FakeLink()
        self.pixels = FakePixels(LEDS["count"])
        self.card_reader = FakeDevice()
        self.shuffler = FakeDevice()
        self.now = 0                 # ms: a test moves the clock by hand

    def ticks_ms(self):
        return self.now


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
    """A fresh folder to write in: a temporary one on CPython, <name> in the folder
    tests/mp/run.py made for the run (FELT_SCRATCH) in the VM."""
    try:
        import tempfile
        return tempfile.mkdtemp()
    except ImportError:
        path = os.getenv("FELT_SCRATCH") + "/" + name
        try:
            os.mkdir(path)
        except OSError:
            pass
        return path


def journal_path(name):
    """A journal path in a folder of its own, with none of its files there yet (the
    journal, its archives, <path>.new: docs/journal.md; the event log's files beside it:
    docs/tilts.md)."""
    from felt.table.eventlog import files as eventlog_files
    from felt.table.recall import files
    from felt import boardkey
    path = scratch_dir("journal-" + name) + "/journal.jsonl"
    for p in files(path) + list(eventlog_files(path + ".events")) + [boardkey.path(path)]:
        try:
            os.remove(p)
        except OSError:
            try:
                os.rmdir(p)        # a test that made the journal a folder
            except OSError:
                pass
    return path


BOARD_KEY = bytes(range(32))    # a board's key, the tests' own (felt-flash install makes one)


def give_key(path, key=BOARD_KEY):
    """The board keeps `key` beside its journal at `path`, as felt-flash install leaves
    it (felt.boardkey)."""
    import binascii
    from felt import boardkey
    write_bytes(boardkey.path(path), binascii.hexlify(key))


def boot(path, board=BOARD, limit=64 * 1024, recall=10):
    """The board powered up with its journal at `path`; (controller, hal)."""
    from felt.table.controller import Controller
    from felt.table.journal import Journal
    hal = FakeHal()
    return Controller(hal, board, Journal(path, limit=limit, recall=recall)), hal


def start_round(ctl):
    """Deal pressed, the shuffle done and the cut made (13:47-20.38(f)1)."""
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.handle("shuf", {"state": "done"}) is None
    assert ctl.handle("dealer", {"b": "cut_done"}) is None


HOLES = "2c 3c 4c 5c 2d 3d 4d 5d"    # two hole cards for each of four seats


def deal_holes(ctl):
    """A round started and the hole cards of four seats dealt (HOLES)."""
    start_round(ctl)
    for code in HOLES.split():
        assert ctl.handle("card", {"code": code}) is None


def fold_round(ctl):
    """A round of four seats dealt and folded to the big blind."""
    deal_holes(ctl)
    while ctl.state == "playing":
        assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "fold"}) is None


def first_card_dealt(path, cfg):
    """A table journaling to `path`, configured with `cfg`, its first round begun and
    its first card dealt; (controller, hal)."""
    ctl, hal = boot(path)
    assert ctl.handle("cfg", cfg) is None
    start_round(ctl)
    assert ctl.handle("card", {"code": "2c"}) is None
    return ctl, hal


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


class Wire:
    """A transport: frames the test queued come in; what the board writes is kept."""

    def __init__(self, *frames):
        self.incoming = list(frames)
        self.out = P.Decoder()

    def write(self, data):
        self.out.feed(bytes(data))
        return len(data)

    def wait(self, ms):
        pass

    async def read(self):
        if not self.incoming:
            raise KeyboardInterrupt  # ends serve(): the test has said everything
        return self.incoming.pop(0)

    def frames(self):
        return [(k, p) for _, k, p in self.out]


def serve(wire, handler, lk=None):
    """Run a Link over `wire` until the test's frames are all read; the Link."""
    lk = lk or L.Link(wire)
    try:
        asyncio.run(lk.serve(handler))
    except KeyboardInterrupt:
        pass
    return lk
