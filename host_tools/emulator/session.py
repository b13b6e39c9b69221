"""A session at the emulated table: configure it, then play rounds through the firmware.

The emulator answers only what the firmware asks (a shuffle, a card, an action), so a
seed fixes every run: the same seed prints the same output.  With `inject` the devices
and the dealer's panel also fail now and then (host_tools.emulator.faults), from a seeded
stream of their own: a session without faults sends exactly what it always did.

A house-banked game (Four Card Poker, hold 'em bonus) is played the same way: its
seats' decisions (`decide` events, several seats at once) are made by the bots with
the seat buttons, and the house's result comes with each round's end.
"""

import json
import os
import tempfile
import time
from pathlib import Path

from felt.poker import variants
from felt.table import eventlog
from felt.table.config import BANKED
from felt.table.recall import files
from host_tools.cli import REPO
from host_tools.emulator.devices import Shoe, Shuffler, seeded
from host_tools.emulator.faults import Faults
from host_tools.emulator.players import BUTTON_FOR, RandomPlayer
from host_tools.leds import LedStrip
from host_tools.link import LinkError, Tilted
from host_tools.process import start as start_firmware

DEFAULT_BOARD = REPO / "hardware" / "boards" / "pico-11.json"


RAKES = {"none": None,
         "percent": {"method": "percent", "percent": 5, "maximum": 6},
         "incremental": {"method": "incremental", "levels": [[20, 1], [60, 2], [120, 3]],
                         "maximum": 3},
         "time": {"method": "time", "hourly": 6, "every": 30, "per": "player"}}
MINUTES_PER_ROUND = 2   # table time the emulator lets pass per round (time charges)
# A house-banked table's settings (docs/protocol.md 6.4): wagers of 1 to 10 chips, an
# ante of 1 (stacks of 1000 last a 1000-hand run), aces up table I, settlement player
# by player (19:47-27.10(e)2), the hold 'em bonus ante paid from a flush, the standard
# bonus table.
BANKED_TABLE = {"min_wager": 1, "max_wager": 10, "ante": 1, "aces_up": "I",
                "settle_order": 2, "ante_pays_from": "flush", "bonus_table": "standard"}


def forget_journal(path):
    """Remove a journal with its archives and any new one begun (docs/journal.md): an
    empty journal, or none beside an archive, is a lost journal: the table locks.
    The event log beside it goes too: a new table.  The board's own key stays, as a
    board keeps it (docs/journal.md)."""
    for p in files(path)[::-1] + [path + ".reboot"] + list(eventlog.files(path + ".events")):
        try:
            os.remove(p)
        except FileNotFoundError:
            pass


def forget_board(path):
    """The journal at `path` forgotten (forget_journal) with the board's own key beside
    it and the temporary folder that held them: an emulated board of one run."""
    from felt import boardkey
    forget_journal(path)
    try:
        os.remove(boardkey.path(path))
    except FileNotFoundError:
        pass
    os.rmdir(os.path.dirname(path))


def table_config(game="holdem", players=9, stack=1000, structure="fixed", rake="none",
                 button="dealer_right", straddle=False, run_it=1):
    """The settings the emulator sends: the game's usual forced bets at 2/4, the board
    run `run_it` times when all agree (13:69F-14.10(l)); a house-banked game's
    BANKED_TABLE (it has no structure, rake, straddle, runouts or button)."""
    if game in BANKED:
        return dict(BANKED_TABLE, game=game, seats=players, stacks=[stack] * players)
    v = variants.get(game)
    cfg = {"game": game, "seats": players, "stacks": [stack] * players, "button": button,
           "structure": structure, "small_bet": 2, "big_bet": 4}
    if structure == "fixed" or structure == "spread":
        cfg["cap"] = 4
    else:
        cfg["cap"] = 0
    if v.stud():
        cfg["ante"] = 1
        cfg["blinds"] = []
        cfg["bring_in"] = 1 if v.bring_in else 0
        if straddle:
            cfg["straddle"] = True   # for the table to refuse: a stud game has no blinds
    else:
        cfg["blinds"] = [1, 2]
        cfg["straddle"] = straddle
    if RAKES[rake]:
        cfg["rake"] = RAKES[rake]
    if run_it > 1:
        cfg["run_it"] = run_it      # for the table to refuse where the game has no board
    return cfg


class Session:
    def __init__(self, players=9, seed=0, stack=1000, board=DEFAULT_BOARD,
                 button="dealer_right", journal=None, config=None, phh=None, inject=None,
                 runtime="cpython", heap=None, measure=False, image=None, trust=None,
                 tech_key=None, trace=None, presses_only=False, chip=None, board_key=None):
        """`inject`: None (no faults), "manual" (faults only when armed or injected, e.g.
        from the terminal view's keys) or "random" (also at random moments).  `runtime`
        and `heap`: what the firmware runs on; `measure`: its perf frames (HostLink.perf);
        `image`, `trust`, `chip` and `board_key`: a signed image to run, the board's trust
        document, its chip id and the host's copy of its own key
        (host_tools.process.FirmwareProcess); `tech_key`: the private key that
        signs the technician's commands to it (host_tools.tech); `presses_only`: the
        players act with their seat buttons alone, as at a wired board, which takes no
        amount, discard or clock from its link (docs/security.md): a bet or raise is the
        button's own (the least; Four Card Poker's raise plays 3x).  A wired board's
        session plays so whatever it is asked."""
        self.board_path = Path(board)
        self.board = json.loads(self.board_path.read_text())
        self.players = players
        self.seed = seed
        self.config = config or table_config(players=players, stack=stack, button=button)
        self.shuffler = Shuffler(seeded(seed, "shuffler"))
        self.shoe = Shoe()
        self.strip = LedStrip(self.board["leds"])
        self.panel = None         # the dealer's display, as read at a wired board's pins
        self.bots = [RandomPlayer(seeded(seed, "seat%d" % s)) for s in range(players)]
        self.faults = []          # problems: refusals and anything unexpected
        # A house-banked table (docs/protocol.md 6.4): no turns but decisions, open to
        # several seats at once, [(seat, legal)] still to make; the standing wagers.
        self.banked = self.config.get("game") in BANKED
        self.deciding = []
        self.wagers = [[self.config.get("ante", 0), 0] for _ in range(players)]
        self.stacks = list(self.config["stacks"])
        self.notes = []           # lines about injected faults and the technician's work
        # Who else hears every frame from the firmware: each has frame(kind, payload),
        # and close() when the session closes; opened(hello, state), where it has it,
        # as the board first answers (host_tools.floorlink.publisher.Publisher).
        self.observers = []
        self.injected = []        # (kind, hand, what the firmware did) per injected fault
        if inject not in (None, "manual", "random"):
            raise ValueError("inject must be None, 'manual' or 'random'")
        self.fx = Faults(self, seeded(seed, "faults"), inject == "random") if inject else None
        self.events = []          # every evt of the current round
        self.hole = [[] for _ in range(players)]   # each seat's cards, as dealt
        self.burned = []          # the round's burn cards since its last reshuffle
        self.muck = []            # its discards since then (a draw game's)
        self.drawn = []           # the cards the last seat to draw threw away
        self.fed = None           # the card the shoe last gave its reader
        self.thrown = {}          # seat: the cards it last threw away (discard), as sent
        self.reported = ""        # the card the dealer's last report was about (report)
        self.minutes = 0
        self.turn = None          # (seat, legal) when a player is to act
        self.bounds = None        # (min, max) of a bet or raise, when not fixed limit
        self.ended = None         # the end event of the last round
        self.ended_hand = None    # its hand number, kept when the next round begins
        # A new table: no journal yet (the firmware resumes from whatever it finds).
        # Like a board it always has one, for power cuts: in a temporary folder unless
        # one is named.
        self._own_journal = journal is None
        if self._own_journal:
            journal = os.path.join(tempfile.mkdtemp(prefix="felt-journal-"), "journal.jsonl")
        forget_journal(journal)
        self.fw = start_firmware(self.board_path, journal, runtime=runtime, seed=seed, phh=phh,
                                 heap=heap, measure=measure, image=image, trust=trust,
                                 chip=chip, board_key=board_key)
        # An emulated Pico's devices are at its pins (host_tools.pico.bridge).
        self.wired = self.fw.runtime == "pico" and self.board.get("devices", "wired") == "wired"
        # Its seat buttons say no amount: where it has the dealer's panel, the dealer
        # keys them there (host_tools.pico.panel); where not, presses only.
        self.presses_only = presses_only or (self.wired and "keypad" not in self.board)
        # An emulated Pico runs an image signed with a key of its own (PicoProcess).
        tech_key = tech_key or getattr(self.fw, "tech_key", None)
        self.technician = None        # host_tools.tech.Technician, where it has a key
        if tech_key is not None and self.fw.board_key is not None:
            from host_tools import tech
            self.technician = tech.Technician(tech_key, self.fw.board_key)
        self.link_errors = 0      # bad frames and failed sends on links before a power cut
        self.link = self.fw.link
        # Every frame on the link, each way, power cuts included (FirmwareProcess keeps
        # the hook across them).
        self._trace = open(trace, "w") if trace else None
        if self._trace is not None:
            self.link.trace = lambda d, line: self._trace.write(
                d + " " + line.decode(errors="replace"))

    def close(self):
        for observer in self.observers:
            observer.close()
        self.fw.close()
        if self._trace is not None:
            self._trace.close()
        if self._own_journal:
            forget_board(self.fw.journal)

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, *exc):
        self.close()

    def open(self):
        # The firmware's port flushes its input when it opens: wait for its first frame
        # (the boot LED frame) before saying anything.
        kind, p = self.link.recv()
        if kind == "px":
            self.strip.capture(p["rgb"])
        self.hello = self.link.request("hello", {}, "hello")
        tilt = self.hello.get("tilt")
        # Those who show the table (the floor's Publisher) begin from what the board says
        # it is: a tilted board answers no question but with its tilt.
        showing = [o for o in self.observers if hasattr(o, "opened")]
        state = None if tilt or not showing else self.state()
        for observer in showing:
            observer.opened(self.hello, state)
        if tilt:      # the program check failed (felt.tilted): the table never starts
            raise Tilted("%s: %s: %s" % (tilt["code"], tilt["file"], tilt["why"]))
        self._must(self.link.send(*self.as_technician("cfg", self.config)), "cfg")
        # The shoe holds a shuffled deck from the start, for the button's high card.
        self.shoe.load(self.shuffler.shuffle())

    def side_wagers(self):
        """At a house-banked table the bots' seats that add the side wager (aces up,
        bonus) for the session say so: with its amount, one to three antes, where the
        board takes amounts (a wired board's dealer keys it), else by pressing `raise`:
        the ante and a side wager of one ante."""
        for seat, bot in enumerate(self.bots):
            if not bot.side_wager():
                continue
            if self.presses_only:
                self._must(self.press(seat, "raise"), "seat %d's wagers" % seat)
                continue
            ante = self.wagers[seat][0]
            side = bot.side_amount(ante, self.config.get("max_wager") or 3 * ante)
            self._must(self.link.send("wager", {"seat": seat, "side": side}),
                       "seat %d's wagers" % seat)
        for kind, p in self.link.drain(0):
            self.take(kind, p)

    def state(self):
        return self.link.request("state", {}, "state")

    def as_technician(self, kind, payload):
        """(kind, payload) of a technician's command as this board takes it: signed for
        its challenge when it trusts keys (hello's `signed`), else as it is."""
        from felt.table.controller import TECHNICIAN_ONLY
        if kind not in TECHNICIAN_ONLY or not self.hello.get("signed"):
            return kind, payload
        from host_tools import tech
        return "tech", tech.signed(self.signer(), tech.challenge(self.link, self.signer()),
                                   kind, payload)

    def signer(self):
        """The session's Technician; LinkError where it has none."""
        if self.technician is None:
            raise LinkError("the board takes only signed technician commands: give the "
                            "technician's key")
        return self.technician

    def ask(self, kind, payload):
        """The board's answer to a query, signed where it is a technician's (recall,
        eventlog) and the board trusts keys."""
        from felt.table.controller import TECHNICIAN_ONLY
        if kind in TECHNICIAN_ONLY and self.hello.get("signed"):
            from host_tools import tech
            return tech.ask(self.link, self.signer(), kind, payload)   # its MAC checked
        return self.link.request(kind, payload, kind)

    def power_cut(self):
        """The table's power fails and comes back: the firmware boots and resumes from
        its journal.  Returns the frames it sent up to its first LED frame (its hello,
        `resumed`, what it asks for); they stay queued for play to go on."""
        old = self.link
        self.link_errors += old.decoder.errors + old.sender.failed
        self.link = self.fw.power_cut()
        frames = []
        while not frames or frames[-1][0] != "px":
            frames.append(self.link.recv())
        self.link.inbox.extendleft(reversed(frames))
        return frames

    def feed(self, card):
        """The shoe's reader reads a card (`card`, a card message's payload): the shoe
        never deals it again, and it is the card a wired board's face-down `dealt` is
        about (it names none).  None if the board took it, else its reason."""
        code = card["code"]
        if code in self.shoe.deck:      # a card put in by hand (a scenario's)
            self.shoe.deck.remove(code)
            self.shoe.dealt.append(code)
        self.fed = code
        return self.link.send("card", card)

    def report(self, payload):
        """The dealer's panel reports (a `dealer` message): the card it is about, named
        or the card last read, is the one a wired board's face-down `discarded` took
        back (it names none).  None if the board took it, else its reason."""
        if payload.get("b") in ("exposed", "off_table", "ineligible"):
            self.reported = payload.get("card", self.fed)
        return self.link.send("dealer", payload)

    def _must(self, refusal, what):
        if refusal is not None:
            self.faults.append("%s refused: %s" % (what, refusal))

    # ----- playing ----------------------------------------------------------------------

    def wait(self, seconds):
        """Between rounds: hear what the firmware says for `seconds` (its LEDs' idle
        scene), as the table stands waiting for the dealer."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for kind, p in self.link.drain(min(0.2, max(0.0, end - time.monotonic()))):
                self.take(kind, p)

    def deal(self):
        """The dealer presses deal: a new round starts once the shuffler is done."""
        if self.fx is not None:
            # What followed the last round's end (a deck retired), then the technician.
            for kind, p in self.link.drain(0):
                self.take(kind, p)
            self.fx.before_deal()
        self.events = []
        self.hole = [[] for _ in range(self.players)]
        self.burned = []
        self.muck, self.drawn = [], []
        self.turn = None
        self.deciding = []
        self.ended = None
        if self.banked:
            # A seat that can no longer cover its side wager plays the ante alone.
            for seat, (ante, side) in enumerate(self.wagers):
                if side and ante <= self.stacks[seat] < ante + side:
                    self._must(self.press(seat, "call"), "seat %d's wagers" % seat)
        self._must(self.link.send("dealer", {"b": "deal"}), "deal")

    # ----- faults -------------------------------------------------------------------------

    def arm_fault(self, kind, seat=None):
        """A fault for its next moment: a shuffle (shuffler_jam, missing_card) or a card
        (shoe_jam, face_up, foreign_card, duplicate_card).  Needs `inject`."""
        self.fx.arm(kind, seat)

    def inject_fault(self, kind, seat=None):
        """A fault now: the dealer's panel (misdeal, exposed, off_table, ineligible,
        player_away and foul of `seat`) or the shoe (shoe_jam); the others are armed."""
        self.fx.inject_now(kind, seat)

    def fault_counts(self):
        """{kind: injected count} for every fault kind of this table's."""
        kinds = Faults.kinds(self.config.get("game"))
        return {k: self.fx.counts[k] if self.fx else 0 for k in kinds}

    def take(self, kind, p):
        """Play the devices' part for one frame from the firmware.

        A turn (`self.turn`, `(seat, legal)`) is offered with its to_act event (the
        firmware lights its LEDs before or after it: a press's first, docs/protocol.md);
        the round's end event lands in `self.ended`."""
        for observer in self.observers:
            observer.frame(kind, p)
        if kind == "px":
            self.strip.capture(p["rgb"])
        elif kind == "panel":
            self.panel = p["lines"]
        elif kind == "shuffle":
            self.shoe.load(self.shuffler.shuffle())
            if self.fx is not None and self.fx.on_shuffle():
                return
            self._must(self.link.send("shuf", {"state": "shuffling"}), "shuffler")
            self._must(self.link.send("shuf", {"state": "done"}), "shuffler")
        elif kind == "need":
            if self.fx is None:
                self._must(self.feed({"code": self.shoe.deal()}), "card")
            elif not self.fx.on_need(p):
                self._must(self.feed(self.fx.card(self.shoe.deal())), "card")
        elif kind == "evt":
            e = p["e"]
            if e == "end" and p.get("hand") == self.ended_hand:
                # A board that rebooted before its journal kept a round's end says that
                # end again as it resumes (docs/protocol.md, `resumed`): already played.
                return
            if e in ("dealt", "held") and "card" not in p:
                # A wired board never says a face down card's face: the shoe dealt it.
                p["card"] = self.fed
            elif e == "discarded" and "cards" not in p:
                # Nor the cards a seat threw away (those its player passed to the muck),
                # nor one a report took back from it (the card the report was about).
                seat = p["seat"]
                p["cards"] = self.thrown.pop(seat) if seat in self.thrown else self.reported
            self.events.append(p)
            explained = self.fx is not None and self.fx.on_event(p)
            if e == "refused":
                if not explained:
                    self.faults.append("refused %s: %s" % (p["what"], p["why"]))
            elif e == "locked":
                # Play stops (docs/tilts.md): a journal it cannot trust, or a fault of
                # the firmware's own (internal_fault), never taken for a refusal.
                self.faults.append("the table locked (%s): %s" % (p.get("code"), p["why"]))
            elif e == "to_act":
                self.turn = (p["seat"], p["legal"])
                self.bounds = (p["min"], p["max"]) if "min" in p else None
            elif e == "dealt" and p["what"] in ("hole", "up") and p["seat"] >= 0:
                self.hole[p["seat"]].append(p["card"])
            elif e == "dealt" and p["what"] == "burn":
                self.burned.append(p["card"])
            elif e == "discarded" and p["seat"] >= 0:   # seat -1: a card found face up
                for c in p["cards"].split():
                    self.hole[p["seat"]].remove(c)
                self.muck += p["cards"].split()
                self.drawn = p["cards"].split()
            elif e == "reshuffle":
                # 19:47-14.9(h), 13:69F-14.12B: these cards go back under the stub, shuffled;
                # on a wired board, which names none, those the dealer gathers (_gathered).
                cards = p["cards"].split() if "cards" in p else self._gathered(p["count"])
                self.shoe.add(self.shuffler.reshuffle(cards))
                self.burned = []
            elif e == "waiting":
                self._dealer_for(p["for"])
            elif e == "decide":
                self.deciding = list(zip(p["seats"], p["legal"]))
            elif e == "hand" or e == "end":
                self.stacks = list(p["stacks"])
                if e == "hand":
                    self.ended_hand = None    # a round begun: no end is said again now
            elif e == "wager":
                self.stacks[p["seat"]] -= p["amount"]
            elif e == "wagers":
                self.wagers[p["seat"]] = [p["ante"], p["side"]]
            if e == "end":
                self.ended, self.ended_hand = p, p.get("hand")
                self.turn = None      # a round called off mid-turn leaves nobody to act
                self.deciding = []
        elif kind not in ("log", "hello"):
            self.faults.append("unexpected %s frame" % kind)

    def _gathered(self, count):
        """The cards the dealer shuffles under the stub when it runs out, by the rules
        the board says it by (felt.poker.round's _reshuffle): in stud the burn cards
        (19:47-14.9(h)); in a draw every discard but the drawing player's, with the burn
        cards and the folded hands (13:69F-14.12B(f)).  A count other than the board's
        is said as a fault: the emulated dealer and the board disagree."""
        if variants.get(self.config.get("game", "holdem")).stud():
            pool = list(self.burned)
        else:
            pool = [c for c in self.muck + self.burned if c not in self.drawn]
            for a in self.events:
                if a["e"] == "action" and a["a"] == "fold":
                    pool += self.hole[a["seat"]]
                    self.hole[a["seat"]] = []
            self.muck = [c for c in self.muck if c in self.drawn]
        if len(pool) != count:
            self.faults.append("the board reshuffled %d cards, the dealer gathered %d"
                               % (count, len(pool)))
        return pool

    def _dealer_for(self, what):
        """The emulated dealer does what the table waits for."""
        if what == "cut":
            self._must(self.link.send("dealer", {"b": "cut_done"}), "cut")
        elif what == "hand_shuffle":
            # 13:47-20.38(p): the shuffler leaves the table before a hand shuffle.
            self._must(self.link.send("shuf", {"present": False}), "shuffler removed")
            self.shoe.load(self.shuffler.reshuffle(self.shoe.deck + self.shoe.dealt))
            self._must(self.link.send("dealer", {"b": "hand_shuffle_done"}), "hand shuffle")

    def bot_message(self, seat, action):
        """(kind, payload) of the seat's bot taking `action`: a seat button (with an
        amount in spread, pot and no limit), or the cards it throws away."""
        bot = self.bots[seat]
        if action in ("discard", "draw"):
            count = 1 if action == "discard" else None
            return "discard", {"seat": seat, "cards": " ".join(bot.throw(self.hole[seat], count))}
        msg = {"seat": seat, "b": BUTTON_FOR[action]}
        if action in ("bet", "raise") and self.bounds and not self.presses_only:
            msg["to"] = bot.amount(*self.bounds)
        return "btn", msg

    def act(self, seat, action):
        """The player on turn takes an action: a seat button, or cards thrown away."""
        self.turn = None
        kind, msg = self.bot_message(seat, action)
        why = self.discard(seat, msg["cards"]) if kind == "discard" else self.link.send(kind, msg)
        self._must(why, "seat %d %s" % (seat, action))

    def pass_time(self):
        """Let the table's clock run between rounds (time charges, 13:47-20.37(a)4iii);
        a wired board keeps its own."""
        if self.wired:
            return
        self.minutes += MINUTES_PER_ROUND
        self._must(self.link.send("clock", {"minutes": self.minutes}), "clock")

    def play_round(self, choose=None):
        """Deal one round and play it to the end; returns the firmware's end event.

        `choose(seat, legal)` picks an action; the seeded bots play by default."""
        choose = choose or (lambda seat, legal: self.bots[seat].choose(legal))
        self.deal()
        while self.ended is None:
            self.take(*self.link.recv())
            if self.turn is not None:
                seat, legal = self.turn
                if self.fx is not None and self.fx.on_turn(seat, legal):
                    self.turn = None    # a fault took the turn; the firmware asks again
                    continue
                self.act(seat, choose(seat, legal))
            elif self.deciding:
                seat, legal = self.deciding[0]
                if self.fx is not None and self.fx.on_decide(seat, legal):
                    continue    # the fault's frames follow: a void, a decision asked again
                self.deciding.pop(0)
                self.decide(seat, legal)
        return self.ended

    def decide(self, seat, legal):
        """A seat at a house-banked table makes its decision with its buttons
        (docs/protocol.md 6.4), as its bot sees its cards."""
        g = self.config["game"]
        button, to = self.bots[seat].decide(g, self.events, self.hole[seat], legal,
                                            self.wagers[seat][0], self.stacks[seat])
        if self.presses_only:
            to = None
        self._must(self.press(seat, button, to), "seat %d %s" % (seat, button))

    def press(self, seat, button, to=None):
        """Press a seat button (`to`: the total of a bet or raise in spread, pot and no
        limit); None if accepted, else the firmware's reason."""
        msg = {"seat": seat, "b": button}
        if to is not None:
            msg["to"] = to
        return self.link.send("btn", msg)

    def discard(self, seat, cards):
        """A player throws `cards` (a list of codes, or the link's string of them; none
        stands pat) away, kept as what a wired board's `discarded` names not; None if
        accepted, else the firmware's reason."""
        self.thrown[seat] = cards if isinstance(cards, str) else " ".join(cards)
        return self.link.send("discard", {"seat": seat, "cards": self.thrown[seat]})


def from_args(args, inject):
    """The Session felt-emulator's options describe, headless or in the view."""
    config = table_config(args.game, args.players, args.stack, args.structure, args.rake,
                          args.button, args.straddle, args.run_it)
    session = Session(players=args.players, seed=args.seed, board=args.board,
                      journal=args.journal, config=config, phh=args.phh, inject=inject,
                      runtime=args.runtime, heap=args.heap, image=args.image,
                      trust=args.trust, tech_key=args.tech_key, trace=args.trace,
                      presses_only=args.presses_only, chip=args.chip,
                      board_key=args.board_key)
    if args.floor is not None:     # the table on the floor's broker (docs/floor.md)
        from host_tools.cli import UserError
        from host_tools.floorlink.publisher import Publisher, SpoolBusy, say_waiting, spool_for
        from host_tools.floorlink.table_state import about
        try:
            session.observers.append(Publisher(
                args.floor.user, args.floor, spool_for(args.floor.user), about(config),
                session.board["leds"],
                public=lambda k, start: session.ask("public", {"round": k, "from": start})))
        except SpoolBusy as e:
            session.close()
            raise UserError(str(e), 1)
        say_waiting(spool_for(args.floor.user))
    return session


def round_line(end, events):
    """One line per round: the button seat and what each winner took; at a
    house-banked table what the house won, the players paid more than they wagered,
    the dealer's cards (and the board)."""
    if "house_round" in end:
        dealer = "".join(e["card"] for e in events if e["e"] == "dealt" and e["what"] == "dealer")
        line = "hand %d: house=%+d winners=%s dealer=%s" % (
            end["hand"], end["house_round"], ",".join(
                "%d:%+d" % (s, end["results"][s][1] - end["results"][s][0])
                for s in end["winners"]), dealer or "-")
        line += " board=%s" % end["board"].replace(" ", "") if end["board"] else ""
        if end.get("called_off"):
            line += " called_off=%s" % end["called_off"]
        return line
    won = {}
    for e in events:
        if e["e"] == "award":
            won[e["seat"]] = won.get(e["seat"], 0) + e["amount"]
    winners = ",".join("%d:%d" % (s, won[s]) for s in sorted(won))
    line = "hand %d: button=%s winners=%s board=%s" % (
        end["hand"], end["button"] if end["button"] >= 0 else "none", winners,
        end["board"].replace(" ", "") or "-")
    line += " rake=%d" % end["rake"] if end.get("rake") else ""
    if end.get("called_off"):
        line += " called_off=%s" % end["called_off"]
    return line
