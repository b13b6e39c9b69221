"""The posted betting structure of a fixed-limit table.

Fixed limit: every bet and raise is one unit, the small bet on the first two betting
rounds and the big bet on the last two.  The raise cap counts the opening bet (the big
blind before the flop) and the raises: "a bet and three raises" is 4.  0 means no cap.
A posted sign says all of this (13:47-20.39; the sign itself comes with issue 3).
"""

DEFAULT_CAP = 4  # rules README: a bet and three raises unless posted otherwise


class ConfigError(ValueError):
    """A table setting the rules or the hardware cannot honour."""


class FixedLimit:
    def __init__(self, small_bet, big_bet, blinds=(), ante=0, cap=DEFAULT_CAP):
        self.small_bet = small_bet
        self.big_bet = big_bet
        self.blinds = tuple(blinds)
        self.ante = ante
        self.cap = cap
        self._validate()

    def _validate(self):
        for name in ("small_bet", "big_bet", "ante", "cap"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 0:
                raise ConfigError("%s must be a whole number of chips >= 0, not %r" % (name, v))
        if self.small_bet < 1 or self.big_bet < self.small_bet:
            raise ConfigError("bets must satisfy 1 <= small_bet <= big_bet")
        if self.cap == 1:
            raise ConfigError("cap 1 would forbid every raise; use 2 or more, or 0 for no cap")
        for b in self.blinds:
            if not isinstance(b, int) or b < 1:
                raise ConfigError("each blind must be a whole number of chips >= 1, not %r" % (b,))
        if self.blinds and max(self.blinds) > self.small_bet:
            # The largest blind is the opening bet before the flop (19:47-14.10(d)).
            raise ConfigError("the largest blind may not exceed the small bet")

    def unit(self, street):
        """The size of a bet or raise on betting round `street` (0 = before the flop)."""
        return self.small_bet if street < 2 else self.big_bet

    def as_dict(self):
        return {"small_bet": self.small_bet, "big_bet": self.big_bet,
                "blinds": list(self.blinds), "ante": self.ante, "cap": self.cap}
