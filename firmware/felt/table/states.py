"""The table's states, and copies of its lasting state: shared by the controller
(felt.table.controller) and the modules it loads (the game's table, the recovery, the
reports), none of which imports the controller.
"""

IDLE = "idle"            # between rounds: the dealer presses deal
PLACING = "placing"      # dealing one card a seat to place the button (14.10(c)2ii)
SHUFFLING = "shuffling"  # the shuffler was started; waiting for it to finish
HAND_SHUFFLE = "hand_shuffle"   # the dealer shuffles by hand (20.38(o), (p))
CUT = "cut"              # every shuffle is cut before the deal (20.38(f)1)
PLAYING = "playing"
BEFORE_DEAL = (IDLE, SHUFFLING, HAND_SHUFFLE, CUT)   # a new round not yet dealt


def is_banked(of):
    """Whether `of`, a round's journal header or hand event (a dict: a house-banked
    round's holds the seats' wagers, felt.table.journal's begin) or a configuration
    (felt.table.config), is a house-banked table's rather than a poker table's: the one
    test of a table's kind, the firmware's and the host tools' (docs/architecture.md)."""
    return "wagers" in of if isinstance(of, dict) else of.banked


def copied(v):
    """`v` with every list and dict in it copied: a live table and the copy of it that
    was journaled share nothing (Controller.lasting, felt.table.recovery)."""
    if isinstance(v, list):
        return [copied(x) for x in v]
    if isinstance(v, dict):
        return dict([(k, copied(v[k])) for k in v])
    return v
