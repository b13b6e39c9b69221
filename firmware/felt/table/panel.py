"""The dealer's panel on a wired board: a keypad and a display at the dealer's place
(hardware/WIRING.md).  The seat buttons say fold, check or call, and the least bet or
raise; the panel says what they cannot: the amount a player put out, a banked seat's
standing wagers, and the seat or card a report names.  Each entry becomes one message of
the protocol's vocabulary (docs/protocol.md 6.1), handled by the controller as any
input is (Controller.handle): the panel adds no rule of its own, and what the table
refuses, the display says with the table's reason.

Keys (a 4x4 matrix, docs/board.md, "The dealer's panel"): the digits; `#` enters what
is keyed; `*` clears it (again: leaves the step, then the message shown); `A` names a
seat; `B` sets a seat's standing wagers; `C` opens the reports; `D` keys the most the
table takes now (all in, or a pot-limit raise of the pot).  Seats are keyed and shown
from 1, as dealers number them (seat 1 is the link's seat 0).

    raise to 120       1 2 0 #          the seat on turn's bet or raise, to 120 in all
    all in             D #
    seat 4's play      A 4 # 1 5 #      (a house-banked decision open to several seats)
    wagers             B 4 # 1 0 # 5 #  seat 4: ante 10, side 5 (# alone: kept)
    a foul             C 1 4 #          report 1 (foul) of seat 4
    an exposed card    C 3 1 2 B #      report 3 (exposed), the queen (12) of
                                        diamonds (B); C 3 # names the card last read

A seat's discards, during its draw or Pineapple's discard, pass over the muck reader
(hal.muck), each card read joining the seat's discards on the display; `#` then
throws them away (`#` alone: the seat stands pat), `*` forgets them, to pass them again.

`lines()` is the display's text: what was keyed, what the table will take (the seat on
turn, the least and most of a bet, the pot) and the last outcome, taken or refused and
why.  The panel learns the turn from the table's own events (`heard`).
"""

from felt.table.states import PLAYING, is_banked

WIDTH = 16                  # characters a line: 128 pixels of an 8x8 font
DIGITS = "0123456789"
SUITS = "ABCD"              # clubs, diamonds, hearts, spades: the keys under the digits
SUIT_CODES = "cdhs"
RANKS = "A23456789TJQK"     # keyed 1 to 13
MAX_DIGITS = 8              # amounts up to 99,999,999: messages.py refuses past 10,000,000
# Reports by their number on the panel (C then the digit), with what each names:
# "seat" or "card" required, "seat?" or "card?" optional (# alone: none, or the card
# last read), "why" one of its reasons by number.
REPORTS = (None,
           ("foul", "seat"), ("player_away", "seat"), ("exposed", "card?"),
           ("ineligible", "card?"), ("off_table", "card?"), ("misdeal", "why"),
           ("dead_round", "why"), ("miscount", "seat?"), ("dealer_exposed", "card?"))
# The reasons a report may give, by number from 1 (# alone: the table's default).
WHYS = {"misdeal": ("no_shuffle", "wrong_start", "face_up", "skipped_seat"),
        "dead_round": ("missing card", "extra card", "defective deck")}


class Panel:
    def __init__(self, ctl, display=None):
        self.ctl = ctl
        self.display = display  # felt.hal.display's, or None
        self.rows = display.rows if display is not None else 8   # lines it shows
        self.turn = -1          # the seat on turn (a to_act event), or -1
        self.legal = ()         # what it may do
        self.bounds = None      # (least, most) of its bet or raise, where not fixed limit
        self.deciding = ()      # a house-banked decision's seats
        self.hand = 0
        self.said = ""          # the last outcome
        self.clear()

    def clear(self):
        self.step = ""          # "" an amount; or seat, ante, side, report, card, why
        self.entry = ""
        self.seat = -1          # the seat named with A, or -1
        self.fields = None      # the message a multi-step entry builds (B, C)
        self.needs = ""         # what the report being keyed names (REPORTS)
        self.thrown = []        # the codes the muck reader read for the seat's discard

    # ----- what the table says ------------------------------------------------------

    def heard(self, p):
        """An event the table said (Controller.evt): who is on turn, and the bounds."""
        e = p["e"]
        if e == "to_act":
            self.turn = p["seat"]
            self.legal = p["legal"]
            self.bounds = (p["min"], p["max"]) if "min" in p else None
        elif e == "action" or e == "end" or e == "street" or e == "discarded":
            self.turn = -1
            self.legal = ()
            self.bounds = None
            if e == "end":
                self.deciding = ()
        elif e == "decide":
            self.deciding = p["seats"]
        elif e == "hand":
            self.hand = p["hand"]

    # ----- the keys -------------------------------------------------------------------

    def draw(self):
        """The display drawn again where the text changed: after every key, card and
        input the table handled (Controller.handle), so it always shows the table as
        it stands when the next key comes (after the LEDs and the frames)."""
        if self.display is not None:      # it sends only the lines that changed
            self.display.show(self.lines())

    def key(self, k):
        """One key pressed.  Returns the message it sent as (kind, payload), or None."""
        sent = self._key(k)
        self.draw()
        return sent

    def _key(self, k):
        step = self.step
        if k == "*":
            if self.entry or self.thrown:
                self.entry = ""
                self.thrown = []
            elif step or self.seat >= 0:
                self.clear()
            else:
                self.said = ""
        elif k in DIGITS:
            if step == "report" or step == "why":
                return self._choose(int(k))
            if len(self.entry) < MAX_DIGITS:
                self.entry += k
        elif k == "#":
            v, self.entry = self.entry, ""
            return self._enter(step, v)
        elif step == "card" and k in SUITS:
            return self._card(k)
        elif k == "A":
            self.clear()
            self.step = "seat"
        elif k == "B":
            self.clear()
            self.step, self.fields = "seat", {}
        elif k == "C":
            self.clear()
            self.step = "report"
        elif k == "D" and self.bounds is not None and not step:
            self.entry = str(self.bounds[1])
        return None

    def _enter(self, step, v):
        """`#`: the step keyed as `v` (digits, maybe none) is done."""
        fields = self.fields
        if step == "":
            seat = self.seat if self.seat >= 0 else self.turn
            if self._throwing():
                return self._send("discard", {"seat": self.turn,
                                              "cards": " ".join(self.thrown)})
            if not v:
                return None
            if seat < 0:
                return self._refused("no seat is on turn: name one with A")
            return self._send("btn", {"seat": seat, "b": "raise", "to": int(v)})
        if step == "seat":
            if not v:
                if self.needs == "seat?":
                    return self._send("dealer", fields)     # none: the dealer's hand
                return self._refused("key the seat, 1 to %d" % len(self.ctl.leds["seats"]))
            seat = int(v) - 1
            if not 0 <= seat < len(self.ctl.leds["seats"]):
                return self._refused("no seat %s at this table" % v)
            if fields is None:              # A: the seat the next amount is for
                self.seat, self.step = seat, ""
                return None
            fields["seat"] = seat
            if self.needs:                  # a report naming the seat
                return self._send("dealer", fields)
            self.step = "ante"              # B: the wagers follow
            return None
        if step == "ante" or step == "side":
            if v:                           # else left out: kept as it stands
                fields[step] = int(v)
            if step == "ante":
                self.step = "side"
                return None
            return self._send("wager", fields)
        if step == "card":
            if v or self.needs != "card?":
                return self._refused("key the rank (1 to 13), then the suit (A to D)")
            return self._send("dealer", fields)     # the card last read
        if step == "why":
            return self._send("dealer", fields)     # the table's default reason
        return None

    def _throwing(self):
        """The seat on turn throws cards away (a draw, Pineapple's discard)."""
        return "draw" in self.legal or "discard" in self.legal

    def muck(self, code):
        """A card the muck reader read: one of the discards of the seat on turn, or
        said and left alone when no discard is due (a card swept in with a fold)."""
        self._muck(code)
        self.draw()

    def _muck(self, code):
        if code == "?":                  # felt.hal.mp.MISREAD: a line the reader garbled
            self.said = "! muck misread: pass it again"
        elif not self._throwing() or self.step:
            self.said = "! muck: %s, no discard now" % code
        elif code in self.thrown:
            self.said = "! muck: %s read twice" % code
        else:
            self.thrown.append(code)

    def _choose(self, n):
        """A report by its number, or a report's reason by its number."""
        if self.step == "report":
            if not 1 <= n < len(REPORTS):
                return self._refused("reports are 1 to %d" % (len(REPORTS) - 1))
            name, self.needs = REPORTS[n]
            self.fields = {"b": name}
            self.step = "why" if self.needs == "why" else self.needs.rstrip("?")
            return None
        whys = WHYS[self.fields["b"]]
        if not 1 <= n <= len(whys):
            return self._refused("reasons are 1 to %d" % len(whys))
        self.fields["why"] = whys[n - 1]
        return self._send("dealer", self.fields)

    def _card(self, suit):
        v, self.entry = self.entry, ""
        if not v or not 1 <= int(v) <= len(RANKS):
            return self._refused("key the rank (1 to 13), then the suit (A to D)")
        self.fields["card"] = RANKS[int(v) - 1] + SUIT_CODES[SUITS.index(suit)]
        return self._send("dealer", self.fields)

    def _refused(self, why):
        """A key the panel itself cannot take: said, nothing sent, the entry kept."""
        self.said = "! " + why
        return None

    def _send(self, kind, payload):
        self.clear()
        why = self.ctl.handle(kind, payload)
        self.said = "ok: " + said(kind, payload) if why is None else "! " + why
        return kind, payload

    # ----- the display -------------------------------------------------------------------

    def lines(self):
        """The display's text, `rows` lines of at most WIDTH characters: the turn, what
        is keyed, the bounds and the pot, the last outcome (wrapped)."""
        ctl = self.ctl
        if self.turn >= 0:
            top = "#%d seat %d acts" % (self.hand, self.turn + 1)
        elif self.deciding:
            top = "#%d %d deciding" % (self.hand, len(self.deciding))
        else:
            top = "#%d %s" % (self.hand, ctl.state)
        out = [top, self._keyed()]
        info = "" if self.bounds is None else "%d-%d" % self.bounds
        if ctl.state == PLAYING and ctl.game is not None and not is_banked(ctl.config):
            info = (info + " pot %d" % ctl.round.pot()).strip()
        out.append(info)
        text = self.said
        while text and len(out) < self.rows:
            out.append(text[:WIDTH])
            text = text[WIDTH:]
        while len(out) < self.rows:
            out.append("")
        return [line[:WIDTH] for line in out[:self.rows]]

    def _keyed(self):
        step, v = self.step, self.entry
        if step == "" and self._throwing():
            return "> s%d: %s" % (self.turn + 1, " ".join(self.thrown) or "# = pat")
        if step == "":
            who = self.seat if self.seat >= 0 else self.turn
            return "> %s%s_" % ("s%d to " % (who + 1) if who >= 0 else "to ", v)
        if step == "report":
            return "> report 1-9?"
        if step == "why":
            return "> why 1-%d or #" % len(WHYS[self.fields["b"]])
        if step == "card":
            return "> card %s_ A-D" % v
        return "> %s %s_" % (step, v)


def said(kind, payload):
    """An entry taken, in words for the display: `raise to 120`, `s4 ante 10 side 5`."""
    if kind == "btn":
        return "to %d" % payload["to"]
    if kind == "discard":
        return "s%d threw %d" % (payload["seat"] + 1, len(payload["cards"].split()))
    if kind == "wager":
        return "s%d %s" % (payload["seat"] + 1, " ".join(
            ["%s %d" % (k, payload[k]) for k in ("ante", "side") if k in payload]))
    words = payload["b"].replace("_", " ")
    if "seat" in payload:
        words += " s%d" % (payload["seat"] + 1)
    if "card" in payload:
        words += " " + payload["card"]
    return words
