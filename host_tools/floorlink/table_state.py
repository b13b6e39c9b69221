"""A table as the floor shows it, kept up to date from the frames its board sends: the
game and seats, whose action it is, the pot, the stacks, the button, the LEDs' scene,
and whether it plays, idles or is tilted (with the code and what clears it).  Only what
the floor may see: no card a player holds face down."""

import time

from host_tools.leds import LedStrip
from host_tools.words import TILT_CLEARS


def about(config):
    """What the floor shows of a table's configuration (a `cfg`, docs/protocol.md)."""
    if not config:
        return {"game": None, "seats": None, "stakes": None}
    game = config.get("game", "holdem")
    if "min_wager" in config and "small_bet" not in config:     # house-banked
        stakes = "wagers %s to %s" % (config["min_wager"], config.get("max_wager"))
    else:
        stakes = "%s limit %s/%s" % (config.get("structure", "fixed"),
                                     config.get("small_bet"), config.get("big_bet"))
    return {"game": game, "seats": config.get("seats"), "stakes": stakes}


class TableState:
    def __init__(self, table, about=None, leds=None):
        """`about`: what the floor shows of the table's set-up ({"game", "seats",
        "stakes"}); `leds`: the board's LED layout, for the centre's scene."""
        self.table = table
        self.about = dict(about or {})
        self.strip = LedStrip(leds) if leds else None
        self.status = "idle"
        self.hand = None
        self.button = None
        self.stacks = []
        self.pot = 0
        self.to_act = None
        self.tilt = None
        self.hands = 0          # rounds ended
        self.rake = 0
        self.house = None       # a house-banked table's result, in all
        self.board = ""

    def begin(self, hello, state):
        """The table as the board says it is when its tool connects: `hello`'s tilt (a
        program check that failed: no state then), or `state` (docs/protocol.md 6.2):
        locked, playing or idle, its hand, stacks, button and so on."""
        tilt = hello.get("tilt")
        if tilt:
            self._tilted(tilt.get("code") or "program_check_failed",
                         "%s: %s" % (tilt.get("file"), tilt.get("why")))
            return
        if not state:
            return
        self.hand = state.get("hand") or None
        self.stacks = list(state.get("stacks") or [])
        self.button = state["button"] if state.get("button", -1) >= 0 else None
        self.rake = state.get("rake") or 0
        self.house = state.get("house")
        if state.get("state") == "playing":
            self.status, self.pot, self.board = "playing", state.get("pot", 0), \
                state.get("board", "")
            self.to_act = state["to_act"] if state.get("to_act", -1) >= 0 else None
        if state.get("locked"):
            # The state says why, not the event log's code: a technician reads that.
            self._tilted("locked", state["locked"])

    def _tilted(self, code, why):
        self.status = "tilted"
        self.tilt = {"code": code, "why": why, "clears": TILT_CLEARS.get(code, "a technician")}

    def frame(self, kind, p):
        """One frame from the board; True when what the floor shows changed."""
        if kind == "px" and self.strip is not None:
            before = self.centre()
            self.strip.capture(p["rgb"])
            return self.centre() != before
        if kind == "evt":
            return self.event(p)
        return False

    def event(self, e):
        k = e.get("e")
        if k == "hand":
            self.status, self.hand, self.pot, self.to_act, self.board = \
                "playing", e["hand"], 0, None, ""
            self.button = e.get("button") if e.get("button", -1) >= 0 else None
            self.stacks = list(e["stacks"])
        elif k in ("post", "action", "wager"):
            self.pot += e.get("amount", 0)
        elif k in ("return", "refund"):
            self.pot -= e.get("amount", 0)
        elif k == "to_act":
            self.to_act = e["seat"]
        elif k == "dealt" and e.get("what") == "board" and "card" in e:
            self.board = (self.board + " " + e["card"]).strip()
        elif k == "end":
            self.status, self.to_act, self.pot = "idle", None, 0
            self.stacks = list(e["stacks"])
            self.hands += 1
            self.rake += e.get("rake", 0)
            if "house" in e:
                self.house = e["house"]
        elif k == "locked":
            self._tilted(e["code"], e["why"])
        elif k == "cleared":
            self.status, self.tilt = "idle", None
        else:
            return False
        return True

    def centre(self):
        if self.strip is None or not self.strip.frame:
            return None
        from felt.table import scenes
        status = scenes.centre_status(self.strip.frame, self.strip.leds)
        return scenes.CENTRE_NAMES[status] if status >= 0 else None

    def snapshot(self):
        """What the floor shows, as of now (`at`, seconds since 1970)."""
        return dict(self.about, table=self.table, status=self.status, hand=self.hand,
                    button=self.button, stacks=self.stacks, pot=self.pot,
                    to_act=self.to_act, tilt=self.tilt, hands=self.hands, rake=self.rake,
                    house=self.house, board=self.board, centre=self.centre(),
                    at=round(time.time(), 3))
