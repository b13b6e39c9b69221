"""Texas hold 'em bonus poker, 19:47-28: a round at a house-banked table.

Each seat wagers an ante and may add the bonus wager.  Two cards go to every seat and
the dealer, one at a time clockwise from the dealer's left, the dealer last (28.1).
Each player folds, forfeiting the ante and the bonus wager with the cards, or places
the flop wager of twice the ante ("play", seat).  A burn and the flop; each player
still in may place the turn wager of one ante ("bet", seat) or not ("check", seat); a
burn and the turn; the river wager likewise; a burn and the river.  The player's hand
and the dealer's are the best five of their two cards and the five community cards
(felt.poker.evaluate).

Our texts stop at 28.2, so the settlement is the game as posted: against the dealer
the flop, turn and river wagers win 1 to 1, a tie is a push (28.1, "push"), a loss
loses every wager; a winning ante is paid 1 to 1 only on a winning hand of the posted
rank (settings.ante_pays_from: a flush, or a straight) and pushes otherwise.  The bonus
wager is paid by the posted table on the player's two cards whatever the dealer holds
(felt.banked.paytables.BONUS).
"""

from felt.banked import paytables as P
from felt.banked.banked_round import BankedRound, DEALER
from felt.poker import evaluate as E

DEFINED = "19:47-28.1"
POSTED = "posted table"
STREETS = ("flop", "turn", "river")


class HoldemBonus(BankedRound):
    GAME = "holdem_bonus"
    KINDS = ("ante", "flop", "turn", "river", "bonus")
    SIDE = "bonus"
    DECISIONS = ("play", "fold", "bet", "check")

    def describe(self, value):
        """The name of a hand value of the game: a poker hand (felt.poker.hands)."""
        from felt.poker import hands
        return hands.describe(value, hands.HIGH)

    def _why_not_opening(self, ante, side):
        return None if ante else "the bonus wager goes with an ante (19:47-28.1)"

    def _deal_plan(self):
        return self._rounds_of_cards(2)

    def _more_cards(self):
        return len(self.board) < 5

    def _cards_done(self, out):
        if len(self.board) == 5:
            self._showdown(out)
        else:
            self._open_decision(STREETS[max(0, len(self.board) - 2)], out)

    def _decides(self, name, seat):
        return not self.folded[seat]

    def _why_not_decision(self, event):
        kind, seat = event[0], event[1]
        if len(event) != 2:
            return "a %s takes no amount" % kind
        if (kind in ("play", "fold")) != (self.deciding == "flop"):
            return ("fold or place the flop wager" if self.deciding == "flop" else
                    "bet or check the %s wager" % self.deciding)
        amount = self._wager(kind) * self._opening[seat][0]
        if amount > self.stacks[seat]:
            return "seat %d has %d chips: the %s wager is %d" % (
                seat, self.stacks[seat], self.deciding, amount)
        return None

    def _wager(self, kind):
        """The chips a decision wagers, in antes: the flop wager is two (28.1)."""
        return 2 if kind == "play" else 1 if kind == "bet" else 0

    def _decide(self, event, out):
        kind, seat = event[0], event[1]
        if kind == "fold":
            self._fold(seat, out)
        elif kind == "check":
            out.append(("check", seat))
        else:
            self._take(seat, self.deciding, self._wager(kind) * self._opening[seat][0], out)

    def _decided(self, name, out):
        if name == "flop":
            # 28.1 "fold": the player withdraws, discarding the two cards.
            for seat in self.order():
                if self.folded[seat]:
                    self.collect(seat, "ante", DEFINED, out)
                    self.collect(seat, "bonus", DEFINED, out)
                    out.append(("muck", seat))
            if not [s for s in self.order() if not self.folded[s]]:
                out.append(("muck", DEALER))
                self.end(out)
                return
            self._deal_more([("burn", DEALER)] + [("board", DEALER)] * 3, out)
        else:
            self._deal_more([("burn", DEALER), ("board", DEALER)], out)

    def _shown(self, seat):
        return not self.folded[seat]

    def _best(self, cards):
        return E.evaluate(cards + self.board), list(cards)

    def _outcome(self, seat):
        v = self.values[seat]
        steps = []
        if v > self.dealer_value:
            ante_odds = 1 if E.category(v) >= self.settings.ante_category() else 0
            steps.append(("win", "ante", ante_odds, POSTED))
            for kind in STREETS:
                steps.append(("win", kind, 1, POSTED))
        elif v == self.dealer_value:
            for kind in ("ante",) + STREETS:
                steps.append(("win", kind, 0, DEFINED))   # a push
        else:
            for kind in ("ante",) + STREETS:
                steps.append(("collect", kind, POSTED))
        if self._opening[seat][1]:
            key = P.bonus_hand(self.hole[seat][0], self.hole[seat][1], self.dealer)
            odds = P.bonus_odds(self.settings.bonus_table, key) if key else 0
            steps.append(("win", "bonus", odds, POSTED) if odds else ("collect", "bonus", POSTED))
        return steps
