"""Every game a table can run, as the rows felt.poker.variants describes: loaded only
while a table chooses its game (felt.lazy).
"""

HOLDEM_STREETS = (("burn",), ("board", 3), ("bet", "button"), ("burn",), ("board", 1),
                  ("bet", "button"), ("burn",), ("board", 1), ("bet", "button"))
STUD7 = (("deal", 2, 1), ("bet", "bring_in"), ("burn",), ("deal", 0, 1), ("bet", "showing"),
         ("burn",), ("deal", 0, 1), ("bet", "showing"), ("burn",), ("deal", 0, 1),
         ("bet", "showing"), ("burn",), ("deal", 1, 0), ("bet", "showing"))
DRAW_ROUND = (("burn",), ("draw",), ("bet", "button"))
STUD7_ROUNDS = ("third street", "fourth street", "fifth street", "sixth street", "seventh street")
DRAW_ROUNDS = ("before the draw", "after the first draw", "after the second draw",
               "after the third draw")


def every(Variant):
    """Every game, one felt.poker.variants.Variant each, in the order of variants.NAMES."""
    return (
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
