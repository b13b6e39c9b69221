"""A round's phases, one definition for every kind of round: felt.poker.round's and
felt.banked.banked_round's, the refusals' sentences indexed by them and the controller,
which lights the LEDs for DEALING whatever the game.
"""

DEALING = 0      # a card is due
BETTING = 1      # a seat acts (a banked round's players decide)
CHOOSING = 2     # discards, draws, the straddle: one seat at a time (poker only)
COMPLETE = 3     # the round is over
