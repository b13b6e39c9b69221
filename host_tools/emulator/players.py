"""Scripted players for headless runs: seeded random legal actions; at a house-banked
table, seeded but sensible decisions on the cards they hold."""

from felt.banked import hands4 as H4
from felt.poker import cards as C
from felt.poker import evaluate as E
from host_tools.banked_edge import strategy as four_card_strategy

# The seat button that makes each action (fold; check/call; bet/raise); asked to run
# the board more than once (13:69F-14.10(l)), raise agrees and fold declines.
BUTTON_FOR = {"fold": "fold", "decline": "fold", "check": "call", "call": "call",
              "bring_in": "call", "bet": "raise", "raise": "raise", "straddle": "raise",
              "run_it": "raise", "run_once": "fold"}
# How often a random player picks each kind of action, when it is legal.
WEIGHTS = {"fold": 2, "check": 6, "call": 6, "bring_in": 6, "bet": 3, "raise": 2,
           "straddle": 1, "decline": 3, "draw": 1, "discard": 1, "run_it": 4, "run_once": 1}
# A house-banked table (docs/protocol.md 6.4): how often a seat adds the side wager
# (aces up, bonus) for the session, and how often a decision is a whim rather than
# the seat's plan.
SIDE_WAGER = 0.4
WHIM = 0.1
NINE = 7        # felt.poker.cards ranks of a nine, a queen
QUEEN = 10


class RandomPlayer:
    def __init__(self, rng):
        self.rng = rng

    def choose(self, legal):
        choices = sorted(legal)
        weights = [WEIGHTS[a] for a in choices]
        return self.rng.choices(choices, weights)[0]

    def amount(self, low, high):
        """A bet or raise total: mostly the minimum, sometimes more, now and then all."""
        pick = self.rng.random()
        if pick < 0.6 or high <= low:
            return low
        if pick < 0.95:
            return self.rng.randint(low, high)
        return high

    def throw(self, hole, count=None):
        """Cards to discard: `count` of them, or for a draw any number up to three."""
        n = count if count is not None else self.rng.randint(0, min(3, len(hole)))
        return sorted(self.rng.sample(sorted(hole), n))

    # ----- a house-banked table ----------------------------------------------------------

    def side_wager(self):
        """Whether the seat plays the side wager with its ante this session."""
        return self.rng.random() < SIDE_WAGER

    def side_amount(self, ante, most):
        """The side wager it plays: one to three antes, within the posted maximum."""
        return min(most, ante * self.rng.randint(1, 3))

    def decide(self, game, events, hole, legal, ante, stack):
        """(button, to) for a decision at a house-banked table: Four Card Poker plays
        1x to 3x the ante by its hand (host_tools.banked_edge.strategy), hold 'em bonus
        places the flop wager on a pair, a queen or better, suited or near-connected
        cards or two nines or better, and bets the turn and the river on a pair
        it holds a card of, or a straight or better; now and then on a whim instead."""
        cards = [C.parse(c) for c in hole]
        whim = self.rng.random() < WHIM
        if game == "four-card-poker":
            if "play" not in legal:
                return "fold", None
            times = self.rng.randint(0, 3) if whim else four_card_strategy(H4.best4(cards)[0])
            times = min(times, stack // ante) if ante else 0
            if times == 0:
                return "fold", None
            return ("call", None) if times == 1 else ("raise", None) if times == 3 \
                else ("raise", times * ante)
        board = [C.parse(e["card"]) for e in events if e["e"] == "dealt" and e["what"] == "board"]
        if "fold" in legal:       # the flop decision
            low, high = sorted(c >> 2 for c in cards)
            good = low == high or high >= QUEEN or (cards[0] & 3) == (cards[1] & 3) \
                or high - low <= 2 or low >= NINE
            play = (not good) if whim else good
            return ("call", None) if play and "play" in legal else ("fold", None)
        board_ranks = [c >> 2 for c in board]
        paired = cards[0] >> 2 == cards[1] >> 2 or [c for c in cards if c >> 2 in board_ranks]
        bet = bool(paired) or E.category(E.evaluate(cards + board)) >= E.STRAIGHT
        if whim:
            bet = not bet
        return ("raise", None) if bet and "bet" in legal else ("call", None)
