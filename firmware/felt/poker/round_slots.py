"""What makes a Round (felt.poker.round) quicker on CPython: loaded by CPython only, since
MicroPython ignores __slots__ and would keep the names, and the dict below, in its heap.
A new attribute of Round is added to ROUND, or CPython refuses to set it."""

from felt.poker.cards import CODES

ROUND = (
    "variant", "rake", "raked", "_pot_before", "_round_raked", "n", "stacks",
    "start_stacks", "button", "structure", "dealt_in", "origin", "folded", "ghost",
    "hole", "up", "board", "burns", "muck", "seen", "left", "alive", "step",
    "betround", "phase", "street_bet", "total", "acted_at", "checked", "level", "full",
    "raise_size", "bets", "to_act", "shows_from", "voluntary", "bring_in_due",
    "brought_in", "forced", "opener", "show_order", "high", "low", "winners", "plan",
    "next_card", "order", "choice", "_drawn", "_reshuffle_first", "just_dealt",
    "face_ups", "called_off", "called_why", "_wagered", "resume_to", "exposed",
    "brought_down", "_defer", "ring",
    # the runouts' (felt.poker.runouts): only `runouts` and `boards` at a table
    # that offers none
    "runouts", "boards", "run_from", "offered", "shared")


class _Codes(dict):
    def __missing__(self, code):
        return -1       # not a card's code: as CODES.find finds nothing


# CODES.find for a two-character code (2 * card, else -1), from a dict: three times
# quicker than the search, and the round looks up every card read.
find = _Codes([(CODES[i:i + 2], i) for i in range(0, len(CODES), 2)]).__getitem__


def unseen(size):
    """Round.seen: a list, which CPython reads and writes quicker than a bytearray."""
    return [0] * size
