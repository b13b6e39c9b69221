"""The interactive terminal view of the emulated table (textual).

Every seat with its stack, the status its LEDs show, its hole cards and last action;
the board, the pot, the LED strip in the colours the firmware wrote, and a log of the
round's events.  Any seat's buttons can be pressed: the firmware refuses a press out of
turn and the log says why.

Faults can be injected from the keyboard (FAULT_KEYS): the devices' at their next moment
(a shuffle, a card from the shoe), the dealer's panel now; the log shows the firmware's
irregularity events with their sections, and one line per fault saying what was done.
Pressing fold for the seat that must post the bring-in shows the forced bet's refusal.
"""

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, RichLog, Static

from felt.table import scenes
from host_tools.emulator.link import LinkError
from host_tools.emulator.players import BUTTON_FOR
from host_tools.emulator.session import Session, table_config
from host_tools.words import event_line

SEAT_KEYS = "0123456789a"           # a selects seat 10
STATUS_STYLE = {"empty": "dim", "waiting": "", "action": "bold orange1", "folded": "dim red",
                "all-in": "bold blue", "winner": "bold green"}
PUT_IN = ("post", "action")         # events whose amount goes into the pot
# Keys that inject a fault (host_tools.emulator.faults), with the footer's label.  The
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
              ("Z", "power_cut", "power", "the power fails and comes back (the journal)"))
SEAT_FAULTS = ("player_away", "foul")


def card_text(code):
    red = code[-1:] in "hd"
    return Text(code, style="bold red" if red else "bold")


def cards_text(codes):
    out = Text()
    for i, c in enumerate(codes):
        out.append(" " if i else "")
        out.append_text(card_text(c))
    return out


class FeltView(App):
    """The table at a glance; give it an opened Session.  It closes the session on exit."""

    TITLE = "Felt emulator"
    CSS = """
    #status { height: 1; background: $boost; }
    #seats { height: auto; }
    #table { height: auto; margin: 0 1; }
    #leds { height: auto; margin: 0 1; background: black; }
    #log { height: 1fr; border: round $primary; }
    """
    BINDINGS = [
        Binding("d", "deal", "deal"),
        Binding("0", "select(0)", "seat", key_display="0-9,a"),
        *[Binding(k, "select(%d)" % i, "seat", show=False) for i, k in enumerate(SEAT_KEYS) if i],
        Binding("f", "press('fold')", "fold"),
        Binding("c", "press('call')", "call"),
        Binding("r", "press('raise')", "raise"),
        Binding("b", "bot", "bot"),
        Binding("B", "autoplay", "auto"),
        *[Binding(key, "fault('%s')" % kind, label) for key, kind, label, _ in FAULT_KEYS],
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, session, pump_s=0.02, bot_s=0.25):
        super().__init__()
        self.session = session
        self.pump_s, self.bot_s = pump_s, bot_s
        self.selected = 0
        self.autoplay = False
        self.stacks = list(session.config["stacks"])   # as of the last round's end
        self.dead = None                               # why the link failed, if it did
        self.closed = False

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="seats")
        yield Static(id="table")
        yield Static(id="leds")
        yield RichLog(id="log", wrap=True)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self):
        self.log_line("%d players; press d to deal" % self.session.players, "dim")
        self.log_line("faults: " + "; ".join("%s %s" % (key, what)
                                            for key, _, _, what in FAULT_KEYS), "dim")
        self.set_interval(self.pump_s, self.pump)
        self.set_interval(self.bot_s, self.bot_tick)
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

    def pump(self):
        frames = self.guarded(self.session.link.drain, 0)
        if not frames:
            return
        faults = len(self.session.faults)
        for kind, p in frames:
            self.guarded(self.session.take, kind, p)
            if kind == "evt":
                line = event_line(p)
                if p["e"] == "end":
                    self.stacks = list(p["stacks"])
                if line:
                    hole = p["e"] == "dealt" and p["what"] == "hole"
                    self.log_line(line, "bold" if p["e"] in ("award", "end", "hand") else
                                  "dim" if hole else "")
        for f in self.session.faults[faults:]:
            if "refused" not in f:      # refusals come as events and are logged as such
                self.log_line("fault: %s" % f, "bold red")
        self.show_notes()
        self.refresh_table()

    def show_notes(self):
        """The injected faults' lines and the technician's work."""
        for line in self.session.notes:
            self.log_line(line, "bold magenta")
        self.session.notes.clear()

    def press(self, seat, button):
        why = self.guarded(self.session.press, seat, button)
        if why is None:
            if self.session.turn and self.session.turn[0] == seat:
                self.session.turn = None
        else:
            self.log_line("seat %d %s refused: %s" % (seat, button, why), "bold red")

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
        if seat >= self.session.players:
            self.log_line("no seat %d: %d players" % (seat, self.session.players), "dim")
            return
        self.selected = seat
        self.refresh_table()

    def action_press(self, button):
        self.press(self.selected, button)

    def action_bot(self):
        if self.session.turn:
            seat, legal = self.session.turn
            self.press(seat, BUTTON_FOR[self.session.bots[seat].choose(legal)])

    def action_fault(self, kind):
        seat = self.selected
        if kind in SEAT_FAULTS and seat >= self.session.players:
            return
        self.guarded(self.session.inject_fault, kind, seat)
        self.show_notes()
        self.refresh_table()

    def action_autoplay(self):
        self.autoplay = not self.autoplay
        self.log_line("autoplay %s" % ("on" if self.autoplay else "off"), "cyan")
        self.refresh_table()

    def bot_tick(self):
        if self.autoplay:
            self.action_bot()

    # ----- drawing -------------------------------------------------------------------

    def table_state(self):
        """Stacks, pot, cards and last actions from this round's events."""
        ev = self.session.events
        hand = [e for e in ev if e["e"] == "hand"]
        stacks = list(hand[-1]["stacks"]) if hand else list(self.stacks)
        holes = [[] for _ in stacks]
        last = [""] * len(stacks)
        board, pot = [], 0
        for e in ev:
            k, seat = e["e"], e.get("seat", -1)
            if k in PUT_IN:
                stacks[seat] -= e["amount"]
                pot += e["amount"]
                last[seat] = e.get("a") or "%s %d" % (e["kind"], e["amount"])
                if k == "action" and e["amount"]:
                    last[seat] += " +%d" % e["amount"]
            elif k in ("return", "award"):
                stacks[seat] += e["amount"]
                pot -= e["amount"]
                if k == "award":
                    last[seat] = "won %d" % e["amount"]
            elif k == "dealt" and e["what"] == "hole":
                holes[seat].append(e["card"])
            elif k == "dealt" and e["what"] == "board":
                board.append(e["card"])
            elif k == "show":
                last[seat] = e["hand"]
        return stacks, holes, last, board, pot

    def refresh_table(self):
        s, strip = self.session, self.session.strip
        stacks, holes, last, board, pot = self.table_state()
        button = strip.button_seat() if strip.frame else -1
        turn = s.turn[0] if s.turn else -1
        seats = Table(expand=False, box=None, padding=(0, 2), header_style="bold underline")
        for col in ("", "seat", "stack", "status", "cards", "last action"):
            seats.add_column(col, justify="right" if col in ("seat", "stack") else "left")
        for seat in range(s.players):
            name = scenes.SEAT_NAMES[strip.seat_status(seat)] if strip.frame else "?"
            mark = Text("D", style="bold black on white") if seat == button else Text(" ")
            mark.append(" ▶" if seat == turn else "  ", style="bold orange1")
            sel = seat == self.selected
            number = Text("[%d]" % seat if sel else str(seat), style="reverse" if sel else "")
            seats.add_row(mark, number, str(stacks[seat]),
                          Text(name, style=STATUS_STYLE.get(name, "")), cards_text(holes[seat]),
                          last[seat])
        self.query_one("#seats", Static).update(seats)

        table = Text("board: ", style="bold")
        table.append_text(cards_text(board) if board else Text("-", style="dim"))
        table.append("    pot: ", style="bold")
        table.append(str(pot))
        if s.turn:
            table.append("    seat %d to act: %s" % (s.turn[0], "/".join(s.turn[1])),
                         style="orange1")
        self.query_one("#table", Static).update(table)

        self.query_one("#leds", Static).update(self.led_text())
        centre = self.centre_name()
        hand = [e["hand"] for e in s.events if e["e"] == "hand"]
        decks = s.fx.decks if s.fx is not None else None
        self.query_one("#status", Static).update(Text(
            " %s · hand %s · table %s · selected seat %d · autoplay %s%s%s" % (
                s.fw.runtime, hand[-1] if hand else "-", centre, self.selected,
                "ON" if self.autoplay else "off",
                " · deck %s in play%s" % (decks.in_play, ", %s retired" % "+".join(
                    decks.retired) if decks.retired else "") if decks else "",
                " · LINK DOWN" if self.dead else "")))

    def led_text(self):
        leds, frame = self.session.strip.leds, self.session.strip.frame
        out = Text("LEDs ", style="bold")
        if not frame:
            return out + Text("(no frame yet)", style="dim")
        segments = [("%d" % i, seg) for i, seg in enumerate(leds["seats"])]
        for label, (start, count) in segments + [("centre", leds["centre"])]:
            out.append(" %s[" % label, style="dim")
            for r, g, b in frame[start:start + count]:
                # A full block in the LED's colour on it: no space, so no line break.
                out.append("█", style="rgb({0},{1},{2}) on rgb({0},{1},{2})".format(r, g, b))
            out.append("]", style="dim")
        return out

    def centre_name(self):
        leds, frame = self.session.strip.leds, self.session.strip.frame
        if not frame:
            return "?"
        colour = tuple(frame[leds["centre"][0]])
        for status, c in enumerate(scenes.CENTRE_COLOURS):
            if c == colour:
                return scenes.CENTRE_NAMES[status]
        return "?"


def run_view(args) -> int:
    config = table_config(args.game, args.players, args.stack, args.structure, args.rake,
                          args.button, args.straddle)
    session = Session(players=args.players, seed=args.seed, board=args.board,
                      journal=args.journal, config=config, inject=args.faults or "manual",
                      runtime=args.runtime, heap=args.heap, image=args.image, trust=args.trust,
                      tech_key=args.tech_key)
    app = FeltView(session)
    try:
        session.open()
        app.run()
    except LinkError as e:
        print("felt-emulator: %s\n%s" % (e, session.fw.stderr()))
        return 1
    finally:
        app.close_session()
    return 1 if app.dead or app.return_code else 0
