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

from felt import check

HOLDEM_STREETS = (("burn",), ("board", 3), ("bet", "button"), ("burn",), ("board", 1),
                  ("bet", "button"), ("burn",), ("board", 1), ("bet", "button"))
STUD7 = (("deal", 2, 1), ("bet", "bring_in"), ("burn",), ("deal", 0, 1), ("bet", "showing"),
         ("burn",), ("deal", 0, 1), ("bet", "showing"), ("burn",), ("deal", 0, 1),
         ("bet", "showing"), ("burn",), ("deal", 1, 0), ("bet", "showing"))
DRAW_ROUND = (("burn",), ("draw",), ("bet", "button"))
STUD7_ROUNDS = ("third street", "fourth street", "fifth street", "sixth street", "seventh street")
DRAW_ROUNDS = ("before the draw", "after the first draw", "after the second draw",
               "after the third draw")


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


VARIANTS = (
    Variant("holdem", "Hold 'em", "FT", 11,
            (("deal", 2, 0), ("bet", "blinds")) + HOLDEM_STREETS,
            (0, 0, 1, 1), "holdem", "high", sections="13:47-20.36, 19:47-14.10, 13:69F-14.10"),
    Variant("pineapple", "Pineapple", None, 11,
            (("deal", 3, 0), ("bet", "blinds"), ("discard", 1)) + HOLDEM_STREETS,
            (0, 0, 1, 1), "holdem", "high", sections="13:69F-14.10(k)"),
    Variant("crazy-pineapple", "Crazy Pineapple", None, 11,
            (("deal", 3, 0), ("bet", "blinds")) + HOLDEM_STREETS[:3] + (("discard", 1),)
            + HOLDEM_STREETS[3:],
            (0, 0, 1, 1), "holdem", "high", sections="13:69F-14.10(k)"),
    Variant("omaha", "Omaha", "FO", 10,
            (("deal", 4, 0), ("bet", "blinds")) + HOLDEM_STREETS,
            (0, 0, 1, 1), "omaha", "high", sections="19:47-14.8(a)3"),
    Variant("omaha-hilo8", "Omaha high-low eight or better", "FO/8", 10,
            (("deal", 4, 0), ("bet", "blinds")) + HOLDEM_STREETS,
            (0, 0, 1, 1), "omaha", "hilo8", sections="19:47-14.8(a)3"),
    Variant("stud7", "Seven-card stud", "F7S", 8, STUD7, (0, 0, 1, 1, 1), "stud", "high",
            order="dealer", bring_in="low", sections="19:47-14.9, 13:47-20.35",
            rounds=STUD7_ROUNDS),
    Variant("stud7-hilo", "Seven-card stud high-low", None, 8, STUD7, (0, 0, 1, 1, 1),
            "stud", "hilo", order="dealer", bring_in="high_ace_low", sections="19:47-14.9",
            rounds=STUD7_ROUNDS),
    Variant("stud7-hilo8", "Seven-card stud high-low eight or better", "F7S/8", 8, STUD7,
            (0, 0, 1, 1, 1), "stud", "hilo8", order="dealer", bring_in="low_ace_high",
            sections="19:47-14.9", rounds=STUD7_ROUNDS),
    Variant("stud5", "Five-card stud", None, 10,
            (("deal", 1, 1), ("bet", "bring_in"), ("burn",), ("deal", 0, 1), ("bet", "showing"),
             ("burn",), ("deal", 0, 1), ("bet", "showing"), ("burn",), ("deal", 0, 1),
             ("bet", "showing")),
            (0, 0, 1, 1), "stud", "high", order="dealer", bring_in="low",
            sections="19:47-14.8(a)5",
            rounds=("second street", "third street", "fourth street", "fifth street")),
    Variant("draw5", "Five-card draw", "F5D", 6,
            (("deal", 5, 0), ("bet", "blinds")) + DRAW_ROUND, (0, 1), "draw", "high",
            sections="19:47-14.8(a)4", rounds=DRAW_ROUNDS),
    Variant("draw5-low", "Five-card draw low", None, 6,
            (("deal", 5, 0), ("bet", "blinds")) + DRAW_ROUND, (0, 1), "draw", "low",
            sections="19:47-14.8(a)4, 13:69F-14.3(e)-(f)", rounds=DRAW_ROUNDS),
    Variant("triple-draw-a5", "Triple draw low ball, ace to five", None, 7,
            (("deal", 5, 0), ("bet", "blinds")) + DRAW_ROUND * 3, (0, 0, 1, 1), "draw", "low",
            sections="13:69F-14.12B", rounds=DRAW_ROUNDS),
    Variant("triple-draw-27", "Triple draw low ball, deuce to seven", "F2L3D", 7,
            (("deal", 5, 0), ("bet", "blinds")) + DRAW_ROUND * 3, (0, 0, 1, 1), "draw", "low",
            low="27", sections="13:69F-14.12B, 13:69F-14.3(e)", rounds=DRAW_ROUNDS),
    Variant("mambo-stud", "Mambo stud", None, 11,
            (("deal", 1, 1), ("bet", "low_up"), ("burn",), ("deal", 1, 0), ("bet", "high_up"),
             ("burn",), ("board", 1), ("bet", "high_up")),
            (0, 1, 1), "mambo", "hilo6", order="dealer", sections="19:47-14.8(a)6",
            rounds=("first round", "second round", "final round")),
)

NAMES = tuple([v.name for v in VARIANTS])
CASINO_NIGHT = ("holdem", "stud7")   # 13:47-20.4
CASINO_NIGHT_MAX = (11, 8)           # 13:47-20.36(b), 13:47-20.35(b)


def get(name):
    for v in VARIANTS:
        if v.name == name:
            return v
    raise KeyError("unknown game %s (games: %s)" % (check.shown(name), ", ".join(NAMES)))
