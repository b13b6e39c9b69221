"""Shared helpers for the firmware tests (run on CPython and inside MicroPython)."""

import os

from felt.poker.round import Round, Refused
from felt.poker.structure import FixedLimit


# make check sets FELT_LONG=1 (issue 20, item 6): a test that damages a file at every
# offset takes every offset there, every n-th in make test.  Such a test is named in its
# module's SAMPLED, which marks it for pytest (conftest.py).
LONG = os.getenv("FELT_LONG") == "1"


def every(n):
    """The step between the offsets a sampled test tries: 1 in make check, n in make test."""
    return 1 if LONG else n


def limit_2_4(blinds=(1, 2), ante=0, cap=4):
    return FixedLimit(2, 4, blinds, ante, cap)


def new_round(stacks, button=0, structure=None):
    r = Round(stacks, button, structure or limit_2_4())
    return r, r.start()


def deal(r, codes):
    """Feed card codes (a space-separated string) while the round asks for cards."""
    out = []
    for c in codes.split():
        assert r.expecting() is not None, "no card due for %s" % c
        out += r.apply(("card", c))
    return out


def act(r, *moves):
    """Apply (action, seat) pairs given as 'call 3' strings."""
    out = []
    for m in moves:
        name, seat = m.split()
        out += r.apply((name, int(seat)))
    return out


def refused(r, event):
    """True when the event is refused and the round's state is unchanged."""
    before = snapshot(r)
    try:
        r.apply(event)
    except Refused:
        return snapshot(r) == before
    return False


def snapshot(r):
    return repr(sorted([(k, repr(v)) for k, v in r.save().items()]))   # every field


def of_kind(effects, kind):
    return [e for e in effects if e[0] == kind]
