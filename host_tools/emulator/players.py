"""Scripted players for headless runs: seeded random legal actions."""

# The seat button that makes each action (fold; check/call; bet/raise).
BUTTON_FOR = {"fold": "fold", "decline": "fold", "check": "call", "call": "call",
              "bring_in": "call", "bet": "raise", "raise": "raise", "straddle": "raise"}
# How often a random player picks each kind of action, when it is legal.
WEIGHTS = {"fold": 2, "check": 6, "call": 6, "bring_in": 6, "bet": 3, "raise": 2,
           "straddle": 1, "decline": 3, "draw": 1, "discard": 1}


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
