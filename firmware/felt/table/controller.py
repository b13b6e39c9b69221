"""The table controller: seats, stacks, the button and the current round.

Every input, from whichever device or the link, arrives as one message of the
protocol's vocabulary through `handle(kind, payload)`, which returns None when the
input was accepted or the reason it was refused; a refused input changes nothing.
Accepted round events go to the journal before the round acts on them, and the table's
lasting state whenever it changes between rounds; at boot the table resumes from the
journal (after a power cut, mid-round if need be).  After every accepted input the LEDs
are redrawn from state.

The modules loaded for a moment (felt.table.configure, recovery, reports, placing,
technician, public) and the game's table use the controller's public methods, and
assign none of its fields (tests/host/test_firmware_shape.py): the round's (evt, apply,
effect, begin_round, start_shuffle, irregularity, journal_write, save, write_history,
record, lock, cold) and the named changes of its fields (new_table, use_rules, post,
play, place_button, place_by_high_card, card_read, noticed, round_ended, stand_wagers,
charge, keep_challenges, keep_public, resumed, round_resumed, restore, signed).

The table interface.  The game is the game's table's, `self.game`: a module of the
kind of table configured (felt.table.states.is_banked, a round's header or a
configuration; the kind map felt.table.configure.TABLES), felt.table.poker_table or
felt.table.banked_table, loaded with the configuration (felt.lazy).  Each provides
these operations, with these arguments (ctl the controller; p a message's payload; an
input's answers None when taken, else why not), and these constants; a host test
(tests/host/test_firmware_shape.py) holds both modules to this table:

    configured(ctl)          a table of this kind set up, new or resumed (its fields)
    forget()                 the table changes kind: this kind's modules go (felt.lazy)
    round_of(header)         the round a journal header begins, not started
    deal(ctl)                the dealer pressed deal: the shuffle started, or why not
    start_round(ctl)         after the cut: the round begun (begin_round) and dealt
    card(ctl, p)             a card read from the shoe
    button(ctl, p)           a seat's button
    chip(ctl, p)             a chip put in by the player on turn
    discard(ctl, p)          the cards a player throws away
    wager(ctl, p)            a seat's standing wagers
    panel(ctl, b, p)         the dealer's report of an irregularity of the round
    effects(ctl, out)        the round's effects as frames and card requests, those
                             every kind of round has taken by effect()
    ask(ctl)                 after a power cut, whoever the round waits on asked again
    end_round(ctl)           the round over: the table's fields from it, its history
    history(ctl, r)          the round's history file written: its path, or None
    seat_statuses(ctl, out)  the seats' LEDs
    shown_button(ctl)        the button the LEDs show
    snapshot(ctl, d)         the state answer's fields of this kind

    IRREGULAR_RULES          the module of its rounds' irregularities (felt.lazy)
    HAND_SHUFFLE_RULE        the section of a hand shuffle, the shuffler removed
    SHUFFLER_JAM_RULE        the section of a jammed shuffler
    LASTING                  the controller's fields it keeps across a power cut

A third kind of table is one more module of these operations and an entry in the kind
map, with the marker is_banked reads generalised into a kind (docs/architecture.md).
"""
from felt import FIRMWARE, check, lazy
from felt.protocol import ACKED, QUERIES
from felt.poker import cards as C
from felt.table import messages
from felt.table import scenes
from felt.table.decks import Decks
from felt.table import journal as journal_mod
from felt.table.journal import Journal, JournalError
from felt.table.eventlog import EventLog
from felt.table.shown import masked
from felt.table.states import IDLE, PLACING, SHUFFLING, HAND_SHUFFLE, CUT, PLAYING, copied

# A technician's, signed, where the board trusts keys (felt.table.technician).
# Past rounds' cards and the event log are read by a technician only (issue 21).
TECHNICIAN_ONLY = ("cfg", "rules", "deck", "clear", "recall", "eventlog", "root", "service")
TECHNICIAN = "felt.table.technician"
RECOVERY = "felt.table.recovery"   # reading the journal at boot (felt.lazy)
CONFIGURE = "felt.table.configure"  # configuring, changing the rules, the sign (felt.lazy)
RECALL = "felt.table.recall"       # reading past rounds back, for the link (felt.lazy)
RECORDS = "felt.table.records"     # its lines, for the boot and for recall (felt.lazy)
PUBLIC = "felt.table.public"       # a past round's public record, for the link (felt.lazy)
PLACE = "felt.table.placing"       # the high card that places the button (felt.lazy)
REPORTS = "felt.table.reports"     # the decks retired, the lock, time charges (felt.lazy)
VERIFY = "felt.verify"             # program verification on demand (felt.lazy)
VOUCH = "felt.vouch"               # what the board's own key vouches for (felt.lazy)
# What the table's own devices say: on a wired board (felt.board.DEVICES) taken from them
# alone, never from the link, table time too (issue 21, item 1; docs/security.md).
DEVICE_INPUTS = ("btn", "dealer", "card", "shoe", "shuf", "chip", "discard", "wager", "clock")
FROM_DEVICES = "comes from this table's own devices, never from the link"   # their refusal
MAX_CLOCK_STEP = 24 * 60   # minutes one clock message may move the table's time on
# The dealer's buttons the controller answers itself; the others report an irregularity
# of the round, to the game's table (its panel).
DEALER_OWN = ("deal", "cut_done", "hand_shuffle_done", "shuffler_removed")


class Controller:
    def __init__(self, hal, board, journal=None, trust=None, image=None, service=None):
        """`trust`: the file of public keys the board trusts (felt.image), one of which
        must sign a technician's command (felt.table.technician); None on a developer's
        table over the link, which takes those commands plainly.  `image`: the folder of
        the signed image the board runs ("" on a board), for `verify`; None if none.
        `service(why)`: ends the event loop for the board to reboot into service mode,
        its USB REPL open (felt.guard.Guard.fail, felt.boot.main), where the REPL is shut
        while the table plays (the Pico image); None elsewhere: there is none to open."""
        self.hal = hal
        self.board = board
        self.leds = board["leds"]
        self.journal = journal or Journal()
        self.journal.identify(FIRMWARE, board["name"])   # the stamp each file begins with
        # Tilts and errors, kept beside the journal (docs/tilts.md).
        self.eventlog = EventLog(self.journal.path + ".events" if self.journal.path else None)
        self.trust = trust
        self.image = image
        self.service = service
        # Its devices are at its pins and only there (felt.board.DEVICES).
        self.own_devices = hal.wired and board.get("devices", "wired") == "wired"
        # The board's own key, kept beside the journal (felt.boardkey), or None: the one
        # its journal's records are MACed with.
        self.key = self.journal.key
        # The challenges given and not yet spent: [(nonce, hal.ticks_ms when drawn)]
        # (felt.table.technician).
        self.challenges = []
        # While a technician's signed command is carried out: the id of the key that
        # signed it, and the challenge it answered (felt.table.technician); else False
        # and None.
        self.authorised = False
        self.asked = None
        self.minutes = 0         # table time, for time charges
        # The dealer's panel, where the board has a keypad (felt.table.panel): it hears
        # every event, to show the turn and the bounds.
        self.panel = None
        if hal.keypad is not None:
            from felt.table.panel import Panel
            self.panel = Panel(self, hal.display)
        self.reset()
        self._scene = None       # what the LEDs show: (seat statuses, button, centre)
        self._on_hello(None)     # announce the board at boot (docs/protocol.md, 5)
        ended = lazy.load(RECOVERY).resume(self)   # carry on from the journal
        lazy.forget(RECOVERY)    # a boot's work only
        lazy.forget(RECORDS)
        lazy.forget(CONFIGURE)       # the rules the table plays by were loaded with it
        if self.game is not None:    # its irregularity rules, if the replay needed them
            lazy.forget(self.game.IRREGULAR_RULES)   # back when asked for
        self.journal.buf = None
        if ended:                # the power went after the round's last event
            self.game.end_round(self)
            self.save()
        self.render()
        if self.panel is not None:
            self.panel.draw()

    def reset(self):
        """A new table, unconfigured (at boot, and when a technician clears a tilt)."""
        self.config = None
        self.stacks = []
        self.button = -1
        self.hand = 0
        self.state = IDLE
        self.round = None
        self.rake_total = 0      # taken by the house this session (13:47-20.37)
        self.charged = 0         # time-charge assessments made (felt.table.reports)
        self.placing = []        # (seat, card) dealt to place the button (felt.table.placing)
        self.decks = Decks()
        self.shuffler_present = True
        self.shoe_must_go = False   # 19:47-27.12(g): the failed shoe is removed first
        self.last_card = None    # the code last read, for the dealer's panel
        self.called_off = None   # how the last round ended when it was called off
        self.notice = None       # the last irregularity in the round, lit until the next input
        self.shown = set()       # the codes of the cards the round showed (felt.table.shown)
        self.public = None       # a round's public record while its pages are asked for
        self._cycle = False      # the shuffler has reported shuffling since it was started
        self._saved = None       # the lasting state last written to the journal
        self._marked = None      # while an input is handled: what it may change (_mark)
        self.locked = None       # why play is stopped (lock()), or None
        self.link_down = False   # the host is silent and play waits for it (link_lost)
        self.coming = None       # a posted rule change: {"rules": {...}, "at": minute}
        # The game's table: felt.table.poker_table or felt.table.banked_table, chosen
        # with the configuration (felt.table.configure); None before one.
        self.game = None
        self.house = 0           # the house's result at a banked table this session
        self.wagers = None       # a banked table's standing [ante, side] per seat

    # ----- the one entry point ---------------------------------------------------------

    def handle(self, kind, payload):
        """None when the input was taken, else why not: a refusal changes nothing.
        Only a check refuses (check.Refused, messages.why_not): anything else a handler
        raises is a fault of the firmware, never the input's (_fault)."""
        self.journal.source = self.hal.link.frame   # None unless a link frame brought it
        h = self._handler(kind)
        if h is None:
            return "unknown message %r" % (kind,)
        if self._locked_out(kind):
            reason = "the table is locked: %s" % self.locked
        elif self.own_devices and kind in DEVICE_INPUTS and self.hal.link.frame is not None:
            reason = "%s %s" % (kind, FROM_DEVICES)
            self.record("link_input_refused", kind)
        elif self.link_down and self._waits_for_link(kind, payload):
            reason = "the host link is lost: play waits for it"
        elif kind in TECHNICIAN_ONLY and self.trust is not None and not self.authorised:
            reason = "%s is a technician's command: send it signed (tech)" % kind
        else:
            reason = messages.why_not(kind, payload)   # checked whole before any change
        if reason is None:
            mark = self._mark() if kind not in QUERIES else None
            seq = self.journal.seq
            try:
                reason = h(messages.taken(kind, payload))
            except check.Refused as e:
                reason = str(e)
            except MemoryError:
                if kind not in QUERIES:
                    raise     # the heap, mid-change: the board reboots (felt.guard)
                reason = self._heap_short(kind)
            except Exception as e:  # noqa: BLE001 - a bug, whatever it raised
                return self._fault(kind, e, mark, self.journal.seq != seq)
            finally:
                self._marked = None
        if reason is None:
            if kind not in QUERIES:   # a question changes nothing: no new frame
                if self.state != PLAYING:
                    self.save()
                self.render()
                self.notice = None    # an irregularity is lit until the next input
        else:
            # Said to everyone on the link: no card the table did not show.
            self.evt({"e": "refused", "what": kind, "why": masked(reason, self.shown)})
        if self.panel is not None and kind not in QUERIES:   # a question shows nothing new
            self.panel.draw()
        return reason

    def _handler(self, kind):
        """The handler of messages of `kind`, or None.  A kind the link names is checked
        before it is looked up: getattr keeps every name it is given for good
        (MicroPython interns it), so a host inventing kinds would fill the heap."""
        return getattr(self, "_on_" + kind, None) if kind in ACKED or kind in QUERIES else None

    def _locked_out(self, kind):
        """Whether a locked table refuses `kind`: it takes questions, a technician's
        command and `clear`, which a developer's table takes plainly (it was refused
        there: nothing cleared a tilt)."""
        return self.locked is not None and kind not in QUERIES and kind != "tech" and \
            kind != "clear"

    def signed(self, kind, payload, key, nonce):
        """A technician's command `kind`, signed by the trusted `key` over the challenge
        `nonce` (felt.table.technician checked both): refused as handle() refuses it on
        a locked table or for what it says, else carried out under that key
        (authorised, asked).  handle("tech") marked the table and catches a fault."""
        if self._locked_out(kind):
            return "the table is locked: %s" % self.locked
        reason = messages.why_not(kind, payload)
        if reason is not None:
            return reason
        self.authorised, self.asked = key, nonce
        try:
            return self._handler(kind)(messages.taken(kind, payload))
        finally:
            self.authorised, self.asked = False, None

    def _mark(self):
        """What an input may change, kept to put back should its handler fail: the
        table's fields, its lists and decks copied, and the round under way's state
        (Round.save, which apply's undo uses too)."""
        d = dict(self.__dict__)
        d["stacks"], d["wagers"] = list(self.stacks), copied(self.wagers)
        d["placing"], d["decks"] = list(self.placing), self.decks.as_dict()
        r = self.round if self.state == PLAYING else None
        self._marked = (d, r.save() if r is not None else None)
        return self._marked

    def restore(self, mark):
        """Put back what an input changed, as _mark kept it: its handler failed
        (felt.table.reports.fault)."""
        d, saved = mark
        decks = Decks()
        decks.restore(d["decks"])
        d["decks"] = decks
        for k in d:
            setattr(self, k, d[k])
        if saved is not None:
            self.round.undo(saved)

    def _fault(self, kind, e, mark, journaled):
        """A handler raised what no check does: a bug of the firmware, not the input
        (docs/tilts.md, internal_fault): put back, locked, logged (felt.table.reports).
        Answered as applied (None) when the journal took a record for it: the next boot
        resumes with it, and a nak is final (docs/protocol.md, 5)."""
        self.cold(REPORTS, "fault", (kind, e, mark))
        return None if journaled else "the table is locked: %s" % self.locked

    def _on_hello(self, p):
        self.hal.link.send("hello", {"fw": FIRMWARE, "board": self.board["name"],
                                     "seats": len(self.leds["seats"]),
                                     "signed": self.trust is not None})

    def _heap_short(self, kind):
        """Why a question the heap could not answer is refused, what it built let go: a
        question changes nothing, so the table plays on (a reboot would stop the round
        for any host on the link that asks a long round's record)."""
        import gc
        self.public = None
        gc.collect()
        return "the board's heap cannot answer %s now: ask again later" % kind

    def _on_state(self, p):
        self.hal.link.send("state", self.snapshot())

    def _on_heap(self, p):
        """The GC heap after a collection, for a technician and felt-bench (null where
        the runtime has no fixed heap: CPython)."""
        import gc
        gc.collect()
        used = gc.mem_alloc() if hasattr(gc, "mem_alloc") else None
        free = gc.mem_free() if hasattr(gc, "mem_free") else None
        self.hal.link.send("heap", {"used": used, "free": free})

    def _on_eventlog(self, p):
        """The event log, a page at a time from record `from` (docs/tilts.md)."""
        records, nxt = self.eventlog.page(p.get("from", 0))
        self.hal.link.send("eventlog", self.vouched("eventlog", {"records": records,
                                                                 "next": nxt}, self.asked))

    def _on_recall(self, p):
        """A past round from the journal, a page at a time (docs/protocol.md): round
        0 the newest complete one, from its record `from` (0 its header)."""
        try:
            answer = lazy.load(RECALL).page(self.journal.path, p.get("round", 0),
                                            p.get("from", 0), key=self.journal.key)
        finally:
            lazy.forget(RECALL)
            lazy.forget(RECORDS)
        self.hal.link.send("recall", self.vouched("recall", answer, self.asked))
        # Every card of a past round left the board: whose key asked is kept.
        if answer["seq"] is None and not answer["events"]:
            pass                # no such round: nothing left it
        elif self.authorised:
            self.record("recall", "round %d from record %d, signed by key %s" % (
                answer["round"], answer["from"], self.authorised))
        else:
            self.record("recall_unsigned", "round %d from record %d" % (
                answer["round"], answer["from"]))

    def _on_public(self, p):
        """A past round's public record (felt.table.public): only the cards the table
        showed, so anyone on the link may read it."""
        public = lazy.load(PUBLIC)
        try:
            answer = public.page(self, p.get("round", 0), p.get("from", 0))
        finally:
            for name in (PUBLIC,) + public.LOADED:
                lazy.forget(name)
        self.hal.link.send("public", answer)

    def _on_verify(self, p):
        """Program verification on demand (felt.verify): the image's HMAC for the seed."""
        try:
            answer = lazy.load(VERIFY).answer(self.image, p["seed"])
        finally:
            lazy.forget(VERIFY)
            lazy.forget("felt.image")
        self.hal.link.send("verify", self.vouched("verify", answer, p["seed"], "board_mac"))

    def vouched(self, kind, answer, nonce, field="mac"):
        """`answer` with the MAC of the board's own key over it, this board and `nonce`
        (the challenge or seed its request answered) in `field`, where the board keeps a
        key and the request had a nonce (felt.vouch); else as it is."""
        if self.key is None or nonce is None:
            return answer
        try:
            return lazy.load(VOUCH).vouched(self.key, self.board, nonce, kind, answer, field)
        finally:
            lazy.forget(VOUCH)

    def record(self, code, detail=""):
        """A tilt, an error or a clearing, into the event log (docs/tilts.md)."""
        self.eventlog.add(self.minutes, self.hand, code, detail)

    # A technician's command (felt.table.technician): loaded only for one.

    def _on_deck(self, p):
        return self.cold(REPORTS, "register_deck", p)

    def _on_challenge(self, p):
        try:
            self.cold(TECHNICIAN, "challenge", p)
        finally:
            lazy.forget(VOUCH)     # felt.table.technician's board_id

    def _on_tech(self, p):
        try:
            return self.cold(TECHNICIAN, "command", p)
        finally:
            lazy.forget(VOUCH)     # felt.table.technician's board_id

    def _on_clear(self, p):
        return self.cold(TECHNICIAN, "clear", p)

    def _on_root(self, p):
        if self.trust is None:
            return "this table trusts no key: there is no trust document to replace"
        return self.cold(TECHNICIAN, "root", p)

    def _on_service(self, p):
        return self.cold(TECHNICIAN, "service", p)

    def cold(self, module, name, p):
        """`name`(self, p) of a module loaded for it and forgotten after (felt.lazy)."""
        try:
            return getattr(lazy.load(module), name)(self, p)
        finally:
            lazy.forget(module)

    def _on_sign(self, p):
        return self.cold(CONFIGURE, "sign", p)

    def _on_clock(self, p):
        """Table time in minutes, for time charges (13:47-20.37(a)4iii)."""
        minutes = p["minutes"]
        if minutes < self.minutes:
            return "clock minutes never go back: the table's time is %d" % self.minutes
        if minutes > self.minutes + MAX_CLOCK_STEP:
            # One message moves time on a day at most, so time charges stay a short loop.
            return "clock minutes may go at most %d ahead at once" % MAX_CLOCK_STEP
        self.minutes = minutes
        if self.state == IDLE:
            self.time_charges()
            self.rules_due()
        return None

    # The configuration and the rules, changed seldom (felt.table.configure).

    def _on_cfg(self, p):
        return self.cold(CONFIGURE, "new_table", p)

    def _on_rules(self, p):
        return self.cold(CONFIGURE, "rules", p)

    def rules_due(self):
        """A posted rule change whose time has come applies, between rounds."""
        if self.coming is not None and self.minutes >= self.coming["at"]:
            self.cold(CONFIGURE, "due", None)

    def _on_dealer(self, p):
        b = p["b"]
        if b not in DEALER_OWN:
            if self.game is None:
                return "no round under way for %s" % b
            return self.game.panel(self, b, p)
        if b == "cut_done":
            if self.state != CUT:
                return "no cut is due: the table is %s" % self.state
            self.game.start_round(self)
            return None
        if b == "hand_shuffle_done":
            if self.state != HAND_SHUFFLE:
                return "no hand shuffle is due: the table is %s" % self.state
            if self.shuffler_present:
                return "remove the shuffler before shuffling by hand (%s)" % (
                    self.game.HAND_SHUFFLE_RULE)
            self.evt({"e": "shuffled", "how": "hand", "deck": self.decks.name()})
            self.record("shuffler_jam_cleared", "deck %s shuffled by hand" % self.decks.name())
            self._wait(CUT)
            return None
        if b == "shuffler_removed":
            self._shuffler_presence(False)
            return None
        if self.config is None:
            return "no table configuration: send cfg first"
        if self.state != IDLE:
            return "a round is already under way (%s)" % self.state
        self.rules_due()
        if self.shoe_must_go:
            return "remove the failed dealing shoe first (19:47-27.12(g))"
        if not self.decks.usable():
            return "both decks are retired (13:47-20.38(h)): a technician registers one"
        reason = self.game.deal(self)
        if reason is None:
            self.called_off = None   # a new deal: how the last round ended is past
        return reason

    def _on_shuf(self, p):
        """The shuffler's status: its state, whether it is fitted, its deck check."""
        if "present" in p:
            self._shuffler_presence(p["present"])
        state = p.get("state")
        if state is None:
            return None
        if self.state != SHUFFLING:
            return None
        if state == "shuffling":
            self._cycle = True
            return None
        if state == "jammed" or (state == "idle" and self._cycle):
            self._shuffler_failed()
        elif state == "done":
            bad = self._deck_check(p)
            if bad:
                self.cold(REPORTS, "retire_deck", bad)
                if self.decks.usable():
                    self.start_shuffle()
                else:
                    self.state = IDLE
            else:
                self.evt({"e": "shuffled", "how": "device", "deck": self.decks.name()})
                self._wait(CUT)
        return None

    def _deck_check(self, p):
        """13:47-20.38(h): what the shuffler's card recognition found wrong, or None."""
        missing, extra = p.get("missing", []), p.get("extra", [])
        count = p.get("count", 52)
        if missing or extra or count != 52:
            return "deck check: %d cards%s%s" % (
                count, ", missing " + " ".join(missing) if missing else "",
                ", extra " + " ".join(extra) if extra else "")
        return None

    def _shuffler_failed(self):
        """13:47-20.38(o): jammed, stopped or a cycle not completed: shuffle by hand."""
        self.irregularity("shuffler_jam", self.game.SHUFFLER_JAM_RULE,
                          "the shuffler failed: shuffle deck %s by hand" % self.decks.name())
        self.record("shuffler_jam", "deck %s to be shuffled by hand" % self.decks.name())
        self._wait(HAND_SHUFFLE)

    def _shuffler_presence(self, present):
        if present != self.shuffler_present:
            self.shuffler_present = present
            self.evt({"e": "shuffler", "present": present})
            if not present and self.state == SHUFFLING:
                # Taken off before its cycle completed (the dealer found it stuck): the
                # deck is shuffled by hand (13:47-20.38(o) and (p); 19:47-27.12(e)).
                self._shuffler_failed()

    def _on_shoe(self, p):
        """The dealing shoe's status (19:47-27.12(f)-(g))."""
        if "present" in p:
            if not p["present"] and self.shoe_must_go:
                self.shoe_must_go = False
                self.evt({"e": "shoe", "present": False})
                self.record("shoe_failure_cleared", "the failed shoe was removed")
        state = p.get("state", "ok")
        if state == "ok":
            return None
        if self.state != PLAYING:
            return None
        # A jam, a stop or a failure to deal all cards voids the round: every wager goes
        # back, the cards are reshuffled with those dealt, and the shoe is removed.
        self.shoe_must_go = True
        self.apply(("void", "dealing shoe " + state))
        self.record("shoe_failure", "the dealing shoe reported %s: the round is void" % state)
        return None

    def _on_card(self, p):
        if self.state == PLACING:
            return self.cold(PLACE, "card", p["code"])
        if self.state != PLAYING:
            return "no card is due: the table is %s" % self.state
        return self.game.card(self, p)

    # The seats' inputs, the game's table's to take or refuse.

    def _on_btn(self, p):
        if self.game is None:
            return "no betting now: the table is %s" % self.state
        return self.game.button(self, p)

    def _on_chip(self, p):
        """A single chip put in by the player on turn (a chip-sensing table)."""
        if self.state != PLAYING:
            return "no betting now: the table is %s" % self.state
        return self.game.chip(self, p)

    def _on_discard(self, p):
        """The cards a player throws away: Pineapple's discard or a draw."""
        if self.state != PLAYING:
            return "no discards now: the table is %s" % self.state
        return self.game.discard(self, p)

    def _on_wager(self, p):
        """A seat's standing wagers at a house-banked table (felt.table.banked_table)."""
        return self.game.wager(self, p) if self.game else "no house-banked table"

    def link_lost(self, lost):
        """The host fell silent (`lost`) or was heard again (felt.loop, on a table whose
        board needs its host).  While it is lost no round starts and no player acts;
        what already happened at the table (cards read, the shuffler, the shoe, the
        dealer's reports) is still taken, so nothing physical goes unrecorded."""
        if lost != self.link_down:
            self.link_down = lost
            self.cold(REPORTS, "link_lost", lost)

    def _waits_for_link(self, kind, payload):
        if self.hal.link.frame is not None:     # the host speaks: the link is back
            self.link_lost(False)
            return False
        return kind in ("btn", "chip", "discard", "wager") or (kind == "dealer" and payload.get("b") == "deal")

    def lock(self, why, code="critical_memory"):
        """Stop play: the table cannot vouch for its state (a journal it cannot read
        exactly, a write that failed, a fault of its own program).  Every input but the queries is refused from now
        on, the centre LEDs show it, and the link says why; nothing is changed or
        forgotten, so a technician can see what was found."""
        if self.locked is None:
            self.locked = why
            self.cold(REPORTS, "lock", (why, code))

    # ----- rounds ------------------------------------------------------------------------

    def seated(self):
        return [s > 0 for s in self.stacks]

    def start_shuffle(self):
        """Every deal follows a completed shuffle, by the device or by hand, then the cut."""
        if not self.shuffler_present:
            self._wait(HAND_SHUFFLE)
            return
        self.state = SHUFFLING
        self._cycle = False
        self.hal.shuffler.start()

    def _wait(self, state):
        """The table waits for the dealer: a hand shuffle or the cut."""
        self.state = state
        self.evt({"e": "waiting", "for": state, "deck": self.decks.name()})

    def irregularity(self, kind, section, detail):
        """An irregularity's event: its detail names no card the table did not show."""
        self.evt({"e": "irregularity", "kind": kind, "section": section,
                  "detail": masked(detail, self.shown)})

    def begin_round(self, r, button, wagers=None):
        """The round `r` begins (the game's table made it): the table saved as it
        begins, then the round's header journaled, so that a cut between them resumes
        the table as it was, the hand not yet counted.  Not journaled, not begun: the
        table locks."""
        self.save()
        if self.locked is None:
            self.journal_write(self.journal.begin, self.hand + 1, button, self.stacks,
                               self.config, wagers)
        if self.locked is not None:
            raise check.Refused("the table is locked: %s" % self.locked)
        self.hand += 1
        self.round = r
        self.state = PLAYING
        self.shown = set()
        self.public = None

    def apply(self, event):
        """The LEDs first: the round takes the event and the LEDs show the new state,
        then the end of the round it brings is settled and its winners lit, all before
        its journal write and its frames.  Not journaled, not applied: a write that
        fails undoes the event (and the settlement) and locks the table."""
        r = self.round
        saved = self._marked[1] if self._marked is not None else None   # handle's
        if saved is None:
            saved = r.save()
        effects = r.apply(event, settle=False)
        self.render()
        self.settle_now(effects)
        if not self.journal_write(self.journal.append, event):
            r.undo(saved)
            self.render()
            raise check.Refused("the table is locked: %s" % self.locked)
        self.game.effects(self, effects)

    def settle_now(self, effects):
        """The end of the round an event brought (the round's ("settle",) effect)
        settled and its winners lit at once: the event's journal write takes a Pico's
        flash 60 to 120 ms that the lights need not wait for.  The effect becomes
        ("settled", the settlement's effects), said in its place after the write."""
        for i in range(len(effects)):
            if effects[i][0] == "settle":
                effects[i] = ("settled", self.round.settle())
                self.render_ended()

    def effect(self, e):
        """Take a round's effect that every kind of round has (the game's table's
        effects() asks first): True if it was one, else it is the game's own."""
        k = e[0]
        if k == "need":
            self.hal.card_reader.want(e[1], e[2])
        elif k == "called_off":
            self.called_off = e[1]
            self.irregularity(e[1], e[3], e[2])
        elif k == "end":
            self.game.end_round(self)
        elif k == "settled":
            self.game.effects(self, e[1])   # the showdown settle_now lit, said
        else:
            return False
        return True

    def journal_write(self, write, *args):
        """A journal write; True if it went, else the table is locked (the flash is
        full, or failing): no chip may move unrecorded."""
        try:
            write(*args)
        except JournalError as e:
            self.lock(str(e), "journal_write_failed")
            return False
        return True

    def write_history(self, r):
        """The round's hand history (PHH, or a house-banked round's record), with a
        history folder: every round, a called-off one too (it says why)."""
        try:
            self.game.history(self, r)
        except Exception as e:  # noqa: BLE001 - a history never stops the table
            self.hal.link.send("log", {"msg": journal_mod.brief(
                "hand history not written: %s" % journal_mod.why(e))})

    def time_charges(self):
        """13:47-20.37(a)4iii: the hourly fee, assessed every 20 or 30 minutes between
        rounds (felt.table.reports), at a table that charges by time."""
        rake = self.config.rake if self.config else None
        if rake is not None and rake.method == "time" and \
                self.charged < self.minutes // rake.every:
            self.cold(REPORTS, "time_charges", rake)

    # ----- the changes the game's table and the modules loaded for a moment make ----------

    def new_table(self, cfg):
        """A new table configured with `cfg` (felt.table.configure): its stacks, no round
        played, nothing posted nor taken yet."""
        self.coming = None
        self.round = None
        self.stacks = list(cfg.stacks)
        self.button = -1
        self.hand = 0
        self.rake_total = 0
        self.house = 0
        self.wagers = None
        self.use_rules(cfg)

    def use_rules(self, cfg):
        """The configuration `cfg` in effect, a new table's or the rules changed
        (felt.table.configure): the time charges already assessed under it, none at a
        table without them."""
        self.config = cfg
        self.charged = self.minutes // cfg.rake.every if cfg.rake else 0

    def post(self, coming):
        """A rule change posted, {"rules": {...}, "at": minute}, or None when none is."""
        self.coming = coming

    def play(self, game):
        """The game's table to play by, or None (felt.table.configure.load_rules)."""
        self.game = game

    def place_button(self, seat, how=None):
        """The button at `seat`, said with `how` it was placed; moved on quietly after a
        round (`how` None)."""
        self.button = seat
        if how is not None:
            self.evt({"e": "button", "seat": seat, "how": how})

    def place_by_high_card(self):
        """One card a seat dealt to place the button (13:47-14.10(c)2ii: felt.table.placing)."""
        self.state = PLACING
        self.placing = []
        self.cold(PLACE, "want", None)

    def card_read(self, code):
        """The code last read, for the dealer's panel."""
        self.last_card = code

    def noticed(self, kind):
        """An irregularity in the round, lit until the next input."""
        self.notice = kind

    def round_ended(self, stacks, rake=0, house=0):
        """The round is over (the game's table's end_round): the stacks it left, the rake
        it took, the house's result at a banked table; the table between rounds."""
        self.stacks = list(stacks)
        self.rake_total += rake
        self.house += house
        self.state = IDLE

    def stand_wagers(self, wagers):
        """Every seat's standing wagers at a banked table (felt.table.banked_table)."""
        self.wagers = wagers

    def charge(self, charges):
        """One time charge assessed (felt.table.reports): `charges` a seat, each taken as
        far as the seat's chips go, to the house's rake; what was taken, a seat."""
        self.charged += 1
        taken = [min(charges[s], self.stacks[s]) for s in range(len(charges))]
        for s in range(len(taken)):
            self.stacks[s] -= taken[s]
            self.rake_total += taken[s]
        return taken

    def keep_challenges(self, challenges):
        """The challenges given and not yet spent nor expired (felt.table.technician)."""
        self.challenges = challenges

    def keep_public(self, kept):
        """A round's public record kept while its pages are asked for, or None
        (felt.table.public)."""
        self.public = kept

    # ----- power cuts ---------------------------------------------------------------------

    def lasting(self):
        """What the table keeps across a power cut: all but the round under way and the
        shuffle or cut it waited for (a new shuffle and cut follow a restart).  A copy:
        the table's own lists and dicts stay its own, so a change made in place is still
        a change from what was journaled (_save)."""
        d = {"config": self.config.as_dict() if self.config else None,
             "stacks": list(self.stacks), "button": self.button, "hand": self.hand,
             "decks": self.decks.as_dict(), "rake_total": self.rake_total,
             "minutes": self.minutes, "charged": self.charged,
             "shuffler_present": self.shuffler_present,
             "shoe_must_go": self.shoe_must_go, "called_off": self.called_off,
             "coming": copied(self.coming)}
        for k in self.game.LASTING if self.game is not None else ():
            d[k] = copied(getattr(self, k))
        return d

    def resumed(self, table, cfg, decks, r):
        """The table as the journal's last table record left it, lasting()'s inverse:
        felt.table.recovery checked the record and read `cfg` and `decks` from it, and
        rebuilt the round `r` from the journal.  The record is what the next save
        compares with."""
        self.config, self.decks, self.round = cfg, decks, r
        self.stacks = list(table["stacks"])
        self.button, self.hand = table["button"], table["hand"]
        self.rake_total, self.minutes = table["rake_total"], table["minutes"]
        self.charged = table["charged"]
        self.shuffler_present = table["shuffler_present"]
        self.shoe_must_go, self.called_off = table["shoe_must_go"], table["called_off"]
        # The record stays the copy of what was journaled: the live table gets copies of
        # its lists and dicts, so a change made in place (a seat's wagers) is a change.
        self.coming = copied(table["coming"])
        self.house, self.wagers = table.get("house", 0), copied(table.get("wagers"))
        self._saved = table

    def round_resumed(self, hand):
        """The round `hand`, under way at the power cut, plays on (felt.table.recovery)."""
        self.hand = hand
        self.state = PLAYING

    def save(self):
        state = self.lasting()
        if state != self._saved and self.journal_write(self.journal.table, state):
            self._saved = state

    # ----- output --------------------------------------------------------------------------

    def evt(self, payload):
        self.hal.link.send("evt", payload)
        if self.panel is not None:
            self.panel.heard(payload)

    def seat_statuses(self):
        n = len(self.leds["seats"])
        out = [scenes.EMPTY] * n
        return out if self.game is None else self.game.seat_statuses(self, out)

    def centre_status(self):
        if self.locked is not None or self.link_down:
            return scenes.LOCKED
        if self.shoe_must_go:
            return scenes.SHOE_OUT
        if not self.decks.usable():
            return scenes.NO_DECK
        if self.notice is not None and self.state == PLAYING:
            return scenes.NOTICE
        if self.state == HAND_SHUFFLE:
            return scenes.HAND_SHUFFLE
        if self.state == CUT:
            return scenes.CUT
        if self.state == IDLE and self.called_off:
            return scenes.CALLED_OFF
        if self.state in (SHUFFLING,):
            return scenes.SHUFFLING
        if self.state == PLACING or (self.state == PLAYING and self.round.dealing()):
            return scenes.DEALING
        if self.state == PLAYING:
            return scenes.BETTING
        return scenes.IDLE

    def render(self):
        """Light the LEDs for the table's state; written only when they change."""
        shown_button = self.button if self.game is None else self.game.shown_button(self)
        scene = (self.seat_statuses(), shown_button, self.centre_status())
        if scene != self._scene:
            self._scene = scene
            scenes.render(self.hal.pixels, self.leds, scene[0], scene[1], scene[2])

    def render_ended(self):
        """The LEDs as the round's end will leave them (the winners), lit as soon as its
        result is known: its frames and its end (the link, the journal, the hand
        history) take a Pico a third of a second more.  Should the LEDs fail, the fault
        puts the table's fields back (_fault)."""
        state, stacks = self.state, self.stacks
        self.state, self.stacks = IDLE, self.round.stacks
        self.render()
        self.state, self.stacks = state, stacks

    def snapshot(self):
        """The state answer: the table between rounds, the game's table adding the
        round under way."""
        r = self.round
        d = {"state": self.state, "hand": self.hand, "button": self.button,
             "stacks": list(self.stacks), "to_act": -1,
             "board": C.codes(r.board) if r is not None else "",
             "pot": 0, "rake": self.rake_total,
             "decks": self.decks.as_dict(),
             "shuffler_present": self.shuffler_present, "shoe_must_go": self.shoe_must_go,
             "config": self.config.as_dict() if self.config else None,
             "locked": self.locked}
        return d if self.game is None else self.game.snapshot(self, d)
