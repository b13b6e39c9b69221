"""One dealt round of any game in felt.poker.variants, as a pure state machine.

No I/O, no clock, no randomness: cards arrive as card-reader events, actions as button
events.  `why_not(event)` explains a refusal without changing anything; `apply(event)`
checks, changes state and returns the effects for the controller to show and send.
Replaying the same events rebuilds the same round (the journal relies on this).

Events:   ("card", "As")                  a card read from the dealing shoe
          (action, seat)                  fold, check, call, bring_in
          (action, seat, to)              bet or raise; `to` (the seat's total for the
                                          betting round) is optional: the minimum
          ("discard", seat, "As Kd")      Pineapple's discard
          ("draw", seat, "As Kd")         the cards a player draws to replace ("" stands pat)
          ("straddle", seat) / ("decline", seat)   the optional straddle (13:69F-14.10(f))
          ("run_it", seat) / ("run_once", seat)    agreeing to the runouts, or not
                                          (13:69F-14.10(l), felt.poker.runouts)
          and the irregularities of felt.poker.irregular
Effects:  ("post", seat, "ante" | "blind" | "straddle" | "bring_in", amount, all_in)
          ("need", what, seat)            what: "hole", "up", "burn", "board"
                                          (felt.protocol.CARD_KINDS has them all)
          ("dealt", what, seat, card)     seat -1 for burns and board cards
          ("reshuffle", [cards])          cards that go back into the stub, shuffled
          ("street", name)
          ("to_act", seat)
          ("action", seat, name, amount, all_in)
          ("discarded", seat, [cards])
          ("return", seat, amount)        an uncalled bet goes back
          ("show", seat, high, low)       low -1 when none or not played
          ("rake", amount)                taken after a betting round (13:47-20.37)
          ("award", pot, seat, amount, share)   share: "high", "low" or "all"
          ("runout", k, count, [cards])   what follows is runout k of count: as its
                                          dealing begins (the board the runouts share)
                                          and at the showdown (its whole board)
          ("end",)
          ("settle",)                     only from apply(event, settle=False): the
                                          round's end (showdown, awards) waits for
                                          settle(), so the table can light the LEDs first

Runouts (13:69F-14.10(l)): at a table whose structure offers them (`run_it` 2 or 3),
felt.poker.runouts asks the players and deals the board again; the round keeps their
state (`runouts`, the times the board is dealt, and the module's own) and calls it at a
burn, at the end of the variant's steps, for an answer and at the showdown.
"""

import sys

from felt import check, lazy
from felt.poker import cards as C
from felt.poker.button import next_seat, clockwise_from
from felt.poker import showdown
from felt.poker.phases import DEALING, BETTING, CHOOSING, COMPLETE

# The irregularities' events: their rules (felt.poker.irregular) are loaded when one
# happens, and the table forgets them again after the round (felt.lazy).
IRREGULAR = ("void", "dead", "misdeal", "face_up", "replace", "exposed", "foul", "away")
IRREGULAR_RULES = "felt.poker.irregular"
_CPYTHON = sys.implementation.name != "micropython"   # Round's __slots__ (round_slots)
# find(code): 2 * card for a card's code, -1 or odd for any other string (C.parse()
# without its reasons); TypeError for what no string is.  unseen(size): Round.seen,
# every card unseen.
if _CPYTHON:
    # Quicker on CPython (round_slots): a dict's lookup, a list of the cards seen.
    from felt.poker.round_slots import find, unseen
else:
    def find(code):
        # A code of one or three characters would be found inside the codes.
        return C.CODES.find(code) if len(code) == 2 else -1
    unseen = bytearray      # a byte a card, in a board's heap

ACTIONS = ("fold", "check", "call", "bring_in", "bet", "raise")
CHOICES = ("discard", "draw", "straddle", "decline", "run_it", "run_once")
RUN_IT = "run_it"   # the choice of the runouts: agreeing or declining (13:69F-14.10(l))
# Their rules, loaded (felt.lazy) only at a table whose structure offers them.
RUNOUTS = "felt.poker.runouts"
# Why an event is refused (felt.lazy): a table asks only at its buttons and cards.
REFUSALS = "felt.poker.refusals"



def from_header(header):
    """The round a journal header begins (felt.table.journal's begin), not started: the
    poker table's (felt.table.poker_table.round_of) and its hand history's."""
    from felt.poker import rake, structure, variants
    return Round(header["stacks"], header["button"], structure.from_dict(header["structure"]),
                 variants.get(header["game"]), rake.from_dict(header["rake"]))


class Refused(Exception):
    """An event the rules do not allow now; the round is unchanged."""


class Round:
    # CPython: its attributes in slots, quicker to read and write than the dict it gives
    # an instance of more than 30 attributes.  MicroPython ignores __slots__: their names
    # would only take its heap, so it never loads them.
    if _CPYTHON:
        from felt.poker.round_slots import ROUND as __slots__

    def __init__(self, stacks, button, structure, variant=None, rake=None):
        if variant is None:
            from felt.poker.variants import get
            variant = get("holdem")
        self.variant = variant
        self.runouts = 1            # the board dealt once (felt.poker.runouts)
        self.boards = ()
        self.rake = rake
        self.raked = 0              # taken by the rake this round (13:47-20.37)
        self._pot_before = 0        # the pot when the betting round began
        self._round_raked = False
        n = len(stacks)
        self.n = n
        self.stacks = list(stacks)
        self.start_stacks = list(stacks)
        self.button = button
        self.structure = structure
        # Per seat, in one loop (quicker than a comprehension each, and less code on a
        # board): in the round or not, the hole cards, those of them dealt face up (or
        # turned up) in the order they came, and those exposed while dealing (20.38(l)).
        # Only stud deals a card up or turns an exposed one up (elsewhere an exposed card
        # is replaced, 20.38(n)): other games hold an empty tuple, no list, for each.
        stud = self.variant.stud()
        dealt_in = self.dealt_in = []
        hole = self.hole = []
        up = self.up = []
        exposed = self.exposed = []
        for s in stacks:
            dealt_in.append(s > 0)
            hole.append([])
            up.append([] if stud else ())
            exposed.append([] if stud else ())
        self.alive = sum(dealt_in)   # players not folded
        if self.alive < 2:
            raise ValueError("a round needs two players with chips")
        if stud:
            # Stud has no button: dealing starts left of the dealer, before seat 0.
            self.origin = n - 1
        else:
            if not self.dealt_in[button]:
                raise ValueError("the button must be on a seat in the round")
            self.origin = button
        self.folded = [False] * n
        # The seats in order, twice over, a byte each: ring[s + 1:s + 1 + n] is every
        # seat clockwise from the one after s (quicker than wrapping round in a loop).
        self.ring = bytes(range(n)) * 2
        self.ghost = [False] * n    # folded, still dealt to until a wager (20.38(e))
        self.board = []
        self.burns = []
        self.muck = []              # discards, draws and ghost cards
        self.seen = unseen(C.DECK_SIZE)
        self.left = C.DECK_SIZE    # cards not yet seen this round
        self.step = 0               # index into variant.steps
        self.betround = -1          # index of the current or last betting round
        self.phase = DEALING
        self.street_bet = [0] * n
        self.total = [0] * n
        self.acted_at = [-1] * n    # the level a seat last acted at this round, -1 if not yet
        self.checked = [False] * n
        self.level = 0
        self.full = 0               # the level of the last full bet (fixed limit's base of a raise)
        self.raise_size = 0         # the smallest raise now
        self.bets = 0               # the opening bet and full raises, for the cap
        self.to_act = -1
        # 13:47-20.38(d): the showdown starts from who made the last bet or raise of the
        # last betting round played or, where none was made, from who had the option to
        # open it (docs/rules.md); -1 until a betting round is played.
        self.shows_from = -1
        self.voluntary = False      # a wager beyond forced bets on this betting round
        self.bring_in_due = False
        self.brought_in = False     # the bring-in is posted and not yet completed
        self.forced = -1            # who posted the bring-in this betting round
        self.opener = -1            # who posted the last forced bet before the first round
        self.show_order = []
        self.high = [-1] * n
        self.low = [-1] * n
        self.winners = []
        self.plan = []             # the cards still expected, as asked: ("need", "hole", seat) ...
        self.next_card = 0
        self.order = []            # seats still to discard or draw
        self.choice = None
        self._drawn = []            # the drawing player's discards, kept out of a reshuffle
        self._reshuffle_first = False
        self.just_dealt = []        # hole cards of the deal under way, until someone acts
        self.face_ups = 0           # cards found face up in the deck (20.38(i), (f)3)
        self.called_off = None      # "void", "dead" or "misdeal" (felt.poker.irregular)
        self.called_why = None      # then why, with its section: "face_up 13:47-20.38(f)3"
        self._wagered = [False] * n  # who has voluntarily wagered (20.38(f)2 and 4)
        self.resume_to = None         # (phase, to_act) to go back to after a replaced card
        self.brought_down = [False] * n  # an up card turned into a down card for one
        self._defer = False         # apply(settle=False): the end waits for settle()
        if structure.run_it > 1:
            lazy.load(RUNOUTS).start(self)   # the runouts' state, in the round for save()

    # ----- starting -------------------------------------------------------------------

    def start(self):
        """Post antes and blinds, then ask for the first card (or the straddle)."""
        out = []
        s = self.structure
        if s.ante:
            for seat in self.clockwise():
                self._post(seat, "ante", s.ante, False, out)
        if not self.variant.stud():
            # 13:47-20.36(d): blinds start left of the button.  With fewer players than
            # posted blinds the first are dropped, so no seat posts twice.
            # Nobody has folded yet: the players alive are those dealt in.
            blinds = s.blinds[max(0, len(s.blinds) - self.alive):]
            seat = self.button
            for blind in blinds:
                seat = next_seat(seat, self.dealt_in)
                self._post(seat, "blind", blind, True, out)
            if blinds:
                # The others owe the full big blind even when it was posted short.
                self.level = self.full = max(blinds)
                self.bets = 1
                self.opener = seat
                if s.straddle and self.alive > len(blinds):
                    straddler = next_seat(seat, self.dealt_in)
                    if self.stacks[straddler] > 0:
                        self.phase = CHOOSING
                        self.choice = "straddle"
                        self.order = [straddler]
                        self.to_act = straddler
                        out.append(("to_act", straddler))
                        return out
        self._advance(out)
        return out

    def _post(self, seat, kind, amount, counts, out):
        paid = min(amount, self.stacks[seat])
        self.stacks[seat] -= paid
        self.total[seat] += paid
        if counts:
            self.street_bet[seat] += paid
        out.append(("post", seat, kind, paid, self.stacks[seat] == 0))

    def clockwise(self):
        """Seats dealt in, clockwise from the first to the left of the button or dealer."""
        return clockwise_from(self.origin, self.dealt_in)

    # ----- queries ----------------------------------------------------------------------

    def expecting(self):
        """("hole" | "up" | "burn" | "board", seat) while a card is due, else None."""
        if self.phase == DEALING and self.next_card < len(self.plan):
            return self.plan[self.next_card][1:]
        return None

    def live(self, seat):
        return self.dealt_in[seat] and not self.folded[seat]

    def can_act(self, seat):
        return self.live(seat) and self.stacks[seat] > 0

    # A loop, not a comprehension: MicroPython allocates nothing but the list for it.
    def live_seats(self, chips=0):
        """The seats still in the hand, in seat order (live(), in one pass); with
        chips=1, those that can still act (can_act())."""
        seats = []
        for s in range(self.n):
            if self.dealt_in[s] and not self.folded[s] and self.stacks[s] >= chips:
                seats.append(s)
        return seats

    def _live_clockwise(self, ghost=False):
        """The seats still in the hand, clockwise from the first left of the button
        (or, in stud, of the dealer); with ghost=True, also the folded seats still
        dealt to (20.38(e))."""
        seats = []
        for s in self.ring[self.origin + 1:self.origin + 1 + self.n]:
            # live(), or a ghost position
            if self.dealt_in[s] and (not self.folded[s] or ghost and self.ghost[s]):
                seats.append(s)
        return seats

    def to_call(self, seat):
        return min(self.level - self.street_bet[seat], self.stacks[seat])

    def legal_actions(self, seat):
        return [a for a in ACTIONS + CHOICES if self.why_not((a, seat)) is None
                or (a in ("discard", "draw") and self._may_choose(a, seat))]

    def _may_choose(self, kind, seat):
        return self.phase == CHOOSING and self.choice == kind and seat == self.to_act

    def pot(self):
        """Chips in the pot now: all put in, less the rake taken."""
        return sum(self.total) - self.raked

    def finished(self):
        return self.phase == COMPLETE

    def dealing(self):
        return self.phase == DEALING

    def drawing(self):
        """True from a draw's first discard to its last replacement card."""
        return self.choice == "draw"

    def cards_left(self):
        return self.left

    def showing(self, seat):
        """The seat's up cards, in the order it holds them."""
        up = self.up[seat]
        return [c for c in self.hole[seat] if c in up]

    def unit(self):
        return self.structure.unit(self.variant.big[max(0, self.betround)])

    def raise_bounds(self, seat):
        """(lowest, highest) total for this betting round a bet or raise may reach."""
        s = self.structure
        allin = self.street_bet[seat] + self.stacks[seat]
        lo = self.full_to()
        if s.kind == "fixed":
            hi = lo
        elif s.kind == "spread":
            hi = max(lo, self.level + s.big_bet)
        elif s.kind == "pot":
            owe = self.level - self.street_bet[seat]
            hi = max(lo, self.level + self.pot() + owe)
        else:
            hi = allin
        if s.max_wager:
            hi = min(hi, self.level + s.max_wager)   # 19:47-8.2: the posted maximum wager
        return min(lo, allin), min(hi, allin)

    def full_to(self):
        """The least total for this betting round a full bet or raise reaches."""
        if self.structure.kind == "fixed" or self.completing():
            # Fixed limit completes a short all-in: the raise goes to the last full bet
            # and one unit, as limit games do.  The bring-in is completed to the bet.
            return self.full + self.raise_size
        # Spread, pot and no limit: the short all-in's amount and the last full raise
        # (issue 36): a raise of less is no full raise and reopens nothing.
        return self.level + self.raise_size

    def chip_event(self, seat, amount, announced=False):
        """The event for a single chip put in by `seat`.  The rules before 19:47-14.8,
        (i): a chip larger than the call is only a call unless a raise was announced."""
        owe = self.level - self.street_bet[seat]
        if self.level > 0 and not announced:
            # Only what was owed: a call, or a check on the big blind's option.
            return ("call", seat) if owe > 0 else ("check", seat)
        kind = "raise" if self.level > 0 and not self.completing() else "bet"
        if self.structure.kind == "fixed":
            return (kind, seat)
        lo, hi = self.raise_bounds(seat)
        return (kind, seat, max(lo, min(hi, self.street_bet[seat] + amount)))

    def raise_capped(self):
        cap = self.structure.cap
        if not cap or self.bets < cap:
            return False
        # Rules README: no cap once only two players remain in the betting.
        return len(self.live_seats(1)) > 2

    def reopened(self, seat):
        """Rules README: a short all-in raise does not reopen the betting.  A seat that
        has acted may raise again only after a full raise's worth since."""
        at = self.acted_at[seat]
        return at < 0 or self.level - at >= self.raise_size

    def why_not(self, event):
        """None if the event is legal now, else the reason it is refused.  The reasons
        of actions and choices are felt.poker.refusals', loaded when asked (felt.lazy)."""
        if not isinstance(event, tuple) or not 2 <= len(event) <= 3:
            return "malformed event %s: want (kind, card code or seat[, amount])" % check.shown(event)
        kind = event[0]
        if kind not in ACTIONS and kind not in CHOICES:   # the common cases first
            if kind == "card":
                if len(event) != 2:
                    return "malformed card event"
                try:
                    self._due_card(event[1])
                except Refused as e:
                    return str(e)
                return None
            if kind in IRREGULAR:
                return lazy.load(IRREGULAR_RULES).why_not(self, event)
            return "unknown event %s" % check.shown(kind)
        seat = event[1]
        if not check.is_whole(seat) or not 0 <= seat < self.n:
            return "no seat %s at this table" % check.shown(seat)
        if kind in CHOICES:
            return lazy.load(REFUSALS).why_not_choice(
                self, kind, seat, event[2] if len(event) == 3 else None)
        return lazy.load(REFUSALS).why_not_action(self, event, seat)

    def completing(self):
        """Only the bring-in is in: the next wager completes it to the full bet."""
        return self.brought_in and self.full == 0

    def parse_held(self, codes, seat):
        """The cards `codes` names, which the seat holds; CardError otherwise."""
        if not isinstance(codes, str):
            raise C.CardError("cards must be a string of codes such as 'As Kd'")
        hole = self.hole[seat]
        cards = []
        for c in codes.split():
            i = find(c)   # C.parse() inline, as for a card
            card = i >> 1
            if i & 1 or card not in hole or card in cards:
                break       # refused: the reason below
            cards.append(card)
        else:
            return cards
        # The first reason, every code parsed before any is looked for.
        cards = [C.parse(c) for c in codes.split()]
        for i, c in enumerate(cards):
            if c not in hole:
                raise C.CardError("seat %d does not hold %s" % (seat, C.code(c)))
            if cards.index(c) < i:
                raise C.CardError("%s named twice" % C.code(c))

    def _due_card(self, code):
        """The card the code names, if a card is due and this one is not yet seen;
        Refused otherwise."""
        try:
            card = C.parse(code)
        except C.CardError as e:
            raise Refused(str(e))
        if self.phase != DEALING or self.next_card >= len(self.plan):   # expecting()
            raise Refused("no card is due now")
        if self.seen[card]:
            raise Refused("card %s already seen this round" % C.code(card))
        return card

    # ----- applying events -------------------------------------------------------------

    def apply(self, event, settle=True):
        """Check and apply `event`; its effects.  With settle=False, the end of the
        round it brings (the showdown, the awards) waits for settle(): the effects then
        end with ("settle",)."""
        if not settle:
            self._defer = True
            try:
                return self.apply(event)
            finally:
                self._defer = False
        # The common events, when why_not would pass them: applied without it (a
        # refusal still goes through it, for its reason).
        n = len(event) if type(event) is tuple else 0
        if n == 2:
            kind, seat = event
            if kind == "card":
                # The card read goes where the plan says: _due_card()'s checks inline
                # for a code as the reader sends it (the most common event, so no call);
                # it refuses any other, or a card not due, with the reason.
                code = seat
                plan = self.plan
                k = self.next_card
                size = len(plan)
                try:
                    i = find(code)
                except TypeError:
                    i = -1      # no string: refused below
                card = i >> 1
                # (A plan holds cards still due only while dealing: expecting().)
                if i & 1 or k >= size or self.seen[card]:
                    card = self._due_card(code)   # refused, with the reason
                _, what, seat = plan[k]
                k += 1
                self.next_card = k
                self.seen[card] = 1
                left = self.left - 1
                self.left = left
                if what == "hole" or what == "up":
                    if not self.folded[seat]:   # live: the plan names seats dealt in
                        self.hole[seat].append(card)
                        if what == "up":
                            self.up[seat].append(card)
                        self.just_dealt.append(card)
                    else:
                        self.muck.append(card)  # a ghost position's card is dead
                elif what == "burn":
                    self.burns.append(card)
                else:
                    self.board.append(card)
                    self.just_dealt.append(card)
                # The effects as one list: quicker than appending to an empty one.
                if k < size and left and not self._reshuffle_first:
                    return [("dealt", what, seat, card), plan[k]]   # ask_card(), no reshuffle due
                out = [("dealt", what, seat, card)]
                if k < size:
                    self.ask_card(out)
                else:
                    self.deal_done(out)
                return out
            out = []
            # A check or call of the seat to act.
            if seat == self.to_act and type(seat) is int and seat >= 0 and \
                    self.phase == BETTING and not self.bring_in_due:
                owe = self.level - self.street_bet[seat]
                if kind == "check" and owe == 0 or kind == "call" and owe > 0:
                    self.act(kind, seat, None, out)
                    return out
        elif n == 3:
            kind, seat, codes = event
            # The draw or discard of the seat to choose (_may_choose()), of cards it
            # holds (as felt.poker.refusals would find): the codes parsed once.
            if seat == self.to_act and type(seat) is int and seat >= 0 and \
                    self.phase == CHOOSING and self.choice == kind and \
                    (kind == "draw" or kind == "discard"):
                try:
                    cards = self.parse_held(codes, seat)
                except C.CardError:
                    cards = None
                if cards is not None and (kind == "draw" or
                                          len(cards) == self.variant.steps[self.step][1]):
                    out = []
                    self._replace(kind, seat, cards, out)
                    return out
        reason = self.why_not(event)
        if reason is not None:
            raise Refused(reason)
        out = []
        kind = event[0]
        last = event[2] if len(event) == 3 else None    # an amount, or cards
        if kind in ACTIONS:
            self.act(kind, event[1], last, out)
        elif kind in CHOICES:
            self.choose(kind, event[1], last, out)
        else:
            lazy.load(IRREGULAR_RULES).apply(self, event, out)
        return out

    def settle(self):
        """The end of the round that apply(event, settle=False) left waiting; its effects."""
        out = []
        self.finish(out)
        return out

    def save(self):
        """The round's state as it is, for undo(): the table lights the LEDs for an
        event before its journal write, and undoes the event if the write fails."""
        state = {}
        if hasattr(self, "__dict__"):   # MicroPython: a dict, quicker to walk
            fields = self.__dict__.items()
        else:
            fields = [(k, getattr(self, k)) for k in self.__slots__ if hasattr(self, k)]
        for k, v in fields:
            if isinstance(v, list):
                v = [list(x) if isinstance(x, list) else x for x in v]
            elif isinstance(v, bytearray):
                v = bytearray(v)
            state[k] = v
        return state

    def undo(self, state):
        """Back to a state save() took."""
        for k in state:
            setattr(self, k, state[k])

    def _advance(self, out):
        """Carry out the variant's steps until one waits for cards or a player."""
        steps = self.variant.steps
        while self.step < len(steps) or \
                self.runouts > 1 and lazy.load(RUNOUTS).next_runout(self, out):
            if self.alive < 2:
                break
            st = steps[self.step]
            k = st[0]
            if k == "burn" and self.structure.run_it > 1 and lazy.load(RUNOUTS).ask(self, out):
                return              # the players are asked to agree to the runouts
            if k == "bet" and self.boards:
                self.step += 1      # a later runout: everyone is all-in, nobody bets
                continue
            if k == "bet":
                self.betround += 1
                if self.betround > 0:
                    out.append(("street", self.variant.rounds[self.betround]))
                if self._start_betting(st[1], out):
                    return
            elif k == "discard" or k == "draw":
                self.ask_in_turn(k, self._live_clockwise(), out)
                return
            else:
                if k == "deal":
                    self.just_dealt = []
                self.plan = self._cards_for(st)
                if self.plan:
                    self.next_card = 0
                    self.phase = DEALING
                    self.ask_card(out)
                    return
            self.step += 1
        self.finish(out)

    def _cards_for(self, st):
        k = st[0]
        if k == "burn":
            return self._burn_or_common()
        if k == "board":
            return [("need", "board", -1)] * st[1]
        down = []
        up = []
        for s in self._live_clockwise(True):
            down.append(("need", "hole", s))
            up.append(("need", "up", s))
        # One card a player at a time: a round of each down card, then of each up card.
        return down * st[1] + up * st[2]

    def _burn_or_common(self):
        """19:47-14.9(h): when the deck cannot give each player the next card, burn
        and deal one common card face up instead."""
        nxt = self.variant.steps[self.step + 1] if self.step + 1 < len(self.variant.steps) else None
        if nxt is None or nxt[0] != "deal" or not self.variant.stud():
            return [("need", "burn", -1)]
        need = 1 + len(self._cards_for(nxt))
        if self.cards_left() >= need:
            return [("need", "burn", -1)]
        self.step += 1  # the deal step becomes the common card
        # With one card or none left, the burn cards are shuffled first.
        self._reshuffle_first = self.cards_left() <= 1
        return [("need", "burn", -1), ("need", "board", -1)]

    def ask_card(self, out):
        k = self.next_card
        if self.phase != DEALING or k >= len(self.plan):   # expecting()
            return
        if self.left == 0 or self._reshuffle_first:
            self._reshuffle_first = False
            self._reshuffle(out)
        out.append(self.plan[k])

    def _reshuffle(self, out):
        """The stub is out.  Stud (19:47-14.9(h)): the burn cards are shuffled.  Draw
        (13:69F-14.12B(f)): all discards, except the drawing player's, are shuffled."""
        if self.variant.stud():
            pool = list(self.burns)
            self.burns = []
        else:
            keep = self._drawn if self.choice == "draw" else []
            folded = []
            for s in range(self.n):
                if self.dealt_in[s] and self.folded[s]:
                    folded += self.hole[s]
                    self.hole[s] = []
            pool = [c for c in self.muck + self.burns + folded if c not in keep]
            self.muck = [c for c in self.muck if c in keep]
            self.burns = []
        for c in pool:
            self.seen[c] = 0
        self.left += len(pool)
        out.append(("reshuffle", pool))

    def deal_done(self, out):
        """The cards of a deal are all in: go on with the round."""
        self.plan = []
        self.next_card = 0
        if self.choice == "draw" and self.resume_to is None:
            # A draw's replacement cards are in (the commonest case): the next seat draws.
            self.phase = CHOOSING
            self.next_chooser(out)
            return
        if self.resume_to is not None:
            # A replaced card is dealt: back to where the round was (20.38(g), (m), (n)).
            self.phase, self.to_act = self.resume_to
            self.resume_to = None
            if self.phase == BETTING:
                # Nobody has acted on the deal yet (a card is replaced only until then):
                # the betting opens again by what shows now, a stud up card may be new.
                if not self._start_betting(self.variant.steps[self.step][1], out):
                    self.to_act = -1            # everyone left to bet has gone meanwhile
                    self.end_betting_round(out)
            elif self.to_act >= 0:
                if self.phase == CHOOSING:
                    # A draw or discard in progress: its seat goes on, if still in.
                    if self.live(self.to_act):
                        out.append(("to_act", self.to_act))
                    else:
                        if self.to_act in self.order:
                            self.order.remove(self.to_act)
                        self.next_chooser(out)
                elif self.can_act(self.to_act):
                    out.append(("to_act", self.to_act))
                else:
                    # The player to act left meanwhile: the next one acts.
                    self.set_to_act(self.to_act, out)
                    if self.to_act < 0:
                        self.end_betting_round(out)
            return
        self.step += 1
        self._advance(out)

    # ----- betting -----------------------------------------------------------------------

    def _start_betting(self, opener, out):
        """Open a betting round; False when nobody is left to bet."""
        s = self.structure
        first = self.betround == 0
        if not first:
            self.street_bet = [0] * self.n
            self.level = self.full = self.bets = 0
        self.acted_at = [-1] * self.n
        self.checked = [False] * self.n
        self.voluntary = False
        self.brought_in = False
        self.forced = -1
        self._round_raked = False
        self._pot_before = 0 if first else sum(self.total)
        self.raise_size = self.unit() if s.kind == "fixed" else s.small_bet
        if not self._betting_possible():
            if first and opener == "blinds" and self.opener >= 0:
                # None is played: as if checked, from the first after the blinds.
                self.shows_from = (self.opener + 1) % self.n
            return False
        self.phase = BETTING
        if opener == "blinds" or opener == "button":
            # The first who can act left of the last blind, else of the button.
            after = self.opener if opener == "blinds" and self.opener >= 0 else self.origin
            self.shows_from = (after + 1) % self.n    # its option, all-in or not (20.36(g))
            self.set_to_act(after, out)
            return True
        seat = self.shows_from = self._opener(opener)
        if opener == "bring_in" and s.bring_in:
            self.bring_in_due = True
            self.to_act = seat
            out.append(("to_act", seat))
            return True
        self.set_to_act((seat - 1) % self.n, out)
        return True

    def _opener(self, opener):
        """Who opens a betting round by the cards showing (stud, Mambo stud)."""
        live = self._live_clockwise()
        if opener == "showing":
            # 19:47-14.9(f): the highest hand showing; ties to the closest to the dealer's left.
            best = None
            for s in live:
                v = showdown.showing_value(self.showing(s))
                if best is None or v > best[0]:
                    best = (v, s)
            return best[1]
        # An up-card decides: bring_in by the variant's order, or Mambo's low/high up-card.
        # A player all-in on the ante cannot bring it in: the lowest card with chips does.
        order = self.variant.bring_in if opener == "bring_in" else opener
        best = None
        for s in [s for s in live if self.stacks[s] > 0] or live:   # can_act()
            v = showdown.up_card_key(self.showing(s)[-1], order)
            if best is None or v > best[0]:
                best = (v, s)
        return best[1]

    def _betting_possible(self):
        """Betting needs two players with chips, or one who still owes a call."""
        able = -1
        for s in range(self.n):
            if self.dealt_in[s] and not self.folded[s] and self.stacks[s] > 0:   # can_act()
                if able >= 0:
                    return True
                able = s
        return able >= 0 and self.street_bet[able] < self.level

    def set_to_act(self, after, out):
        for s in self.ring[after + 1:after + 1 + self.n]:
            # not yet acted at this level (first: what ends a round fails it), and can_act(s)
            # (a seat with chips was dealt in: no chip goes to a seat that put none in)
            if (self.acted_at[s] < 0 or self.street_bet[s] < self.level) and \
                    self.stacks[s] > 0 and not self.folded[s]:
                # A seat owing nothing whom nobody could call (heads-up, a small blind
                # all in for less than the big blind) has nothing to do: the betting
                # is over, as it would be before a round began.
                if self.street_bet[s] < self.level or self._betting_possible():
                    self.to_act = s
                    out.append(("to_act", s))
                    return
                break
        self.to_act = -1

    def voluntary_wagers(self):
        """Players who called, bet or raised: 20.38(f)2 and 4.  A straddle does not count
        (ruling): it is put in blind, before the deal, so no player has yet acted on a
        card when a wrong start or a skipped seat is found."""
        return sum([1 for w in self._wagered if w])

    def act(self, kind, seat, to, out):
        if self.just_dealt:
            self.just_dealt = []
        if kind == "check":
            # The most common action wagers nothing: none of the wager's bookkeeping.
            self.checked[seat] = True
            self.acted_at[seat] = self.level
            out.append(("action", seat, kind, 0, False))
            self.set_to_act(seat, out)
            if self.to_act < 0:
                self.end_betting_round(out)
            return
        amount = 0
        if kind == "call":
            amount = min(self.level - self.street_bet[seat], self.stacks[seat])
        elif kind == "fold":
            self.folded[seat] = True
            self.alive -= 1
            # 13:47-20.38(e): a player who folds after making the forced bet, or with no
            # wager yet (on a round of checking), keeps the position dealt to until a
            # later wager (stud, where cards come street by street).
            if self.variant.stud() and (not self.voluntary or self.forced == seat):
                self.ghost[seat] = True
        elif kind == "bring_in":
            amount = min(self.structure.bring_in, self.stacks[seat])
            self.bring_in_due = False
            self.brought_in = True
            self.forced = seat
            self.level = max(self.level, self.street_bet[seat] + amount)
        else:
            before = self.level
            lo, hi = self.raise_bounds(seat)
            target = lo if to is None else to
            amount = target - self.street_bet[seat]
            new_level = target
            full = new_level >= self.full_to()      # a full bet or raise
            if full and self.completing():
                # Completing the bring-in is the round's first full bet: those who only
                # met the bring-in may raise it (19:47-14.9(e)).
                self.acted_at = [min(a, 0) for a in self.acted_at]
            if full:
                if self.structure.kind != "fixed":
                    self.raise_size = max(self.raise_size, new_level - before)
                self.full = new_level
                self.bets += 1
            self.level = max(self.level, new_level)
            self.shows_from = seat
            self.bring_in_due = False
            if self.full:
                self.brought_in = False
        if kind in ("call", "bet", "raise"):
            if any(self.ghost):
                self.ghost = [False] * self.n   # 20.38(e): a wager ends the dead deals
            self.voluntary = True
            self._wagered[seat] = True
        if amount:
            self.stacks[seat] -= amount
            self.street_bet[seat] += amount
            self.total[seat] += amount
        # A bring-in is not a voluntary action: completing it reopens the betting.
        self.acted_at[seat] = 0 if kind == "bring_in" else self.level
        out.append(("action", seat, kind, amount, amount > 0 and self.stacks[seat] == 0))
        if self.alive == 1:
            self.finish(out)
            return
        self.set_to_act(seat, out)
        if self.to_act < 0:
            self.end_betting_round(out)

    def end_betting_round(self, out):
        """Nobody is left to act: whatever nobody could call goes back now (it is no
        part of the pot the rake is taken from, 13:47-20.37(b)), then the rake, then on."""
        self._return_uncalled(out)
        self._take_rake(out)
        self.step += 1
        self._advance(out)

    # ----- discards, draws and the straddle -------------------------------------------------

    def ask_in_turn(self, choice, seats, out):
        """Each of `seats` in turn is to make `choice` (a discard, a draw, the runouts'
        agreement), the first now."""
        self.order = seats
        self.choice = choice
        self.phase = CHOOSING
        self.to_act = seats[0]
        out.append(("to_act", self.to_act))

    def answered(self, out, last=False):
        """The seat asked has chosen: the next one is asked, none more if `last`."""
        self.order.pop(0)
        if last:
            self.order = []
        self.next_chooser(out)

    def choose(self, kind, seat, codes, out):
        self.just_dealt = []
        if kind == "run_it" or kind == "run_once":
            lazy.load(RUNOUTS).agree(self, kind, seat, out)
            return
        if kind == "straddle" or kind == "decline":
            if kind == "straddle":
                # 13:69F-14.10(f): a straddle of twice the big blind, who then acts last.
                big = max(self.structure.blinds)
                self._post(seat, "straddle", 2 * big, True, out)
                self.level = self.full = max(self.level, self.street_bet[seat])
                self.bets += 1
                self.opener = seat
            else:
                out.append(("action", seat, "decline", 0, False))
            self.choice = None
            self.order = []
            self.to_act = -1
            self.phase = DEALING
            self._advance(out)
            return
        self._replace(kind, seat, self.parse_held(codes, seat), out)   # why_not passed them

    def _replace(self, kind, seat, cards, out):
        """The discard or draw of `cards`, which the seat holds."""
        if self.just_dealt:
            self.just_dealt = []
        hole = self.hole[seat]
        for c in cards:
            hole.remove(c)
        self.muck += cards
        out.append(("discarded", seat, cards))
        self.order.pop(0)
        if kind == "draw" and cards:
            self._drawn = cards
            plan = self.plan = [("need", "hole", seat)] * len(cards)
            self.next_card = 0
            self.phase = DEALING
            self.to_act = -1
            if self.left and not self._reshuffle_first:
                out.append(plan[0])     # ask_card(), when no reshuffle is due
            else:
                self.ask_card(out)
            return
        self.next_chooser(out)

    def next_chooser(self, out):
        self._drawn = []
        order = self.order
        if order:
            seat = self.to_act = order[0]
            out.append(("to_act", seat))
            return
        choice = self.choice
        self.choice = None
        self.to_act = -1
        if choice == RUN_IT:
            self.phase = DEALING    # all have answered: the runouts' cards
            lazy.load(RUNOUTS).agreed(self, out)
        else:
            self.step += 1
        self._advance(out)

    # ----- what the irregularity rules (felt.poker.irregular) ask of the round -------

    def deal_extra(self, what, seat, out):
        """Deal `seat` one more card now, then carry on where the round was."""
        if self.phase == DEALING:
            # The next card goes to this seat; the request already made is asked again.
            self.plan.insert(self.next_card, ("need", what, seat))
        else:
            self.resume_to = (self.phase, self.to_act)
            self.plan = [("need", what, seat)]
            self.next_card = 0
            self.phase = DEALING
            self.to_act = -1
        self.ask_card(out)

    def call_off(self, kind, why):
        """The round ends with every player's money back (the rules refunded it)."""
        self.phase = COMPLETE
        self.plan = []
        self.to_act = -1
        self.called_off = kind
        self.called_why = why

    # ----- the end of the round --------------------------------------------------------

    def finish(self, out):
        if self._defer:
            self.to_act = -1      # nobody acts while the end waits for settle()
            out.append(("settle",))
            return
        self.phase = COMPLETE
        self.plan = []
        self.to_act = -1
        self._return_uncalled(out)
        if self.betround >= 0 and not self._round_raked:
            self._take_rake(out)
        live = self.live_seats()
        pots = []
        rake = self.raked
        for amount, eligible in self.pots(live):
            # The rake came out of the main pot first, then the side pots in turn.
            taken = min(rake, amount)
            rake -= taken
            pots.append((amount - taken, eligible))
        if self.runouts > 1 and len(live) > 1:
            lazy.load(RUNOUTS).finish(self, live, pots, out)   # each runout's share
        else:
            if len(live) > 1:
                self.show_hands(live, self.board, out)
            for i in range(len(pots)):
                if pots[i][0]:
                    self.award(i, pots[i][0], pots[i][1], out)
        out.append(("end",))

    def _take_rake(self, out):
        """13:47-20.37(a)4: after a betting round, the posted rake of its wagers."""
        self._round_raked = True
        if self.rake is None:
            return
        pot = sum(self.total)
        amount = self.rake.due(pot - self._pot_before, pot, self.raked)
        if amount:
            self.raked += amount
            out.append(("rake", amount))

    def _return_uncalled(self, out):
        top = max(self.total)
        if self.total.count(top) == 1 and self.live(self.total.index(top)):
            # Only a player still in the hand takes back an uncalled bet: a folded
            # player's chips stay in the pot (13:47-20.38(k)2).
            s = self.total.index(top)
            second = max([self.total[i] for i in range(self.n) if i != s])
            back = min(top - second, self.pot())   # a rake already taken stays taken
            self.total[s] -= back
            self.street_bet[s] -= min(back, self.street_bet[s])
            self.stacks[s] += back
            out.append(("return", s, back))

    def pots(self, live=None):
        """[(amount, eligible seats)]: the main pot, then each side pot (`live`: the
        seats still in the hand, live_seats(), when the caller has them)."""
        if live is None:
            live = self.live_seats()
        total = self.total
        # The live players' levels, each once: a loop, quicker for a few seats than a
        # set and sorted() of a comprehension, and no comprehension on a board.
        live_levels = []
        for s in live:
            if total[s] not in live_levels:
                live_levels.append(total[s])
        if len(live_levels) < 2:
            # The live players all put in as much (or nothing): one pot, every chip in it.
            return [(sum(total), live)]
        live_levels.sort()
        # Every seat's chips capped at a level come to the totals under it (`under`)
        # and the level once for each total at or above it; a pot is that sum at its
        # level less the sum at the level before.  One pass up the totals in order,
        # not one over every seat for every level (nine pots of eleven seats took a
        # Pico 4 ms that way).
        ranked = sorted(total)
        n = len(ranked)
        i = 0
        under = 0
        capped = 0          # the chips up to the level before
        pots = []
        eligible = live
        for level in live_levels:
            if level == 0:
                continue    # a live player who put in nothing makes no pot
            while ranked[i] < level:
                under += ranked[i]
                i += 1
            upto = under + level * (n - i)
            eligible = [s for s in eligible if total[s] >= level]
            pots.append((upto - capped, eligible))
            capped = upto
        # Chips folded above every live player's level belong to the last pot.
        extra = sum(total) - capped
        if extra:
            amount, eligible = pots[-1]
            pots[-1] = (amount + extra, eligible)
        return pots

    def show_hands(self, live, board, out):
        """Each hand of the `live` seats (in seat order, as live_seats() gives them)
        shown with `board`, in the order of the rules."""
        # 13:47-20.38(d): the player initiating the final wager shows first, then the
        # others clockwise; where the last betting round saw no wager, the first still
        # in from who had the option to open it; with no betting round at all, as if the
        # first were checked (from the first after the blinds; with none, the button's,
        # in stud the dealer's, left: docs/rules.md).
        # `live` is in seat order: the order shown is it turned to start at the first.
        start = self.shows_from if self.shows_from >= 0 else self.origin + 1
        for first in self.ring[start % self.n:]:     # the first live seat from there
            if first in live:
                break
        i = live.index(first)
        order = live[i:] + live[:i]
        self.show_order = order
        v = self.variant
        for s in order:
            high, low = showdown.values(v, self.hole[s], board)
            self.high[s] = high
            self.low[s] = low
            out.append(("show", s, high, low))

    def award(self, index, amount, eligible, out):
        """`amount` of pot `index` to the best hands of `eligible` (their shares)."""
        v = self.variant
        if len(eligible) == 1:
            self._pay(index, amount, eligible, "all", out)
            return
        if v.split == "low":
            self._pay(index, amount, _best(eligible, self.low), "low", out)
            return
        lows = [s for s in eligible if self.low[s] >= 0] if v.has_low() else []
        if not lows:
            # No qualifying low: the high hand takes the whole pot (19:47-14.9(j)), its
            # share all of it (issue 22: "the high half" was said of the whole pot).
            self._pay(index, amount, _best(eligible, self.high), "all", out)
        else:
            highs = _best(eligible, self.high)
            low_winners = _best(lows, self.low)
            half = amount // 2
            high_half = amount - half
            if amount % 2 and not v.stud():
                # Rules README (flop and draw games): the odd chip goes to the first
                # winner clockwise from the button, whichever half that winner won.
                for s in clockwise_from(self.button, [True] * self.n):
                    if s in highs or s in low_winners:
                        if s not in highs:
                            high_half, half = half, high_half
                        break
            # Stud, 19:47-14.9(i)2i: the odd chip between the halves goes to the high hand.
            self._pay(index, high_half, highs, "high", out)
            self._pay(index, half, low_winners, "low", out)

    def _pay(self, index, amount, winners, share, out):
        if len(winners) == 1:
            pass
        elif self.variant.stud():
            # 19:47-14.9(i)2ii-iii: the odd chip of a tied high share goes to the highest
            # card by suit, of a tied low share to the lowest card by suit.
            winners = showdown.odd_chip_order(winners, self.hole, share == "low")
        else:
            # Rules README: odd chips to the first winner clockwise from the button.
            winners = sorted(winners, key=lambda s: (s - self.button - 1) % self.n)
        each = amount // len(winners)
        odd = amount - each * len(winners)
        for i, s in enumerate(winners):
            won = each + (odd if i == 0 else 0)
            self.stacks[s] += won
            if s not in self.winners:
                self.winners.append(s)
            out.append(("award", index, s, won, share))


def _best(seats, values):
    """The seats of `seats` with the largest of `values`, in their order: one pass, no
    comprehension."""
    top = values[seats[0]]
    best = []
    for s in seats:
        v = values[s]
        if v > top:
            top = v
            best = [s]
        elif v == top:
            best.append(s)
    return best
