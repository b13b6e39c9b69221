"""The dealer's panel from the host's side (host_tools/pico/panel.py): the keys typed for
a message give that message back at the board's panel (felt.table.panel), and the
display's memory, drawn by MicroPython's own framebuf, reads back as its text."""

import subprocess

import pytest

from felt.table.panel import Panel
from host_tools import micropython
from host_tools.pico import panel as HP


class Table:
    """What the panel asks of the controller: every message is taken."""

    def __init__(self, seats=11):
        self.leds = {"seats": [[0, 1]] * seats}
        self.state = "idle"
        self.game = None
        self.taken = []

    def handle(self, kind, payload):
        self.taken.append((kind, dict(payload)))
        return None


MESSAGES = [
    ("btn", {"seat": 2, "b": "raise", "to": 120}),
    ("btn", {"seat": 10, "b": "raise", "to": 10000000}),
    ("wager", {"seat": 0, "ante": 10, "side": 5}),
    ("wager", {"seat": 9, "side": 0}),
    ("wager", {"seat": 3}),
    ("dealer", {"b": "foul", "seat": 10}),
    ("dealer", {"b": "player_away", "seat": 0}),
    ("dealer", {"b": "exposed", "card": "Td"}),
    ("dealer", {"b": "ineligible"}),
    ("dealer", {"b": "off_table", "card": "As"}),
    ("dealer", {"b": "misdeal", "why": "skipped_seat"}),
    ("dealer", {"b": "misdeal"}),
    ("dealer", {"b": "dead_round", "why": "extra card"}),
    ("dealer", {"b": "miscount"}),
    ("dealer", {"b": "miscount", "seat": 4}),
    ("dealer", {"b": "dealer_exposed", "card": "Kc"}),
    ("discard", {"seat": 3, "cards": "Kd 7c 2s"}),
    ("discard", {"seat": 3, "cards": ""}),
]


@pytest.mark.parametrize("kind,payload", MESSAGES)
def test_the_keys_for_a_message_are_that_message_at_the_panel(kind, payload):
    table = Table()
    panel = Panel(table)
    if kind == "discard":            # the seat on turn draws
        panel.heard({"e": "to_act", "seat": payload["seat"], "legal": ["draw"]})
    for k in HP.keys_for(kind, payload, 11):
        if k.startswith("muck "):
            panel.muck(k[5:])
        else:
            panel.key(k)
    assert table.taken == [(kind, payload)]


@pytest.mark.parametrize("kind,payload", [
    ("btn", {"seat": 2, "b": "raise"}),              # a press: the seat's button says it
    ("btn", {"seat": 2, "b": "call", "to": 4}),
    ("btn", {"seat": 11, "b": "raise", "to": 4}),    # no such seat at the table
    ("btn", {"seat": True, "b": "raise", "to": 4}),
    ("dealer", {"b": "deal"}),                       # the dealer's buttons
    ("dealer", {"b": "misdeal", "why": "dealer_tired"}),
    ("dealer", {"b": "foul"}),
    ("dealer", {"b": "exposed", "card": "Xx"}),
    ("wager", {"seat": 1, "ante": -1}),
    ("card", {"code": "As"}),
    ("discard", {"seat": 1, "cards": "Kd Kd"}),      # the link's own refusal
])
def test_a_message_the_panel_cannot_say_has_no_keys(kind, payload):
    assert HP.keys_for(kind, payload, 11) is None


DRAW = """
import framebuf
b = bytearray(1024)
f = framebuf.FrameBuffer(b, 128, 64, framebuf.MONO_VLSB)
for i, line in enumerate(%r):
    f.text(line, 0, 8 * i, 1)
print(bytes(b).hex())
"""


def test_the_display_drawn_by_framebuf_reads_back_as_its_lines(tmp_path):
    lines = ["#12 seat 3 acts", "> s3 to 120_", "40-980 pot 85", "! raise to 3 ref",
             "used: ~`{}|\\", "", "", "0123456789ABCD*#"]
    script = tmp_path / "draw.py"
    script.write_text(DRAW % (lines,))
    out = subprocess.run([str(micropython.binary()), str(script)], capture_output=True,
                         text=True, check=True).stdout
    ram = bytes.fromhex(out.strip())
    assert HP.text_of(ram) == lines
    picture = HP.svg(ram)
    assert picture.startswith("<svg") and picture.count("M") > 100
