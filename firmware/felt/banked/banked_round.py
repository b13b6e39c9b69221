"""What every house-banked round shares: each player plays against the dealer's hand and
the house pays by the posted tables, so chips move between the seats and the house.

Pure and deterministic like felt.poker.round.Round, and driven the same way: start(),
then apply(event) returns effects; why_not(event) explains a refusal; replaying the
events rebuilds the round.  The games (felt.banked.four_card, felt.banked.holdem_bonus)
say what is dealt, what players decide, how a hand is paid and named (describe).

Seats are numbered clockwise from the dealer's left, as at the poker tables: cards go
out from seat 0 upwards, the dealer last; settlement starts with the player farthest
to the dealer's right and goes counterclockwise (19:47-27.10(d)-(e)).

Events:   ("card", "As")          a card read from the shoe; read while no card is due
                                  (and more will be), it was drawn in error unexposed and
                                  is the next card used (19:47-27.12(b))
          the game's decisions    ("play", seat[, times]), ("fold", seat), ("bet", seat),
                                  ("check", seat)
          ("face_up", "As")       a card found face up in the shoe while dealing: not
                                  used; a second one voids all hands (27.12(a))
          ("miscount", seat)      a player (seat) or the dealer (-1) has the wrong
                                  number of cards: all hands void (27.12(c))
          ("dealer_exposed", "As")  a dealer's card exposed before the reveal: all
                                  hands void (27.12(d))
          ("void", why)           the shoe jammed or stopped dealing (27.12(f))
Effects:  ("wager", seat, kind, amount)        chips from the seat into its circle
          ("need", what, seat)                 what: "hole" (a seat), "dealer" (-1),
                                               "burn" or "board" (-1), as
                                               felt.protocol.CARD_KINDS has them
          ("dealt", what, seat, card)
          ("held", card, section)              a card drawn in error, kept for next
          ("unused", card, section)            a face-up card, to the discard rack
          ("decide", name, [seats])            these seats now choose (any order)
          ("fold", seat)
          ("show", seat, value, [cards])       seat -1 the dealer; the best hand
          ("collect", seat, kind, amount, section)   a losing wager to the house
          ("return", seat, kind, amount, section)    a wager back to the player
          ("pay", seat, kind, amount, section)       winnings from the house
          ("muck", seat)                       the hand to the discard rack
          ("called_off", "void", why, section)
          ("end",)
          ("settle",)       only from apply(event, settle=False): settlement waits for
                            settle(), so the table can light the LEDs first
result() is per seat (taken, paid); house() the house's net; stacks as they stand;
save() and undo(state) take the round back, as felt.poker.round.Round's do.
"""

from felt import check, lazy
from felt.poker import cards as C
from felt.poker.phases import DEALING, BETTING, COMPLETE   # BETTING: players decide

DEALER = -1

DRAWN = "19:47-27.12(b)"
# The irregularities' events: their rules (felt.banked.irregular) are loaded when one
# happens; the table may forget them after the round (felt.lazy).
IRREGULAR = ("face_up", "miscount", "dealer_exposed", "void")
IRREGULAR_RULES = "felt.banked.irregular"


def _copied(v):
    """v with its lists, dicts and bytearrays copied all the way down."""
    if isinstance(v, list):
        return [_copied(x) for x in v]
    if isinstance(v, dict):
        d = {}
        for k in v:
            d[k] = _copied(v[k])
        return d
    if isinstance(v, bytearray):
        return bytearray(v)
    return v


class BankedRound:
    GAME = ""
    KINDS = ()        # wager kinds, the order refunds and settlement list them
    SIDE = ""         # the optional wager placed with the ante
    DECISIONS = ()    # decision event kinds

    def __init__(self, stacks, wagers, settings):
        """stacks: each seat's chips before the round; wagers: per seat (ante, side),
        (0, 0) for a seat not playing."""
        n = len(stacks)
        if len(wagers) != n:
            raise check.Refused("one (ante, %s) per seat" % self.SIDE)
        self.n = n
        self.settings = settings
        self.stacks = list(stacks)
        self.start_stacks = list(stacks)
        self.in_round = [False] * n
        for seat in range(n):
            ante, side = wagers[seat]
            check.whole(ante, "seat %d's ante" % seat)
            check.whole(side, "seat %d's %s wager" % (seat, self.SIDE))
            if ante + side > stacks[seat]:
                raise check.Refused("seat %d has %d chips, not %d" % (seat, stacks[seat], ante + side))
            why = self._why_not_opening(ante, side)
            if why and (ante or side):
                raise check.Refused("seat %d: %s" % (seat, why))
            self.in_round[seat] = ante + side > 0
        if not any(self.in_round):
            raise check.Refused("nobody has wagered")
        self._opening = [tuple(w) for w in wagers]
        self.circle = [{} for _ in range(n)]      # kind: chips in the circle
        self.collected = [{} for _ in range(n)]   # kind: chips the house took
        self.taken = [0] * n
        self.paid = [0] * n
        self.folded = [False] * n
        self.hole = [[] for _ in range(n)]
        self.dealer = []
        self.board = []
        self.burns = []
        self.unused = []
        self.seen = bytearray(C.DECK_SIZE)
        self.held = []            # drawn in error, used as the next cards (27.12(b))
        self.face_ups = 0
        self.phase = DEALING
        self.deciding = None      # the decision open, e.g. "play"
        self.undecided = [False] * n
        self._plan = []           # (what, seat) of the cards due
        self._next = 0
        self.values = [-1] * n    # best hands, after the reveal
        self.dealer_value = -1
        self.called_off = None
        self.called_why = None
        self._defer = False
        self._pending = False

    def _why_not_opening(self, ante, side):
        return None

    # ----- queries ----------------------------------------------------------------------

    def ante(self, seat):
        """The ante `seat` opened the round with (0: not in the round)."""
        return self._opening[seat][0]

    def order(self):
        """Seats in the round in dealing order: clockwise from the dealer's left."""
        return [s for s in range(self.n) if self.in_round[s]]

    def _rounds_of_cards(self, n):
        """The deal plan of `n` rounds: a card to each seat in order, the dealer's last."""
        plan = []
        for _ in range(n):
            for seat in self.order():
                plan.append(("hole", seat))
            plan.append(("dealer", DEALER))
        return plan

    def settling_order(self):
        """From the player farthest to the dealer's right, counterclockwise (27.10(d))."""
        return [s for s in range(self.n - 1, -1, -1) if self.in_round[s]]

    def active(self, seat):
        return self.in_round[seat] and not self.folded[seat]

    def expecting(self):
        if self.phase == DEALING and self._next < len(self._plan):
            return self._plan[self._next]
        return None

    def finished(self):
        return self.phase == COMPLETE

    def dealing(self):
        return self.phase == DEALING

    def house(self):
        """The house's net this round: wagers collected less winnings paid."""
        return sum(self.taken) - sum(self.paid)

    def result(self):
        """Per seat (chips taken as wagers, chips paid back with the winnings)."""
        return [(self.taken[s], self.paid[s]) for s in range(self.n)]

    def legal_actions(self, seat):
        return [k for k in self.DECISIONS if self.why_not((k, seat)) is None]

    def why_not(self, event):
        """None if the event is legal now, else the reason it is refused."""
        if not isinstance(event, tuple) or not 2 <= len(event) <= 3:
            return "malformed event %s: want (kind, card code or seat[, amount])" % check.shown(event)
        if self.phase == COMPLETE:
            return "the round is over"
        kind = event[0]
        arg = event[1]
        if kind in IRREGULAR:
            return lazy.load(IRREGULAR_RULES).why_not(self, event)
        if kind == "card":
            if len(event) != 2:
                return "malformed card event"
            try:
                card = C.parse(arg)
            except C.CardError as e:
                return str(e)
            if self.seen[card] or card in self.held:
                return "card %s already seen this round" % arg
            if self.expecting() is None and not self._more_cards():
                return "no card is due now"
            return None
        if kind not in self.DECISIONS:
            return "unknown event %s" % check.shown(kind)
        if not check.is_whole(arg) or not 0 <= arg < self.n:
            return "no seat %s at this table" % check.shown(arg)
        if self.phase != BETTING:
            return "no decisions now: the round is dealing"
        if not self.undecided[arg]:
            return "seat %d has no decision to make now" % arg
        return self._why_not_decision(event)

    # ----- applying events -------------------------------------------------------------

    def start(self):
        """Take the opening wagers, then ask for the first card."""
        out = []
        for seat in self.order():
            ante, side = self._opening[seat]
            self._take(seat, "ante", ante, out)
            self._take(seat, self.SIDE, side, out)
        self._plan = self._deal_plan()
        self._advance(out)
        return out

    def apply(self, event, settle=True):
        """Check and apply `event`; its effects.  Refused (with the reason) if illegal."""
        why = self.why_not(event)
        if why:
            raise check.Refused(why)
        out = []
        self._defer = not settle    # nothing raises past why_not()
        self._apply(event, out)
        self._defer = False
        return out

    def settle(self):
        """The settlement that apply(event, settle=False) left waiting; its effects."""
        out = []
        if self._pending:
            self._pending = False
            self._settle(out)
        return out

    def save(self):
        """The round's state as it is, for undo(): the table lights the LEDs for an
        event before its journal write, and undoes the event if the write fails."""
        return _copied(self.__dict__)

    def undo(self, state):
        """Back to a state save() took."""
        for k in state:
            setattr(self, k, _copied(state[k]))

    def _apply(self, event, out):
        kind = event[0]
        if kind == "card":
            card = C.parse(event[1])
            if self.expecting() is None:
                self.held.append(card)
                out.append(("held", card, DRAWN))
            else:
                self._deal(card, out)
                self._advance(out)
        elif kind in IRREGULAR:
            lazy.load(IRREGULAR_RULES).apply(self, event, out)
        else:
            self.undecided[event[1]] = False
            self._decide(event, out)
            if not any(self.undecided):
                name = self.deciding
                self.deciding = None
                self._decided(name, out)

    def _deal(self, card, out):
        what, seat = self._plan[self._next]
        self._next += 1
        self.seen[card] = 1
        if what == "hole":
            self.hole[seat].append(card)
        elif what == "dealer":
            self.dealer.append(card)
        elif what == "burn":
            self.burns.append(card)
        else:
            self.board.append(card)
        out.append(("dealt", what, seat, card))

    def _advance(self, out):
        """Use held cards for what is due, then ask for the next card, or go on."""
        while self.phase == DEALING:
            due = self.expecting()
            if due is None:
                self._cards_done(out)
                return
            if self.held:
                self._deal(self.held.pop(0), out)
            else:
                out.append(("need", due[0], due[1]))
                return

    def _open_decision(self, name, out):
        seats = [s for s in self.order() if self._decides(name, s)]
        if not seats:
            self._decided(name, out)
            return
        self.phase = BETTING
        self.deciding = name
        for s in seats:
            self.undecided[s] = True
        out.append(("decide", name, seats))

    def _deal_more(self, plan, out):
        """Back to dealing: the cards of `plan`, held cards first."""
        self.phase = DEALING
        self._plan += plan
        self._advance(out)

    # ----- chips ------------------------------------------------------------------------

    def _take(self, seat, kind, amount, out):
        if amount:
            self.stacks[seat] -= amount
            self.taken[seat] += amount
            self.circle[seat][kind] = self.circle[seat].get(kind, 0) + amount
            out.append(("wager", seat, kind, amount))

    def give(self, seat, amount):
        self.stacks[seat] += amount
        self.paid[seat] += amount

    def _fold(self, seat, out):
        self.folded[seat] = True
        out.append(("fold", seat))

    def collect(self, seat, kind, section, out):
        amount = self.circle[seat].pop(kind, 0)
        if amount:
            self.collected[seat][kind] = self.collected[seat].get(kind, 0) + amount
            out.append(("collect", seat, kind, amount, section))

    def win(self, seat, kind, odds, section, out):
        """The wager `kind` back with odds-to-1 winnings (odds 0: a push)."""
        amount = self.circle[seat].pop(kind, 0)
        if amount:
            self.give(seat, amount)
            out.append(("return", seat, kind, amount, section))
            self.bonus(seat, kind, amount * odds, section, out)

    def bonus(self, seat, kind, amount, section, out):
        if amount:
            self.give(seat, amount)
            out.append(("pay", seat, kind, amount, section))

    def end(self, out):
        self.phase = COMPLETE
        self.deciding = None
        self.undecided = [False] * self.n
        out.append(("end",))

    # ----- settlement -------------------------------------------------------------------

    def _showdown(self, out):
        """All decisions made and every card out: settle now, or when settle() comes."""
        self.phase = COMPLETE
        if self._defer:
            self._pending = True
            out.append(("settle",))
        else:
            self._settle(out)

    def _settle(self, out):
        """27.10(d): the dealer's hand first, then each player's from the dealer's right;
        the wagers by (e)1 (each step round the table) or (e)2 (player by player).
        Either way a seat's losing wagers go before its winning ones are paid."""
        seats = [s for s in self.settling_order() if self._shown(s)]
        if seats:
            self.dealer_value, best = self._best(self.dealer)
            out.append(("show", DEALER, self.dealer_value, best))
        steps = {}
        for seat in seats:
            self.values[seat], best = self._best(self.hole[seat])
            out.append(("show", seat, self.values[seat], best))
            steps[seat] = self._outcome(seat)
            if self.settings.settle_order == 2:
                self._steps(seat, steps[seat], True, out)
                self._steps(seat, steps[seat], False, out)
                out.append(("muck", seat))
        if self.settings.settle_order == 1:
            for losing in (True, False):
                for seat in seats:
                    self._steps(seat, steps[seat], losing, out)
            for seat in seats:
                out.append(("muck", seat))
        out.append(("muck", DEALER))
        self.end(out)

    def _steps(self, seat, steps, losing, out):
        """Carry out the game's steps for a seat: ("collect", kind, section),
        ("win", kind, odds, section) or ("pay", kind, amount, section); the collections
        when `losing`, else the rest."""
        for step in steps:
            if (step[0] == "collect") != losing:
                continue
            if losing:
                self.collect(seat, step[1], step[2], out)
            elif step[0] == "win":
                self.win(seat, step[1], step[2], step[3], out)
            else:
                self.bonus(seat, step[1], step[2], step[3], out)
