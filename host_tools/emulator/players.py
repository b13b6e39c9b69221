"""Scripted players for headless runs: seeded random legal actions."""

# The button that makes each action (fold; check/call; bet/raise).
BUTTON_FOR = {"fold": "fold", "check": "call", "call": "call", "bet": "raise", "raise": "raise"}
# How often a random player picks each kind of action, when it is legal.
WEIGHTS = {"fold": 2, "check": 6, "call": 6, "bet": 3, "raise": 2}


class RandomPlayer:
    def __init__(self, rng):
        self.rng = rng

    def choose(self, legal):
        choices = sorted(legal)
        weights = [WEIGHTS[a] for a in choices]
        return self.rng.choices(choices, weights)[0]
