"""Faults injected into the emulated table: its devices' failures and the dealer's reports.

The firmware decides what each irregularity does (felt.poker.irregular, 13:47-20.38,
19:47-27.12); the emulator only makes it happen, at a moment the rules allow, and checks
that the firmware answered as those rules say.  A session with faults:

  - labels every card with the deck it comes from, and keeps the two decks (A, B) in
    step with the firmware's events; a retired deck is replaced by the technician only
    after a round has been dealt with the other one;
  - lets the technician refit a shuffler the dealer removed after a jam (20.38(p));
  - injects the faults of KINDS: armed for their next moment (the terminal view's keys),
    injected now (the dealer's panel), or, in "random" mode, at random decision points
    with their own seeded RNG, so a fault-free run draws nothing from it; and on a wired
    board those of WIRED_KINDS, armed only.

A power cut kills the firmware and boots it again on its journal: the table must come
back as it was (the `state` before and after agree) and play goes on.

A house-banked table (docs/protocol.md 6.4) has faults of its own, BANKED_KINDS
(19:47-27.12): they come at a card asked for or at a seat's decision (on_decide), and
the poker table's panel reports are never injected there.

Every injected fault leaves a line in `session.notes`:
    fault: <kind> at hand N: <what the firmware did> (<section>)
built from what the firmware reported (irregularity, refund, discarded, exposed and
dead_hand events).  In random mode anything the firmware did that no injected fault
explains, and any answer other than the rules' (a refusal, a missing irregularity), is
a problem in `session.faults`.
"""

from collections import Counter

from felt.hal.mp import SILENT_MS
from felt.poker import variants
from felt.poker.irregular import SECTIONS
from felt.table.config import BANKED
from host_tools.emulator.devices import CODES, Decks
from host_tools.words import code_words

KINDS = ("shuffler_jam", "missing_card", "shoe_jam", "face_up", "foreign_card",
         "duplicate_card", "misdeal", "ineligible", "off_table", "exposed", "foul",
         "player_away", "forced_bet", "power_cut")
# A house-banked table's (19:47-27.12): the shuffler (e), the shoe (f), a face-up card
# (a), a card drawn in error (b), a miscount (c), the dealer's card exposed (d).  The
# poker table's panel reports are naked there, a card of the other deck too: not
# injected.
BANKED_KINDS = ("shuffler_jam", "shoe_jam", "face_up", "drawn_in_error", "miscount",
                "dealer_exposed", "power_cut")
# A wired board's own (its driver times the shuffler's lines: felt.hal.mp.Shuffler):
# armed only, never drawn at random, so a seed's faults are what they were.
WIRED_KINDS = ("shuffler_silent",)
ARMED_AT = {"shuffler_jam": "shuffle", "missing_card": "shuffle", "shoe_jam": "need",
            "face_up": "need", "foreign_card": "need", "duplicate_card": "need",
            "shuffler_silent": "shuffle"}
# Chance of a fault at each decision point: a shuffle, a card asked for, a player's turn.
RATES = {"shuffle": 0.04, "need": 0.005, "turn": 0.006}
SECOND_FACE_UP = 0.12   # after one face-up card, the chance of another at each card
# Kinds whose moment is short (a bring-in, a stud hand's first cards) get a chance of
# their own there.
BOOST = {"stud_forced_bet": 0.05, "stud_exposed": 0.003}
BOTH_EXPOSED = 0.4      # stud: both hole cards turned up rather than one
CHOICES = ("discard", "draw", "straddle", "decline", "run_it", "run_once")
WAGERS = ("call", "bet", "raise")
# Events only an irregularity produces: in random mode each must come from a fault.
IRREGULAR_EVENTS = ("irregularity", "refund", "dead_hand", "exposed", "held")


class RoundTracker:
    """What the emulator knows of the round under way, from the firmware's events: enough
    to pick a fault the rules allow now.  It errs on the side of fewer candidates (the
    cards "just dealt" are forgotten at the first burn or street)."""

    def __init__(self, stud):
        self.stud = stud
        self.hand = 0
        self.playing = False
        self.reset([])

    def reset(self, stacks):
        self.dealt_in = [s > 0 for s in stacks]
        self.folded = set()
        self.seen = set()        # cards the round has seen (felt.poker.round: seen)
        self.just = []           # (code, seat): hole and up cards of the deal under way
        self.cards = [[] for _ in stacks]   # per seat: [code, up, exposed] as dealt
        self.wagered = set()     # seats that have voluntarily wagered (20.38(f)2, 4)
        self.street = False      # a later betting round has begun
        self.betting = False     # a player has been asked to act
        self.burned = False      # a burn or board card was asked for
        self.option = -1         # the last blind or straddle: the seat with the option
        self.blinds = {}         # seat -> its blind this round (a forced bet, 20.38(k)2)
        self.face_ups = 0
        self.replacing = None    # the card a replace report takes back
        self.dealer = []         # a house-banked table: the dealer's cards dealt

    def live(self, seat):
        return 0 <= seat < len(self.dealt_in) and self.dealt_in[seat] \
            and seat not in self.folded

    def on_need(self, what):
        if what in ("burn", "board"):
            self.burned = True
            self.just = []

    def on_event(self, p):
        e = p["e"]
        if e == "hand":
            self.hand = p["hand"]
            self.playing = True
            self.reset(p["stacks"])
            return
        if e == "end":
            self.playing = False
            return
        if not self.playing:
            return
        seat = p.get("seat", -1)
        if e == "dealt":
            code = p["card"]
            self.seen.add(code)
            if p["what"] == "dealer":
                self.dealer.append(code)
            if p["what"] in ("hole", "up") and seat >= 0:
                self.cards[seat].append([code, p["what"] == "up", False])
                if self.live(seat):
                    self.just.append((code, seat))
        elif e == "discarded":
            cards = p["cards"].split()
            if seat < 0:
                self.seen.update(cards)            # found face up: seen, not used
                return
            if cards == [self.replacing]:
                self.just = [j for j in self.just if j[0] != self.replacing]
            else:
                self.just = []                     # a discard or draw: someone acted
            self.replacing = None
            self.cards[seat] = [c for c in self.cards[seat] if c[0] not in cards]
        elif e == "reshuffle":
            self.seen.difference_update(p["cards"].split())
        elif e == "action":
            self.just = []
            if p["a"] in WAGERS:
                self.wagered.add(seat)
            elif p["a"] == "fold":
                self.folded.add(seat)
        elif e == "post":
            if p["kind"] == "straddle":
                self.just = []
            if p["kind"] in ("blind", "straddle"):
                self.option = seat
            if p["kind"] == "blind":
                self.blinds[seat] = p["amount"]
        elif e == "to_act":
            self.betting = True
        elif e == "street":
            self.street = True
            self.just = []
        elif e == "dead_hand" or e == "fold":    # fold: a house-banked table's
            self.folded.add(seat)
        elif e == "exposed":
            for c in self.cards[seat]:
                if c[0] == p["card"]:
                    c[1] = c[2] = True

    # ----- what the rules allow now ------------------------------------------------------

    def replaceable(self, seat=None):
        """Cards of the deal under way, held by live players (20.38(g), (m), (n))."""
        return [(c, s) for c, s in self.just if self.live(s) and (seat is None or s == seat)]

    def misdeal_ok(self):
        """20.38(f)2 and 4: before two players have voluntarily wagered; and early."""
        return len(self.wagered) < 2 and not self.street

    def exposable(self, seat=None):
        """Stud, 20.38(l): (seat, [hole cards down], third card not yet dealt) while the
        first cards are dealt."""
        if not self.stud or self.betting or self.street or self.burned:
            return []
        just = set(c for c, _ in self.just)
        out = []
        for s in range(len(self.cards)):
            if not self.live(s) or (seat is not None and s != seat):
                continue
            down = [c[0] for c in self.cards[s][:2] if not c[1] and c[0] in just]
            if down:
                out.append((s, down, len(self.cards[s]) < 3))
        return out

    def holding(self):
        return [s for s in range(len(self.cards)) if self.live(s) and self.cards[s]]


class Faults:
    """The faults of one session; `random` injects them by chance, else only when asked."""

    def __init__(self, session, rng, random=False):
        self.s = session
        self.rng = rng
        self.random = random
        self.strict = random
        self.counts = Counter()
        self.armed = {}
        self.banked = session.banked
        self.game = session.config.get("game", "holdem")
        variant = variants.get("holdem" if self.banked else self.game)
        self.stud = variant.stud()
        first = variant.steps[0]
        self.first_deal = first[1] + first[2] if first[0] == "deal" else 0
        self.track = RoundTracker(self.stud)
        self.decks = Decks()
        self.shuffler_out = False   # removed by the dealer (20.38(p)) until refitted
        self.refit_in = 0           # deals to go before the technician refits it
        self.shuffling = False      # between the deal button and the round's first card
        self.explained = set()      # ids of events an injected fault accounts for
        self.down_due = set()       # stud seats whose third card must come down (20.38(l))
        self.misdeals = 0
        self.start_chips = sum(session.config["stacks"])

    @staticmethod
    def kinds(game):
        """The fault kinds of a table for `game`: a poker table's, or a house-banked
        one's (a card drawn in error needs cards still to come after a decision: hold
        'em bonus's board; Four Card Poker's cards are all dealt before it)."""
        if game not in BANKED:
            return KINDS
        return tuple(k for k in BANKED_KINDS if k != "drawn_in_error" or game == "holdem-bonus")

    # ----- the session's hooks -----------------------------------------------------------

    def card(self, code):
        """The card message for a card the shoe deals: labelled with its deck, but on a
        wired board, whose reader says the code alone (and takes no card from the link)."""
        if self.s.wired:
            return {"code": code}
        return {"code": code, "deck": self.decks.in_play}

    def before_deal(self):
        """Between rounds: the technician's work, then (random mode) the table checked."""
        s = self.s
        if self.shuffler_out:
            if self.refit_in > 0:
                self.refit_in -= 1
            elif self._technician("shuf", {"present": True}, "shuffler refitted",
                                  lambda e: e["e"] == "shuffler" and e["present"]):
                self.shuffler_out = False
        if not self.decks.usable() and not self.decks.due():
            self.decks.ready[self.decks.retired[0]] = True   # both sealed: one must come back
        for name in self.decks.due():
            self._register(name)
        if self.strict:
            st = s.state()
            want = {"decks": self.decks.as_dict(), "shuffler_present": not self.shuffler_out,
                    "shoe_must_go": False}
            got = {k: st[k] for k in want}
            if got != want:
                self._problem("before hand %d the firmware has %s, the emulator %s"
                              % (self.track.hand + 1, got, want))
                self._resync(st)
            chips = sum(st["stacks"]) + st["rake"] + st.get("house", 0)
            if chips != self.start_chips:
                self._problem("after hand %d: %d chips at the table and the house, %d at the start"
                              % (self.track.hand, chips, self.start_chips))
                self.start_chips = chips     # report each loss once
        self.shuffling = True

    def on_need(self, p):
        """A card is asked for.  True when a fault answered it (or made it moot)."""
        self.track.on_need(p["what"])
        if p["what"] == "button" or not self.track.playing:
            return False
        kind = self._pick("need", self._need_kinds())
        if kind is None:
            return False
        ok, new = self._inject(kind)
        if kind in ("face_up", "foreign_card", "duplicate_card") and ok:
            return True
        return _superseded(new)

    def on_shuffle(self):
        """The shuffler was started.  True when a fault took the shuffle over."""
        kinds = ["shuffler_jam"] + [k for k in WIRED_KINDS if k in self.armed]
        if self.banked:
            pass
        elif self.decks.other() not in self.decks.retired or not self.random:
            kinds.append("missing_card")
        kind = self._pick("shuffle", kinds)
        if kind is None:
            return False
        self._inject(kind)
        return True

    def on_turn(self, seat, legal):
        """A player is to act.  True when a fault took the turn away (the firmware then
        asks again, for this player or the next)."""
        if not self.random or any(a in CHOICES for a in legal):
            return False
        kind = self._pick("turn", self._turn_kinds(seat, legal))
        if kind is None:
            return False
        ok, new = self._inject(kind, seat=seat)
        if kind == "forced_bet" and self.stud or not ok:
            return False      # the bring-in refused its fold: the same turn goes on
        return any(k == "need" or (k == "evt" and q["e"] in ("to_act", "end")) for k, q in new)

    def on_decide(self, seat, legal):
        """A seat at a house-banked table has a decision to make.  True when a fault
        came first: its frames follow (a void ends the round; after a power cut the
        table asks for the decisions again, so the ones the session knew are dropped)."""
        if not self.random:
            return False
        kind = self._pick("turn", self._decide_kinds())
        if kind is None:
            return False
        ok, new = self._inject(kind, seat=seat)
        if any(k == "evt" and q["e"] in ("decide", "end") for k, q in new):
            self.s.deciding = []
        return ok

    def on_event(self, p):
        """Follow the round, the decks and the devices.  True when an injected fault
        explains the event."""
        t = self.track
        if p["e"] == "discarded" and p["seat"] in self.down_due and [
                c for c in t.cards[p["seat"]] if c[2] and c[0] == p["cards"]]:
            # The exposed card is replaced: the exposure goes with it, the third card
            # comes up again (13:47-20.38(l) no longer applies).
            self.down_due.discard(p["seat"])
        t.on_event(p)
        e = p["e"]
        explained = id(p) in self.explained
        if explained:
            self.explained.discard(id(p))
        if e == "hand":
            self.shuffling = False
            self.down_due = set()
            self.decks.dealt()
        elif e == "to_act":
            self.down_due = set()        # the first deal is over
        elif e == "dealt" and p["seat"] in self.down_due:
            self.down_due.discard(p["seat"])
            if p["what"] != "hole" and self.strict:
                self._problem("hand %d: seat %d's third card was dealt %s after a hole card "
                              "was exposed (13:47-20.38(l))" % (t.hand, p["seat"], p["what"]))
        elif e == "end":
            if self.strict and p.get("deck") != self.decks.in_play:
                self._problem("hand %d was dealt with deck %s; the emulator's deck in play is %s"
                              % (p["hand"], p.get("deck"), self.decks.in_play))
            # A house-banked table deals one deck while its shuffler is away
            # (19:47-28.2(b)).
            if p.get("called_off") is None and not (self.banked and self.shuffler_out):
                self.decks.alternate()
        elif e == "irregularity" and p["kind"] == "deck_retired":
            self.decks.retire()
            if self.shuffling and not self.decks.usable():
                self._redeal()
        elif e in ("waiting", "shuffled") and self.strict and p["deck"] != self.decks.in_play:
            self._problem("the firmware shuffles deck %s; the emulator's deck in play is %s"
                          % (p["deck"], self.decks.in_play))
        elif e == "shuffler":
            self.shuffler_out = not p["present"]
            if self.shuffler_out:
                self.refit_in = self.rng.randint(0, 2) if self.random else 0
        if self.strict and not explained and (e in IRREGULAR_EVENTS or (
                e == "discarded" and p["seat"] < 0)):
            self._problem("hand %d: unexpected %s event %s" % (self.track.hand, e, p))
        return explained

    # ----- choosing ----------------------------------------------------------------------

    def arm(self, kind, seat=None):
        if kind in WIRED_KINDS and not self.s.wired:
            raise ValueError("%s: only a wired board times its shuffler's lines "
                             "(--runtime pico)" % kind)
        self.armed[kind] = seat

    def _pick(self, where, possible):
        for kind in possible:
            if kind in self.armed and ARMED_AT.get(kind) == where:
                del self.armed[kind]
                return kind
        if not self.random:
            return None
        if "face_up" in possible and self.track.face_ups == 1 \
                and self.rng.random() < SECOND_FACE_UP:
            return "face_up"
        for kind in possible:
            boost = BOOST.get("stud_" + kind) if self.stud else None
            boost = boost or BOOST.get(kind)
            if boost and self.rng.random() < boost:
                return kind
        if self.rng.random() >= RATES[where] or not possible:
            return None
        # Kinds seen least so far are likelier, so every kind comes up in a long run.
        weights = [1.0 / (1 + self.counts[k]) for k in possible]
        return self.rng.choices(possible, weights)[0]

    def _need_kinds(self):
        t = self.track
        if self.banked:
            return ["shoe_jam", "power_cut"] + (["face_up"] if self.s.shoe.deck else []) \
                + self._decide_kinds()[:-1]
        kinds = ["shoe_jam", "foreign_card", "power_cut"]
        if self.s.shoe.deck:
            kinds.append("face_up")
        if t.seen:
            kinds.append("duplicate_card")
        if t.misdeal_ok():
            kinds.append("misdeal")
        if t.replaceable():
            kinds += ["ineligible", "off_table"] + ([] if self.stud else ["exposed"])
        if t.exposable():
            kinds.append("exposed")
        if t.holding():
            kinds += ["foul", "player_away"]
        return kinds

    def _decide_kinds(self):
        """A house-banked round's faults while it deals or its players decide: a card
        drawn in error only while more cards are to come (hold 'em bonus's board);
        power_cut last."""
        kinds = ["miscount"] + (["dealer_exposed"] if self.track.dealer else [])
        if self.s.deciding and self.game == "holdem-bonus":
            kinds.append("drawn_in_error")
        return kinds + ["power_cut"]

    def _turn_kinds(self, seat, legal):
        t = self.track
        kinds = []
        if "bring_in" in legal or (seat in t.blinds and not t.street and "fold" in legal):
            kinds.append("forced_bet")
        if t.misdeal_ok():
            kinds.append("misdeal")
        if t.replaceable():
            kinds += ["ineligible", "off_table"] + ([] if self.stud else ["exposed"])
        return kinds + ["foul", "player_away", "power_cut"]

    # ----- injecting ---------------------------------------------------------------------

    def inject_now(self, kind, seat=None):
        """The dealer's panel (or the shoe) reports a fault now; the note says what
        happened, or why the firmware refused it."""
        at = ARMED_AT.get(kind)
        if at == "shuffle" or (at == "need" and (kind != "shoe_jam" or not self.track.playing)):
            self.arm(kind, seat)
            self.s.notes.append("armed: %s at the next %s" % (
                kind, "shuffle" if ARMED_AT[kind] == "shuffle" else "card"))
            return
        self._inject(kind, seat=seat)

    def _inject(self, kind, seat=None):
        """Make the fault happen; returns (accepted, frames it produced)."""
        inject = INJECT.get(kind)
        if inject is None:
            raise ValueError("unknown fault %r (faults: %s)" % (kind, ", ".join(KINDS)))
        t = self.track
        attempt = Attempt(kind, t.hand if t.playing else t.hand + 1, seat)
        inject(self, attempt)
        return self._judge(attempt)

    def _judge(self, attempt):
        """Note the fault if the firmware answered as the rules say, else a problem.

        The note says what the firmware reported: its irregularity events (rule, detail,
        section) and the refunds, itemised; `attempt.rule` when it reports no irregularity."""
        kind, hand, why, new = attempt.kind, attempt.hand, attempt.why, attempt.frames
        if attempt.skipped is not None:
            return self._none(kind, hand, attempt.skipped)
        if attempt.failed is not None:
            return self._failed(kind, hand, attempt.failed, new)
        evts = [q for k, q in new if k == "evt"]
        if attempt.refusal is not None:
            if why is None or attempt.refusal not in why:
                return self._failed(kind, hand, "fold %s" % (
                    "accepted" if why is None else "refused for another reason: %s" % why), new)
            line = attempt.rule
        elif why is not None:
            return self._failed(kind, hand, "refused: %s" % why, new)
        else:
            missing = [w for test, w in attempt.checks if not any(test(e) for e in evts)]
            if attempt.forbid is not None and any(attempt.forbid[0](e) for e in evts):
                return self._failed(kind, hand, "the firmware made %s" % attempt.forbid[1], new)
            if missing:
                return self._failed(kind, hand, "the firmware did not report %s (events: %s)"
                                    % (", ".join(missing), evts), new)
            line = attempt.lead + _reported(evts, attempt.rule) + attempt.suffix
        self.counts[kind] += 1
        self.s.injected.append((kind, hand, line))
        self.s.notes.append("fault: %s at hand %d: %s" % (code_words(kind), hand, line))
        return True, new

    def send(self, what, payload):
        """Send for a fault; the events it causes are the fault's.  (why, frames)"""
        n0 = len(self.s.link.inbox)
        # A card is the shoe's as any card read is (Session.feed), a report the dealer's.
        why = self.s.feed(payload) if what == "card" else self.s.report(payload) \
            if what == "dealer" else self.s.link.send(what, payload)
        return why, self._caused(n0)

    def hear(self, test, board_ms):
        """Hear the firmware for a fault, until an event passes `test` or `board_ms` of
        its clock went by; the frames it sent meanwhile are the fault's."""
        n0 = len(self.s.link.inbox)
        self.s.link.hear(lambda f: f[0] == "evt" and test(f[1]), board_ms)
        return self._caused(n0)

    def _caused(self, n0):
        """The frames that came after inbox[n0], their events the fault's."""
        new = list(self.s.link.inbox)[n0:]
        for k, q in new:
            if k == "evt":
                self.explained.add(id(q))
        return new

    def _failed(self, kind, hand, why, new):
        line = "%s at hand %d: %s" % (code_words(kind), hand, why)
        if self.strict:
            self._problem(line)
        else:
            self.s.notes.append("fault: " + line)
        return False, new

    def _none(self, kind, hand, why):
        self.s.notes.append("fault: %s at hand %d: not injected: %s" % (code_words(kind), hand,
                                                                         why))
        return False, []

    def _problem(self, what):
        self.s.faults.append(what)

    # ----- the technician ----------------------------------------------------------------

    def _technician(self, what, payload, note, expect):
        why, new = self.send(*self.s.as_technician(what, payload))
        if why is not None or not any(expect(q) for k, q in new if k == "evt"):
            self._problem("technician: %s %s: %s" % (what, payload, why or "no event"))
            return False
        self.s.notes.append("technician: %s" % note)
        return True

    def _register(self, name):
        """A checked deck is registered in place of the retired one (13:47-20.38(h))."""
        before = self.decks.in_play
        self.decks.register(name)
        self._technician("deck", {"register": name},
                         "deck %s registered in place of the sealed one; deck %s in play"
                         % (name, self.decks.in_play),
                         lambda e: e["e"] == "deck" and e["registered"] == name
                         and e["in_play"] == self.decks.in_play)
        return before

    def _redeal(self):
        """Both decks were found short before the deal: one comes back, deal again."""
        self.decks.ready[self.decks.retired[0]] = True
        self._register(self.decks.retired[0])
        why = self.s.link.send("dealer", {"b": "deal"})
        if why is not None:
            self._problem("deal after registering a deck refused: %s" % why)

    def _resync(self, st):
        d = st["decks"]
        self.decks.in_play = d["in_play"]
        self.decks.retired = list(d["retired"])
        self.shuffler_out = not st["shuffler_present"]


# What a power cut must not change (the firmware's `state` answer).
RESUMED = ("state", "hand", "button", "stacks", "to_act", "board", "pot", "rake", "decks",
           "shoe_must_go", "config")
RESUMED_BANKED = ("house", "wagers", "deciding", "dealer")


class Attempt:
    """One fault as its function injected it: the firmware's answer, and what that
    answer must show for the rule to have been applied."""

    def __init__(self, kind, hand, seat):
        self.kind = kind
        self.hand = hand
        self.seat = seat         # the seat it concerns, if the caller chose one
        self.why = None          # the firmware's refusal
        self.frames = []         # what the firmware sent in answer
        self.checks = []         # (test an event must pass, what it stands for)
        self.forbid = None       # (test no event may pass, what it stands for)
        self.refusal = None      # words of a refusal that is the rule's answer
        self.lead = ""           # the note's start, whatever the firmware reported
        self.rule = ""           # the note when the firmware reports no irregularity
        self.suffix = ""
        self.skipped = None      # why it could not be injected now
        self.failed = None       # why it went wrong before any event was checked


# ----- the faults, one function per kind: each draws from the faults' RNG in a fixed
# order, so the same seed injects the same faults ----------------------------------------

def jam_the_shuffler(fx, attempt):
    """13:47-20.38(o): the shuffler jams (it says so on its jam line), or stops or does
    not complete its cycle (it goes idle mid-shuffle)."""
    how = fx.rng.choice(("jammed", "stopped shuffling", "did not complete its cycle"))
    fx.send("shuf", {"state": "shuffling"})
    attempt.why, attempt.frames = fx.send("shuf", {"state": "jammed" if how == "jammed"
                                                   else "idle"})
    attempt.checks.append(_irregular("shuffler_jam"))
    attempt.rule = "shuffle by hand (13:47-20.38(o))"
    attempt.suffix = "; it %s" % how


def silence_the_shuffler(fx, attempt):
    """13:47-20.38(o): started, the shuffler says nothing more, its done line still on
    from its last cycle (the emulator's shuffler leaves it on between rounds): the board
    reads it as jammed SILENT_MS after the start pulse (felt.hal.mp.Shuffler), the old
    done no answer.  Heard for a second of the board's clock beyond that."""
    test, _ = check = _irregular("shuffler_jam")
    attempt.frames = fx.hear(test, SILENT_MS + 1000)
    attempt.checks.append(check)
    attempt.rule = "shuffle by hand (13:47-20.38(o))"
    attempt.suffix = "; it fell silent, done on since its last cycle"


def take_a_card_out(fx, attempt):
    """The deck check finds a card missing (13:47-20.38(h))."""
    card = fx.rng.choice(sorted(fx.s.shoe.deck))
    fx.s.shoe.deck.remove(card)
    fx.send("shuf", {"state": "shuffling"})
    attempt.why, attempt.frames = fx.send("shuf", {"state": "done", "count": 51,
                                                   "missing": [card]})
    attempt.checks.append(_irregular("deck_retired"))
    attempt.rule = "%s missing at the deck check: deck retired (13:47-20.38(h))" % card


def jam_the_shoe(fx, attempt):
    how = fx.rng.choice(("jam", "stop", "incomplete"))
    attempt.why, attempt.frames = fx.send("shoe", {"state": how})
    attempt.checks.append(_irregular("void"))
    if attempt.why is None:
        # 19:47-27.12(g): the dealer takes the failed shoe off the table.
        _, more = fx.send("shoe", {"present": False})
        attempt.frames += more
        attempt.checks.append((lambda e: e["e"] == "shoe" and not e["present"],
                               "the shoe removed"))
    attempt.rule = "the dealing shoe reports %s: round void (19:47-27.12(f))" % how
    attempt.suffix = "; the shoe removed (19:47-27.12(g))"


def turn_a_card_face_up(fx, attempt):
    """The shoe's next card is face up: discarded, or a misdeal (a void) if it is the
    second."""
    card = fx.s.shoe.deal()
    attempt.why, attempt.frames = fx.send("card", dict(fx.card(card), face_up=True))
    if attempt.why is None:
        fx.track.face_ups += 1
    if fx.track.face_ups >= 2:
        attempt.checks.append(_irregular("void" if fx.banked else "misdeal"))
        attempt.lead = "%s, a second card face up in the deck: " % card
        attempt.rule = "all hands void (19:47-27.12(a))" if fx.banked else \
            "misdeal (13:47-20.38(f)3)"
    else:
        attempt.checks.append((lambda e: e["e"] == "discarded" and e["seat"] < 0
                               and e["cards"] == card, "%s to the discards" % card))
        attempt.rule = "%s face up in the deck: not used, to the discards (%s)" % (
            card, "19:47-27.12(a)" if fx.banked else SECTIONS["face_up"])


def deal_a_foreign_card(fx, attempt):
    card, deck = fx.rng.choice(CODES), fx.decks.other()
    _deal_an_extra_card(fx, attempt, card, deck, "%s of deck %s in the shoe: " % (card, deck))


def deal_a_duplicate_card(fx, attempt):
    card = fx.rng.choice(sorted(fx.track.seen))
    _deal_an_extra_card(fx, attempt, card, fx.decks.in_play, "a second %s in the shoe: " % card)


def _deal_an_extra_card(fx, attempt, card, deck, what):
    attempt.why, attempt.frames = fx.send("card", {"code": card, "deck": deck})
    attempt.checks += [_irregular("dead"), _irregular("deck_retired")]
    attempt.rule = what + "round dead, deck retired (13:47-20.38(h))"


def draw_a_card_in_error(fx, attempt):
    card = fx.s.shoe.deal()
    attempt.why, attempt.frames = fx.send("card", fx.card(card))
    attempt.checks.append((lambda e: e["e"] == "held" and e["card"] == card, "%s held" % card))
    attempt.rule = "%s drawn in error, unexposed: kept, the next card used (19:47-27.12(b))" % card


def miscount_the_cards(fx, attempt):
    """A seat (the one given, if it holds cards) or the dealer has too many or too few."""
    held = fx.track.holding()
    who = fx.rng.choice(held + [-1]) if attempt.seat not in held else attempt.seat
    attempt.why, attempt.frames = fx.send("dealer", {"b": "miscount"} if who < 0 else
                                          {"b": "miscount", "seat": who})
    attempt.checks.append(_irregular("void"))
    attempt.rule = "%s the wrong number of cards: all hands void (19:47-27.12(c))" % (
        "the dealer has" if who < 0 else "seat %d has" % who)


def expose_the_dealers_card(fx, attempt):
    if not fx.track.dealer:
        attempt.skipped = "the dealer has no card yet"
        return
    card = fx.rng.choice(fx.track.dealer)
    attempt.why, attempt.frames = fx.send("dealer", {"b": "dealer_exposed", "card": card})
    attempt.checks.append(_irregular("void"))
    attempt.rule = "the dealer's %s exposed: all hands void (19:47-27.12(d))" % card


def report_a_misdeal(fx, attempt):
    """Asked for by hand, the two reasons take turns; at random, the RNG picks."""
    how = fx.rng.choice(("wrong_start", "skipped_seat")) if fx.random \
        else ("wrong_start", "skipped_seat")[fx.misdeals % 2]
    fx.misdeals += 1
    attempt.why, attempt.frames = fx.send("dealer", {"b": "misdeal", "why": how})
    attempt.checks.append(_irregular("misdeal"))
    attempt.rule = "the dealer reports %s: misdeal (13:47-20.38(f))" % code_words(how)


MISDEALT = {"ineligible": "dealt to an ineligible seat", "off_table": "dealt off the table",
            "exposed": "turned face up while dealing"}


def take_back_a_card(fx, attempt):
    """A card of the deal under way the dealer reports misdealt: replaced by the next.
    Asked for by hand, the last one dealt (the seat's, if it has one)."""
    t = fx.track
    cands = t.replaceable(attempt.seat) or t.replaceable()
    if not cands:
        attempt.skipped = "no card of the deal under way to report"
        return
    card, holder = fx.rng.choice(cands) if fx.random else cands[-1]
    t.replacing = card
    attempt.why, attempt.frames = fx.send("dealer", {"b": attempt.kind, "card": card})
    if attempt.why is not None:
        t.replacing = None
    attempt.checks.append((lambda e: e["e"] == "discarded" and e["seat"] == holder
                           and e["cards"] == card, "%s taken back" % card))
    attempt.rule = "seat %d's %s %s: discarded, replaced by the next card (%s)" % (
        holder, card, MISDEALT[attempt.kind],
        SECTIONS["exposed_down" if attempt.kind == "exposed" else attempt.kind])


def report_an_exposed_card(fx, attempt):
    """Stud's hole cards have a rule of their own (13:47-20.38(l))."""
    (expose_hole_cards if fx.stud else take_back_a_card)(fx, attempt)


def expose_hole_cards(fx, attempt):
    """Stud: one hole card turned up while the first cards are dealt (its third card
    comes down), or both (the hand is dead)."""
    t = fx.track
    cands = t.exposable(attempt.seat) or t.exposable()
    if not cands:
        attempt.skipped = "no hole card being dealt to expose (13:47-20.38(l))"
        return
    if fx.random:
        fresh = [c for c in cands if c[2]] or cands
        holder, down, _ = fx.rng.choice(fresh)
        both = len(down) == 2 and fx.rng.random() < BOTH_EXPOSED
    else:
        holder, down, _ = cands[0]
        both = False
    cards = down if both else [fx.rng.choice(down) if fx.random else down[0]]
    # The card that comes down instead of up: the seat's up card of the first deal.
    third = len(t.cards[holder]) < fx.first_deal
    for c in cards:
        attempt.why, more = fx.send("dealer", {"b": "exposed", "card": c})
        attempt.frames += more
        if attempt.why is not None:
            break
    for c in cards:
        attempt.checks.append((lambda e, c=c: e["e"] == "exposed" and e["card"] == c,
                               "%s exposed" % c))
    if both:
        attempt.checks.append(_dead_hand(holder))
        attempt.rule = "seat %d's hole cards %s both turned up: hand dead, ante back (%s)" % (
            holder, " ".join(cards), SECTIONS["exposed"])
        return
    if third and attempt.why is None:
        fx.down_due.add(holder)
    attempt.rule = "seat %d's hole card %s turned up: third card dealt down (%s)" % (
        holder, cards[0], SECTIONS["exposed"])
    if not third:
        attempt.suffix = " (its third card was already dealt)"


def kill_a_hand(fx, attempt):
    """A hand fouled, or its player away: the seat given, else one holding cards."""
    seat = attempt.seat
    if seat is None:
        held = fx.track.holding()
        if not held:
            attempt.skipped = "no player holds cards"
            return
        seat = fx.rng.choice(held)
    attempt.why, attempt.frames = fx.send("dealer", {"b": attempt.kind, "seat": seat})
    attempt.checks.append(_dead_hand(seat))
    if attempt.kind == "foul":
        attempt.rule = "seat %d's protected hand fouled: out of the round, its money " \
            "refunded (%s)" % (seat, SECTIONS["foul"])
    else:
        attempt.rule = "seat %d left the table: unprotected hand collected, folded (%s)" % (
            seat, SECTIONS["away"])


def fold_a_forced_bet(fx, attempt):
    """The player who owes or posted a forced bet throws the cards away (13:47-20.38(k)2)."""
    seat = attempt.seat
    if seat is None or not fx.stud and seat not in fx.track.blinds:
        attempt.skipped = "no player who owes or posted a forced bet is to act"
        return
    attempt.why, attempt.frames = fx.send("btn", {"seat": seat, "b": "fold"})
    if fx.stud:
        # The bring-in is owed: throwing the cards away does not cancel it.
        attempt.refusal = "bring-in"
        attempt.rule = "seat %d (bring-in due) tries to fold: refused: %s (13:47-20.38(k)2)" % (
            seat, attempt.why)
        return
    # Hold 'em's forced bets are posted before the deal: a blind who throws the cards
    # away has paid it, and it stays in the pot (nothing refunded).
    attempt.checks.append((lambda e: e["e"] == "action" and e["seat"] == seat
                           and e["a"] == "fold", "seat %d folded" % seat))
    attempt.forbid = (lambda e: e["e"] == "refund" and e["seat"] == seat, "a refund of the blind")
    attempt.rule = "seat %d throws its cards away after posting a blind of %d: folded, the " \
        "blind stays in the pot (13:47-20.38(k)2)" % (seat, fx.track.blinds[seat])


def cut_the_power(fx, attempt):
    """The table must come back as it was; no rule covers a power cut."""
    before = fx.s.state()
    attempt.frames = fx.s.power_cut()
    after = fx.s.state()
    changed = [k for k in RESUMED + (RESUMED_BANKED if fx.banked else ())
               if before[k] != after[k]]
    if changed:
        attempt.failed = "the table came back with another %s: %s, not %s" % (
            ", ".join(changed), [after[k] for k in changed], [before[k] for k in changed])
        return
    for k, q in attempt.frames:
        if k == "evt":
            fx.explained.add(id(q))
    resumed = [q for k, q in attempt.frames if k == "evt" and q["e"] == "resumed"]
    attempt.checks.append((lambda e: e["e"] == "resumed", "the table resumed"))
    attempt.rule = "the power failed and came back: the table resumed %s from its journal " \
        "(%d events replayed; no rule covers a power cut: the round goes on)" % (
            "hand %d" % after["hand"] if after["state"] == "playing" else "between rounds",
            resumed[0]["events"] if resumed else 0)


INJECT = {"shuffler_jam": jam_the_shuffler, "shuffler_silent": silence_the_shuffler,
          "missing_card": take_a_card_out,
          "shoe_jam": jam_the_shoe, "face_up": turn_a_card_face_up,
          "foreign_card": deal_a_foreign_card, "duplicate_card": deal_a_duplicate_card,
          "drawn_in_error": draw_a_card_in_error, "miscount": miscount_the_cards,
          "dealer_exposed": expose_the_dealers_card, "misdeal": report_a_misdeal,
          "ineligible": take_back_a_card, "off_table": take_back_a_card,
          "exposed": report_an_exposed_card, "foul": kill_a_hand, "player_away": kill_a_hand,
          "forced_bet": fold_a_forced_bet, "power_cut": cut_the_power}


def _superseded(frames):
    """The card asked for is no longer wanted: asked again (a new need), the deal is over
    (a player is to act) or the round is."""
    return any(k == "need" or (k == "evt" and q["e"] in ("to_act", "end")) for k, q in frames)


def _irregular(kind):
    return (lambda e: e["e"] == "irregularity" and e["kind"] == kind, "irregularity %s" % kind)


def _dead_hand(seat):
    return (lambda e: e["e"] == "dead_hand" and e["seat"] == seat, "seat %d's hand dead" % seat)


CALLED_OFF = {"void": "round void", "dead": "round dead", "misdeal": "misdeal"}


def _reported(evts, rule):
    """The rule applied as the firmware reported it: each irregularity with its section,
    the refunds itemised per player, and who won if the fault ended the round."""
    parts = []
    for e in evts:
        if e["e"] == "irregularity":
            name = CALLED_OFF.get(e["kind"])
            parts.append("%s%s (%s)" % (name + ": " if name else "", code_words(e["detail"]),
                                        e["section"]))
    text = "; ".join(parts or [rule])
    back = [(e["seat"], " " + e["kind"] if "kind" in e else "", e["amount"])
            for e in evts if e["e"] == "refund"]     # kind: a house-banked table's wager
    if back:
        text += "; refunds: " + ", ".join("seat %d%s +%d" % b for b in back)
    won = [e for e in evts if e["e"] == "award"]
    if won:
        text += "; round over: " + ", ".join("seat %d wins %d" % (e["seat"], e["amount"])
                                              for e in won)
    return text
