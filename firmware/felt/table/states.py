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


def copied(v):
    """`v` with every list and dict in it copied: a live table and the copy of it that
    was journaled share nothing (Controller.lasting, felt.table.recovery)."""
    if isinstance(v, list):
        return [copied(x) for x in v]
    if isinstance(v, dict):
        return dict([(k, copied(v[k])) for k in v])
    return v
