"""A house-banked table's posted settings, checked (felt.banked.sign shows them).

  game            "four_card" (19:47-27) or "holdem_bonus" (19:47-28)
  aces_up         the aces up table in use, "I".."VII" (19:47-27.11(a)3)
  settle_order    1 or 2: the settlement of 19:47-27.10(e)1 (each step round the
                  table) or (e)2 (every step for one player, then the next); the casino
                  names one in its gaming submission
  ante_pays_from  hold 'em bonus: the least winning hand that is paid on the ante,
                  "flush" (as posted in Atlantic City, the default) or "straight"; a
                  lesser winning hand pushes the ante
  bonus_table     hold 'em bonus: the bonus table posted, "standard"
"""

from felt import check
from felt.banked import paytables as P
from felt.poker import evaluate as E

GAMES = ("four_card", "holdem_bonus")
CORES = ("felt.banked.four_card", "felt.banked.holdem_bonus")   # the rounds of GAMES
CLASSES = ("FourCardPoker", "HoldemBonus")
ANTE_PAYS = ("straight", "flush")
ANTE_PAYS_CATEGORY = (E.STRAIGHT, E.FLUSH)


class Settings:
    def __init__(self, game="four_card", aces_up="I", settle_order=2,
                 ante_pays_from="flush", bonus_table="standard"):
        if game not in GAMES:
            raise check.Refused("game must be one of %s" % ", ".join(GAMES))
        if aces_up not in P.ACES_UP_TABLES:
            raise check.Refused("aces up table must be one of %s (19:47-27.11(a)3)"
                                % ", ".join(P.ACES_UP_TABLES))
        if settle_order != 1 and settle_order != 2:
            raise check.Refused("settle order must be 1 or 2 (19:47-27.10(e))")
        if ante_pays_from not in ANTE_PAYS:
            raise check.Refused("the ante pays from %s" % " or ".join(ANTE_PAYS))
        if bonus_table not in P.BONUS_TABLES:
            raise check.Refused("bonus table must be one of %s" % ", ".join(P.BONUS_TABLES))
        self.game = game
        self.aces_up = aces_up
        self.settle_order = settle_order
        self.ante_pays_from = ante_pays_from
        self.bonus_table = bonus_table

    def ante_category(self):
        """The least felt.poker.evaluate category paid on a hold 'em bonus ante."""
        return ANTE_PAYS_CATEGORY[ANTE_PAYS.index(self.ante_pays_from)]



def new_round(core, stacks, wagers, settings):
    """A house-banked round of the game `core` (GAMES), not started: its rules core
    loaded (felt.lazy; felt.table.banked_table forgets it with the table's kind)."""
    from felt import lazy
    i = GAMES.index(core)
    s = Settings(core, settings["aces_up"], settings["settle_order"],
                 settings["ante_pays_from"], settings["bonus_table"])
    return getattr(lazy.load(CORES[i]), CLASSES[i])(stacks, [tuple(w) for w in wagers], s)


def from_header(header):
    """The round a journal header begins (felt.table.journal's begin), not started: the
    banked table's (felt.table.banked_table.round_of) and its record's."""
    return new_round(header["core"], header["stacks"], header["wagers"], header["settings"])
