"""The table's devices as the emulator plays them: shuffler, shoe and LED strip."""

import random

from felt.poker.cards import code
from felt.table import scenes


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
        """Cards shuffled back in go under what is left of the stub."""
        self.deck.extend(cards)

    def deal(self):
        if not self.deck:
            raise RuntimeError("the shoe is empty")
        card = self.deck.pop(0)
        self.dealt.append(card)
        return card


class LedStrip:
    """Captures every frame the firmware writes, decoded to (r, g, b) per LED."""

    def __init__(self, leds):
        self.leds = leds
        self.frames = []

    def capture(self, rgb_hex):
        raw = bytes.fromhex(rgb_hex)
        self.frames.append([tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)])

    @property
    def frame(self):
        return self.frames[-1] if self.frames else []

    def seat_status(self, seat):
        return scenes.seat_status(self.frame, self.leds, seat)

    def button_seat(self):
        return scenes.button_seat(self.frame, self.leds)


def seeded(seed, stream):
    """An independent RNG per purpose, so adding a draw to one changes no other."""
    return random.Random("%s:%s" % (seed, stream))
