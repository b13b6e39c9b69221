"""The table's devices as the emulator plays them: shuffler, shoe and the two decks (the
LED strip, which the floor reads too, is host_tools.leds).  Their faults (a jammed
shuffler, a failed shoe, a card short in a deck) are injected by
host_tools.emulator.faults."""

import random

from felt.poker.cards import code


class Shuffler:
    """A seeded automatic shuffler: the same seed gives the same decks."""

    def __init__(self, rng):
        self.rng = rng
        self.cycles = 0

    def shuffle(self):
        deck = list(range(52))
        self.rng.shuffle(deck)
        self.cycles += 1
        return [code(c) for c in deck]

    def reshuffle(self, codes):
        """A hand shuffle of cards back into play (the stub ran out)."""
        cards = sorted(codes)
        self.rng.shuffle(cards)
        return cards


class Shoe:
    """The dealing shoe: hands out the shuffled deck card by card to its reader."""

    def __init__(self):
        self.deck = []
        self.dealt = []

    def load(self, deck):
        self.deck = list(deck)
        self.dealt = []

    def add(self, cards):
        """Cards shuffled back in go under what is left of the stub; they are no longer
        out of the shoe, so a hand shuffle later gathers each card once."""
        self.deck.extend(cards)
        for c in cards:
            if c in self.dealt:
                self.dealt.remove(c)

    def cards(self):
        """Every card of the deck in the shoe, dealt or not."""
        return self.deck + self.dealt

    def deal(self):
        if not self.deck:
            raise RuntimeError("the shoe is empty")
        card = self.deck.pop(0)
        self.dealt.append(card)
        return card


class Decks:
    """The table's two decks as the emulated dealer and technician see them (13:47-20.34(a),
    20.38(h)): one in play, the other beside it; they alternate after each completed round.
    A retired deck is sealed; the technician registers a checked one in its place only
    once a round has been dealt with the other deck.  Kept in step with the firmware's
    events, and checked against its state between rounds."""

    NAMES = ("A", "B")

    def __init__(self):
        self.in_play = "A"
        self.retired = []        # in the order they were retired
        self.ready = {}          # retired name -> a round was dealt with the other since

    def other(self, name=None):
        return "B" if (name or self.in_play) == "A" else "A"

    def alternate(self):
        if self.other() not in self.retired:
            self.in_play = self.other()

    def retire(self):
        self.retired.append(self.in_play)
        self.ready[self.in_play] = False
        self.alternate()

    def dealt(self):
        """A round was dealt with the deck in play."""
        for name in self.retired:
            if name != self.in_play:
                self.ready[name] = True

    def due(self):
        """Retired decks the technician may now replace."""
        return [n for n in self.retired if self.ready.get(n)]

    def register(self, name):
        self.retired.remove(name)
        self.ready.pop(name, None)
        if self.in_play in self.retired:
            self.in_play = name

    def usable(self):
        return self.in_play not in self.retired

    def as_dict(self):
        return {"in_play": self.in_play, "retired": sorted(self.retired)}


CODES = [code(c) for c in range(52)]


def seeded(seed, stream):
    """An independent RNG per purpose, so adding a draw to one changes no other."""
    return random.Random("%s:%s" % (seed, stream))
