"""The table controller: seats, stacks, the button and the current round.

Every input, from whichever device or the link, arrives as one message of the
protocol's vocabulary through `handle(kind, payload)`, which returns None when the
input was accepted or the reason it was refused; a refused input changes nothing.
Accepted round events go to the journal before the round acts on them.  After every
accepted input the LEDs are redrawn from state.
"""

from felt.poker import cards as C
from felt.poker.button import dealer_right, by_high_card, next_seat, rotate
from felt.poker.evaluate import name as hand_name
from felt.poker.round import Round, Refused, BETTING, DEALING
from felt.poker.structure import ConfigError
from felt.table import config as config_mod
from felt.table import scenes
from felt.table.journal import Journal

FIRMWARE = "felt 0.1"

IDLE = "idle"            # between rounds: the dealer presses deal
PLACING = "placing"      # dealing one card a seat to place the button (14.10(c)2ii)
SHUFFLING = "shuffling"  # the shuffler was started; waiting for it to finish
PLAYING = "playing"

# Seat buttons: fold; check or call; bet or raise.
BUTTON_ACTIONS = {"fold": ("fold",), "call": ("check", "call"), "raise": ("bet", "raise")}


class Controller:
    def __init__(self, hal, board, journal=None):
        self.hal = hal
        self.board = board
        self.leds = board["leds"]
        self.journal = journal or Journal()
        self.config = None
        self.stacks = []
        self.button = -1
        self.hand = 0
        self.state = IDLE
        self.round = None
        self._placing = []       # (seat, card) dealt to place the button
        self._on_hello(None)     # announce the board at boot (docs/protocol.md, 5)
        self.render()

    # ----- the one entry point ---------------------------------------------------------

    def handle(self, kind, payload):
        h = getattr(self, "_on_" + kind, None)
        if h is None:
            return "unknown message %r" % (kind,)
        try:
            reason = h(payload)
        except (KeyError, TypeError, ValueError) as e:
            reason = "bad %s message: %s" % (kind, e)
        if reason is None:
            self.render()
        else:
            self._evt({"e": "refused", "what": kind, "why": reason})
        return reason

    def _on_hello(self, p):
        self.hal.link.send("hello", {"fw": FIRMWARE, "board": self.board["name"],
                                     "seats": len(self.leds["seats"])})

    def _on_state(self, p):
        self.hal.link.send("state", self.snapshot())

    def _on_cfg(self, p):
        if self.state != IDLE:
            return "configuration changes wait until the round is over"
        try:
            cfg = config_mod.from_dict(p, len(self.leds["seats"]))
        except ConfigError as e:
            return str(e)
        self.config = cfg
        self.round = None
        self.stacks = list(cfg.stacks)
        self.button = -1
        self.hand = 0
        return None

    def _on_dealer(self, p):
        if p["b"] != "deal":
            return "dealer button %r is not available yet" % (p["b"],)
        if self.config is None:
            return "no table configuration: send cfg first"
        if self.state != IDLE:
            return "a round is already under way (%s)" % self.state
        seated = self._seated()
        if sum(seated) < 2:
            return "fewer than two players with chips"
        if self.button < 0 or not seated[self.button]:
            if self.button < 0 and self.config.button_start == "high_card":
                self.state = PLACING
                self._placing = []
                self._want_button_card()
                return None
            self.button = dealer_right(seated) if self.button < 0 else \
                next_seat(self.button, seated)
            self._evt({"e": "button", "seat": self.button, "how": "dealer_right"})
        self._start_shuffle()
        return None

    def _on_shuf(self, p):
        state = p["state"]
        if state not in ("idle", "shuffling", "done", "jammed"):
            return "unknown shuffler state %r" % (state,)
        if self.state == SHUFFLING and state == "done":
            self._start_round()
        return None

    def _on_card(self, p):
        code = p["code"]
        if self.state == PLACING:
            return self._button_card(code)
        if self.state != PLAYING:
            return "no card is due: the table is %s" % self.state
        reason = self.round.why_not(("card", code))
        if reason is None:
            self._apply(("card", code))
        return reason

    def _on_btn(self, p):
        seat, b = p["seat"], p["b"]
        if b not in BUTTON_ACTIONS:
            return "unknown seat button %r" % (b,)
        if self.state != PLAYING or self.round.phase != BETTING:
            return "no betting now: the table is %s" % self.state
        if seat != self.round.to_act:
            return "out of turn: seat %s pressed %s, the action is on seat %d" % (
                seat, b, self.round.to_act)
        for action in BUTTON_ACTIONS[b]:
            if self.round.why_not((action, seat)) is None:
                self._apply((action, seat))
                return None
        return self.round.why_not((BUTTON_ACTIONS[b][-1], seat))

    # ----- rounds ------------------------------------------------------------------------

    def _seated(self):
        return [s > 0 for s in self.stacks]

    def _start_shuffle(self):
        self.state = SHUFFLING
        self.hal.shuffler.start()

    def _want_button_card(self):
        seated = self._seated()
        seat = next_seat(self._placing[-1][0] if self._placing else -1, seated)
        self.hal.card_reader.want("button", seat)

    def _button_card(self, code):
        try:
            card = C.parse(code)
        except C.CardError as e:
            return str(e)
        if card in [c for _, c in self._placing]:
            return "card %s already seen" % code
        seated = self._seated()
        seat = next_seat(self._placing[-1][0] if self._placing else -1, seated)
        self._placing.append((seat, card))
        self._evt({"e": "dealt", "what": "button", "seat": seat, "card": C.code(card)})
        if len(self._placing) < sum(seated):
            self._want_button_card()
            return None
        self.button = by_high_card(self._placing)
        self._evt({"e": "button", "seat": self.button, "how": "high_card"})
        self._start_shuffle()  # the placing cards go back into the deck
        return None

    def _start_round(self):
        self.hand += 1
        self.round = Round(self.stacks, self.button, self.config.structure)
        self.journal.begin(self.hand, self.button, self.stacks, self.config.structure)
        self.state = PLAYING
        self._evt({"e": "hand", "hand": self.hand, "button": self.button,
                   "stacks": list(self.stacks)})
        self._effects(self.round.start())

    def _apply(self, event):
        self.journal.append(event)  # before acting on it
        self._effects(self.round.apply(event))

    def _effects(self, effects):
        for e in effects:
            k = e[0]
            if k == "need":
                self.hal.card_reader.want(e[1], e[2])
            elif k == "post":
                self._evt({"e": "post", "seat": e[1], "kind": e[2], "amount": e[3], "all_in": e[4]})
            elif k == "dealt":
                self._evt({"e": "dealt", "what": e[1], "seat": e[2], "card": C.code(e[3])})
            elif k == "street":
                self._evt({"e": "street", "name": e[1]})
            elif k == "to_act":
                self._evt({"e": "to_act", "seat": e[1], "legal": self.round.legal_actions(e[1])})
            elif k == "action":
                self._evt({"e": "action", "seat": e[1], "a": e[2], "amount": e[3], "all_in": e[4]})
            elif k == "return":
                self._evt({"e": "return", "seat": e[1], "amount": e[2]})
            elif k == "show":
                s = e[1]
                self._evt({"e": "show", "seat": s, "hand": hand_name(e[2]), "value": e[2],
                           "cards": C.codes(self.round.hole[s])})
            elif k == "award":
                self._evt({"e": "award", "pot": e[1], "seat": e[2], "amount": e[3]})
            elif k == "end":
                self._end_round()

    def _end_round(self):
        r = self.round
        self.stacks = list(r.stacks)
        self._evt({"e": "end", "hand": self.hand, "button": self.button,
                   "stacks": list(self.stacks), "winners": list(r.winners),
                   "board": C.codes(r.board)})
        self.state = IDLE
        # 13:47-20.36(c)3: the button moves clockwise after each round.
        nxt = rotate(self.button, self._seated())
        if nxt >= 0:
            self.button = nxt

    # ----- output --------------------------------------------------------------------------

    def _evt(self, payload):
        self.hal.link.send("evt", payload)

    def seat_statuses(self):
        n = len(self.leds["seats"])
        out = [scenes.EMPTY] * n
        r = self.round
        for s in range(min(n, len(self.stacks))):
            if r is None or not r.dealt_in[s]:
                out[s] = scenes.WAITING if self.stacks[s] > 0 else scenes.EMPTY
            elif self.state == IDLE and s in r.winners:
                out[s] = scenes.WINNER
            elif r.folded[s]:
                out[s] = scenes.FOLDED
            elif s == r.to_act:
                out[s] = scenes.ACTION
            elif r.stacks[s] == 0 and self.state == PLAYING:
                out[s] = scenes.ALL_IN
            else:
                out[s] = scenes.WAITING if self.stacks[s] > 0 or self.state == PLAYING \
                    else scenes.EMPTY
        return out

    def centre_status(self):
        if self.state in (SHUFFLING,):
            return scenes.SHUFFLING
        if self.state == PLACING or (self.state == PLAYING and self.round.phase == DEALING):
            return scenes.DEALING
        if self.state == PLAYING:
            return scenes.BETTING
        return scenes.IDLE

    def render(self):
        # Between rounds the last round's button stays lit with its winners.
        shown_button = self.round.button if self.state == IDLE and self.round else self.button
        scenes.render(self.hal.pixels, self.leds, self.seat_statuses(), shown_button,
                      self.centre_status())

    def snapshot(self):
        r = self.round
        return {"state": self.state, "hand": self.hand, "button": self.button,
                "stacks": list(self.stacks),
                "to_act": r.to_act if r is not None and self.state == PLAYING else -1,
                "board": C.codes(r.board) if r is not None else "",
                "pot": r.pot() if r is not None and self.state == PLAYING else 0,
                "config": self.config.as_dict() if self.config else None}
