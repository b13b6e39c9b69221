"""The bridge between the host's link and an emulated Pico (host_tools.pico.bridge),
against a stand-in harness: the ops it asks of the pins, the frames the host sees."""

import json
import os
import pty
import select
import threading
import tty

import pytest

from felt import protocol as P
from felt.board import load
from felt.table import scenes
from host_tools.pico import bridge
from host_tools.pico.bridge import Bridge
from host_tools.pico.panel import glyphs

BOARD = load(os.path.join(os.path.dirname(__file__), "..", "..", "hardware", "boards",
                          "pico-11.json"))


class FakeHarness:
    """The harness's two pipes: ops written by the bridge, events fed to it."""

    def __init__(self):
        r, self._ev_w = os.pipe()
        self.stdout = os.fdopen(r, "rb", buffering=0)
        self._op_r, w = os.pipe()
        self.stdin = os.fdopen(w, "wb")
        self._ops = b""

    def event(self, **ev):
        ev.setdefault("t", 0)
        os.write(self._ev_w, (json.dumps(ev) + "\n").encode())

    def ops(self, n, wait=2.0):
        out = []
        while len(out) < n and select.select([self._op_r], [], [], wait)[0]:
            self._ops += os.read(self._op_r, 65536)
            *lines, self._ops = self._ops.split(b"\n")
            out += [json.loads(x) for x in lines]
        return out

    def wait(self):
        return 0


@pytest.fixture
def wired():
    master, slave = pty.openpty()
    tty.setraw(slave)
    tty.setraw(master)
    harness = FakeHarness()
    bridge = Bridge(BOARD, harness, slave, timeline=[])
    harness.power_up = harness.ops(4, wait=0.5)   # what the bridge drives as the chip boots
    thread = threading.Thread(target=bridge.run, daemon=True)
    thread.start()
    host = Host(master)
    yield harness, host, bridge
    bridge.stop()
    thread.join(2)
    os.close(master)


class Host:
    def __init__(self, fd):
        self.fd = fd
        self.dec = P.Decoder()
        self.seq = 100

    def send(self, kind, payload):
        self.seq += 1
        os.write(self.fd, P.encode(self.seq, kind, payload))
        return self.seq

    def frames(self, n, wait=2.0):
        out = []
        while len(out) < n and select.select([self.fd], [], [], wait)[0]:
            self.dec.feed(os.read(self.fd, 65536))
            out += list(self.dec)
        return out


def test_a_seat_button_is_held_until_the_board_answers_and_acked_once_released(wired):
    harness, host, _ = wired
    seq = host.send("btn", {"seat": 4, "b": "call"})
    down, when, limit = harness.ops(3)
    ref = BOARD["seat_buttons"][4]["call"]
    assert (down["op"], down["expander"], down["pin"], down["down"]) == \
        ("pin", ref["expander"], ref["pin"], True)
    assert when == {"op": "after", "ms": 0, "id": when["id"]}
    assert limit["op"] == "after" and limit["ms"] > 10 * BOARD["debounce_ms"]
    harness.event(ev="done", id=when["id"], t=1000)
    # A frame within the debounce is no answer; one after it is.
    harness.event(ev="uart", n=0, hex=P.encode(1, "evt", {"e": "early"}).hex(), t=2000)
    assert harness.ops(1, wait=0.3) == []
    harness.event(ev="uart", n=0, hex=P.encode(2, "evt", {"e": "action"}).hex(), t=40000)
    up, settle = harness.ops(2)
    assert (up["op"], up["pin"], up["down"]) == ("pin", ref["pin"], False)
    assert settle["op"] == "after" and settle["ms"] > BOARD["debounce_ms"]
    assert [k for _, k, _ in host.frames(2)] == ["evt", "evt"]   # not acked yet
    harness.event(ev="done", id=settle["id"], t=90000)
    [(_, kind, payload)] = host.frames(1)
    assert (kind, payload) == ("ack", {"seq": seq})


def test_a_press_the_board_refuses_is_nakked_with_its_reason_and_so_is_a_resend(wired):
    # As the link answers a refused frame (docs/protocol.md): its `refused` event, a nak.
    harness, host, _ = wired
    seq = host.send("dealer", {"b": "cut_done"})
    _, when, _ = harness.ops(3)
    harness.event(ev="done", id=when["id"], t=1000)
    refused = {"e": "refused", "what": "dealer", "why": "no cut is due: the table is idle"}
    harness.event(ev="uart", n=0, hex=P.encode(1, "evt", refused).hex(), t=40000)
    _, settle = harness.ops(2)
    harness.event(ev="done", id=settle["id"], t=90000)
    frames = [(k, p) for _, k, p in host.frames(2)]
    assert frames == [("evt", refused), ("nak", {"seq": seq, "why": refused["why"]})]
    os.write(host.fd, P.encode(seq, "dealer", {"b": "cut_done"}))     # resent
    [(_, kind, payload)] = host.frames(1)
    assert (kind, payload) == ("nak", {"seq": seq, "why": refused["why"]})


def _press_answered(harness, host, button, k):
    """The k-th seat button pressed, answered and let go: its down and up `pin` ops."""
    t = 100000 * k
    host.send("btn", {"seat": 1, "b": button})
    down, when, _ = harness.ops(3)
    harness.event(ev="done", id=when["id"], t=t)
    harness.event(ev="uart", n=0, hex=P.encode(k, "evt", {"e": "action"}).hex(), t=t + 40000)
    up, settle = harness.ops(2)
    harness.event(ev="done", id=settle["id"], t=t + 90000)
    host.frames(2)
    return down, up


def test_button_presses_bounce_as_the_bridge_is_told_in_turn_pressed_and_let_go(wired):
    harness, host, bridge = wired
    bridge.bounces = [[0.3, 0.6], []]
    presses = [_press_answered(harness, host, b, k + 1)
               for k, b in enumerate(("call", "fold", "raise"))]
    assert [(d.get("bounce"), u.get("bounce")) for d, u in presses] == \
        [([0.3, 0.6], [0.3, 0.6]), (None, None), ([0.3, 0.6], [0.3, 0.6])]


def test_a_button_the_board_never_answers_is_let_go_in_the_end(wired):
    harness, host, _ = wired
    host.send("dealer", {"b": "deal"})
    _, when, limit = harness.ops(3)
    harness.event(ev="done", id=limit["id"], t=1000000)
    up, settle = harness.ops(2)
    assert up["down"] is False and settle["op"] == "after"


def _ram(*lines):
    """The display's memory with these lines of text drawn, as framebuf draws them."""
    font = dict((c, g) for g, c in glyphs().items())
    ram = bytearray(1024)
    for i, line in enumerate(lines):
        for k, c in enumerate(line):
            ram[128 * i + 8 * k:128 * i + 8 * k + 8] = font[c]
    return ram.hex()


def _typed(harness, t):
    """The next key (or muck card) typed: its ops, and the display showing it let it
    go; (what was typed, the time after its gap)."""
    first, down, held, most = harness.ops(4)
    harness.event(ev="done", id=down["id"], t=t)
    harness.event(ev="done", id=held["id"], t=t + 40000)
    assert harness.ops(1, wait=0.2) == []           # held until the display shows it
    harness.event(ev="display", hex=_ram("> %d" % t), on=True, invert=False, t=t + 60000)
    ops = harness.ops(2 if first["op"] == "key" else 1)
    assert most["ms"] >= 1000 and ops[-1]["op"] == "after"
    if first["op"] == "key":
        assert ops[0] == {"op": "key", "key": first["key"], "down": False}
    harness.event(ev="done", id=ops[-1]["id"], t=t + 120000)
    typed = first["key"] if first["op"] == "key" else bytes.fromhex(first["hex"]).decode()
    return typed, t + 200000


def test_a_bet_with_an_amount_is_keyed_on_the_panel_a_key_at_a_time(wired):
    harness, host, _ = wired
    seq = host.send("btn", {"seat": 1, "b": "raise", "to": 30})
    t, typed = 1000, []
    for _ in range(6):
        key, t = _typed(harness, t)
        typed.append(key)
    assert "".join(typed) == "A2#30#"
    frames = [(k, p) for _, k, p in host.frames(7)]
    assert frames[0] == ("panel", {"lines": ["> 1000"] + [""] * 7})
    assert frames[-1] == ("ack", {"seq": seq})


def test_a_draw_is_its_cards_over_the_muck_reader_then_the_hash_key(wired):
    harness, host, _ = wired
    seq = host.send("discard", {"seat": 0, "cards": "Kd 7c"})
    t, typed = 1000, []
    for _ in range(3):
        key, t = _typed(harness, t)
        typed.append(key)
    assert typed == ["Kd\n", "7c\n", "#"]
    assert ("ack", {"seq": seq}) in [(k, p) for _, k, p in host.frames(4)]


def test_a_keyed_entry_the_board_refuses_is_nakked_with_its_reason(wired):
    harness, host, _ = wired
    seq = host.send("dealer", {"b": "foul", "seat": 3})
    t = 1000
    for _ in range(3):
        key, t = _typed(harness, t)
    refused = {"e": "refused", "what": "dealer", "why": "no round under way for foul"}
    harness.event(ev="uart", n=0, hex=P.encode(1, "evt", refused).hex(), t=t)
    _typed(harness, t)
    assert ("nak", {"seq": seq, "why": refused["why"]}) in \
        [(k, p) for _, k, p in host.frames(6)]


def test_on_a_raw_link_a_bet_with_an_amount_goes_to_the_boards_uart_as_it_is(wired):
    harness, host, bridge = wired
    bridge.raw_link()
    seq = host.send("btn", {"seat": 1, "b": "raise", "to": 30})
    [op] = harness.ops(1)
    assert op["op"] == "uart" and op["n"] == BOARD["link"]["uart"]
    dec = P.Decoder()
    dec.feed(bytes.fromhex(op["hex"]))
    assert list(dec) == [(seq, "btn", {"seat": 1, "b": "raise", "to": 30})]


def test_a_card_is_a_line_on_the_readers_uart_and_its_want_a_need_frame(wired):
    harness, host, _ = wired
    harness.event(ev="uart", n=BOARD["card_reader"]["uart"], hex=b"want up 3\n".hex())
    [(fseq, kind, payload)] = host.frames(1)
    assert (kind, payload) == ("need", {"what": "up", "seat": 3})
    os.write(host.fd, P.encode(7, "ack", {"seq": fseq}))
    host.send("card", {"code": "Ah"})
    line, after = harness.ops(2)
    assert line == {"op": "uart", "n": BOARD["card_reader"]["uart"], "hex": b"Ah\n".hex()}
    assert after["op"] == "after"


def test_the_shuffler_sets_its_active_low_lines_and_its_start_pulse_asks_for_a_shuffle(wired):
    harness, host, _ = wired
    host.send("shuf", {"state": "shuffling"})
    ops = harness.ops(5)
    sh = BOARD["shuffler"]
    levels = {op["pin"]: op["level"] for op in ops if op["op"] == "gpio"}
    assert levels == {sh["busy"]: 0, sh["done"]: 1, sh["jam"]: 1, sh["present"]: 0}
    harness.event(ev="gpio", pin=sh["start"], level=1)
    [(_, kind, payload)] = host.frames(1)
    assert (kind, payload) == ("shuffle", {})


def test_the_shuffler_is_fitted_and_idle_from_power_up(wired):
    # Undriven, the active-low lines follow their pull-ups: the board saw no shuffler,
    # asked for a hand shuffle before every deal, and the emulated dealer's hand shuffle
    # dealt other cards than CPython's table (four card poker, seed 3: A<->T, K<->Q).
    harness, _, _ = wired
    sh = BOARD["shuffler"]
    assert {op["pin"]: op["level"] for op in harness.power_up if op["op"] == "gpio"} == \
        {sh["busy"]: 1, sh["done"]: 1, sh["jam"]: 1, sh["present"]: 0}


def test_the_firmwares_frames_are_renumbered_and_the_hosts_ack_goes_back_with_its_seq(wired):
    harness, host, _ = wired
    harness.event(ev="uart", n=0, hex=(P.encode(41, "evt", {"e": "hand"}) +
                                       P.encode(42, "chip", {"x": 1})).hex())
    (s1, k1, _), (s2, k2, p2) = host.frames(2)
    assert (k1, k2, p2) == ("evt", "chip", {"x": 1}) and s2 == P.next_seq(s1)
    os.write(host.fd, P.encode(9, "ack", {"seq": s2}))
    [op] = harness.ops(1)
    dec = P.Decoder()
    dec.feed(bytes.fromhex(op["hex"]))
    assert [(k, p) for _, k, p in dec] == [("ack", {"seq": 42})]


def test_led_frames_come_in_the_scenes_colours_and_the_dark_power_up_frame_is_dropped(wired):
    harness, host, _ = wired
    n = BOARD["leds"]["count"]
    lv = BOARD["leds"]["max_level"]
    harness.event(ev="leds", hex=bytes(3 * n).hex())
    r, g, b = scenes.SEAT_COLOURS[scenes.ACTION]
    grb = bytes((g * lv // 255, r * lv // 255, b * lv // 255))
    harness.event(ev="leds", hex=(grb * n).hex())
    [(_, kind, payload)] = host.frames(1)
    assert kind == "px"
    assert bytes.fromhex(payload["rgb"]) == bytes((r, g, b)) * n


def test_an_armed_cut_and_a_stalled_link_are_harness_ops_and_the_cut_is_kept(wired):
    harness, host, bridge = wired
    bridge.arm_cut(program=3, byte=40)
    bridge.stall_tx(True)
    bridge.stall_tx(False)
    assert harness.ops(3) == [{"op": "arm_cut", "program": 3, "byte": 40},
                              {"op": "uart_stall", "n": BOARD["link"]["uart"], "stalled": True},
                              {"op": "uart_stall", "n": BOARD["link"]["uart"], "stalled": False}]
    # What the board said before the cut reaches the host; the cut is kept.
    harness.event(ev="uart", n=0, hex=P.encode(5, "evt", {"e": "action"}).hex(), t=10)
    cut = {"ev": "cut", "program": 3, "in": "program", "addr": 0xA1200, "byte": 40,
           "of": 256, "t": 20}
    harness.event(**cut)
    harness.event(ev="reset", why="power", t=20)
    assert [(k, p) for _, k, p in host.frames(1)] == [("evt", {"e": "action"})]
    deadline = 20
    while not bridge.resets and deadline:
        select.select([], [], [], 0.1)
        deadline -= 1
    assert bridge.cuts == [cut] and bridge.resets == ["power"]


def test_the_harness_figures_are_asked_for_and_waited_for(wired):
    harness, host, bridge = wired
    got = []
    t = threading.Thread(target=lambda: got.append(bridge.stats(5.0)))
    t.start()
    assert harness.ops(1) == [{"op": "stats"}]
    harness.event(ev="stats", flash={"programs": 12, "torn": 0}, t=5)
    t.join(5)
    assert got == [{"ev": "stats", "flash": {"programs": 12, "torn": 0}, "t": 5}]


def test_the_timeline_keeps_the_chips_moments_in_emulated_time(wired):
    harness, host, bridge = wired
    harness.event(ev="ready", t=0)
    harness.event(ev="uart", n=0, hex=P.encode(1, "hello", {"fw": "x"}).hex(), t=1900000)
    host.send("btn", {"seat": 2, "b": "fold"})
    _, when, _ = harness.ops(3)
    harness.event(ev="done", id=when["id"], t=2000000)
    n = BOARD["leds"]["count"]
    harness.event(ev="leds", hex=bytes(3 * n).hex(), start=2001000, t=2004000)  # dark: kept out
    harness.event(ev="leds", hex=(b"\x01" * 3 * n).hex(), start=2041000, t=2044000)
    harness.event(ev="uart", n=0, hex=P.encode(2, "evt", {"e": "action"}).hex(), t=2050000)
    host.frames(3)
    assert bridge.timeline == [(0, "ready", None), (1900000, "said", "hello"),
                               (2000000, "down", "btn"), (2041000, "leds", None),
                               (2050000, "said", "evt action")]



@pytest.mark.parametrize("kind,payload,line", [
    ("card", {"code": "As", "face_up": True}, b"As up\n"),
    ("card", {"code": "Kd", "deck": "B"}, b"Kd B\n"),
    ("card", {"code": "Kd", "deck": "A", "face_up": False}, b"Kd A\n"),
    ("shoe", {"state": "jam"}, b"!jam\n"),
    ("shoe", {"present": False}, b"!out\n"),
])
def test_what_the_shoe_says_is_a_line_of_its_reader(wired, kind, payload, line):
    harness, host, _ = wired
    host.send(kind, payload)
    said, _ = harness.ops(2)
    assert said["op"] == "uart" and said["n"] == BOARD["card_reader"]["uart"]
    assert bytes.fromhex(said["hex"]) == line


@pytest.mark.parametrize("kind,payload", [
    ("shoe", {"state": "jam", "present": False}),
    ("card", {"code": "As", "deck": "C"}),
    ("card", {"code": "!jam"}),
])
def test_what_the_shoe_cannot_say_goes_to_the_link_as_it_is(wired, kind, payload):
    harness, host, _ = wired
    host.send(kind, payload)
    [op] = harness.ops(1)
    assert op["op"] == "uart" and op["n"] == BOARD["link"]["uart"]


def test_a_shuffle_done_is_its_deck_check_on_the_data_port_then_the_done_line(wired):
    harness, host, _ = wired
    host.send("shuf", {"state": "done", "count": 51, "missing": ["As"]})
    ops = harness.ops(6)
    assert ops[0] == {"op": "shuffler_data", "hex": b"check 51 missing As\n".hex()}
    done = BOARD["shuffler"]["done"]
    assert {"op": "gpio", "pin": done, "level": 0} in ops[1:5]      # active low: on
    host.send("shuf", {"state": "done"})
    harness.event(ev="done", id=ops[-1]["id"], t=1000)
    # Done said again while its line is on: the line goes off first, for as long as the
    # board takes to see it (a line on since before a start pulse is no answer to it:
    # 13:47-20.38(o)), and only then the deck check and the line on again.
    off = harness.ops(5)
    assert {"op": "gpio", "pin": done, "level": 1} in off[:4] and off[4]["op"] == "after"
    harness.event(ev="done", id=off[4]["id"], t=2000)
    again = harness.ops(6)
    assert again[0] == {"op": "shuffler_data", "hex": b"check 52\n".hex()}
    assert {"op": "gpio", "pin": done, "level": 0} in again[1:5]


def test_an_image_older_than_the_firmware_it_freezes_is_not_run(tmp_path):
    # An image left from another checkout runs another firmware: the host's files for
    # this one would tilt it (program_check_failed), a puzzle for whoever ran it.
    uf2 = tmp_path / "firmware.uf2"
    uf2.write_bytes(b"an image")
    newest = max(p.stat().st_mtime for p in bridge.built_from())
    os.utime(uf2, (newest + 1, newest + 1))
    try:
        bridge.check_ready(uf2)
    except bridge.PicoMissing as e:    # only the harness may be missing here
        assert "older" not in str(e), e
    os.utime(uf2, (newest - 1, newest - 1))
    with pytest.raises(bridge.PicoMissing, match="older than .*: run `make pico`"):
        bridge.check_ready(uf2)
