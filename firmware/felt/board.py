"""Board definitions: pins and LED layout as data (hardware/boards/*.json, SCHEMA.md there).

`load(path)` reads and checks a definition and returns it as a plain dict, the one the
HAL backends take.  Every fault is a ValueError naming the board and the place, e.g.
"board pico-11: seat 3 button 'fold' pin missing", so a technician can fix the file
without reading this code.  Seats are numbered from 0, in list order.

The helpers at the end derive what the backends need: which (seat, button) each
expander pin means, and where each seat's LEDs sit in the chain.
"""

import json

from felt.check import is_whole

MAX_SEATS = 11  # 13:69F-14.10(b): at most 11 players at a table
MIN_SEATS = 2
SEAT_BUTTONS = ("fold", "call", "raise")  # fold, check/call, bet/raise
DEALER_BUTTONS = ("deal", "misdeal", "exposed", "off_table", "cut_done",
                  "hand_shuffle_done", "shuffler_removed", "dead_round", "player_away")
RUNTIMES = ("micropython", "circuitpython")
SHUFFLER_INPUTS = ("busy", "done", "jam", "present")

# Chips an expander may be, and their input pins.  The MCP23017's GPA7 and GPB7 (pins 7
# and 15) are output-only since datasheet revision D: read as inputs they can corrupt SDA.
EXPANDER_INPUTS = {"mcp23017": (0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14)}
EXPANDER_PINS = 16  # pins per expander, in the input numbering used below

_TOP = ("name", "comment", "runtime", "mcu", "seats", "debounce_ms", "poll_ms",
        "watchdog_ms", "i2c", "expanders", "seat_buttons", "dealer_buttons",
        "card_reader", "shuffler", "leds", "link")
_OPTIONAL_TOP = ("comment", "journal", "heap_bytes", "devices", "keypad", "display",
                 "muck_reader")
# The dealer's keypad: every key the panel's entry uses (felt.table.panel), each once.
PANEL_KEYS = "0123456789ABCD*#"
DISPLAYS = ("ssd1306",)
BRIDGES = ("sc16is750",)   # an I2C-to-UART bridge, for a device of lines
# Where the table's devices (buttons, reader, shuffler, clock) are: at their pins, and
# only there; or also played over the link, by a test rig (SCHEMA.md, docs/security.md).
DEVICES = ("wired", "link")
PICO_HEAP = 185 * 1024  # the GC heap a Pico has free at boot under MicroPython 1.27
_WATCHDOG_MAX = {"rp2040": 8388}  # the RP2040's watchdog counts to 8.3 s at most
_GPIO_COUNT = {"rp2040": 30}


class _Check:
    def __init__(self, name):
        self.name = name

    def fail(self, what):
        raise ValueError("board %s: %s" % (self.name, what))

    def obj(self, value, where):
        if not isinstance(value, dict):
            self.fail("%s must be an object" % where)
        return value

    def keys(self, value, where, required, optional=()):
        self.obj(value, where)
        for k in sorted(value):
            if k not in required and k not in optional:
                self.fail("%s: unknown key '%s'" % (where, k))
        for k in required:
            if k not in value:
                self.fail("%s: '%s' missing" % (where, k))

    def int(self, value, where, lo, hi):
        if not is_whole(value):
            self.fail("%s must be a whole number" % where)
        if not lo <= value <= hi:
            self.fail("%s is %d, must be %d to %d" % (where, value, lo, hi))
        return value




def load(path):
    """Read, check and return the board definition in the JSON file at `path`
    (hardware/boards/<name>.json in the repo; /board.json on a board)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise ValueError("board file %s: cannot read it" % path)
    return loads(text, path)


def loads(text, name="?"):
    """Check and return the board definition in the JSON text.  Messages name the board
    by its own "name" when it has one, else by `name`, its file (a file that is no JSON
    said "board board: not valid JSON" of /board.json: issue 22)."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ValueError("board file %s: not valid JSON (%s)" % (name, e))
    if isinstance(data, dict) and isinstance(data.get("name"), str) and data["name"]:
        name = data["name"]
    return validate(data, name)


def validate(data, name=None):
    """Check a parsed definition; returns it (the same dict) with defaults filled in."""
    c = _Check(name or "?")
    c.obj(data, "the definition")
    if name is None and isinstance(data.get("name"), str):
        c.name = data["name"]
    c.keys(data, "the definition", [k for k in _TOP if k not in _OPTIONAL_TOP], _OPTIONAL_TOP)
    if not isinstance(data["name"], str) or not data["name"]:
        c.fail("name must be a non-empty string")
    if data["runtime"] not in RUNTIMES:
        c.fail("runtime must be one of %s" % ", ".join(RUNTIMES))
    if not isinstance(data["mcu"], str):
        c.fail("mcu must be a string")
    note = data.get("comment", "")
    if not isinstance(note, str) and not (
            isinstance(note, list) and all(isinstance(s, str) for s in note)):
        c.fail("comment must be a string or a list of strings")

    seats = data["seats"]
    if is_whole(seats) and seats > MAX_SEATS:
        c.fail("%d seats: a table has at most %d" % (seats, MAX_SEATS))
    c.int(seats, "seats", MIN_SEATS, MAX_SEATS)
    c.int(data["debounce_ms"], "debounce_ms", 1, 200)
    c.int(data["poll_ms"], "poll_ms", 1, 100)
    if data["poll_ms"] > data["debounce_ms"]:
        c.fail("poll_ms must not exceed debounce_ms")
    c.int(data["watchdog_ms"], "watchdog_ms", 500, _WATCHDOG_MAX.get(data["mcu"], 60000))

    pins = _Pins(c, data["runtime"], _GPIO_COUNT.get(data["mcu"]))
    _i2c(c, data, pins)
    _expanders(c, data, pins)
    _buttons(c, data)
    _uart(c, data, "card_reader", pins, ("baud",), ("max_line",))
    data["card_reader"].setdefault("max_line", 16)
    c.int(data["card_reader"]["max_line"], "card_reader.max_line", 4, 64)
    _uart(c, data, "link", pins, ("baud",), ("timeout_ms",))
    data["link"].setdefault("timeout_ms", 0)
    c.int(data["link"]["timeout_ms"], "link.timeout_ms", 0, 600000)
    if data["runtime"] == "micropython" and data["card_reader"]["uart"] == data["link"]["uart"]:
        c.fail("card_reader and link both on UART %d" % data["link"]["uart"])
    _shuffler(c, data, pins)
    _leds(c, data, pins)
    _dealer_place(c, data, pins)
    data.setdefault("devices", "wired")
    if data["devices"] not in DEVICES:
        c.fail("devices must be one of %s" % ", ".join(DEVICES))
    # The journal a power cut resumes from (felt.table.journal).  CircuitPython's flash
    # is read-only to code unless boot.py remounts it, so there it is asked for by name.
    data.setdefault("journal", "/journal.jsonl" if data["runtime"] == "micropython" else None)
    if data["journal"] is not None and (not isinstance(data["journal"], str)
                                        or not data["journal"].startswith("/")):
        c.fail("journal must be an absolute path on the board, or null for none")
    # The heap the firmware must run in: the emulator gives the MicroPython unix port this much.
    data.setdefault("heap_bytes", PICO_HEAP)
    c.int(data["heap_bytes"], "heap_bytes", 16 * 1024, 16 * 1024 * 1024)
    return data


class _Pins:
    """Pin checks for the runtime; remembers every GPIO used so none is used twice."""

    def __init__(self, c, runtime, count):
        self.c = c
        self.runtime = runtime
        self.count = count
        self.used = {}

    def take(self, value, where):
        c = self.c
        if self.runtime == "micropython":
            if not is_whole(value) or value < 0 or (self.count and value >= self.count):
                c.fail("%s must be a GPIO number%s" % (
                    where, " 0 to %d" % (self.count - 1) if self.count else ""))
        elif not isinstance(value, str) or not value:
            c.fail("%s must be a pin name in CircuitPython's board module" % where)
        if value in self.used:
            a, b = sorted((self.used[value], where))
            c.fail("pin %s used twice (%s and %s)" % (value, a, b))
        self.used[value] = where
        return value


def _i2c(c, data, pins):
    mp = data["runtime"] == "micropython"
    bus = data["i2c"]
    c.keys(bus, "i2c", ("sda", "scl", "freq") + (("id",) if mp else ()))
    if mp:
        c.int(bus["id"], "i2c.id", 0, 7)
    pins.take(bus["sda"], "i2c.sda")
    pins.take(bus["scl"], "i2c.scl")
    c.int(bus["freq"], "i2c.freq", 10000, 1000000)


def _expanders(c, data, pins):
    xs = data["expanders"]
    if not isinstance(xs, list) or not xs:
        c.fail("expanders must be a non-empty list")
    if len(xs) > 8:
        c.fail("at most 8 expanders on one bus")
    seen = {}
    for k, x in enumerate(xs):
        where = "expander %d" % k
        c.keys(x, where, ("chip", "address"), ("int",))
        if x["chip"] not in EXPANDER_INPUTS:
            c.fail("%s: chip must be one of %s" % (where, ", ".join(sorted(EXPANDER_INPUTS))))
        c.int(x["address"], where + " address", 0x20, 0x27)
        if x["address"] in seen:
            c.fail("expanders %d and %d both at address 0x%02x" % (seen[x["address"]], k, x["address"]))
        seen[x["address"]] = k
        if x.get("int") is not None:
            pins.take(x["int"], where + " int")
        else:
            x["int"] = None


def _button(c, data, b, where, used):
    if b is None:
        c.fail(where + " missing")
    c.obj(b, where)
    for k in sorted(b):
        if k != "expander" and k != "pin":
            c.fail("%s: unknown key '%s'" % (where, k))
    for k in ("expander", "pin"):
        if k not in b:
            c.fail("%s %s missing" % (where, k))
    xs = data["expanders"]
    c.int(b["expander"], where + " expander", 0, len(xs) - 1)
    c.int(b["pin"], where + " pin", 0, EXPANDER_PINS - 1)
    chip = xs[b["expander"]]["chip"]
    if b["pin"] not in EXPANDER_INPUTS[chip]:
        c.fail("%s: %s pin %d cannot be an input" % (where, chip, b["pin"]))
    key = b["expander"] * EXPANDER_PINS + b["pin"]
    if key in used:
        a, z = sorted((used[key], where))
        c.fail("expander %d pin %d used twice (%s and %s)" % (b["expander"], b["pin"], a, z))
    used[key] = where


def _buttons(c, data):
    used = {}
    sb = data["seat_buttons"]
    if not isinstance(sb, list):
        c.fail("seat_buttons must be a list, one entry per seat")
    if len(sb) > MAX_SEATS:
        c.fail("%d seats of buttons: a table has at most %d" % (len(sb), MAX_SEATS))
    if len(sb) != data["seats"]:
        c.fail("seat_buttons has %d seats, seats is %d" % (len(sb), data["seats"]))
    for s, seat in enumerate(sb):
        c.keys(seat, "seat %d" % s, (), SEAT_BUTTONS)
        for name in SEAT_BUTTONS:
            _button(c, data, seat.get(name), "seat %d button '%s'" % (s, name), used)
    db = data["dealer_buttons"]
    c.keys(db, "dealer_buttons", (), DEALER_BUTTONS)
    for name in DEALER_BUTTONS:
        _button(c, data, db.get(name), "dealer button '%s'" % name, used)


def _uart(c, data, key, pins, required, optional):
    mp = data["runtime"] == "micropython"
    u = data[key]
    c.keys(u, key, ("tx", "rx") + required + (("uart",) if mp else ()), optional)
    if mp:
        c.int(u["uart"], key + ".uart", 0, 7)
    pins.take(u["tx"], key + ".tx")
    pins.take(u["rx"], key + ".rx")
    c.int(u["baud"], key + ".baud", 300, 1000000)


def _shuffler(c, data, pins):
    sh = data["shuffler"]
    c.keys(sh, "shuffler", SHUFFLER_INPUTS + ("start", "active_low", "start_pulse_ms"),
           ("data",))
    for k in SHUFFLER_INPUTS:
        pins.take(sh[k], "shuffler." + k)
    pins.take(sh["start"], "shuffler.start")
    if sh["active_low"] is not True and sh["active_low"] is not False:
        c.fail("shuffler.active_low must be true or false")
    c.int(sh["start_pulse_ms"], "shuffler.start_pulse_ms", 10, 2000)


def _segment(c, seg, where, count):
    if not isinstance(seg, list) or len(seg) != 2 or not is_whole(seg[0]) or not is_whole(seg[1]):
        c.fail("%s must be [start, count]" % where)
    start, n = seg
    if start < 0 or n < 1:
        c.fail("%s [%d, %d] needs start >= 0 and count >= 1" % (where, start, n))
    if start + n > count:
        c.fail("%s [%d, %d] runs past the end of the chain (%d LEDs)" % (where, start, n, count))


def _leds(c, data, pins):
    leds = data["leds"]
    c.keys(leds, "leds", ("pin", "order", "count", "max_level", "seats", "centre"))
    pins.take(leds["pin"], "leds.pin")
    order = leds["order"]
    if (not isinstance(order, str) or len(order) != 3
            or sorted(order) != ["B", "G", "R"]):
        c.fail("leds.order must be R, G and B in wire order, e.g. \"GRB\"")
    count = c.int(leds["count"], "leds.count", 1, 1000)
    c.int(leds["max_level"], "leds.max_level", 1, 255)
    segs = leds["seats"]
    if not isinstance(segs, list) or len(segs) != data["seats"]:
        c.fail("leds.seats needs one [start, count] per seat (%d)" % data["seats"])
    named = []
    for s, seg in enumerate(segs):
        _segment(c, seg, "seat %d LEDs" % s, count)
        named.append((seg[0], seg[1], "seat %d LEDs" % s))
    _segment(c, leds["centre"], "centre LEDs", count)
    named.append((leds["centre"][0], leds["centre"][1], "centre LEDs"))
    named.sort()
    for i in range(1, len(named)):
        a, b = named[i - 1], named[i]
        if b[0] < a[0] + a[1]:
            c.fail("%s [%d, %d] overlap %s [%d, %d]" % (a[2], a[0], a[1], b[2], b[0], b[1]))


def _dealer_place(c, data, pins):
    """The devices at the dealer's place, each optional: the keypad (a key matrix on an
    MCP23017 of its own), the display, the muck reader; all on the board's I2C bus,
    every address on it once."""
    on_bus = {}
    for k, x in enumerate(data["expanders"]):
        on_bus[x["address"]] = "expander %d" % k

    def address(x, where, lo, hi):
        c.int(x["address"], where + " address", lo, hi)
        if x["address"] in on_bus:
            c.fail("%s and %s both at I2C address 0x%02x" % (
                on_bus[x["address"]], where, x["address"]))
        on_bus[x["address"]] = where

    kp = data.get("keypad")
    if kp is not None:
        c.keys(kp, "keypad", ("chip", "address", "rows", "columns", "keys"), ("int",))
        if kp["chip"] not in EXPANDER_INPUTS:
            c.fail("keypad chip must be one of %s" % ", ".join(sorted(EXPANDER_INPUTS)))
        address(kp, "keypad", 0x20, 0x27)
        lines = []
        for side in ("rows", "columns"):
            v = kp[side]
            if not isinstance(v, list) or not 1 <= len(v) <= 8:
                c.fail("keypad %s must be a list of 1 to 8 pins" % side)
            for p in v:
                c.int(p, "keypad %s pin" % side, 0, EXPANDER_PINS - 1)
                if p in lines:
                    c.fail("keypad pin %d used twice" % p)
                lines.append(p)
        for p in lines:     # columns are read; a row floats as an input unless selected
            if p not in EXPANDER_INPUTS[kp["chip"]]:
                c.fail("keypad pin %d cannot be an input" % p)
        keys = kp["keys"]
        if not isinstance(keys, str) or len(keys) != len(kp["rows"]) * len(kp["columns"]):
            c.fail("keypad keys must be a string of one character per key, row by row")
        for k in PANEL_KEYS:
            if keys.count(k) != 1:
                c.fail("keypad keys must have each of %s once" % PANEL_KEYS)
        if kp.get("int") is not None:
            pins.take(kp["int"], "keypad int")
        else:
            kp["int"] = None
    d = data.get("display")
    if d is not None:
        c.keys(d, "display", ("chip", "address", "width", "height"))
        if d["chip"] not in DISPLAYS:
            c.fail("display chip must be one of %s" % ", ".join(DISPLAYS))
        address(d, "display", 0x3C, 0x3D)     # the SSD1306's two, by its SA0 strap
        c.int(d["width"], "display width", 64, 128)
        if d["height"] != 32 and d["height"] != 64:
            c.fail("display height must be 32 or 64")
    m = data.get("muck_reader")
    if m is not None:
        _bridged(c, m, "muck_reader", pins, address, 16)
        if kp is None:
            c.fail("muck_reader needs the keypad: the dealer ends a draw there (#)")
    m = data["shuffler"].get("data")
    if m is not None:
        _bridged(c, m, "shuffler.data", pins, address, 64)


def _bridged(c, m, where, pins, address, max_line):
    """A device of lines behind an SC16IS750 (felt.hal.uart_bridge): the muck reader,
    the shuffler's data port."""
    c.keys(m, where, ("chip", "address", "crystal_hz", "baud", "irq"), ("max_line",))
    if m["chip"] not in BRIDGES:
        c.fail("%s chip must be one of %s" % (where, ", ".join(BRIDGES)))
    address(m, where, 0x48, 0x57)
    c.int(m["crystal_hz"], where + ".crystal_hz", 1000000, 80000000)
    c.int(m["baud"], where + ".baud", 300, 1000000)
    if divisor(m) < 1 or divisor(m) > 0xFFFF:
        c.fail("%s.baud cannot be made from crystal_hz (a divisor of 1 to 65535)" % where)
    m.setdefault("max_line", max_line)
    c.int(m["max_line"], where + ".max_line", 4, 64)
    pins.take(m["irq"], where + ".irq")


def divisor(m):
    """An SC16IS750's baud divisor for its device's line speed (felt.hal.uart_bridge)."""
    return m["crystal_hz"] // (16 * m["baud"])


# ---- what the backends derive from a checked board ---------------------------------

def seat_led_range(board, seat):
    """(start, count) of a seat's LEDs in the chain."""
    start, n = board["leds"]["seats"][seat]
    return start, n


def centre_led_range(board):
    """(start, count) of the centre segment's LEDs in the chain."""
    start, n = board["leds"]["centre"]
    return start, n


def button_table(board):
    """What each expander input means, for the debouncer: input index
    expander * 16 + pin maps to `events[index]`, a (seat, name) or ("dealer", name)
    tuple (None where nothing is wired), and `masks` is a bytearray with the wired
    bits of each 8-pin port (port A of expander k at 2k, port B at 2k + 1)."""
    nx = len(board["expanders"])
    events = [None] * (nx * EXPANDER_PINS)
    masks = bytearray(nx * 2)

    def put(b, event):
        i = b["expander"] * EXPANDER_PINS + b["pin"]
        events[i] = event
        masks[i >> 3] |= 1 << (i & 7)

    for s, seat in enumerate(board["seat_buttons"]):
        for name in SEAT_BUTTONS:
            put(seat[name], (s, name))
    for name in DEALER_BUTTONS:
        put(board["dealer_buttons"][name], ("dealer", name))
    return events, masks
