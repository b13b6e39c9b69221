"""The interactive terminal view of the emulated table (textual).

Every seat with its stack, the status its LEDs show, its cards (down, and up in stud:
reversed, or in brackets when NO_COLOR is set) and last action; the board or stud's
common card, the pot, the LED strip in the colours the firmware wrote (named in words
when NO_COLOR is set), the dealer's display where a wired board's is read at its pins
(`--runtime pico`), and a log of the round's events in words.  The stacks, the pot,
the board and the seat to act are the firmware's own (its `state` answer after every
batch of events), so a round called off shows the refunds at once.

Any seat's buttons can be pressed: the firmware refuses a press out of turn and the log
says why.  The seat to act is selected as the action reaches it.  In spread, pot and no
limit a bet or raise goes to the amount shown (`+`/`-` step it, `t` types it, `A` the
most allowed: all-in when the stack is the limit).  A draw or Pineapple's discard picks
the seat's cards by number (the picking mode opens as the turn comes; Enter throws the
cards picked, none stands pat).

Faults can be injected from the keyboard (FAULT_KEYS): the devices' at their next moment
(a shuffle, a card from the shoe), the dealer's panel now; the log shows the firmware's
irregularity events with their sections, and one line per fault saying what was done.
Pressing fold for the seat that must post the bring-in shows the forced bet's refusal.
`?` (or F1) lists every key.

A house-banked table (Four Card Poker, hold 'em bonus) shows each seat's standing
wagers and the chips in its circles, the dealer's cards (face down until shown), the
board, the house's result and every seat deciding (the selection follows to one of
them); f/c/r press the selected seat's buttons, t types Four Card Poker's play wager,
b and B decide as the headless session's players do.
"""

import sys
import time

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, RichLog, Static

from felt.poker import variants
from felt.table import scenes
from host_tools.cli import colour
from host_tools.emulator.faults import Faults
from host_tools.link import LinkError
from host_tools.emulator.session import from_args
from host_tools.words import CENTRE_HINTS, Narrator, alternatives, banner, code_words, \
    seat_words

SEAT_KEYS = "0123456789a"           # a selects seat 10
STATUS_STYLE = {"empty": "dim", "waiting": "", "to act": "bold orange1", "folded": "dim red",
                "all-in": "bold blue", "winner": "bold green"}
CHOICES = ("draw", "discard")       # the turns that throw cards away
# A house-banked table's settlement, in a seat's last action.
BANKED_LAST = {"collect": "lost", "return": "back", "pay": "paid", "refund": "refund"}
# The LEDs' colours in words (NO_COLOR), from the firmware's scenes.
SEAT_COLOUR_WORDS = ("off", "grey", "orange", "dark red", "blue", "green")
CENTRE_COLOUR_WORDS = ("dim green", "purple", "teal", "off", "orange", "yellow", "red",
                       "pink", "light blue", "white", "dark red")
COLOUR_WORDS = dict(zip(scenes.CENTRE_COLOURS, CENTRE_COLOUR_WORDS))
COLOUR_WORDS.update(zip(scenes.SEAT_COLOURS, SEAT_COLOUR_WORDS))
COLOUR_WORDS[scenes.BUTTON] = "white"
# Keys that inject a fault (host_tools.emulator.faults), with what each does.  The
# device faults wait for their moment; "seat" faults concern the selected seat.
FAULT_KEYS = (("J", "shuffler_jam", "jam", "the shuffler jams at the next shuffle"),
              ("K", "missing_card", "missing", "a card missing at the next deck check"),
              ("S", "shoe_jam", "shoe", "the shoe jams (now, or at the next card)"),
              ("U", "face_up", "face-up", "the next card is face up in the deck"),
              ("X", "foreign_card", "extra", "the next card is from the other deck"),
              ("P", "duplicate_card", "dup", "the next card is a second copy"),
              ("M", "misdeal", "misdeal", "misdeal: wrong start, then skipped seat"),
              ("E", "exposed", "exposed", "a card just dealt was exposed"),
              ("O", "off_table", "off-table", "a card just dealt went off the table"),
              ("I", "ineligible", "inelig", "a card just dealt went to an ineligible seat"),
              ("W", "player_away", "away", "the selected seat's player left"),
              ("F", "foul", "foul", "the selected seat's hand was fouled"),
              ("Z", "power_cut", "power", "the power fails and comes back (the journal)"),
              ("H", "drawn_in_error", "held", "(banked) a card drawn in error, kept for the next"),
              ("N", "miscount", "miscount", "(banked) the dealer miscounts the selected hand"),
              ("L", "dealer_exposed", "dealer", "(banked) a dealer's card exposed"))
SEAT_FAULTS = ("player_away", "foul")
PACES_S = (0.1, 0.25, 0.5, 1.0, 2.0)   # autoplay's paces: seconds between moves

# Every key: (textual key names, shown as, action, footer label or None, what it does).
# The footer shows the labelled ones (they fit 80 columns); `?` lists them all.
KEYS = (
    ("d", "d", "deal", "deal", "deal a round (the dealer's deal button)"),
    (",".join(SEAT_KEYS), "0-9 a", None, None,
     "select seat 0-9, a for seat 10 (the seat to act is selected as the turn comes)"),
    ("f", "f", "press('fold')", "fold", "fold (declines a straddle) on the selected seat"),
    ("c", "c", "press('call')", "call", "check or call (the bring-in when due)"),
    ("r", "r", "raise", "raise", "bet or raise: fixed limit's bet, else to the amount shown"),
    ("plus,equals_sign", "+", "step(1)", None, "raise the amount by a small bet"),
    ("minus,underscore", "-", "step(-1)", None, "lower the amount by a small bet"),
    ("t", "t", "type_amount", None, "type the amount, Enter bets or raises to it"),
    ("A", "A", "max", None, "bet or raise the most allowed: all-in when the stack is the limit"),
    ("x", "x", "pick", "draw", "draw or discard: pick the selected seat's cards"),
    ("", "1-9", None, None, "(picking) pick or unpick the seat's card by its number"),
    ("enter", "Enter", "confirm", None, "(picking) draw or discard the cards picked; "
     "none picked stands pat"),
    ("escape", "Esc", "cancel", None, "leave the picking or the amount typed"),
    ("b", "b", "bot", "bot", "a bot plays the turn"),
    ("B", "B", "autoplay", None, "autoplay (on/off): bots play every seat, and deal on"),
    ("less_than_sign", "<", "pace(1)", None, "autoplay slower"),
    ("greater_than_sign", ">", "pace(-1)", None, "autoplay faster"),
    *[(key, key, "fault('%s')" % kind, None, "fault: " + what)
      for key, kind, _, what in FAULT_KEYS],
    ("", "banked", None, None, "at a house-banked table the seat keys and f/c/r press the "
     "selected seat's buttons: between rounds f sits out, c wagers the ante only, r the "
     "ante and a side wager; Four Card Poker's play: f folds, c plays 1x, r 3x, t types "
     "the play wager in chips (2 antes: 2x); hold 'em bonus: f/c/r before the flop "
     "fold or make the flop wager (2x), then c checks and r bets 1x; b and B play as the "
     "headless bots do"),
    ("pageup", "PgUp", "log_page(-1)", None, "scroll the log back a page (it stays there)"),
    ("pagedown", "PgDn", "log_page(1)", None, "scroll the log on a page"),
    ("end", "End", "log_end", None, "the log's newest lines, following it again"),
    ("question_mark,f1", "?", "help", "keys", "this list of keys (F1 too)"),
    ("q", "q", "quit", "quit", "quit (the firmware stops)"),
)


class HelpScreen(ModalScreen):
    """Every key of the view, the fault keys included; it scrolls on a small terminal."""

    CSS = """
    HelpScreen { align: center middle; }
    #help-box { width: 100%; height: auto; max-height: 100%;
                border: round $primary; background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,question_mark,f1,q", "dismiss", "close")]

    def compose(self) -> ComposeResult:
        keys = Table(box=None, padding=(0, 1), show_header=False)
        keys.add_column(style="bold", no_wrap=True)
        keys.add_column()
        for _, shown, _, _, what in KEYS:
            keys.add_row(shown, what)
        keys.add_row("", Text("Esc, ? or q closes this; the arrows and PgUp/PgDn scroll",
                              style="dim"))
        with VerticalScroll(id="help-box"):
            yield Static(keys, id="help")

    def on_mount(self):
        self.query_one("#help-box").focus()


def card_text(code, up=False, plain=False):
    """A card: down as its code; up (face up, stud) reversed, or [in brackets] plain."""
    if plain:
        return Text("[%s]" % code if up else code, style="bold")
    red = code[-1:] in "hd"
    style = "bold red" if red else "bold"
    return Text(code, style=style + (" reverse" if up else ""))


def cards_text(codes, plain=False):
    """Cards by code, or (code, up) pairs."""
    out = Text()
    for i, c in enumerate(codes):
        code, up = (c, False) if isinstance(c, str) else c
        out.append(" " if i else "")
        out.append_text(card_text(code, up, plain))
    return out


class FeltView(App):
    """The table at a glance; give it an opened Session.  It closes the session on exit."""

    TITLE = "Felt emulator"
    AUTO_FOCUS = None              # keys go to the table, not the amount's hidden field
    CSS = """
    #status { height: 1; background: $boost; }
    #seats { height: auto; }
    #table { height: auto; margin: 0 1; }
    #leds { height: auto; margin: 0 1; background: black; }
    #panel { display: none; height: auto; width: 20; margin: 0 1; background: black;
             color: #cfe8ff; border: round $primary; }
    #banner { display: none; height: auto; margin: 0 1; background: darkred; color: white;
              text-style: bold; }
    #amount { display: none; height: 3; }
    #log { height: 1fr; border: round $primary; }
    """
    BINDINGS = [Binding(keys, action, label or "", show=label is not None,
                        key_display=shown)
                for keys, shown, action, label, _ in KEYS if action] + [
        Binding(k, "select(%d)" % i, "seat", show=False) for i, k in enumerate(SEAT_KEYS)]

    def __init__(self, session, pump_s=0.02, pace_s=0.5):
        self.plain = not colour()     # before App: textual takes NO_COLOR out of os.environ
        super().__init__()
        self.session = session
        self.pump_s = pump_s
        self.pace_s = pace_s       # autoplay: seconds between the bots' moves (< and >)
        self.narrator = Narrator()   # the log's words: a bet or raise as its total
        self._moved = 0.0          # when autoplay last moved (time.monotonic)
        self.selected = 0
        self.autoplay = False
        self.fw_state = None       # the firmware's last `state` answer
        self.picking = None        # the seat whose cards are being picked, if any
        self.picked = []           # the cards picked to throw away
        self.amount = None         # the total of the next bet or raise (not fixed limit)
        self.dead = None           # why the link failed, if it did
        self.closed = False
        game = session.config.get("game", "holdem")
        self.banked = session.banked
        variant = variants.get("holdem" if self.banked else game)
        # Stud shows a card on the table only as the common card of a short deck
        # (19:47-14.9(h)); a game with a board (hold 'em, Mambo stud) shows its board.
        self.common = variant.stud() and not any(step[0] == "board" for step in variant.steps)
        self.draws = any(step[0] == "draw" for step in variant.steps)
        self.game = game if self.banked else "%s %s limit" % (
            game, session.config.get("structure", "fixed"))
        self.board_shown = not self.banked or game == "holdem-bonus"
        self.step_size = session.config.get("small_bet", 2)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="seats")
        yield Static(id="table")
        yield Static(id="leds")
        yield Static(id="panel")
        yield Static(id="banner")
        yield Input(id="amount", placeholder="bet or raise to (Enter; Esc cancels)",
                    restrict=r"[0-9]*")
        yield RichLog(id="log", wrap=True)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self):
        self.log_line("%d players, %s; press d to deal, ? for every key"
                      % (self.session.players, self.game), "dim")
        self.set_interval(self.pump_s, self.pump)
        self.set_interval(0.05, self.bot_tick)
        self.query_state()
        self.refresh_table()

    def on_unmount(self):
        self.close_session()

    def close_session(self):
        if not self.closed:
            self.closed = True
            self.session.close()

    def log_line(self, text, style=""):
        self.query_one("#log", RichLog).write(Text(text, style=style))

    # ----- the link -------------------------------------------------------------------

    def guarded(self, fn, *args):
        """Run a link operation; a dead firmware is reported once, never raised."""
        if self.dead:
            return None
        try:
            return fn(*args)
        except LinkError as e:
            self.dead = str(e)
            self.log_line("link failed: %s %s" % (e, self.session.fw.stderr()), "bold red")
            return None

    def query_state(self):
        """The firmware's own stacks, pot, board and seat to act."""
        state = self.guarded(self.session.state)
        if state is not None:
            self.fw_state = state

    def pump(self):
        frames = self.guarded(self.session.link.drain, 0)
        if not frames:
            return
        faults = len(self.session.faults)
        events = False
        for kind, p in frames:
            self.guarded(self.session.take, kind, p)
            if kind == "evt":
                events = True
                self.take_event(p)
        for f in self.session.faults[faults:]:
            if "refused" not in f:      # refusals come as events and are logged as such
                self.log_line("fault: %s" % f, "bold red")
        if events:
            self.query_state()
            deciding = self.deciding()
            if deciding and self.selected not in deciding:
                self.selected = deciding[0]     # the selection follows to a deciding seat
        self.show_notes()
        self.refresh_table()

    def take_event(self, p):
        e = p["e"]
        if e == "to_act":
            self.selected = p["seat"]           # the selection follows the action
            self.amount = p.get("min")
            picking = [a for a in CHOICES if a in p["legal"]]
            self.picking, self.picked = (p["seat"], []) if picking and not self.autoplay \
                else (None, [])
        elif e in ("end", "hand"):
            self.picking, self.picked, self.amount = None, [], None
        said = banner(p)
        if said is not None:
            self.show_banner(said)
        elif e in ("hand", "cleared"):      # a new round, or the tilt cleared
            self.show_banner(None)
        elif e == "decide" and self.selected not in p["seats"]:
            self.selected = p["seats"][0]
        if e == "refused" and p["what"] in ("btn", "discard"):
            return                              # the view says which seat's was refused
        self.log_line(self.narrator.line(p), "bold" if e in ("award", "end", "hand") else
                      "dim" if e == "dealt" else "")

    def show_banner(self, text):
        """A tilt or an irregularity across the screen until a new round or a clearing."""
        widget = self.query_one("#banner", Static)
        widget.update(text or "")
        widget.display = text is not None

    def show_notes(self):
        """The injected faults' lines and the technician's work."""
        for line in self.session.notes:
            self.log_line(line, "bold magenta")
        self.session.notes.clear()

    def refused(self, seat, what, why):
        if why is not None:
            said = why if why.startswith(what) else "%s refused: %s" % (what, why)
            self.log_line("seat %d %s" % (seat, said), "bold red")

    def press(self, seat, button, to=None):
        why = self.guarded(self.session.press, seat, button, to)
        if why is None:
            if self.session.turn and self.session.turn[0] == seat:
                self.session.turn = None
            self.decided(seat)
        self.refused(seat, button if to is None else "%s to %d" % (button, to), why)

    def decided(self, seat):
        """A banked table's seat made its decision: the session no longer offers it."""
        s = self.session
        s.deciding = [(d, legal) for d, legal in s.deciding if d != seat]

    def deciding(self):
        """The seats with a decision open at a banked table, as the firmware has them."""
        return list((self.fw_state or {}).get("deciding") or []) if self.banked else []

    def my_turn(self, seat):
        """The legal actions if `seat` is to act, else None."""
        turn = self.session.turn
        return turn[1] if turn and turn[0] == seat else None

    # ----- actions -------------------------------------------------------------------

    def action_deal(self):
        s = self.session
        if s.events and s.ended is None:
            # A round is under way: the firmware refuses, and the log shows why.
            self.guarded(s.link.send, "dealer", {"b": "deal"})
        else:
            self.log_line("═══ deal ═══", "bold cyan")
            self.guarded(s.deal)
        self.refresh_table()

    def action_select(self, seat):
        if self.picking is not None:
            self.pick(seat - 1)
            return
        if seat >= self.session.players:
            self.log_line("no seat %d: %d players" % (seat, self.session.players), "dim")
            return
        self.selected = seat
        self.refresh_table()

    def action_press(self, button):
        self.press(self.selected, button)

    def bounds(self, seat):
        """(min, max) of a bet or raise by `seat` now, in spread, pot and no limit."""
        return self.session.bounds if self.my_turn(seat) is not None else None

    def action_raise(self):
        seat = self.selected
        to = self.amount if self.bounds(seat) else None
        self.press(seat, "raise", to)

    def action_max(self):
        seat = self.selected
        bounds = self.bounds(seat)
        self.press(seat, "raise", bounds[1] if bounds else None)

    def action_step(self, direction):
        if self.banked:
            self.log_line("at a house-banked table t types Four Card Poker's play wager "
                          "in chips; r plays 3x, c 1x", "dim")
            return
        bounds = self.bounds(self.selected)
        if not bounds:
            self.log_line("no amount to choose: %s" % (
                "fixed limit's bets are fixed" if self.session.config.get("structure",
                                                                          "fixed") == "fixed"
                else "seat %d is not to act" % self.selected
                if self.my_turn(self.selected) is None else "no bet or raise now"), "dim")
            return
        low, high = bounds
        self.amount = max(low, min(high, (self.amount or low) + direction * self.step_size))
        self.refresh_table()

    def action_type_amount(self):
        field = self.query_one("#amount", Input)
        field.value = ""
        field.display = True
        field.focus()

    def on_input_submitted(self, message):
        field = self.query_one("#amount", Input)
        field.display = False
        self.set_focus(None)
        if not message.value.isdigit():
            return
        self.amount = int(message.value)
        self.press(self.selected, "raise", self.amount)
        self.refresh_table()

    def action_pick(self):
        """Open (or leave) the picking of the selected seat's cards to throw away."""
        if self.picking is not None:
            self.action_cancel()
            return
        self.picking, self.picked = self.selected, []
        self.refresh_table()

    def pick(self, index):
        seat = self.picking
        cards = [c for c, _ in self.seat_cards()[0][seat]]
        if not 0 <= index < len(cards):
            self.log_line("seat %d holds no card %d" % (seat, index + 1), "dim")
            return
        card = cards[index]
        if card in self.picked:
            self.picked.remove(card)
        else:
            self.picked.append(card)
        self.refresh_table()

    def action_confirm(self):
        if self.picking is None:
            return
        seat, cards = self.picking, list(self.picked)
        self.picking, self.picked = None, []
        why = self.guarded(self.session.discard, seat, cards)
        if why is None and self.my_turn(seat) is not None:
            self.session.turn = None
        self.refused(seat, "discard of %s" % (" ".join(cards) or "nothing"), why)
        self.refresh_table()

    def action_cancel(self):
        field = self.query_one("#amount", Input)
        if field.display:
            field.display = False
            self.set_focus(None)
        self.picking, self.picked = None, []
        self.refresh_table()

    def action_bot(self):
        s = self.session
        if self.banked:
            if s.deciding:
                open_ = dict(s.deciding)
                seat = self.selected if self.selected in open_ else s.deciding[0][0]
                self.decided(seat)
                s.decide(seat, open_[seat])
            return
        if s.turn:
            seat, legal = s.turn
            action = s.bots[seat].choose(legal)
            kind, payload = s.bot_message(seat, action)
            why = self.guarded(s.link.send, kind, payload)
            if why is None:
                s.turn = None
            self.picking, self.picked = None, []
            self.refused(seat, action, why)

    def action_fault(self, kind):
        seat = self.selected
        if kind in SEAT_FAULTS and seat >= self.session.players:
            return
        kinds = Faults.kinds(self.session.config.get("game"))
        if kind not in kinds:
            self.log_line("fault %s does not apply at %s table" % (
                code_words(kind), "a house-banked" if self.banked else "this"), "dim")
            return
        self.guarded(self.session.inject_fault, kind, seat)
        self.show_notes()
        self.pump()           # what the fault made, with the firmware's state, at once
        self.refresh_table()

    def action_autoplay(self):
        self.autoplay = not self.autoplay
        self.picking, self.picked = None, []
        self.log_line("autoplay %s" % ("on" if self.autoplay else "off"), "cyan")
        self.refresh_table()

    def action_help(self):
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_log_page(self, step):
        """The log a page back or on: paged back, it stays where it is as lines come,
        until End (issue 22: it scrolled by the mouse only)."""
        log = self.query_one("#log", RichLog)
        if step < 0:
            log.auto_scroll = False
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_log_end(self):
        log = self.query_one("#log", RichLog)
        log.auto_scroll = True
        log.scroll_end(animate=False)

    def action_pace(self, step):
        """Autoplay slower (+1) or faster (-1), along PACES_S."""
        i = min(range(len(PACES_S)), key=lambda k: abs(PACES_S[k] - self.pace_s))
        self.pace_s = PACES_S[max(0, min(len(PACES_S) - 1, i + step))]
        self.log_line("autoplay: a move every %g s" % self.pace_s, "cyan")
        self.refresh_table()

    def bot_tick(self):
        """Autoplay: a bot's move every pace_s, and between rounds the next deal after
        four of them, until one seat holds every chip or the table will not deal (issue
        22: it stopped at the end of a round, and went too fast to follow)."""
        if not self.autoplay:
            return
        s, now = self.session, time.monotonic()
        if s.ended is not None or not s.events and not (self.fw_state or {}).get("hand"):
            if now - self._moved < 4 * self.pace_s:
                return
            self._moved = now
            stacks = (self.fw_state or {}).get("stacks") or []
            if len([c for c in stacks if c > 0]) < 2:
                self.stop_autoplay("one seat holds every chip")
                return
            faults = len(s.faults)
            self.action_deal()
            if len(s.faults) > faults:
                self.stop_autoplay("the table did not deal: %s" % s.faults[-1])
        elif (s.turn or s.deciding) and now - self._moved >= self.pace_s:
            self._moved = now
            self.action_bot()

    def stop_autoplay(self, why):
        self.autoplay = False
        self.log_line("autoplay off: %s" % why, "cyan")
        self.refresh_table()

    # ----- drawing -------------------------------------------------------------------

    def seat_cards(self):
        """Each seat's cards as it holds them now, [(code, up)], and whether its hand is
        out (folded or dead), from this round's events: a card discarded or replaced is
        gone, an exposed stud hole card is up."""
        n = self.session.players
        held = [[] for _ in range(n)]
        out = [False] * n
        for e in self.session.events:
            k, seat = e["e"], e.get("seat", -1)
            if k == "dealt" and e["what"] in ("hole", "up") and seat >= 0:
                held[seat].append((e["card"], e["what"] == "up"))
            elif k == "exposed":
                held[seat] = [(c, up or c == e["card"]) for c, up in held[seat]]
            elif k == "discarded" and seat >= 0:
                gone = e["cards"].split()
                held[seat] = [(c, up) for c, up in held[seat] if c not in gone]
            elif k in ("dead_hand", "fold") or (k == "action" and e["a"] == "fold"):
                out[seat] = True
        return held, out

    def last_actions(self):
        """Each seat's last action this round, in words."""
        last = [""] * self.session.players
        choosing = -1      # the seat whose draw or discard is due
        put = {}           # chips in on this street: a bet or raise says its total
        for e in self.session.events:
            k, seat = e["e"], e.get("seat", -1)
            if k == "street":
                put = {}
            elif k == "action" or k == "post" and e["kind"] != "ante":
                put[seat] = put.get(seat, 0) + e["amount"]
            if k == "to_act":
                choosing = seat if [a for a in CHOICES if a in e["legal"]] else -1
            if k == "discarded" and seat >= 0 and seat != choosing:
                last[seat] = "card replaced"       # an irregularity, not the player's
            elif k == "post":
                last[seat] = "%s %d" % (code_words(e["kind"]), e["amount"])
            elif k == "action" and e["a"] in ("bet", "raise"):
                last[seat] = "%s to %d" % (e["a"], put[seat])
            elif k == "action":
                last[seat] = code_words(e["a"]) + (" %d" % e["amount"] if e["amount"] else "")
            elif k == "discarded" and seat >= 0 and self.draws:
                count = len(e["cards"].split())
                last[seat] = "drew %d" % count if count else "stood pat"
            elif k == "discarded" and seat >= 0:
                last[seat] = "discarded %s" % e["cards"]
            elif k in ("fold", "check"):
                last[seat] = k
            elif k == "wager":
                last[seat] = "%s %d" % (code_words(e["kind"]), e["amount"])
            elif k in BANKED_LAST and seat >= 0 and "kind" in e:
                last[seat] = "%s %s %d" % (BANKED_LAST[k], code_words(e["kind"]),
                                           e["amount"])
            elif k == "award":
                last[seat] = "won %d" % e["amount"]
            elif k == "refund" and seat >= 0:
                last[seat] = "refund %d" % e["amount"]
            elif k == "show" and seat >= 0:
                last[seat] = e.get("hand") or e.get("low_hand") or "shows"
            elif k == "dead_hand":
                last[seat] = "dead hand"
        return last

    def circles(self):
        """At a banked table, each seat's chips in its circles now."""
        put = [0] * self.session.players
        for e in self.session.events:
            if e["e"] == "wager":
                put[e["seat"]] += e["amount"]
            elif e["e"] in ("collect", "return", "refund") and "kind" in e:
                put[e["seat"]] -= e["amount"]     # a wager settled leaves its circle
        return put

    def dealer_text(self):
        """The dealer's cards: face down until the dealer's hand is shown."""
        cards, shown = [], None
        for e in self.session.events:
            if e["e"] == "dealt" and e["what"] == "dealer":
                cards.append(e["card"])
            elif e["e"] == "show" and e["seat"] == -1:
                shown = e.get("hand") or ""
        line = Text("dealer: ", style="bold")
        if shown is None:
            line.append(" ".join("##" for _ in cards) or "-", style="dim")
        else:
            line.append_text(cards_text(cards, self.plain))
            line.append(" (%s)" % shown)
        return line

    def house_text(self):
        """The house's result: this round's (once it is over) and the session's."""
        st, end = self.fw_state or {}, self.session.ended
        line = Text("    house: ", style="bold")
        line.append("%+d in all" % st.get("house", 0))
        if end is not None and "house_round" in end:
            line.append(", %+d this round" % end["house_round"])
        return line

    def table_state(self):
        """Stacks, cards, last actions, board and pot: the chips and the board as the
        firmware's `state` has them, the cards from the round's events."""
        st = self.fw_state or {}
        stacks = list(st.get("stacks") or self.session.config["stacks"])
        held, _ = self.seat_cards()
        board = (st.get("board") or "").split()
        return stacks, held, self.last_actions(), board, st.get("pot", 0)

    def to_act(self):
        """The seat to act as the firmware has it (-1: nobody), and its legal actions."""
        seat = (self.fw_state or {}).get("to_act", -1)
        return seat, self.my_turn(seat) or []

    def refresh_table(self):
        s, strip = self.session, self.session.strip
        stacks, held, last, board, pot = self.table_state()
        _, out = self.seat_cards()
        button = strip.button_seat() if strip.frame else -1
        turn, legal = self.to_act()
        deciding = self.deciding()
        wagers = (self.fw_state or {}).get("wagers") or s.wagers
        circles = self.circles() if self.banked else None
        seats = Table(expand=False, box=None, padding=(0, 1), header_style="bold underline")
        banked_cols = ("wagers", "in") if self.banked else ()
        for col in ("", "seat", "stack", "status", *banked_cols,
                    "cards [up]" if self.plain else "cards", "last action"):
            seats.add_column(Text(col), justify="right" if col in ("seat", "stack", "in")
                             else "left")
        for seat in range(s.players):
            name = seat_words(strip.seat_status(seat)) if strip.frame else "?"
            mark = Text("D", style="bold black on white") if seat == button else Text(" ")
            mark.append(">" if seat == turn or seat in deciding else " ", style="bold orange1")
            sel = seat == self.selected
            number = Text("[%d]" % seat if sel else str(seat), style="reverse" if sel else "")
            # A banked seat's standing wagers (ante+side) and its chips in the circles.
            extra = ("%d+%d" % tuple(wagers[seat]), str(circles[seat])) if self.banked else ()
            seats.add_row(mark, number, str(stacks[seat]),
                          Text(name, style=STATUS_STYLE.get(name, "")), *extra,
                          self.seat_cards_text(seat, held[seat], out[seat]), last[seat])
        self.query_one("#seats", Static).update(seats)
        self.query_one("#table", Static).update(self.table_line(board, pot, turn, legal))
        self.query_one("#leds", Static).update(self.led_text())
        panel = self.query_one("#panel", Static)
        if s.panel is not None:     # a wired board's display, read at its pins
            lines = list(s.panel)
            while lines and not lines[-1]:
                lines.pop()
            panel.update(Text("\n".join(lines)))
            panel.display = True
        st = self.fw_state or {}
        decks = st.get("decks")
        self.query_one("#status", Static).update(Text(
            " hand %s · %s · %s · seat %d%s%s%s%s · %s" % (
                st.get("hand", "-"), self.game, self.centre_name(), self.selected,
                " · AUTOPLAY every %g s" % self.pace_s if self.autoplay else "",
                " · deck %s%s" % (decks["in_play"], " (%s retired)" % "+".join(
                    decks["retired"]) if decks["retired"] else "") if decks else "",
                " · LOCKED" if st.get("locked") else "",
                " · LINK DOWN" if self.dead else "", s.fw.runtime)))

    def seat_cards_text(self, seat, cards, out):
        if seat == self.picking:
            # Numbered for picking; the picked ones struck through and starred.
            text = Text()
            for i, (code, up) in enumerate(cards):
                picked = code in self.picked
                text.append("%s%d:" % (" " if i else "", i + 1), style="dim")
                text.append_text(card_text(code, up, self.plain))
                if picked:
                    text.stylize("strike", len(text) - len(code), len(text))
                    text.append("*", style="bold")
            return text
        if out and cards:
            return Text("(mucked)", style="dim")
        return cards_text(cards, self.plain)

    def table_line(self, board, pot, turn, legal):
        if self.banked:
            return self.banked_line(board, pot)
        if self.common:
            line = Text("common card: " if board else "", style="bold")
            if board:
                line.append_text(cards_text(board, self.plain))
                line.append("    ")
        else:
            line = Text("board: ", style="bold")
            line.append_text(cards_text(board, self.plain) if board else Text("-", style="dim"))
            line.append("    ")
        line.append("pot: ", style="bold")
        line.append(str(pot))
        if turn >= 0:
            line.append("    seat %d to act%s" % (turn, ": " + alternatives(legal) if legal else ""),
                        style="orange1")
            bounds = self.bounds(turn)
            if bounds and self.amount is not None and ("bet" in legal or "raise" in legal):
                line.append("\nbet/raise to %d (%d..%d: +/- step, t type, A max, r go)"
                            % (self.amount, bounds[0], bounds[1]), style="bold")
        if self.picking is not None:
            choice = [a for a in CHOICES if a in (self.my_turn(self.picking) or ())]
            go = "discard" if choice == ["discard"] else "draw" if self.picked else "stand pat"
            line.append("\nseat %d throws: %s (1-9 pick, Enter %s, Esc cancel)" % (
                self.picking, " ".join(self.picked) or "nothing", go), style="bold cyan")
        return line

    def banked_line(self, board, pot):
        """A banked table: the dealer's cards, hold 'em bonus's board, the chips in the
        circles, the house's result and the seats deciding."""
        line = self.dealer_text()
        if self.board_shown:
            line.append("    board: ", style="bold")
            line.append_text(cards_text(board, self.plain) if board else Text("-", style="dim"))
        line.append("\nin circles: ", style="bold")
        line.append(str(pot))
        line.append_text(self.house_text())
        deciding = self.deciding()
        if deciding:
            name = next((e["name"] for e in reversed(self.session.events)
                         if e["e"] == "decide"), "")
            line.append("    %s: seats %s decide" % (name, ",".join(map(str, deciding))),
                        style="orange1")
        return line

    def led_text(self):
        leds, frame = self.session.strip.leds, self.session.strip.frame
        out = Text("LEDs ", style="bold")
        if not frame:
            return out + Text("(no frame yet)", style="dim")
        segments = [("%d" % i, seg) for i, seg in enumerate(leds["seats"])]
        for label, (start, count) in segments + [("centre", leds["centre"])]:
            out.append(" %s[" % label, style="dim")
            lit = frame[start:start + count]
            if self.plain:
                out.append(led_words(lit))
            for rgb in lit if not self.plain else ():
                out.append(self.swatch(rgb))
            out.append("]", style="dim")
        out.append("\n")
        out.append_text(self.legend())
        return out

    def legend(self):
        """What the colours mean, and what the centre's says in words (issue 22: the LEDs
        were colour blocks with no legend)."""
        out = Text("key ", style="bold")
        for status in (scenes.WAITING, scenes.ACTION, scenes.FOLDED, scenes.ALL_IN,
                       scenes.WINNER):
            out.append_text(self.swatch(scenes.SEAT_COLOURS[status]))
            out.append("%s " % seat_words(status))
        out.append_text(self.swatch(scenes.BUTTON))
        out.append("button · ")
        name = self.centre_name()
        out.append("centre: %s" % name, style="bold")
        if name in CENTRE_HINTS:
            out.append(", %s" % CENTRE_HINTS[name])
        return out

    def swatch(self, rgb):
        if self.plain:
            return Text("")             # the names say it, without colour
        # A full block in the LED's colour on it: no space, so no line break.
        return Text("█", style="rgb({0},{1},{2}) on rgb({0},{1},{2})".format(*rgb))

    def centre_name(self):
        leds, frame = self.session.strip.leds, self.session.strip.frame
        if not frame:
            return "?"
        status = scenes.centre_status(frame, leds)
        return scenes.CENTRE_NAMES[status] if status >= 0 else "?"


def led_words(lit):
    """LEDs' colours in words, a run of the same colour once with its count:
    `white,orange×5`."""
    runs = []
    for rgb in lit:
        name = COLOUR_WORDS.get(tuple(rgb), "rgb %d,%d,%d" % tuple(rgb))
        if runs and runs[-1][0] == name:
            runs[-1][1] += 1
        else:
            runs.append([name, 1])
    # No space inside a segment: the line breaks between segments only.
    return ",".join((name if n == 1 else "%s×%d" % (name, n)).replace(" ", "-")
                    for name, n in runs)


def run_view(args) -> int:
    # --journal and --phh go to the firmware, --trace gets every frame on the link.
    session = from_args(args, args.faults or "manual")
    app = FeltView(session)
    try:
        session.open()
        app.run()
    except LinkError as e:
        print("felt-emulator: %s %s" % (e, session.fw.stderr()), file=sys.stderr)
        return 1
    finally:
        app.close_session()
    return 1 if app.dead or app.return_code else 0
