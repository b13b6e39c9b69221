"""The table's two decks (13:47-20.34(a)): one in play, the other in its place on the
table; they alternate round by round.  A deck found with missing or extra cards is
retired (13:47-20.38(h)): sealed and reported, never dealt again until a technician
registers it anew."""

from felt import check

NAMES = ("A", "B")


class Decks:
    def __init__(self):
        self.retired = [False, False]
        self.in_play = 0

    def name(self):
        return NAMES[self.in_play]

    def usable(self):
        return not self.retired[self.in_play]

    def alternate(self):
        """After a round: the other deck comes into play, if it may be dealt."""
        other = 1 - self.in_play
        if not self.retired[other]:
            self.in_play = other

    def retire(self):
        """Seal the deck in play; bring the other to the table.  Returns its name, or
        None when both are now retired."""
        self.retired[self.in_play] = True
        other = 1 - self.in_play
        if self.retired[other]:
            return None
        self.in_play = other
        return NAMES[other]

    def register(self, name):
        """A technician puts a checked deck back into service."""
        if name not in NAMES:
            return "no deck %s: the decks are %s" % (check.shown(name), " and ".join(NAMES))
        i = NAMES.index(name)
        if not self.retired[i]:
            return "deck %s is in service already" % name
        self.retired[i] = False
        if self.retired[self.in_play]:
            self.in_play = i
        return None

    def as_dict(self):
        return {"in_play": self.name(),
                "retired": [NAMES[i] for i in range(2) if self.retired[i]]}

    def restore(self, d):
        """As as_dict() gave it (the journal, after a restart)."""
        self.in_play = NAMES.index(d["in_play"])
        self.retired = [name in d["retired"] for name in NAMES]
