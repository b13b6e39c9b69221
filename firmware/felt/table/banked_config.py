"""A house-banked table's configuration (felt.table.config reads it; felt.table.banked_table
plays its rounds): small, since it lives as long as the table does, and loaded only at
such a table (felt.lazy).
"""



class BankedConfig:
    """A house-banked table's configuration (felt.table.config reads it): the ante each
    seat wagers unless it sits out, the wager limits (19:47-8.2: `max_wager` None when
    no maximum is posted) and the posted settings of felt.banked.settings, kept as a
    dict (the core builds its Settings for each round)."""
    banked = True
    rake = None          # the house banks the game: no rake, no time charge
    button_start = None  # no button: the dealer deals and settles every round

    def __init__(self, game, core, regime, seats, stacks, min_wager, max_wager, ante,
                 settings):
        self.game = game
        self.core = core     # the game's name in felt.banked.settings.GAMES
        self.regime = regime
        self.seats = seats
        self.stacks = stacks
        self.min_wager = min_wager
        self.max_wager = max_wager
        self.ante = ante
        self.settings = settings

    def within(self, v):
        """Whether a wager of `v` lies within the posted limits (19:47-8.2); with no
        maximum posted, table stakes: any from the minimum up."""
        return self.min_wager <= v and (self.max_wager is None or v <= self.max_wager)

    def limits(self):
        """The posted limits in words, for a refusal."""
        if self.max_wager is None:
            return "of at least the minimum wager %d (no maximum is posted)" % self.min_wager
        return "from the minimum wager %d to the maximum %d" % (self.min_wager, self.max_wager)

    def as_dict(self):
        d = dict(self.settings)
        d.update({"game": self.game, "regime": self.regime, "seats": self.seats,
                  "stacks": list(self.stacks), "min_wager": self.min_wager,
                  "max_wager": self.max_wager, "ante": self.ante})
        return d

    def header(self):
        """What a round's journal header holds of the configuration."""
        return {"core": self.core, "settings": dict(self.settings)}
