"""One dealt round of fixed-limit hold 'em, as a pure state machine.

No I/O, no clock, no randomness: cards arrive as card-reader events, actions as button
events.  `why_not(event)` explains a refusal without changing anything; `apply(event)`
checks, changes state and returns the effects for the controller to show and send.
Replaying the same events rebuilds the same round (the journal relies on this).

Events:   ("card", "As")          a card read from the dealing shoe
          (action, seat)          action in ACTIONS
Effects:  ("post", seat, "ante" | "blind", amount, all_in)
          ("need", "hole" | "burn" | "board", seat or -1)
          ("dealt", "hole" | "burn" | "board", seat or -1, card)
          ("street", name)
          ("to_act", seat)
          ("action", seat, name, amount, all_in)
          ("return", seat, amount)          an uncalled bet goes back
          ("show", seat, value)             in showdown order
          ("award", pot, seat, amount)
          ("end",)
"""

from felt.poker import cards as C
from felt.poker.button import next_seat, clockwise_from
from felt.poker.evaluate import evaluate

ACTIONS = ("fold", "check", "call", "bet", "raise")
STREETS = ("preflop", "flop", "turn", "river")
BOARD_CARDS = (0, 3, 1, 1)
HOLE_CARDS = 2

DEALING = 0
BETTING = 1
COMPLETE = 2


class Refused(Exception):
    """An event the rules do not allow now; the round is unchanged."""


class Round:
    def __init__(self, stacks, button, structure):
        n = len(stacks)
        self.n = n
        self.stacks = list(stacks)
        self.start_stacks = list(stacks)
        self.button = button
        self.structure = structure
        self.dealt_in = [s > 0 for s in stacks]
        if sum(self.dealt_in) < 2:
            raise ValueError("a round needs two players with chips")
        if not self.dealt_in[button]:
            raise ValueError("the button must be on a seat in the round")
        self.folded = [False] * n
        self.hole = [[] for _ in range(n)]
        self.board = []
        self.burns = []
        self.seen = bytearray(C.DECK_SIZE)
        self.street = 0
        self.phase = DEALING
        self.street_bet = [0] * n   # chips put in on this betting round
        self.total = [0] * n        # chips put in this round, forced bets included
        self.acted_at = [-1] * n    # the level a seat last acted at this round, -1 if not yet
        self.level = 0              # what each player must match this betting round
        self.full = 0               # the level of the last full bet, the base of a raise
        self.bets = 0               # the bet and full raises this round, for the cap
        self.to_act = -1
        self.last_wager = -1        # who made the last bet or raise of the last betting round
        self.show_order = []
        self.values = [0] * n
        self.winners = []
        self._plan = []             # the cards still expected: ("hole", seat) ...
        self._next_card = 0
        self.effects = None

    # ----- starting -------------------------------------------------------------------

    def start(self):
        """Post antes and blinds and ask for the first hole card."""
        out = []
        s = self.structure
        if s.ante:
            for seat in clockwise_from(self.button, self.dealt_in):
                self._post(seat, "ante", s.ante, False, out)
        # 13:47-20.36(d): blinds start left of the button.  With fewer players than
        # posted blinds, the first blinds are dropped so that no seat posts twice and
        # the last (the big blind) is always posted.
        blinds = s.blinds[max(0, len(s.blinds) - sum(self.dealt_in)):]
        seat = self.button
        for blind in blinds:
            seat = next_seat(seat, self.dealt_in)
            self._post(seat, "blind", blind, True, out)
        if blinds:
            # The others owe the full big blind even when it was posted short.
            self.level = self.full = max(blinds)
            self.bets = 1
        self._blind_seat = seat
        # 13:47-20.36(e): two rounds, left of the button first, the button last.
        order = clockwise_from(self.button, self.dealt_in)
        self._plan = [("hole", p) for _ in range(HOLE_CARDS) for p in order]
        self._next_card = 0
        self._ask(out)
        return out

    def _post(self, seat, kind, amount, counts, out):
        paid = min(amount, self.stacks[seat])
        self.stacks[seat] -= paid
        self.total[seat] += paid
        if counts:
            self.street_bet[seat] += paid
        out.append(("post", seat, kind, paid, self.stacks[seat] == 0))

    # ----- queries ----------------------------------------------------------------------

    def expecting(self):
        """("hole", seat), ("burn", -1) or ("board", -1) while cards are due, else None."""
        if self.phase == DEALING and self._next_card < len(self._plan):
            return self._plan[self._next_card]
        return None

    def live(self, seat):
        return self.dealt_in[seat] and not self.folded[seat]

    def can_act(self, seat):
        return self.live(seat) and self.stacks[seat] > 0

    def to_call(self, seat):
        return min(self.level - self.street_bet[seat], self.stacks[seat])

    def legal_actions(self, seat):
        return [a for a in ACTIONS if self.why_not((a, seat)) is None]

    def pot(self):
        return sum(self.total)

    def finished(self):
        return self.phase == COMPLETE

    def _raise_capped(self):
        cap = self.structure.cap
        if not cap or self.bets < cap:
            return False
        # Rules README: no cap once only two players remain in the betting.
        return sum([1 for s in range(self.n) if self.can_act(s)]) > 2

    def reopened(self, seat):
        """Rules README: a short all-in raise does not reopen the betting.  A seat that
        has acted may raise again only after a full bet's worth of raising since."""
        at = self.acted_at[seat]
        return at < 0 or self.level - at >= self.structure.unit(self.street)

    def why_not(self, event):
        """None if the event is legal now, else the reason it is refused."""
        if not isinstance(event, tuple) or len(event) != 2:
            return "malformed event %r: want (kind, card code or seat)" % (event,)
        kind = event[0]
        if kind == "card":
            return self._why_not_card(event[1])
        if kind not in ACTIONS:
            return "unknown event %r" % (kind,)
        seat = event[1]
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            return "no seat %r at this table" % (seat,)
        if self.phase != BETTING:
            return "no betting now: the round is %s" % (
                "waiting for a card" if self.phase == DEALING else "over")
        if seat != self.to_act:
            return "out of turn: the action is on seat %d" % self.to_act
        owe = self.level - self.street_bet[seat]
        if kind == "fold":
            return None if owe > 0 else "nothing to call: check instead of folding"
        if kind == "check":
            return None if owe == 0 else "cannot check: %d to call" % owe
        if kind == "call":
            return None if owe > 0 else "nothing to call: check"
        if not [s for s in range(self.n) if s != seat and self.can_act(s)
                and self.street_bet[s] + self.stacks[s] > self.level]:
            return "nobody left to call a %s: every other player is all-in" % kind
        if kind == "bet":
            return None if self.level == 0 else "a bet is already made: call or raise"
        # raise
        if self.level == 0:
            return "no bet to raise: bet instead"
        if self.stacks[seat] <= owe:
            return "not enough chips to raise: call all-in"
        if not self.reopened(seat):
            return "betting not reopened: a short all-in raise does not reopen it"
        if self._raise_capped():
            return "raise cap reached: %d bets this round" % self.structure.cap
        return None

    def _why_not_card(self, code):
        try:
            card = C.parse(code)
        except C.CardError as e:
            return str(e)
        if self.expecting() is None:
            return "no card is due now"
        if self.seen[card]:
            return "card %s already seen this round" % C.code(card)
        return None

    # ----- applying events -------------------------------------------------------------

    def apply(self, event):
        reason = self.why_not(event)
        if reason is not None:
            raise Refused(reason)
        out = []
        if event[0] == "card":
            self._take_card(C.parse(event[1]), out)
        else:
            self._act(event[0], event[1], out)
        return out

    def _ask(self, out):
        nxt = self.expecting()
        if nxt is not None:
            out.append(("need", nxt[0], nxt[1]))

    def _take_card(self, card, out):
        what, seat = self._plan[self._next_card]
        self._next_card += 1
        self.seen[card] = 1
        if what == "hole":
            self.hole[seat].append(card)
        elif what == "burn":
            self.burns.append(card)
        else:
            self.board.append(card)
        out.append(("dealt", what, seat, card))
        if self._next_card < len(self._plan):
            self._ask(out)
        else:
            self._cards_done(out)

    def _cards_done(self, out):
        self._plan = []
        self._next_card = 0
        if self._betting_possible():
            self.phase = BETTING
            self.last_wager = -1
            if self.street == 0 and self.structure.blinds:
                first = self._blind_seat  # 13:47-20.36(f): the action starts after the blinds
            else:
                first = self.button       # 13:47-20.36(g): first live player left of the button
            self._set_to_act(first, out)
        else:
            self._end_betting(out)

    def _betting_possible(self):
        """Betting needs two players with chips, or one who still owes a call."""
        able = [s for s in range(self.n) if self.can_act(s)]
        if len(able) >= 2:
            return True
        return len(able) == 1 and self.street_bet[able[0]] < self.level

    def _set_to_act(self, after, out):
        n = self.n
        for i in range(1, n + 1):
            s = (after + i) % n
            if self.can_act(s) and (self.acted_at[s] < 0 or self.street_bet[s] < self.level):
                self.to_act = s
                out.append(("to_act", s))
                return
        self.to_act = -1

    def _act(self, kind, seat, out):
        unit = self.structure.unit(self.street)
        stack = self.stacks[seat]
        amount = 0
        if kind == "fold":
            self.folded[seat] = True
        elif kind == "call":
            amount = min(self.level - self.street_bet[seat], stack)
        elif kind in ("bet", "raise"):
            # After a short all-in, a raise goes to the last full bet plus one unit.
            target = self.full + unit
            amount = min(target - self.street_bet[seat], stack)
            new_level = self.street_bet[seat] + amount
            full = new_level >= target
            if full:
                self.full = new_level
                self.bets += 1
            self.level = max(self.level, new_level)
            self.last_wager = seat
        self.stacks[seat] -= amount
        self.street_bet[seat] += amount
        self.acted_at[seat] = self.level
        self.total[seat] += amount
        out.append(("action", seat, kind, amount, self.stacks[seat] == 0 and amount > 0))
        if sum([1 for s in range(self.n) if self.live(s)]) == 1:
            self._finish(out)
            return
        self._set_to_act(seat, out)
        if self.to_act < 0:
            self._end_betting(out)

    def _end_betting(self, out):
        """The betting round is over: next street, a run-out, or the showdown."""
        self.to_act = -1
        last = self.street == len(STREETS) - 1
        if not last:
            self.street += 1
            self.street_bet = [0] * self.n
            self.acted_at = [-1] * self.n
            self.level = self.full = self.bets = 0
            self.phase = DEALING
            # 13:47-20.36(g)-(i): burn one, then the street's community cards.
            self._plan = [("burn", -1)] + [("board", -1)] * BOARD_CARDS[self.street]
            out.append(("street", STREETS[self.street]))
            self._ask(out)
            return
        self._finish(out)

    # ----- the end of the round --------------------------------------------------------

    def _finish(self, out):
        self.phase = COMPLETE
        self.to_act = -1
        self._return_uncalled(out)
        live = [s for s in range(self.n) if self.live(s)]
        if len(live) > 1:
            self._showdown(live, out)
        for i, (amount, eligible) in enumerate(self.pots()):
            self._award(i, amount, eligible, out)
        out.append(("end",))

    def _return_uncalled(self, out):
        top = max(self.total)
        at_top = [s for s in range(self.n) if self.total[s] == top]
        if len(at_top) == 1:
            s = at_top[0]
            second = max([self.total[i] for i in range(self.n) if i != s])
            back = top - second
            self.total[s] -= back
            self.stacks[s] += back
            out.append(("return", s, back))

    def pots(self):
        """[(amount, eligible seats)]: the main pot, then each side pot."""
        live_levels = sorted(set([self.total[s] for s in range(self.n) if self.live(s)]))
        pots = []
        prev = 0
        for level in live_levels:
            if level == prev:
                continue
            amount = 0
            for s in range(self.n):
                amount += min(self.total[s], level) - min(self.total[s], prev)
            eligible = [s for s in range(self.n) if self.live(s) and self.total[s] >= level]
            pots.append((amount, eligible))
            prev = level
        # Chips folded above every live player's level belong to the last pot.
        extra = sum([max(0, t - prev) for t in self.total])
        if extra:
            amount, eligible = pots[-1]
            pots[-1] = (amount + extra, eligible)
        return pots

    def _showdown(self, live, out):
        # 13:47-20.38(d): the player who made the final wager shows first, then
        # clockwise; with no wager in the last betting round, the first live player
        # left of the button (rules README).
        first = self.last_wager if self.last_wager >= 0 and self.live(self.last_wager) \
            else next_seat(self.button, [self.live(s) for s in range(self.n)])
        order = [first] + clockwise_from(first, [self.live(s) for s in range(self.n)])[:-1]
        self.show_order = order
        for s in order:
            # 13:47-20.36(j): any combination of the two hole cards and the board.
            self.values[s] = evaluate(self.hole[s] + self.board)
            out.append(("show", s, self.values[s]))

    def _award(self, index, amount, eligible, out):
        if len(eligible) == 1:
            winners = eligible
        else:
            best = max([self.values[s] for s in eligible])
            # The board plays when it is everyone's best hand: they tie and share.
            winners = [s for s in eligible if self.values[s] == best]
        # Odd chips go to the first winner clockwise from the button (rules README).
        winners = [s for s in clockwise_from(self.button, [True] * self.n) if s in winners]
        share = amount // len(winners)
        odd = amount - share * len(winners)
        for i, s in enumerate(winners):
            won = share + (odd if i == 0 else 0)
            self.stacks[s] += won
            if s not in self.winners:
                self.winners.append(s)
            out.append(("award", index, s, won))
