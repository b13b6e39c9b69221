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

from felt import check
from felt.poker.structure import ConfigError

METHODS = ("none", "percent", "incremental", "time")
MAX_LEVELS = 8        # posted levels: the sign must fit one frame on the link
MAX_PERCENT = 10      # 13:47-20.37(a)4i(1)
TIME_STEPS = (20, 30)  # minutes, 13:47-20.37(a)4iii(3)
HOURLY_WAGERS = 10    # the hourly fee at most this many maximum wagers (from_dict)


class Rake:
    def __init__(self, method="none", percent=0, levels=(), maximum=0, hourly=0,
                 every=30, per="player"):
        self.method = method
        self.percent = percent
        self.levels = _levels(levels)
        self.maximum = maximum
        self.hourly = hourly
        self.every = every
        self.per = per
        self._validate()

    def _validate(self):
        if self.method not in METHODS:
            raise ConfigError("rake method must be one of %s, not %s"
                              % (", ".join(METHODS), check.shown(self.method)))
        for name in ("percent", "maximum", "hourly"):
            v = getattr(self, name)
            if not check.is_whole(v) or not 0 <= v <= check.MAX_CHIPS:
                raise ConfigError("rake %s must be a whole number 0 to %d, not %s"
                                  % (name, check.MAX_CHIPS, check.shown(v)))
        if self.percent > MAX_PERCENT:
            raise ConfigError("a rake of %d %% is above the 10 %% that 13:47-20.37(a)4i(1) "
                              "allows" % self.percent)
        if self.method == "percent" and not self.percent:
            raise ConfigError("a percentage rake needs its percent (1..10)")
        if self.levels is None:
            raise ConfigError("rake levels must be a list of [pot level, amount] pairs")
        if len(self.levels) > MAX_LEVELS:
            raise ConfigError("at most %d incremental rake levels can be posted" % MAX_LEVELS)
        prev = 0
        for lv in self.levels:
            if len(lv) != 2 or not all([check.is_whole(x) and 0 < x <= check.MAX_CHIPS
                                        for x in lv]) or lv[0] <= prev:
                raise ConfigError("rake levels must be [pot level, amount] pairs of whole "
                                  "numbers, pot levels rising (13:47-20.37(a)4ii)")
            prev = lv[0]
        if self.method == "incremental" and not self.levels:
            raise ConfigError("an incremental rake needs its pot levels")
        if self.method == "time":
            if self.every not in TIME_STEPS:
                raise ConfigError("time charges are assessed every 20 or 30 minutes "
                                  "(13:47-20.37(a)4iii(3)), not %s" % check.shown(self.every))
            if self.per not in ("player", "table"):
                raise ConfigError("time charges are per player or per table")
            if not self.hourly:
                raise ConfigError("time charges need an hourly fee")

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


def _levels(levels):
    """The posted levels as a list of tuples; anything else is left for _validate."""
    if not isinstance(levels, (list, tuple)):
        return None
    return [tuple(lv) if isinstance(lv, (list, tuple)) else () for lv in levels]


def from_dict(d, max_wager=None, min_wager=None):
    """A Rake as posted, from as_dict()'s keys.  Rulings on the posted limits: the
    incremental rake never comes to more than 10 % of the pot, like a percentage rake;
    the hourly time charge is at most ten of the table's maximum wagers, or with no
    maximum posted a hundred minimum wagers, ten of the least maximum 19:47-8.2(a)
    would allow (13:47-20.37(a)4iii(2) bases the fee on the wagering limits)."""
    if d is None:
        return Rake()
    if not isinstance(d, dict):
        raise ConfigError("rake must be an object")
    d = check.given(d)     # null: the setting's default, as if left out
    for k in sorted(d):   # the first unknown one by name, on every runtime
        if k not in ("method", "percent", "levels", "maximum", "hourly", "every", "per"):
            raise ConfigError("unknown rake setting %s" % check.shown(k))
    r = Rake(d.get("method", "none"), d.get("percent", 0), d.get("levels", ()),
             d.get("maximum", 0), d.get("hourly", 0), d.get("every", 30),
             d.get("per", "player"))
    taken = 0
    for level, amount in r.levels:
        taken += amount
        if taken * 100 > level * MAX_PERCENT:
            # A ruling: the increments never take more than (a)4i's 10 % of the pot.
            raise ConfigError("a rake of %d at a pot of %d is above 10 %% of it "
                              "(13:47-20.37(a)4)" % (taken, level))
    if max_wager and r.hourly > HOURLY_WAGERS * max_wager:
        raise ConfigError("a time charge of %d an hour is above ten maximum wagers (%d)"
                          % (r.hourly, HOURLY_WAGERS * max_wager))
    if not max_wager and min_wager and r.hourly > HOURLY_WAGERS * 10 * min_wager:
        raise ConfigError("a time charge of %d an hour is above a hundred minimum wagers "
                          "(%d): no maximum wager is posted" % (r.hourly,
                                                                HOURLY_WAGERS * 10 * min_wager))
    return r
