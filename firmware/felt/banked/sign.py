"""The posted sign of a house-banked table: the game and the payout tables in use,
named (19:47-27.11(a)3's table I..VII), in the words the sign prints.  Loaded only to
show the sign (felt.lazy), so its words never sit in the heap during play."""

from felt.banked import paytables as P
from felt.banked.settings import GAMES

GAME_NAMES = ("Four Card Poker", "Texas Hold 'em Bonus Poker")
ACES_UP_ROWS = ("four of a kind", "straight flush", "three of a kind", "flush",
                "straight", "two pairs", "pair of aces")
BONUS_ROWS = ("aces, the dealer aces too", "pair of aces", "ace-king suited",
              "ace-queen or ace-jack suited", "ace-king", "kings, queens or jacks",
              "ace-queen or ace-jack", "pair of twos to tens")


def _odds(names, odds):
    return ", ".join(["%s %d to 1" % (names[i], odds[i]) for i in range(len(odds))])


def lines(s):
    """The sign's lines for settings `s`."""
    out = [GAME_NAMES[GAMES.index(s.game)]]
    if s.game == "four_card":
        out.append("Ante and play: 1 to 1, ties win (19:47-27.11(a)1)")
        out.append("Ante bonus (19:47-27.11(a)2): " + _odds(
            [ACES_UP_ROWS[P.ACES_UP_ROWS.index(c)] for c, _ in P.ANTE_BONUS],
            [odds for _, odds in P.ANTE_BONUS]))
        out.append("Aces up, table %s (19:47-27.11(a)3): " % s.aces_up + _odds(
            ACES_UP_ROWS, P.ACES_UP[P.ACES_UP_TABLES.index(s.aces_up)]))
    else:
        out.append("Flop, turn and river: 1 to 1; ties push")
        out.append("Ante: 1 to 1 on a winning %s or better, else a push" % s.ante_pays_from)
        out.append("Bonus, %s table: " % s.bonus_table + _odds(
            BONUS_ROWS, P.BONUS[P.BONUS_TABLES.index(s.bonus_table)]))
    return out
