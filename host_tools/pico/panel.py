"""The dealer's panel of a wired board, from the host's side: the keys the dealer
presses for a message of the link (the inverse of felt.table.panel's entry), and the
display read back from the SSD1306's memory as the dealer sees it: its text, in the
8x8 font MicroPython's framebuf draws with, and a picture of it (docs/board.md)."""

import re
from pathlib import Path

from felt.check import is_whole
from felt.table import panel as P

REPO = Path(__file__).resolve().parents[2]

# MicroPython's framebuf font (extmod/font_petme128_8x8.h): 96 glyphs, ' ' to DEL, each
# 8 bytes, a byte a column, its least significant bit at the top: as the display's
# memory holds a line of text drawn at a page's top row.
FONT = REPO / "build" / "pico" / "src" / "micropython-1.27.0-rp2" / "extmod" / \
    "font_petme128_8x8.h"
_glyphs = None


def keys_for(kind, payload, seats):
    """What the dealer does at the panel for the message (kind, payload) at a table of
    `seats`: a list of keys pressed in turn, and cards passed over the muck reader
    (`"muck Kd"`), or None when the panel cannot say it (the seat buttons and the
    dealer's buttons say the rest: host_tools.pico.bridge)."""
    typed = _typed(kind, payload, seats)
    return None if typed is None else list(typed)


def _typed(kind, payload, seats):
    fields = set(payload)
    seat = payload.get("seat")
    if seat is not None and not _whole(seat, 0, seats - 1):
        return None
    if kind == "discard" and fields == {"seat", "cards"} and isinstance(payload["cards"], str):
        codes = payload["cards"].split()
        if len(set(codes)) != len(codes):
            return None         # a card twice: the link's refusal says it
        return ["muck " + code for code in codes] + ["#"]
    if kind == "btn" and fields == {"seat", "b", "to"} and payload["b"] == "raise" and \
            _whole(payload["to"], 0, 10 ** P.MAX_DIGITS - 1):
        return "A%d#%d#" % (seat + 1, payload["to"])
    if kind == "wager" and seat is not None and fields <= {"seat", "ante", "side"}:
        keys = "B%d#" % (seat + 1)
        for k in ("ante", "side"):
            if k in payload and not _whole(payload[k], 0, 10 ** P.MAX_DIGITS - 1):
                return None
            keys += "%d#" % payload[k] if k in payload else "#"
        return keys
    if kind == "dealer":
        for n in range(1, len(P.REPORTS)):
            name, needs = P.REPORTS[n]
            if name == payload.get("b"):
                return _report(n, needs, payload, fields - {"b"})
    return None


def _report(n, needs, payload, fields):
    keys = "C%d" % n
    if needs == "why":
        whys = P.WHYS[payload["b"]]
        if fields == {"why"} and payload["why"] in whys:
            return keys + str(whys.index(payload["why"]) + 1)
        return keys + "#" if not fields else None
    what = needs.rstrip("?")
    if fields == {what}:
        if what == "seat":
            return keys + "%d#" % (payload["seat"] + 1)
        code = payload["card"]
        if isinstance(code, str) and len(code) == 2 and code[0] in P.RANKS and \
                code[1] in P.SUIT_CODES:
            return keys + "%d%s" % (P.RANKS.index(code[0]) + 1,
                                    P.SUITS[P.SUIT_CODES.index(code[1])])
        return None
    return keys + "#" if not fields and needs.endswith("?") else None


def _whole(v, lo, hi):
    return is_whole(v) and lo <= v <= hi


def glyphs():
    """{the 8 column bytes of a glyph: its character}, from MicroPython's own font."""
    global _glyphs
    if _glyphs is None:
        text = FONT.read_text()
        body = text[text.index("font_petme128_8x8[]"):]
        values = [int(h, 16) for h in re.findall(r"0x([0-9a-fA-F]{2})", body)]
        _glyphs = {}
        for i in range(len(values) // 8):
            _glyphs.setdefault(bytes(values[8 * i:8 * i + 8]), chr(32 + i))
    return _glyphs


def text_of(ram, width=128, height=64):
    """The display's lines of text: each page of its memory read 8 columns a character
    (felt.hal.display draws a line a page); a cell that is no glyph reads `?`.  Trailing
    blanks are dropped."""
    g = glyphs()
    lines = []
    for page in range(height // 8):
        row = ram[page * width:(page + 1) * width]
        line = "".join(g.get(bytes(row[8 * k:8 * k + 8]), "?") for k in range(width // 8))
        lines.append(line.rstrip())
    return lines


def svg(ram, width=128, height=64, scale=4):
    """The display as the dealer sees it, an SVG: its lit pixels, white on black."""
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d">' % (width * scale, height * scale, width, height),
           '<rect width="%d" height="%d" fill="#000"/>' % (width, height),
           '<path fill="#cfe8ff" d="']
    for y in range(height):
        x = 0
        while x < width:
            if ram[(y // 8) * width + x] >> (y % 8) & 1:
                run = x
                while run < width and ram[(y // 8) * width + run] >> (y % 8) & 1:
                    run += 1
                out.append("M%d %dh%dv1h-%dz" % (x, y, run - x, run - x))
                x = run
            else:
                x += 1
    out.append('"/></svg>\n')
    return "".join(out)
