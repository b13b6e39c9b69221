"""Four card poker, 19:47-27.10 to 27.12: a round at a house-banked table.

Each seat wagers an ante, an aces up wager or both.  Every seat in the round is dealt
five cards and the dealer six, all face down.  Our texts begin 27.10 at (c); the deal
is the game's usual one: one card at a time, clockwise from the dealer's left with the
dealer last, five times round, then the dealer's sixth card; no card is burned.
A seat with an ante then folds (the ante is forfeited) or plays one to three times
the ante ("play", seat, times).  Hands are the best four cards (felt.banked.hands4).
"""

from felt import check
from felt.banked import hands4 as H4
from felt.banked import paytables as P
from felt.banked.banked_round import BankedRound, DEALER

FORFEIT = "19:47-27.10(c)"
AGAINST = "19:47-27.11(a)1"
ANTE_BONUS = "19:47-27.11(a)2"
ACES_UP = "19:47-27.11(a)3"


class FourCardPoker(BankedRound):
    GAME = "four_card"
    KINDS = ("ante", "play", "aces_up")
    SIDE = "aces_up"
    DECISIONS = ("play", "fold")

    def describe(self, value):
        """The name of a hand value of the game: its best four cards (felt.banked.hands4)."""
        return H4.NAMES[H4.category(value)]

    def _deal_plan(self):
        return self._rounds_of_cards(5) + [("dealer", DEALER)]   # the dealer's sixth

    def _more_cards(self):
        return False

    def _cards_done(self, out):
        self._open_decision("play", out)

    def _decides(self, name, seat):
        return self._opening[seat][0] > 0

    def _why_not_decision(self, event):
        seat = event[1]
        if event[0] == "fold":
            return None if len(event) == 2 else "a fold takes no amount"
        times = event[2] if len(event) == 3 else 1
        if not check.is_whole(times) or not 1 <= times <= 3:
            return "the play wager is one to three times the ante"
        amount = times * self._opening[seat][0]
        if amount > self.stacks[seat]:
            return "seat %d has %d chips: the play wager is %d" % (seat, self.stacks[seat], amount)
        return None

    def _decide(self, event, out):
        seat = event[1]
        if event[0] == "fold":
            self._fold(seat, out)
        else:
            times = event[2] if len(event) == 3 else 1
            self._take(seat, "play", times * self._opening[seat][0], out)

    def _decided(self, name, out):
        # 27.10(c): the forfeited antes go first; a folded hand without an aces up
        # wager goes to the discard rack, one with it stays for the aces up.
        for seat in self.order():
            if self.folded[seat]:
                self.collect(seat, "ante", FORFEIT, out)
                if not self._opening[seat][1]:
                    out.append(("muck", seat))
        self._showdown(out)

    def _shown(self, seat):
        return not self.folded[seat] or self._opening[seat][1] > 0

    def _best(self, cards):
        value, best = H4.best4(cards)
        return value, list(best)

    def _outcome(self, seat):
        v = self.values[seat]
        ante, aces_up = self._opening[seat]
        steps = []
        if ante and not self.folded[seat]:
            if v >= self.dealer_value:    # 27.11(a)1: a tie is the player's
                steps.append(("win", "ante", 1, AGAINST))
                steps.append(("win", "play", 1, AGAINST))
            else:
                steps.append(("collect", "ante", AGAINST))
                steps.append(("collect", "play", AGAINST))
            odds = P.ante_bonus_odds(v)   # 27.11(a)2: whatever the dealer holds
            if odds:
                steps.append(("pay", "ante_bonus", ante * odds, ANTE_BONUS))
        if aces_up:
            odds = P.aces_up_odds(self.settings.aces_up, v)   # 27.11(a)3
            steps.append(("win", "aces_up", odds, ACES_UP) if odds else
                         ("collect", "aces_up", ACES_UP))
        return steps
