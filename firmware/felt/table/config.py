"""The table's configuration, as the operator or the host sends it, and its posted sign.

A plain dict on the wire (docs/protocol.md, message `cfg`); validated here so that a
setting the rules forbid is refused with the section that forbids it, and the table
keeps the configuration it had.  The table holds what this makes, a TableConfig
(felt.table.table_config); this module it loads only to read a configuration or show
the sign, and forgets again (felt.lazy).
"""

from felt import check
from felt.poker import structure as structure_mod
from felt.poker.structure import ConfigError
from felt.table.states import is_banked

MAX_SEATS = 11
MAX_RUN_IT = 3   # docs/rules.md: the board twice or three times at most (13:69F-14.10(l))
REGIMES = ("casino", "casino_night")    # N.J.A.C. 19:47 / 13:69F, or 13:47-20
BUTTON_STARTS = ("dealer_right", "high_card")   # 19:47-14.10(c)2 i and ii
TABLE_KEYS = ("game", "regime", "seats", "stacks", "button", "rake", "min_wager", "max_wager")
STRUCTURE_KEYS = ("structure", "small_bet", "big_bet", "blinds", "ante", "cap", "bring_in",
                  "check_raise", "straddle", "run_it")
KEYS = TABLE_KEYS + STRUCTURE_KEYS
# A house-banked table's (felt.banked.settings): a poker table's keys are not its own.
BANKED_SETTINGS = ("aces_up", "settle_order", "ante_pays_from", "bonus_table")
BANKED_KEYS = ("game", "regime", "seats", "stacks", "min_wager", "max_wager", "ante") + \
    BANKED_SETTINGS
BANKED_MAX_PLAYERS = 6   # no text gives one: the layout's six betting spots
# The house-banked games (felt.banked): each player against the dealer, the house pays.
BANKED = ("four-card-poker", "holdem-bonus")
BANKED_CORE = ("four_card", "holdem_bonus")   # felt.banked.settings.GAMES, in this order


def from_dict(d, board_seats=MAX_SEATS):
    """A TableConfig from a dict; ConfigError naming the bad setting otherwise."""
    if not isinstance(d, dict):
        raise ConfigError("configuration must be an object")
    d = check.given(d)     # null: the setting's default, as if left out
    if d.get("game") in BANKED:
        return _banked(d, board_seats)
    # A poker table's modules: never loaded at a house-banked one.
    from felt.poker import rake as rake_mod
    from felt.poker import variants
    for k in sorted(d):   # the first unknown one by name, on every runtime
        if k not in KEYS:
            raise ConfigError("unknown setting %s (known: %s)" % (check.shown(k), ", ".join(KEYS)))
    regime = d.get("regime", "casino")
    if regime not in REGIMES:
        raise ConfigError("regime must be one of %s" % ", ".join(REGIMES))
    game = d.get("game", "holdem")
    try:
        variant = variants.get(game)
    except KeyError as e:
        raise ConfigError(str(e.args[0]))
    most = variant.max_players
    if regime == "casino_night":
        if game not in variants.CASINO_NIGHT:
            raise ConfigError("a casino night offers only hold 'em and seven-card stud "
                              "(13:47-20.4), not %s" % variant.title)
        most = variants.CASINO_NIGHT_MAX[variants.CASINO_NIGHT.index(game)]
    stacks, seats = _stacks(d, board_seats, 2)
    players = sum([1 for s in stacks if s > 0])
    if players > most:
        raise ConfigError("%s seats at most %d players (%s); %d have chips"
                          % (variant.title, most, _max_section(variant, regime), players))
    small = d.get("small_bet", 2)
    # The minimum wager defaults to the small bet; a bad small bet is the structure's
    # to refuse, by its name.
    min_wager, max_wager = _wagers(d, small if check.is_whole(small) and
                                   1 <= small <= check.MAX_CHIPS else 1, regime)
    given = dict([(k, d[k]) for k in STRUCTURE_KEYS if k in d])
    given["max_wager"] = max_wager or 0     # the structure's "none"
    structure = structure_mod.from_dict(given)
    # Checked here, not by the structure (its code is in the heap at every table).
    if not check.is_whole(structure.run_it) or not 1 <= structure.run_it <= MAX_RUN_IT:
        raise ConfigError("run_it must be 1 (the board dealt once), 2 or 3, not %s "
                          "(13:69F-14.10(l))" % check.shown(structure.run_it))
    if variant.stud() and structure.blinds:
        raise ConfigError("%s has no blinds: it opens with antes and the bring-in "
                          "(19:47-14.9(d))" % variant.title)
    if variant.bring_in and not structure.bring_in:
        raise ConfigError("%s opens with a forced bring-in by the low card "
                          "(19:47-14.9(d)): set bring_in" % variant.title)
    if not variant.stud() and structure.bring_in:
        raise ConfigError("a bring-in belongs to stud games, not %s" % variant.title)
    if structure.straddle and variant.hand not in ("holdem", "omaha"):
        raise ConfigError("the straddle is a hold 'em wager (13:69F-14.10(f))")
    if structure.run_it > 1:
        # docs/rules.md: runouts need a board every player shares, and are a casino
        # licensee's option (13:69F-14.10(l)), not a casino night's (13:47-20.36).
        if variant.hand not in ("holdem", "omaha"):
            raise ConfigError("run_it: %s has no shared board to deal again (13:69F-14.10(l))"
                              % variant.title)
        if regime != "casino":
            raise ConfigError("run_it: running the board more than once is a casino "
                              "licensee's option (13:69F-14.10(l)), not a casino night's")
    rake = rake_mod.from_dict(d.get("rake"), max_wager, min_wager)
    button = d.get("button", "dealer_right")
    if button not in BUTTON_STARTS:
        raise ConfigError("button must be one of %s" % ", ".join(BUTTON_STARTS))
    from felt.table.table_config import TableConfig
    return TableConfig(game, regime, seats, list(stacks), structure, rake, button,
                       min_wager, max_wager)


def _stacks(d, board_seats, least):
    """(stacks, seats) of a configuration: one whole stack a seat, `least` with chips."""
    if "stacks" not in d:
        raise ConfigError("the configuration lacks stacks: one amount per seat")
    stacks = d["stacks"]
    seats = d.get("seats", len(stacks) if isinstance(stacks, list) else 0)
    if not check.is_whole(seats) or not 2 <= seats <= board_seats:
        raise ConfigError("seats must be 2..%d: this board has %d" % (board_seats, board_seats))
    if not isinstance(stacks, list) or len(stacks) != seats:
        raise ConfigError("stacks must list one amount per seat (%d)" % seats)
    for s in stacks:
        if not check.is_whole(s) or not 0 <= s <= check.MAX_CHIPS:
            raise ConfigError("each stack must be a whole number of chips 0 to %d, not %s"
                              % (check.MAX_CHIPS, check.shown(s)))
    if sum([1 for s in stacks if s > 0]) < least:
        raise ConfigError("at least %s need chips to play" % (
            "two seats" if least == 2 else "one seat"))
    return list(stacks), seats


def _wagers(d, least, regime):
    """(min_wager, max_wager): the posted limits (19:47-8.2).  No maximum posted
    (None) is table stakes: no wager is bounded but by the player's chips.  A maximum
    posted is at least ten times a minimum of 100 or less ((a)): a floor under a posted
    maximum, which never makes one up."""
    wagers = d.get("min_wager", least), d.get("max_wager")
    for name, v in (("min_wager", wagers[0]), ("max_wager", wagers[1])):
        if v is not None and (not check.is_whole(v) or not 1 <= v <= check.MAX_CHIPS):
            raise ConfigError("%s must be a whole number of chips 1 to %d, not %s"
                              % (name, check.MAX_CHIPS, check.shown(v)))
    min_wager, max_wager = wagers
    if max_wager is not None and regime == "casino" and min_wager <= 100 and \
            max_wager < 10 * min_wager:
        raise ConfigError("a minimum wager of %d needs a maximum of at least %d "
                          "(19:47-8.2(a))" % (min_wager, 10 * min_wager))
    return min_wager, max_wager


def _banked(d, board_seats):
    """A house-banked table (19:47-27, 19:47-28): one player is enough, each plays
    against the dealer.  `ante`: what each seat wagers unless it sits out or says
    otherwise (the `wager` message), the minimum wager unless given."""
    for k in sorted(d):
        if k not in BANKED_KEYS:
            raise ConfigError("unknown setting %s (known: %s)" % (check.shown(k),
                                                                   ", ".join(BANKED_KEYS)))
    regime = d.get("regime", "casino")
    if regime not in REGIMES:
        raise ConfigError("regime must be one of %s" % ", ".join(REGIMES))
    if regime != "casino":
        raise ConfigError("a casino night offers only hold 'em and seven-card stud "
                          "(13:47-20.4)")
    game = d["game"]
    stacks, seats = _stacks(d, board_seats, 1)
    players = sum([1 for s in stacks if s > 0])
    if players > BANKED_MAX_PLAYERS:
        raise ConfigError("a %s table seats at most %d players; %d have chips"
                          % (game, BANKED_MAX_PLAYERS, players))
    min_wager, max_wager = _wagers(d, 5, "casino")
    ante = d.get("ante", min_wager)
    settings = dict([(k, d[k]) for k in BANKED_SETTINGS if k in d])
    from felt.banked.settings import Settings   # the game's own: loaded for its table
    try:
        made = Settings(BANKED_CORE[BANKED.index(game)], **settings)
    except check.Refused as e:
        raise ConfigError(str(e))
    for k in BANKED_SETTINGS:
        settings[k] = getattr(made, k)
    from felt.table.banked_config import BankedConfig   # lives as long as the table
    cfg = BankedConfig(game, BANKED_CORE[BANKED.index(game)], "casino", seats, stacks,
                       min_wager, max_wager, ante, settings)
    if not check.is_whole(ante) or not cfg.within(ante):
        raise ConfigError("the ante must be a whole number of chips %s (19:47-8.2)"
                          % cfg.limits())
    return cfg


def _max_section(variant, regime):
    if regime == "casino_night":
        return "13:47-20.36(b)" if variant.name == "holdem" else "13:47-20.35(b)"
    return {"holdem": "19:47-14.10(b)", "pineapple": "13:69F-14.10(b)",
            "crazy-pineapple": "13:69F-14.10(b)", "stud7": "19:47-14.9(b)",
            "stud7-hilo": "19:47-14.9(b)", "stud7-hilo8": "19:47-14.9(b)",
            "triple-draw-a5": "13:69F-14.12B(b)",
            "triple-draw-27": "13:69F-14.12B(b)"}.get(variant.name, "the rules README")


MAX_SIGN = 900   # characters: the sign goes out in one link frame (1024 bytes)


def sign(cfg, coming=None, at=0, now=0, changes=()):
    """The posted sign's text (13:47-20.37(a), 13:47-20.39, 19:47-8.3(a)); with a rule
    change posted (`coming`, the configuration it makes, or why it cannot apply;
    `changes`, the settings it changes), the lines it changes and when (19:47-8.3(b)1)."""
    lines = _rules(cfg)
    text = "\n".join(lines)
    if coming is None:
        return text
    head = "\nRule change at table minute %d (in %d minutes):\n  " % (at, max(0, at - now))
    if isinstance(coming, str):
        return text + head + "not possible now: " + coming
    new = "\n  ".join([line for line in _rules(coming) if line not in lines])
    if len(text) + len(head) + len(new) > MAX_SIGN:
        # Too long for one frame: the settings it changes, by name.
        new = "changing " + ", ".join(sorted(changes))
    return text + head + new


def _rules(cfg):
    if is_banked(cfg):
        return _banked_rules(cfg)
    from felt.poker import variants
    s = cfg.structure
    v = cfg.variant
    lines = ["%s - %s" % (v.title, s.name())]
    if s.kind == "fixed":
        lines.append("Bets: %d, then %d" % (s.small_bet, s.big_bet))
    elif s.kind == "spread":
        lines.append("Each wager: %d to %d" % (s.small_bet, s.big_bet))
    else:
        lines.append("Smallest bet: %d" % s.small_bet)
    lines.append(_posted(cfg))
    if s.blinds:
        lines.append("Blinds: %s" % " and ".join([str(b) for b in s.blinds]))
    if s.straddle:
        lines.append("Straddle allowed: twice the big blind")
    if s.run_it > 1:
        lines.append("All-in with cards to come: the rest of the board %s if every player "
                     "in agrees" % ("twice", "three times")[s.run_it - 2])
    if s.ante:
        lines.append("Ante: %d from every player" % s.ante)
    if s.bring_in:
        lines.append("Bring-in: %d" % s.bring_in)
    lines.append("Raises: %s" % ("no limit on their number" if not s.cap else
                                 "a bet and %d raises; no cap heads-up" % (s.cap - 1)))
    if not s.check_raise:
        lines.append("No check-raise")
    r = cfg.rake
    if r.method == "percent":
        lines.append("Rake: %d%% of each betting round's wagers, taken after the round"
                     % r.percent)
    elif r.method == "incremental":
        lines.append("Rake: " + ", ".join(["%d at a pot of %d" % (a, lv) for lv, a in r.levels]))
    elif r.method == "time":
        lines.append("Time charge: %d an hour per %s, taken every %d minutes"
                     % (r.hourly, r.per, r.every))
    else:
        lines.append("No rake")
    if r.maximum:
        lines.append("Maximum rake: %d a round" % r.maximum)
    lines.append("Players: at most %d" % (v.max_players if cfg.regime == "casino" else
                 variants.CASINO_NIGHT_MAX[variants.CASINO_NIGHT.index(cfg.game)]))
    return lines


def _banked_rules(cfg):
    """A house-banked table's sign: the game and its payout tables (felt.banked.sign),
    the wagers."""
    from felt import lazy
    from felt.banked.settings import Settings
    s = cfg.settings
    settings = Settings(cfg.core, s["aces_up"], s["settle_order"],
                        s["ante_pays_from"], s["bonus_table"])
    try:
        lines = lazy.load("felt.banked.sign").lines(settings)
    finally:
        lazy.forget("felt.banked.sign")
    lines.insert(1, "%s; the ante %d unless the player wagers otherwise"
                 % (_posted(cfg), cfg.ante))
    lines.append("Players: at most %d" % BANKED_MAX_PLAYERS)
    return lines


def _posted(cfg):
    """The sign's line of the posted minimum and maximum wagers (19:47-8.2(c))."""
    if cfg.max_wager is None:
        return "Minimum wager %d, no maximum wager: table stakes" % cfg.min_wager
    return "Minimum wager %d, maximum wager %d" % (cfg.min_wager, cfg.max_wager)
