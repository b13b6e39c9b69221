"""The firmware on an emulated Pico, driven like every other runtime.

`PicoProcess` runs the Pico image (`make pico`: MicroPython's rp2 port with felt frozen)
on the project's RP2040 harness (host_tools/pico/harness, rp2040js) and offers the host
tools the same serial link as `host_tools.process.FirmwareProcess`: a pty whose
other end speaks docs/protocol.md.  The board is wired (hardware/boards/pico-11.json), so
the devices are not messages on its link but pins, and `Bridge` plays them there:

- a seat or dealer button (`btn`, `dealer` naming a button the board wires) is pressed
  on its MCP23017 input, held past the debounce, released;
- a card (`card` with its code alone) is a line on UART1, the card reader, at 9600 baud;
  the reader's `want KIND SEAT` lines come to the host as `need` frames;
- the shuffler (`shuf` with a state or presence alone) sets its status lines, driven
  from power-up as a shuffler fitted and idle; its start pulse on GP18 comes to the host
  as a `shuffle` frame;
- the LED strip is decoded from GP22's WS2812 waveform and comes as `px` frames, in the
  colours the firmware chose (the strip's max_level scaling undone by the palette);
- what only the dealer's panel says (a bet with an amount, a seat's standing wagers, a
  report naming a seat, a card or a reason) is typed on its keypad, a key at a time,
  each held until the display shows it (host_tools.pico.panel); the display's memory,
  read from the SSD1306 on the I2C bus, comes as `panel` frames, its lines of text.

A frame played at the pins is acked once the board has taken it, or nakked with the
board's reason when its `refused` event names that kind, as the link answers a frame.

Whatever else the host says (configuration, queries, and on a board without a panel
what only the panel says) goes to the board's link on UART0 as it is: a wired board
takes the configuration and the queries from its link, and refuses the rest there.  Frames each way are numbered afresh at the bridge, so its own
frames (acks, `need`, `shuffle`, `px`) never share a number with the firmware's.
"""

import collections
import json
import os
import pty
import select
import subprocess
import threading
import time
import tty
from pathlib import Path

from felt import protocol as P
from felt.table import scenes
from host_tools.pico import panel

REPO = Path(__file__).resolve().parents[2]
HARNESS = REPO / "host_tools" / "pico" / "harness" / "main.mjs"
NODE_MODULES = REPO / "host_tools" / "pico" / "node_modules"
UF2 = REPO / "build" / "pico" / "firmware.uf2"

SETTLE_MS = 15       # beyond the debounce and two polls: the firmware has seen a change
REFUSAL_MS = 40      # a card refused: its reason, masked (felt.table.shown), on the link
SHUFFLER_POLL_MS = 20   # felt.loop.shuffler_task's period
# A real shuffler is busy for half a minute: its busy line is held at least this long
# (emulated), past the longest the board is away from its poll (a journal write as a
# round begins), so the board sees a cycle begin before the next state.  A shuffler put
# on or taken off the table is answered as late: its frame then comes within the step.
SHUFFLER_BUSY_MS = 500
LINK_TIMEOUT_S = 60.0   # the host's patience, in wall seconds: the chip runs at ~0.3x
MAX_HOLD_MS = 1000      # a button held this long is let go, answered or not
KEY_GAP_MS = 60         # a key let go this long before the next: past the debounce
RESEND_MS = 3000        # the host's resends, in emulated ms (PicoProcess)


class PicoMissing(RuntimeError):
    """No Pico image or harness to run."""


def built_from():
    """What `make pico` builds the image from (the Makefile's PICO_FROZEN, the C
    modules and the board): the files frozen or compiled into it."""
    firmware = REPO / "firmware"
    return ([firmware / "main.py"] + sorted((firmware / "felt").rglob("*.py")) +
            sorted((firmware / "pico").rglob("*.py")) +
            sorted(p for folder in (REPO / "cmodules", REPO / "hardware" / "micropython")
                   for p in folder.rglob("*") if p.is_file()))


def check_ready(uf2=UF2):
    """Raise PicoMissing, saying what to run, when the image or the harness is missing,
    or the image is older than a file frozen into it: an old image runs another
    firmware than the checkout's (its program check then tilts on the new files)."""
    if not uf2.exists():
        raise PicoMissing("no Pico image at %s: run `make pico`" % uf2)
    built = uf2.stat().st_mtime
    newer = [p for p in built_from() if p.stat().st_mtime > built]
    if newer:
        raise PicoMissing("the Pico image at %s is older than %s: run `make pico`"
                          % (uf2, newer[0].relative_to(REPO)))
    if not (NODE_MODULES / "rp2040js").is_dir():
        raise PicoMissing("the emulated Pico's packages are not installed: run "
                          "`make pico-harness` (npm ci in host_tools/pico)")


class Bridge:
    """Between the host's pty (`fd`, the slave end) and the harness process `proc`:
    translates device frames into pin activity and renumbers frames (module docstring).
    Runs in its own thread; `error` holds why it stopped, if it did."""

    def __init__(self, board, proc, fd, timeline=None):
        """`timeline`: a list to keep the chip's moments in (felt-bench), each
        (t_us, what, detail) in emulated time: ("ready", t, None) and ("reset", t, why)
        as the chip starts; ("down", t, "btn" or "dealer") a button pressed on its pin;
        ("leds", start, None) the first bit of a frame that changed the strip;
        ("said", t, kind, or "evt " and its `e`) a frame of the firmware's, t when the
        slice of UART0 that ended it began."""
        self.timeline = timeline
        self.board = board
        self.proc = proc
        self.fd = fd
        self.error = None
        self.started = threading.Event()   # set at the harness's `ready`, or its end
        self.time_us = 0
        self.resets = []          # why the chip was reset, each time
        self.cuts = []            # the `cut` events of armed power cuts (arm_cut)
        self.usb_out = b""        # what the firmware wrote on its USB serial (PICO_USB)
        self._stats = None        # the harness's last `stats` event
        self._stats_seen = threading.Event()
        self._to_host = P.Sender()
        self._host_in = P.Decoder()
        self._fw_in = P.Decoder()
        self._fw_acked = {}       # our seq of a firmware frame awaiting the host's ack -> its seq
        self._fw_last = None      # (fw seq, kind, payload, our seq) of its last acked frame
        self._ops = []            # device frames from the host waiting their turn
        self._op = None           # the one being played: (seq, kind, payload)
        self._then = []           # its ops still to play, once its first wait is over
        self._done = None         # (seq, kind, payload) of the last one played, for resends
        self._answer = None       # what it was answered: an ack, or a nak with the reason
        self._refused = None      # the board's reason for refusing the one being played
        self._ids = 0
        self._reader_line = b""
        self._start_level = 0
        # A shuffler fitted and idle, as the table's other runtimes start (Controller:
        # shuffler_present); its status lines are driven so from power-up (_wire_shuffler).
        self._shuffler = {"busy": 0, "done": 0, "jam": 0, "present": 1}
        self._leds = None         # the last frame sent to the host (bytes, RGB order)
        self._palette = _palette(board["leds"]["max_level"])
        self._order = board["leds"]["order"]
        self._stop = False
        self._out = b""
        self._lock = threading.Lock()   # the harness's stdin: this thread's and power_cut's
        self._cut = False         # a power cut asked for, until the chip resets
        self._held = None         # (button, hold ms, frame id, since, bounce) while one is held
        # How each button press bounces, taken in turn (felt-bench): a list of the ms
        # after its first edge at which the contact opens and closes again (the
        # harness's `pin` op's bounce), its release bouncing alike; [] a clean press.
        self.bounces = []
        self._presses = 0
        self.raw = False          # frames go to UART0 as they are (raw_link)
        self._typing = []         # the keys of the entry being typed, still to press
        self._keys = 0            # keys pressed so far: each key's harness moments' number
        self._key_down = None     # when the key pressed went down (emulated us), once known
        self.display = None       # the dealer's display: its memory, as last drawn
        self.lines = None         # its text (host_tools.pico.panel.text_of)
        self.shown = collections.deque(maxlen=64)   # (lines, memory) it last showed
        self._wire_shuffler()

    def _wire_shuffler(self):
        """Drive the shuffler's status lines as `_shuffler` says, now, as the chip boots.
        Undriven, the active-low lines follow their pull-ups: no shuffler fitted, so the
        board would ask for a hand shuffle before every deal, and the emulated dealer's
        hand shuffle deals other cards than the shuffler's (the same seed, another table).
        The harness keeps a driven line's level across the chip's resets."""
        for op in self._shuffler_ops(self._shuffler):
            self._harness(**op)

    def shuffler_lines(self):
        """The shuffler's status lines as driven now (1 asserted): busy, done, jam, present."""
        return dict(self._shuffler)

    def _shuffler_ops(self, levels):
        sh = self.board["shuffler"]
        return [dict(op="gpio", pin=sh[name], level=level ^ sh["active_low"])
                for name, level in sorted(levels.items())]

    # ---- the thread -----------------------------------------------------------------

    def run(self):
        try:
            self._run()
        except Exception as e:  # noqa: BLE001 - said to the host as a closed link
            self.error = "%s: %s" % (type(e).__name__, e)
        finally:
            self.started.set()
            try:
                os.close(self.fd)   # the host reads end of file: the board is gone
            except OSError:
                pass

    def _run(self):
        events = self.proc.stdout
        buf = b""
        while not self._stop:
            ready = select.select([self.fd, events], [], [], 0.1)[0]
            if self.fd in ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return   # the host closed its end
                self._from_host(data)
            if events in ready:
                data = os.read(events.fileno(), 65536)
                if not data:
                    self._harness_ended()
                    return
                buf += data
                *lines, buf = buf.split(b"\n")
                for line in lines:
                    if line.strip():
                        self._event(json.loads(line))
            self._flush()

    def stop(self):
        self._stop = True

    def _harness_ended(self):
        code = self.proc.wait()
        if self.error is None:
            self.error = "the emulated Pico stopped (harness exit %d)" % code

    def _flush(self):
        if self._cut:
            self._out = b""
        if self._out:
            os.write(self.fd, self._out)
            self._out = b""

    def _harness(self, **op):
        with self._lock:
            self.proc.stdin.write((json.dumps(op) + "\n").encode())
            self.proc.stdin.flush()

    def power_cut(self):
        """The board's power fails now: what it was saying is lost with it."""
        self._cut = True
        self._harness(op="power_cut", torn=True)

    def arm_cut(self, program=1, byte=128):
        """The power will fail inside the `program`-th flash page program from now, once
        `byte` of its 256 bytes are written (the harness's arm_cut): where it fell comes
        in `cuts`, then the reset.  What the board said before the cut reaches the host;
        a button held then is let go by the cut, its frame acked as pressed."""
        self._harness(op="arm_cut", program=program, byte=byte)

    def stall_tx(self, stalled=True):
        """The link's transmitter (the board's UART TX) stops taking bytes from its FIFO,
        or, with stalled=False, goes on (the harness's uart_stall)."""
        self._harness(op="uart_stall", n=self.board["link"]["uart"], stalled=stalled)

    def type_usb(self, data):
        """Bytes typed on the board's USB serial, as a PC plugged into its USB port would
        (the harness's usb op; the harness must run with PICO_USB=1)."""
        self._harness(op="usb", hex=data.hex())

    def raw_link(self, on=True):
        """From now on (`on`) or no longer, every frame of the host's goes to the board's
        UART0 as it is, playing no device: a host on the link's cable, as an attacker
        would be, not the emulator at the devices' pins."""
        self.raw = on

    def quit(self):
        try:
            self._harness(op="quit")
        except (OSError, ValueError):
            pass   # the harness is gone already

    def stats(self, timeout_s=30.0):
        """The harness's figures now (its `stats` event: "speed", emulated s per wall s so
        far; flash programs, erases and torn operations; resets; UART bytes)."""
        self._stats_seen.clear()
        self._harness(op="stats")
        if not self._stats_seen.wait(timeout_s):
            raise RuntimeError("the emulated Pico did not answer `stats`")
        return self._stats

    def _note(self, t, what, detail=None):
        if self.timeline is not None:
            self.timeline.append((t, what, detail))

    def _to_fw(self, data):
        self._harness(op="uart", n=self.board["link"]["uart"], hex=data.hex())

    def _host(self, kind, payload):
        """A frame to the host, numbered by the bridge."""
        self._out += self._to_host.frame(kind, payload)

    # ---- from the host ---------------------------------------------------------------

    def _from_host(self, data):
        self._host_in.feed(data)
        for seq, kind, payload in self._host_in:
            if kind in ("ack", "nak"):
                fw_seq = self._fw_acked.pop(payload.get("seq"), None)
                if fw_seq is not None:   # for a frame of the firmware's
                    answer = dict(payload, seq=fw_seq)
                    self._to_fw(P.encode(seq, kind, answer))
                continue             # else it answers one of ours: nothing waits on it
            if self.raw or self._pins(kind, payload) is None:
                self._to_fw(P.encode(seq, kind, payload))
                continue
            frame = (seq, kind, payload)
            if frame == self._done:
                self._host(*self._answer)    # a resend of one played: answered again
            elif frame != self._op and frame not in self._ops:
                self._ops.append(frame)
                self._next_op()

    def _pins(self, kind, payload):
        """How to play a device frame at the pins: a list of harness ops, or None when
        the frame goes to the board's link as it is."""
        b = self.board
        hold = b["debounce_ms"] + 2 * b["poll_ms"] + SETTLE_MS
        if "keypad" in b:
            typed = panel.keys_for(kind, payload, len(b["seat_buttons"]))
            if typed is not None:
                return [dict(op="type", keys=typed)]
        keys = set(payload)
        if kind == "btn" and keys == {"seat", "b"}:
            seat = payload["seat"]
            if isinstance(seat, int) and 0 <= seat < len(b["seat_buttons"]):
                ref = b["seat_buttons"][seat].get(payload["b"])
                return ref and _press(ref, hold)
        elif kind == "dealer" and keys == {"b"}:
            ref = b["dealer_buttons"].get(payload["b"])
            if ref and payload["b"] == "shuffler_removed":
                # The dealer says so as the shuffler leaves the table: its present
                # line falls with it (the board takes either as its removal).
                return self._shuffler_ops(self._removed()) + _press(ref, hold)
            return ref and _press(ref, hold)
        elif kind in ("card", "shoe"):
            line = _shoe_line(kind, payload)
            if line is None:
                return None
            line = (line + "\n").encode()
            cr = b["card_reader"]
            ms = len(line) * 10 * 1000 // cr["baud"] + 1 + 2 * b["poll_ms"] + SETTLE_MS + \
                REFUSAL_MS
            return [dict(op="uart", n=cr["uart"], hex=line.hex()), dict(op="after", ms=ms)]
        elif kind == "shuf":
            # A shuffler with a data port says its deck check there as it is done.
            said = _deck_check(payload) if "data" in b["shuffler"] else None
            if said is not None:
                payload = {"state": "done"}
            elif keys != {"state"} and keys != {"present"}:
                return None
            levels = self._shuffler_levels(payload)
            if levels is not None:
                seen = b["debounce_ms"] + 2 * SHUFFLER_POLL_MS + SETTLE_MS
                if levels["busy"] or "present" in payload:
                    seen = max(seen, SHUFFLER_BUSY_MS)
                check = [] if said is None else \
                    [dict(op="shuffler_data", hex=(said + "\n").encode().hex())]
                return self._anew(levels, seen) + check + self._shuffler_ops(levels) + \
                    [dict(op="after", ms=seen)]
        return None

    def _anew(self, levels, seen):
        """A done or a jam said again while its line is still on from before: the line
        goes off first, for as long as the board takes to see it, as a shuffler's does
        between two cycles; a line on since before a start pulse is no answer to it
        (felt.hal.mp.Shuffler, 13:47-20.38(o))."""
        again = [n for n in ("done", "jam") if levels[n] and self._shuffler[n]]
        if not again:
            return []
        return self._shuffler_ops(dict(levels, done=0, jam=0)) + [dict(op="after", ms=seen),
                                                                   dict(op="then")]

    def _removed(self):
        """The shuffler's lines once it is off the table."""
        return dict(self._shuffler, present=0)

    def _shuffler_levels(self, payload):
        """The status lines (1 asserted) for a shuffler state or presence, or None."""
        if "present" in payload:
            if not isinstance(payload["present"], bool):
                return None
            return dict(self._shuffler, present=int(payload["present"]))
        lines = {"idle": (0, 0, 0), "shuffling": (1, 0, 0), "done": (0, 1, 0),
                 "jammed": (0, 0, 1)}.get(payload["state"])
        if lines is None:
            return None
        return dict(zip(("busy", "done", "jam"), lines), present=1)

    def _next_op(self):
        if self._op is not None or not self._ops:
            return
        self._op = self._ops.pop(0)
        seq, kind, payload = self._op
        ops = self._pins(kind, payload)
        if kind == "shuf":
            self._shuffler = self._shuffler_levels(payload)
        elif kind == "dealer" and payload == {"b": "shuffler_removed"}:
            self._shuffler = self._removed()
        self._ids += 1
        if ops[0]["op"] == "type":
            self._typing = list(ops[0]["keys"])
            self._type()
            return
        if dict(op="then") in ops:     # played in two steps, the second after the first
            at = ops.index(dict(op="then"))
            ops, self._then = ops[:at], ops[at + 1:]
        self._play(ops)

    def _play(self, ops):
        bounce = self._bounce() if any(op["op"] == "pin" for op in ops) else []
        for op in ops:   # the last op's done ends the frame
            if op["op"] == "pin" and bounce:
                op["bounce"] = bounce
            if op["op"] == "after":
                op["id"] = self._ids
                if "ref" in op:        # a press, held until the board answers
                    self._held = [op.pop("ref"), op.pop("hold"), self._ids, None, bounce]
                    op["id"] = -self._ids
                    self._harness(op="after", ms=0, id="down%d" % self._ids)
            self._harness(**op)

    def _bounce(self):
        """The next button press's bounce (self.bounces in turn), or []."""
        if not self.bounces:
            return []
        self._presses += 1
        return self.bounces[(self._presses - 1) % len(self.bounces)]

    def _type(self):
        """The next key of the entry: pressed, held past the debounce and until the
        display shows it (or MAX_HOLD_MS: a board writing its flash reads no keys for a
        while), let go, and KEY_GAP_MS later the next; after the last, the frame is done.
        A card for the muck reader ("muck Kd") is its line sent, then as a key."""
        if not self._typing:
            self._op_done()
            return
        b = self.board
        self._key_down = None
        self._keys += 1              # each key's moments named apart: none is taken for another's
        item = self._typing[0]
        if item.startswith("muck "):
            self._harness(op="muck", hex=(item[5:] + "\n").encode().hex())
        else:
            self._harness(op="key", key=item, down=True)
        self._harness(op="after", ms=0, id="keydown%d" % self._keys)
        self._harness(op="after", ms=b["debounce_ms"] + 2 * b["poll_ms"] + SETTLE_MS,
                      id="keyheld%d" % self._keys)
        self._harness(op="after", ms=MAX_HOLD_MS, id="keymax%d" % self._keys)

    def _key_up(self):
        """Let the key go (once), then the gap before the next."""
        if not self._typing or self._key_down is None:
            return
        item = self._typing.pop(0)
        if not item.startswith("muck "):
            self._harness(op="key", key=item, down=False)
        self._key_down = None
        self._harness(op="after", ms=KEY_GAP_MS, id="keygap%d" % self._keys)

    def _release(self):
        """Let the held button go, and end its frame once the release is seen too."""
        ref, hold, k, _, bounce = self._held
        self._held = None
        self._harness(op="pin", expander=ref["expander"], pin=ref["pin"], down=False,
                      **({"bounce": bounce} if bounce else {}))
        self._harness(op="after", ms=hold, id=k)

    def _op_done(self):
        """The frame played at the pins is answered as the link answers one: a nak with
        the board's reason when it refused what the pins did (its `refused` event)."""
        seq = self._op[0]
        self._done, self._op = self._op, None
        self._answer = P.ack(seq) if self._refused is None else P.nak(seq, self._refused)
        self._refused = None
        self._host(*self._answer)
        self._next_op()

    # ---- from the chip ---------------------------------------------------------------

    def _event(self, ev):
        self.time_us = ev.get("t", self.time_us)
        what = ev["ev"]
        if what == "ready":
            self.started.set()
            self._note(ev["t"], "ready")
        elif what == "uart":
            data = bytes.fromhex(ev["hex"])
            if ev["n"] == self.board["link"]["uart"]:
                self._from_fw(data)
            elif ev["n"] == self.board["card_reader"]["uart"]:
                self._from_reader(data)
        elif what == "done" and str(ev.get("id")).startswith("key"):
            self._key_event(ev)
        elif what == "display":
            self._from_display(ev)
        elif what == "done":
            if self._held is not None and ev.get("id") == "down%d" % self._ids:
                self._held[3] = ev["t"]    # when the button went down, in the chip's time
                self._note(ev["t"], "down", self._op[1])
            elif self._held is not None and ev.get("id") == -self._ids:
                self._release()        # held as long as a button is: unanswered
            elif self._op is not None and ev.get("id") == self._ids and self._then:
                ops, self._then = self._then, []
                self._play(ops)
            elif self._op is not None and ev.get("id") == self._ids:
                self._op_done()
        elif what == "leds":
            if self._from_strip(bytes.fromhex(ev["hex"])):
                self._note(ev.get("start"), "leds")
        elif what == "gpio":
            if ev["pin"] == self.board["shuffler"]["start"]:
                if ev["level"] and not self._start_level:
                    self._host("shuffle", {})
                self._start_level = ev["level"]
        elif what == "cut":
            self.cuts.append(ev)
        elif what == "usb":
            self.usb_out += bytes.fromhex(ev["hex"])
        elif what == "stats":
            self._stats = ev
            self._stats_seen.set()
        elif what == "reset":
            self._note(ev["t"], "reset", ev.get("why"))
            self.resets.append(ev.get("why", "?"))
            if self._cut:         # what the host asked of the devices went with the power
                self._ops, self._op, self._done, self._held = [], None, None, None
                self._refused = None
                self._typing, self._key_down = [], None
            self._cut = False
            self._fw_in = P.Decoder()
            self._fw_acked.clear()
            self._fw_last = None
            self._reader_line = b""
            self._leds = None
        elif what == "error":
            self.error = "the emulated Pico: %s" % ev.get("why", "failed")

    def _key_event(self, ev):
        """A moment of the key being typed (_type): down, held long enough, held too
        long, or its gap over."""
        k = ev["id"]
        if k == "keydown%d" % self._keys:
            self._key_down = [ev["t"], False]        # [when, the display showed it]
        elif self._key_down is not None and k == "keyheld%d" % self._keys:
            self._key_down.append("held")
            if self._key_down[1]:
                self._key_up()
        elif self._key_down is not None and k == "keymax%d" % self._keys:
            self._key_up()
        elif k == "keygap%d" % self._keys:
            self._type()

    def _from_display(self, ev):
        """The display drew: its text to the host as a `panel` frame when it changed;
        a key held until the display showed it may go."""
        self.display = bytes.fromhex(ev["hex"])
        d = self.board["display"]
        lines = panel.text_of(self.display, d["width"], d["height"])
        if lines != self.lines:
            self.lines = lines
            self.shown.append((lines, self.display))
            self._host("panel", {"lines": lines})
        down = self._key_down
        if down is not None and ev["t"] >= down[0]:
            down[1] = True
            if len(down) > 2:                        # held past the debounce already
                self._key_up()

    def _from_fw(self, data):
        self._fw_in.feed(data)
        for seq, kind, payload in self._fw_in:
            self._note(self.time_us, "said",
                       "evt %s" % payload.get("e") if kind == "evt" else kind)
            if self._held is not None and self._held[3] is not None and \
                    kind not in ("ack", "nak", "px") and \
                    self.time_us - self._held[3] >= 1000 * self.board["debounce_ms"]:
                self._release()        # the board answered the press
            if self._op is not None and kind == "evt" and payload.get("e") == "refused" \
                    and payload.get("what") == self._op[1]:
                self._refused = payload.get("why", "")
            if kind not in P.ACKED:
                self._host(kind, payload)
                continue
            last = self._fw_last
            if last is not None and last[:3] == (seq, kind, payload):
                ours = last[3]                 # the firmware resends: so do we
            else:
                ours = self._to_host.seq
                self._to_host.seq = P.next_seq(ours)
                self._fw_last = (seq, kind, payload, ours)
            self._fw_acked[ours] = seq
            self._out += P.encode(ours, kind, payload)

    def _from_reader(self, data):
        """The card reader's requests to the shoe ("want KIND SEAT\\n") as `need` frames."""
        self._reader_line += data
        while b"\n" in self._reader_line:
            line, self._reader_line = self._reader_line.split(b"\n", 1)
            words = line.decode("ascii", "replace").split()
            if len(words) == 3 and words[0] == "want":
                self._host("need", {"what": words[1], "seat": int(words[2])})

    def _from_strip(self, wire):
        """A frame of the strip, in wire order and scaled, as the firmware's own colours;
        True when it changed what the strip shows."""
        n = self.board["leds"]["count"]
        rgb = bytearray(3 * n)
        r, g, b = (self._order.index(c) for c in "RGB")
        for i in range(min(n, len(wire) // 3)):
            o = 3 * i
            level = (wire[o + r], wire[o + g], wire[o + b])
            rgb[o:o + 3] = bytes(self._palette.get(level) or _unscaled(
                level, self.board["leds"]["max_level"]))
        if self._leds is None and not any(rgb):
            self._leds = bytes(rgb)   # the strip made dark at power-up: as it was
            return False
        if bytes(rgb) == self._leds:
            return False
        self._leds = bytes(rgb)
        self._host("px", {"rgb": self._leds.hex()})
        return True


def _deck_check(payload):
    """The line a shuffler's data port says its deck check in (`check N [missing C...]
    [extra C...]`, felt.hal.mp.Shuffler.deck_check) for a `shuf` done, or None where
    the message is no shuffle done."""
    if payload.get("state") != "done" or not set(payload) <= {"state", "count", "missing",
                                                             "extra"}:
        return None
    count = payload.get("count", 52)
    if type(count) is not int:
        return None
    line = "check %d" % count
    for key in ("missing", "extra"):
        cards = payload.get(key, [])
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            return None
        if cards:
            line += " %s %s" % (key, " ".join(cards))
    return line


def _shoe_line(kind, payload):
    """The line the shoe's reader says for a `card` or `shoe` message, or None where it
    says no such thing (hardware/WIRING.md: a code, `up`, the deck; `!` and a status)."""
    if kind == "shoe":
        if set(payload) == {"state"} and payload["state"] in ("jam", "stop", "incomplete"):
            return "!" + payload["state"]
        if set(payload) == {"present"} and isinstance(payload["present"], bool):
            return "!in" if payload["present"] else "!out"
        return None
    code = payload.get("code")
    if not isinstance(code, str) or not code or " " in code or code[0] == "!" or \
            not set(payload) <= {"code", "face_up", "deck"}:
        return None
    line = code
    if payload.get("deck") in ("A", "B"):
        line += " " + payload["deck"]
    elif "deck" in payload:
        return None
    if payload.get("face_up") is True:
        line += " up"
    elif payload.get("face_up") not in (None, False):
        return None
    return line


def _press(ref, hold_ms):
    """Pressed, and held until the board answers (or MAX_HOLD_MS): a board writing its
    flash reads no buttons for a while, and a press shorter than that is never seen,
    as a hurried player's would not be.  Bridge.release lets it go."""
    return [dict(op="pin", expander=ref["expander"], pin=ref["pin"], down=True),
            dict(op="after", ms=MAX_HOLD_MS, hold=hold_ms, ref=ref)]


def _palette(max_level):
    """Each colour felt.table.scenes uses, keyed by the levels the strip shows for it."""
    colours = {scenes.OFF, scenes.BUTTON} | set(scenes.SEAT_COLOURS) | set(scenes.CENTRE_COLOURS)
    return {tuple(c * max_level // 255 for c in colour): colour for colour in colours}


def _unscaled(level, max_level):
    return [min(255, (v * 255 + max_level - 1) // max_level) for v in level]
