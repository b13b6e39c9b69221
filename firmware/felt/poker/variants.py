"""Every game a table can run, as data: one row per game, read by the round.

A row's steps, in order:
  ("deal", down, up)   hole cards to each player in the round, `down` face down then
                       `up` face up, one card a player at a time
  ("burn",)            one card to the burn pile
  ("board", n)         n community cards
  ("bet", opener)      a betting round; opener: "blinds" (after the blinds), "button"
                       (first live player left of the button), "bring_in" (stud's
                       forced opener), "showing" (highest hand showing), "low_up" /
                       "high_up" (the lowest / highest up-card, Mambo stud)
  ("discard", n)       each player discards n cards (Pineapple)
  ("draw",)            each player discards any number and is dealt as many
`big` lists, per betting round, whether a fixed-limit bet is the big bet.
`hand` is how a hand is made: "holdem" (any 5 of 7), "omaha" (exactly 2 of 4 and 3 of
5), "stud" (5 of the player's cards), "mambo" (3 of the player's 3 and the community
card), "draw" (the 5 held).  `split`: "high", "low", "hilo" (no qualifier), "hilo8",
"hilo6".  `low`: the low order, "a5" or "27".  `order`: who is dealt first, "button"
(left of the button, the button last) or "dealer" (left of the dealer: stud).
`bring_in`: which up-card opens stud ("low", "high_ace_low", "low_ace_high").
`phh`: the Poker Hand History variant code where PHH has one.
"""

from felt import check, lazy

GAMES = "felt.poker.games"   # the table of every game (felt.lazy)


class Variant:
    def __init__(self, name, title, phh, max_players, steps, big, hand, split, low="a5",
                 order="button", bring_in=None, sections="", rounds=None):
        self.name = name
        self.title = title
        self.phh = phh
        self.max_players = max_players
        self.steps = steps
        self.big = big
        self.hand = hand
        self.split = split
        self.low = low
        self.order = order
        self.bring_in = bring_in
        self.sections = sections
        self.rounds = rounds or ("preflop", "flop", "turn", "river")  # betting round names

    def stud(self):
        return self.order == "dealer"

    def has_low(self):
        return self.split != "high"

    def qualifier(self):
        """The highest rank a qualifying low may hold, 0 for none."""
        return 8 if self.split == "hilo8" else 6 if self.split == "hilo6" else 0


NAMES = ("holdem", "pineapple", "crazy-pineapple", "omaha", "omaha-hilo8", "stud7", "stud7-hilo",
         "stud7-hilo8", "stud5", "draw5", "draw5-low", "triple-draw-a5", "triple-draw-27",
         "mambo-stud")
CASINO_NIGHT = ("holdem", "stud7")   # 13:47-20.4
CASINO_NIGHT_MAX = (11, 8)           # 13:47-20.36(b), 13:47-20.35(b)


def every():
    """Every game, one Variant each.  The table builds them only to choose its own (get()),
    from a module it forgets again: the rest are garbage, and spare a board's heap."""
    games = lazy.load(GAMES).every(Variant)
    lazy.forget(GAMES)
    return games


_last = None   # the game last asked for: a table asks for its own again and again


def get(name):
    global _last
    if _last is not None and _last.name == name:
        return _last
    for v in every():
        if v.name == name:
            _last = v
            return v
    raise KeyError("unknown game %s (games: %s)" % (check.shown(name), ", ".join(NAMES)))
