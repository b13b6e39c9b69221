"""Shared helpers for the house-banked games' tests (CPython and MicroPython)."""

from felt import check
from felt.banked.four_card import FourCardPoker
from felt.banked.holdem_bonus import HoldemBonus
from felt.banked.settings import Settings


def four_card(wagers, stacks=None, **settings):
    r = FourCardPoker(stacks or [1000] * len(wagers), wagers, Settings("four_card", **settings))
    return r, r.start()


def holdem_bonus(wagers, stacks=None, **settings):
    r = HoldemBonus(stacks or [1000] * len(wagers), wagers, Settings("holdem_bonus", **settings))
    return r, r.start()


def feed(r, cards):
    """Deal while cards are due and given: cards maps a seat (-1 the dealer), "burn"
    or "board" to a string of codes, used up in turn as the round asks for them (the
    dict keeps what is left, so it can be fed again after the decisions)."""
    out = []
    while r.expecting() is not None:
        what, seat = r.expecting()
        key = seat if what in ("hole", "dealer") else what
        left = cards.get(key, "")
        if isinstance(left, str):
            left = left.split()
        if not left:
            break
        cards[key] = left[1:]
        out += r.apply(("card", left[0]))
    return out


def refused(r, event):
    try:
        r.apply(event)
    except check.Refused as e:
        return str(e)
    raise AssertionError("%r was not refused" % (event,))


def of_kind(out, kind):
    return [e for e in out if e[0] == kind]


def flows(out, seat):
    """(effect, wager kind, amount) of a seat's settlement, in order."""
    return [(e[0], e[2], e[3]) for e in out
            if e[0] in ("collect", "return", "pay") and e[1] == seat]


def conserved(r):
    return sum(r.stacks) + r.house() == sum(r.start_stacks)
