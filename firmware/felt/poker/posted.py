"""The checks of a posted betting structure (felt.poker.structure) and rake
(felt.poker.rake), and the rulings on the rake's limits: run only as a table is
configured or a round's settings are read back, so loaded for that and forgotten after
(felt.lazy); the classes they check stay in the heap at every table.
"""

from felt import check
from felt.check import ConfigError

RAKE_METHODS = ("none", "percent", "incremental", "time")
RAKE_KEYS = ("method", "percent", "levels", "maximum", "hourly", "every", "per")
MAX_LEVELS = 8        # posted levels: the sign must fit one frame on the link
MAX_PERCENT = 10      # 13:47-20.37(a)4i(1)
TIME_STEPS = (20, 30)  # minutes, 13:47-20.37(a)4iii(3)
HOURLY_WAGERS = 10    # the hourly fee at most this many maximum wagers (rake_from_dict)


def _whole(name, v, low=0):
    try:
        check.whole(v, name, low)
    except check.Refused as e:
        raise ConfigError(str(e))


def structure(st, kinds):
    """ConfigError unless the Structure `st`, of one of `kinds`, keeps the rules."""
    if st.kind not in kinds:
        raise ConfigError("structure must be one of %s, not %s"
                          % (", ".join(kinds), check.shown(st.kind)))
    for name in ("small_bet", "big_bet", "ante", "cap", "bring_in", "max_wager"):
        _whole(name, getattr(st, name))
    if st.blinds is None:
        raise ConfigError("blinds must be a list of whole numbers of chips")
    if st.small_bet < 1:
        raise ConfigError("small_bet must be at least 1")
    if st.kind in ("fixed", "spread") and st.big_bet < st.small_bet:
        raise ConfigError("big_bet must be at least small_bet (for spread limit: the "
                          "maximum wager at least the minimum)")
    if st.cap == 1:
        raise ConfigError("cap 1 would forbid every raise; use 2 or more, or 0 for no cap")
    for name in ("check_raise", "straddle"):
        if getattr(st, name) is not True and getattr(st, name) is not False:
            raise ConfigError("%s must be true or false" % name)
    for b in st.blinds:
        _whole("each blind", b, 1)
    if st.blinds and max(st.blinds) > st.small_bet and st.kind == "fixed":
        # The largest blind is the opening bet before the flop (19:47-14.10(d)).
        raise ConfigError("the largest blind may not exceed the small bet")
    if st.bring_in and st.bring_in >= st.small_bet:
        raise ConfigError("the bring-in must be less than the small bet it completes to")
    if st.straddle and not st.blinds:
        raise ConfigError("a straddle follows the blinds (13:69F-14.10(f)): post blinds")
    if st.max_wager:
        # 19:47-8.2: the posted maximum bounds every wager, the fixed ones included.
        units = (st.small_bet, st.big_bet) if st.kind in ("fixed", "spread") \
            else (st.small_bet,)
        largest = max(units + st.blinds + (st.ante, st.bring_in,
                                             2 * max(st.blinds) if st.straddle else 0))
        if largest > st.max_wager:
            raise ConfigError("a bet of %d is above the posted maximum wager of %d "
                              "(19:47-8.2)" % (largest, st.max_wager))


def rake(r):
    """ConfigError unless the Rake `r` keeps the rules; its levels as tuples."""
    r.levels = _levels(r.levels)
    if r.method not in RAKE_METHODS:
        raise ConfigError("rake method must be one of %s, not %s"
                          % (", ".join(RAKE_METHODS), check.shown(r.method)))
    for name in ("percent", "maximum", "hourly"):
        v = getattr(r, name)
        if not check.is_whole(v) or not 0 <= v <= check.MAX_CHIPS:
            raise ConfigError("rake %s must be a whole number 0 to %d, not %s"
                              % (name, check.MAX_CHIPS, check.shown(v)))
    if r.percent > MAX_PERCENT:
        raise ConfigError("a rake of %d %% is above the 10 %% that 13:47-20.37(a)4i(1) "
                          "allows" % r.percent)
    if r.method == "percent" and not r.percent:
        raise ConfigError("a percentage rake needs its percent (1..10)")
    if r.levels is None:
        raise ConfigError("rake levels must be a list of [pot level, amount] pairs")
    if len(r.levels) > MAX_LEVELS:
        raise ConfigError("at most %d incremental rake levels can be posted" % MAX_LEVELS)
    prev = 0
    for lv in r.levels:
        if len(lv) != 2 or not all([check.is_whole(x) and 0 < x <= check.MAX_CHIPS
                                    for x in lv]) or lv[0] <= prev:
            raise ConfigError("rake levels must be [pot level, amount] pairs of whole "
                              "numbers, pot levels rising (13:47-20.37(a)4ii)")
        prev = lv[0]
    if r.method == "incremental" and not r.levels:
        raise ConfigError("an incremental rake needs its pot levels")
    if r.method == "time":
        if r.every not in TIME_STEPS:
            raise ConfigError("time charges are assessed every 20 or 30 minutes "
                              "(13:47-20.37(a)4iii(3)), not %s" % check.shown(r.every))
        if r.per not in ("player", "table"):
            raise ConfigError("time charges are per player or per table")
        if not r.hourly:
            raise ConfigError("time charges need an hourly fee")


def _levels(levels):
    """The posted levels as a list of tuples; anything else is left for rake()."""
    if not isinstance(levels, (list, tuple)):
        return None
    return [tuple(lv) if isinstance(lv, (list, tuple)) else () for lv in levels]


def rake_from_dict(Rake, d, max_wager=None, min_wager=None):
    """A `Rake` as posted, from as_dict()'s keys.  Rulings on the posted limits: the
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
        if k not in RAKE_KEYS:
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
