"""Betting structures: how much a bet or raise may be, and the forced bets.

- Fixed limit: every bet and raise is one unit, the small bet on the early betting
  rounds and the big bet on the later ones (the variant says which); stud opens with a
  bring-in below the small bet that may be completed to it.
- Spread limit: a bet or raise of any amount between the posted minimum and maximum
  per wager (19:47-8.2); a raise at least matches the last one.
- Pot limit: a raise at least matches the last one, at most the pot after the call.
- No limit: a raise at least matches the last one, at most everything.

The raise cap counts the opening bet (the big blind or the completed bring-in) and the
raises: "a bet and three raises" is 4; 0 is no cap.  A posted sign says all of this
(13:47-20.39).

`run_it` is the house's multiple alternative hands resolution (13:69F-14.10(l)): how
many times the rest of the board is dealt when every player left is all-in and all
agree (felt.poker.runouts); 1, the default, deals it once.  felt.table.config checks it
(2 or 3 at most): this module's code is in the heap at every table.
"""

from felt import check

DEFAULT_CAP = 4  # rules README: a bet and three raises unless posted otherwise
KINDS = ("fixed", "spread", "pot", "no")
NAMES = ("fixed limit", "spread limit", "pot limit", "no limit")


class ConfigError(check.Refused):
    """A table setting the rules or the hardware cannot honour."""


def _whole(name, v, low=0):
    try:
        check.whole(v, name, low)
    except check.Refused as e:
        raise ConfigError(str(e))


class Structure:
    """kind: one of KINDS.  small_bet/big_bet: the fixed-limit units, or for spread
    limit the posted minimum and maximum wager; for pot and no limit, small_bet is the
    smallest bet (usually the big blind) and big_bet is unused.  max_wager: the posted
    maximum wager (19:47-8.2), what one bet or raise may add at most; 0 for none.
    run_it: the runouts the players may agree to (13:69F-14.10(l)), 1 for none."""

    def __init__(self, kind, small_bet, big_bet, blinds=(), ante=0, cap=DEFAULT_CAP,
                 bring_in=0, check_raise=True, straddle=False, max_wager=0, run_it=1):
        self.kind = kind
        self.small_bet = small_bet
        self.big_bet = big_bet
        self.blinds = tuple(blinds) if isinstance(blinds, (list, tuple)) else None
        self.ante = ante
        self.cap = cap
        self.bring_in = bring_in
        self.check_raise = check_raise
        self.straddle = straddle
        self.max_wager = max_wager
        self.run_it = run_it
        self._validate()

    def _validate(self):
        if self.kind not in KINDS:
            raise ConfigError("structure must be one of %s, not %s"
                              % (", ".join(KINDS), check.shown(self.kind)))
        for name in ("small_bet", "big_bet", "ante", "cap", "bring_in", "max_wager"):
            _whole(name, getattr(self, name))
        if self.blinds is None:
            raise ConfigError("blinds must be a list of whole numbers of chips")
        if self.small_bet < 1:
            raise ConfigError("small_bet must be at least 1")
        if self.kind in ("fixed", "spread") and self.big_bet < self.small_bet:
            raise ConfigError("big_bet must be at least small_bet (for spread limit: the "
                              "maximum wager at least the minimum)")
        if self.cap == 1:
            raise ConfigError("cap 1 would forbid every raise; use 2 or more, or 0 for no cap")
        for name in ("check_raise", "straddle"):
            if getattr(self, name) is not True and getattr(self, name) is not False:
                raise ConfigError("%s must be true or false" % name)
        for b in self.blinds:
            _whole("each blind", b, 1)
        if self.blinds and max(self.blinds) > self.small_bet and self.kind == "fixed":
            # The largest blind is the opening bet before the flop (19:47-14.10(d)).
            raise ConfigError("the largest blind may not exceed the small bet")
        if self.bring_in and self.bring_in >= self.small_bet:
            raise ConfigError("the bring-in must be less than the small bet it completes to")
        if self.straddle and not self.blinds:
            raise ConfigError("a straddle follows the blinds (13:69F-14.10(f)): post blinds")
        if self.max_wager:
            # 19:47-8.2: the posted maximum bounds every wager, the fixed ones included.
            units = (self.small_bet, self.big_bet) if self.kind in ("fixed", "spread") \
                else (self.small_bet,)
            largest = max(units + self.blinds + (self.ante, self.bring_in,
                                                 2 * max(self.blinds) if self.straddle else 0))
            if largest > self.max_wager:
                raise ConfigError("a bet of %d is above the posted maximum wager of %d "
                                  "(19:47-8.2)" % (largest, self.max_wager))

    def unit(self, big):
        """The fixed-limit bet on a betting round that uses the big bet or not."""
        return self.big_bet if big else self.small_bet

    def name(self):
        return NAMES[KINDS.index(self.kind)]

    def as_dict(self):
        d = {"structure": self.kind, "small_bet": self.small_bet, "big_bet": self.big_bet,
             "blinds": list(self.blinds), "ante": self.ante, "cap": self.cap,
             "bring_in": self.bring_in, "check_raise": self.check_raise,
             "straddle": self.straddle}
        if self.max_wager:
            d["max_wager"] = self.max_wager
        if self.run_it > 1:
            d["run_it"] = self.run_it
        return d


def FixedLimit(small_bet, big_bet, blinds=(), ante=0, cap=DEFAULT_CAP, bring_in=0):
    return Structure("fixed", small_bet, big_bet, blinds, ante, cap, bring_in)


def from_dict(d):
    """A Structure from the keys of as_dict(); ConfigError names a bad one."""
    return Structure(d.get("structure", "fixed"), d.get("small_bet", 2), d.get("big_bet", 4),
                     d.get("blinds", ()), d.get("ante", 0),
                     d.get("cap", DEFAULT_CAP if d.get("structure", "fixed") in ("fixed", "spread") else 0),
                     d.get("bring_in", 0), d.get("check_raise", True), d.get("straddle", False),
                     d.get("max_wager", 0), d.get("run_it", 1))
