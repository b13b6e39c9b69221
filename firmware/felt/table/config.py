"""The table's configuration, as the operator or the host sends it.

A plain dict on the wire (docs/protocol.md, message `cfg`); validated here so that a bad
setting is refused with a reason and the table keeps the configuration it had.
"""

from felt.poker.structure import FixedLimit, ConfigError

MAX_SEATS = 11          # 13:47-20.36(b), 19:47-14.10(b): hold 'em seats at most 11
BUTTON_STARTS = ("dealer_right", "high_card")   # 19:47-14.10(c)2 i and ii
KEYS = ("seats", "stacks", "small_bet", "big_bet", "blinds", "ante", "cap", "button")


class TableConfig:
    def __init__(self, seats, stacks, structure, button_start):
        self.seats = seats
        self.stacks = stacks
        self.structure = structure
        self.button_start = button_start

    def as_dict(self):
        d = self.structure.as_dict()
        d["seats"] = self.seats
        d["stacks"] = list(self.stacks)
        d["button"] = self.button_start
        return d


def from_dict(d, board_seats=MAX_SEATS):
    """A TableConfig from a dict; ConfigError naming the bad setting otherwise."""
    if not isinstance(d, dict):
        raise ConfigError("configuration must be an object")
    for k in d:
        if k not in KEYS:
            raise ConfigError("unknown setting %r (known: %s)" % (k, ", ".join(KEYS)))
    seats = d.get("seats", len(d.get("stacks", ())))
    if not isinstance(seats, int) or not 2 <= seats <= min(MAX_SEATS, board_seats):
        raise ConfigError("seats must be 2..%d: hold 'em allows 11 (13:47-20.36(b)) "
                          "and this board has %d" % (min(MAX_SEATS, board_seats), board_seats))
    stacks = d.get("stacks")
    if not isinstance(stacks, list) or len(stacks) != seats:
        raise ConfigError("stacks must list one amount per seat (%d)" % seats)
    for s in stacks:
        if not isinstance(s, int) or s < 0:
            raise ConfigError("each stack must be a whole number of chips >= 0, not %r" % (s,))
    if sum([1 for s in stacks if s > 0]) < 2:
        raise ConfigError("at least two seats need chips to play")
    blinds = d.get("blinds", [1, 2])
    if not isinstance(blinds, list):
        raise ConfigError("blinds must be a list of amounts")
    structure = FixedLimit(d.get("small_bet", 2), d.get("big_bet", 4), blinds,
                           d.get("ante", 0), d.get("cap", 4))
    button = d.get("button", "dealer_right")
    if button not in BUTTON_STARTS:
        raise ConfigError("button must be one of %s" % ", ".join(BUTTON_STARTS))
    return TableConfig(seats, list(stacks), structure, button)
