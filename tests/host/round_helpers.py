"""What the rules-core property tests share: the structures strategy, and the check
that a refused event changes nothing."""

import copy

from hypothesis import strategies as st

from felt.poker.round import Refused
from felt.poker.structure import Structure


@st.composite
def structures(draw, variant, kind, small_max=10, ante_max=3, caps=(0, 2, 3, 4, 5),
               check_raise=None):
    """A Structure of `kind` that Structure and the table configuration accept for
    `variant` (config.py: no blinds in stud, the bring-in only in stud, the straddle
    and running the board more than once only in hold 'em and Omaha).  check_raise
    None: drawn."""
    # A game opened by the bring-in needs one (config.py), below the small bet.
    small = draw(st.integers(2 if variant.bring_in else 1, small_max), label="small_bet")
    if kind in ("fixed", "spread"):
        big = draw(st.integers(small, 3 * small), label="big_bet")
    else:
        big = 0
    ante = draw(st.integers(0, ante_max), label="ante")
    if variant.stud():
        blinds, straddle = (), False
        bring_in = draw(st.integers(1, small - 1), label="bring_in") if variant.bring_in else 0
    else:
        bring_in = 0
        # Fixed limit: the largest blind is at most the small bet (structure.py).
        # More blinds than players is allowed: the round drops the first ones.
        top = small if kind == "fixed" else 2 * small
        blinds = draw(st.lists(st.integers(1, top), max_size=3), label="blinds")
        straddle = bool(blinds) and variant.hand in ("holdem", "omaha") \
            and draw(st.booleans(), label="straddle")
    # 13:69F-14.10(l): the board once, twice or three times when all agree.
    run_it = draw(st.sampled_from((1, 2, 3)), label="run_it") \
        if variant.hand in ("holdem", "omaha") else 1
    cap = draw(st.sampled_from(caps), label="cap")
    if check_raise is None:
        check_raise = draw(st.booleans(), label="check_raise")
    return Structure(kind, small, big, blinds, ante, cap, bring_in, check_raise, straddle,
                     run_it=run_it)


def snapshot(r):
    """A deep copy of the round's whole state; the structure, the variant and the rake
    (shared, read-only) compared by their fields."""
    state = copy.deepcopy({k: v for k, v in r.save().items()   # every field
                           if k not in ("structure", "variant", "rake")})
    state["structure"] = dict(vars(r.structure))
    state["variant"] = dict(vars(r.variant))
    state["rake"] = dict(vars(r.rake)) if r.rake is not None else None
    return state


def assert_refused_and_unchanged(r, event):
    before = snapshot(r)
    reason = r.why_not(event)
    assert isinstance(reason, str) and reason, "%r should be refused" % (event,)
    try:
        r.apply(event)
    except Refused as e:
        assert str(e) == reason
    else:
        raise AssertionError("%r was accepted" % (event,))
    assert snapshot(r) == before, event
