"""Why an action or a choice is refused: felt.poker.round's why_not() for them.

Loaded (felt.lazy) only when a reason is asked for: the round applies the common events
without it, and the table forgets it after each round, so its sentences are not in a
board's heap between rounds.
"""

from felt import check
from felt.poker import cards as C
from felt.poker.phases import BETTING, CHOOSING

RUN_IT = "run_it"   # felt.poker.round's (importing it would close an import circle)


def why_not_action(r, event, seat):
    """Round.why_not() of an action by a seat at the table."""
    kind = event[0]
    if r.phase != BETTING:
        return "no betting now: the round is %s" % (
            ("waiting for a card", "", "waiting for a discard, draw or straddle",
             "over")[r.phase])
    if seat != r.to_act:
        return "out of turn: the action is on seat %d" % r.to_act
    if len(event) == 3 and kind != "bet" and kind != "raise":
        return "only a bet or a raise takes an amount"
    owe = r.level - r.street_bet[seat]
    if r.bring_in_due:
        # 19:47-14.9(d)-(e): the low card must post the bring-in or complete the bet.
        if kind == "bring_in" or kind == "bet":
            return _why_not_amount(r, event, seat)
        return "seat %d must post the bring-in or complete the bet" % seat
    if kind == "check":
        return None if owe == 0 else "cannot check: %d to call" % owe
    if kind == "call":
        return None if owe > 0 else "nothing to call: check"
    if kind == "fold":
        if owe > 0 or r.variant.stud():
            return None  # 20.38(e): in stud a player may fold on a round of checking
        return "nothing to call: check instead of folding"
    if kind == "bring_in":
        return "no bring-in is due"
    if not _callers(r, seat):
        return "nobody left to call a %s: every other player is all-in" % kind
    if kind == "bet":
        if r.level > 0 and not r.completing():
            return "a bet is already made: call or raise"
        if r.level > 0 and r.stacks[seat] <= owe:
            return "not enough chips to complete the bet: call all-in"
        return _why_not_amount(r, event, seat)
    # raise
    if r.level == 0:
        return "no bet to raise: bet instead"
    if r.completing():
        return "complete the bring-in with a bet"
    if r.stacks[seat] <= owe:
        return "not enough chips to raise: call all-in"
    if not r.reopened(seat):
        return "betting not reopened: a short all-in raise does not reopen it"
    if r.checked[seat] and not r.structure.check_raise:
        return "no check-raise at this table (posted)"
    if r.raise_capped():
        return "raise cap reached: %d bets this round" % r.structure.cap
    return _why_not_amount(r, event, seat)


def _callers(r, seat):
    """The other players who could call more than the current level."""
    return [s for s in r.live_seats(1) if s != seat
            and r.street_bet[s] + r.stacks[s] > r.level]


def _why_not_amount(r, event, seat):
    if event[0] == "bring_in" or len(event) == 2:
        return None
    to = event[2]
    if not check.is_whole(to):
        return "the amount must be a whole number of chips"
    lo, hi = r.raise_bounds(seat)   # both capped at the seat's all-in
    if lo <= to <= hi:
        return None
    most = r.structure.max_wager
    if most and to > r.level + most:
        return "%s to %d refused: above the posted maximum wager of %d (19:47-8.2); " \
            "the %s may go to %d..%d" % (event[0], to, most, r.structure.name(), lo, hi)
    return "%s to %d refused: the %s may go to %d..%d" % (
        event[0], to, r.structure.name(), lo, hi)


def why_not_choice(r, kind, seat, codes):
    """Round.why_not() of a choice by a seat at the table."""
    choice = "straddle" if kind == "decline" else RUN_IT if kind == "run_once" else kind
    if r.phase != CHOOSING or r.choice != choice:
        return "no %s now" % kind
    if seat != r.to_act:
        return "out of turn: seat %d is to %s" % (r.to_act, r.choice)
    if kind != "discard" and kind != "draw":
        return None if codes is None else "a %s takes no amount" % kind
    if codes is None:
        return "say which cards to %s" % kind
    try:
        cards = r.parse_held(codes, seat)
    except C.CardError as e:
        return str(e)
    want = r.variant.steps[r.step][1] if kind == "discard" else None
    if want is not None and len(cards) != want:
        return "discard exactly %d card%s" % (want, "" if want == 1 else "s")
    return None
