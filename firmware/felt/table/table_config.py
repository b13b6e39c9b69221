"""The configuration a table holds (felt.table.config reads one from a message and
writes its sign): small, since it lives as long as the table does.
"""

from felt.poker import variants


class TableConfig:
    banked = False

    def __init__(self, game, regime, seats, stacks, structure, rake, button_start,
                 min_wager, max_wager):
        self.game = game
        self.variant = variants.get(game)
        self.regime = regime
        self.seats = seats
        self.stacks = stacks
        self.structure = structure
        self.rake = rake
        self.button_start = button_start
        self.min_wager = min_wager
        self.max_wager = max_wager

    def as_dict(self):
        d = self.structure.as_dict()
        d.update({"game": self.game, "regime": self.regime, "seats": self.seats,
                  "stacks": list(self.stacks), "button": self.button_start,
                  "rake": self.rake.as_dict(), "min_wager": self.min_wager,
                  "max_wager": self.max_wager})
        return d

    def header(self):
        """What a round's journal header holds of the configuration."""
        return {"structure": self.structure.as_dict(), "rake": self.rake.as_dict()}


# The house-banked games (felt.banked): each player against the dealer, the house pays.
BANKED = ("four-card-poker", "holdem-bonus")
BANKED_CORE = ("four_card", "holdem_bonus")   # felt.banked.settings.GAMES, in this order


class BankedConfig:
    """A house-banked table's configuration (felt.table.config reads it): the ante each
    seat wagers unless it sits out, the wager limits (19:47-8.2) and the posted
    settings of felt.banked.settings, kept as a dict (the core builds its Settings
    for each round)."""
    banked = True
    rake = None          # the house banks the game: no rake, no time charge
    button_start = None  # no button: the dealer deals and settles every round

    def __init__(self, game, regime, seats, stacks, min_wager, max_wager, ante, settings):
        self.game = game
        self.regime = regime
        self.seats = seats
        self.stacks = stacks
        self.min_wager = min_wager
        self.max_wager = max_wager
        self.ante = ante
        self.settings = settings

    def as_dict(self):
        d = dict(self.settings)
        d.update({"game": self.game, "regime": self.regime, "seats": self.seats,
                  "stacks": list(self.stacks), "min_wager": self.min_wager,
                  "max_wager": self.max_wager, "ante": self.ante})
        return d

    def header(self):
        """What a round's journal header holds of the configuration."""
        return {"settings": dict(self.settings)}
