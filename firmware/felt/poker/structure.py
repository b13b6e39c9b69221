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

from felt import lazy
from felt.check import ConfigError   # a setting refused (felt.poker.posted's checks)

# The checks of a posted structure and rake: loaded for them and forgotten after
# (felt.lazy), as a table is configured seldom.
POSTED = "felt.poker.posted"
DEFAULT_CAP = 4  # rules README: a bet and three raises unless posted otherwise
KINDS = ("fixed", "spread", "pot", "no")
NAMES = ("fixed limit", "spread limit", "pot limit", "no limit")


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
        try:
            lazy.load(POSTED).structure(self, KINDS)
        finally:
            lazy.forget(POSTED)

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
