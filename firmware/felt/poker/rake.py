"""The rake, by the posted method (13:47-20.37).

- "percent": at most 10 % of all sums bet in each betting round, taken from the pot
  after that round ((a)4i), the uncalled final bet excluded ((b)).
- "incremental": set amounts as the pot reaches posted levels ((a)4ii), the uncalled
  final bet excluded ((b)).
- "time": an hourly fee per seated player (inactive ones too) or per table, assessed
  every 20 or 30 minutes ((a)4iii); taken from stacks between rounds, not from pots.
- "none".
`maximum` caps what one round's pots give (0: no cap), and nothing is taken once the
pot is awarded ((c)): the round stops asking then.
"""

from felt import lazy
from felt.poker.structure import POSTED


class Rake:
    def __init__(self, method="none", percent=0, levels=(), maximum=0, hourly=0,
                 every=30, per="player"):
        self.method = method
        self.percent = percent
        self.levels = levels     # as tuples, once checked
        self.maximum = maximum
        self.hourly = hourly
        self.every = every
        self.per = per
        try:
            lazy.load(POSTED).rake(self)
        finally:
            lazy.forget(POSTED)

    def due(self, round_wagers, pot, taken):
        """What to take now, after a betting round: `round_wagers` bet in it and `pot`
        in all (both without the uncalled final bet), `taken` already this round."""
        if self.method == "percent":
            want = taken + round_wagers * self.percent // 100
        elif self.method == "incremental":
            want = sum([amount for level, amount in self.levels if pot >= level])
        else:
            return 0
        if self.maximum:
            want = min(want, self.maximum)
        return max(0, min(want - taken, pot - taken))

    def time_charge(self, seated):
        """One assessment of the time charge: (per seated player, per table)."""
        if self.method != "time":
            return 0, 0
        fee = self.hourly * self.every // 60
        return (fee, 0) if self.per == "player" else (0, fee)

    def as_dict(self):
        return {"method": self.method, "percent": self.percent,
                "levels": [list(l) for l in self.levels], "maximum": self.maximum,
                "hourly": self.hourly, "every": self.every, "per": self.per}


def from_dict(d, max_wager=None, min_wager=None):
    """A Rake as posted, from as_dict()'s keys, or ConfigError (felt.poker.posted)."""
    try:
        return lazy.load(POSTED).rake_from_dict(Rake, d, max_wager, min_wager)
    finally:
        lazy.forget(POSTED)
