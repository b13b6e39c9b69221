"""The configuration a table holds (felt.table.config reads one from a message and
writes its sign): small, since it lives as long as the table does.
"""

class TableConfig:
    """A poker table's configuration; `max_wager` None when no maximum is posted (table
    stakes, 19:47-8.2)."""
    banked = False

    def __init__(self, game, regime, seats, stacks, structure, rake, button_start,
                 min_wager, max_wager):
        from felt.poker import variants   # a poker table's: never loaded at a banked one
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

