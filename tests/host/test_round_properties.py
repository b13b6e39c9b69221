"""Properties of the rules core over random fixed-limit hold 'em rounds (hypothesis).

Random tables (2..11 seats, empty seats, short and deep stacks, any button), random
structures within FixedLimit's validation, a random deck order and random legal
actions; between the legal events, random events the rules must refuse.
"""

import copy

from hypothesis import HealthCheck, given, note, settings, strategies as st

from felt.poker import cards as C
from felt.poker.button import clockwise_from
from felt.poker.round import ACTIONS, Refused, Round
from felt.poker.structure import FixedLimit

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Codes the card reader could send that are no card: 13:47-20.34(a), one 52-card deck.
UNKNOWN_CODES = ["Zz", "1x", "10h", "Ax", "Xs", "A", "", "Asd", " s", None, 42]


@st.composite
def tables(draw):
    """(stacks, button, structure): at least two players with chips."""
    seats = draw(st.integers(2, 11))          # 13:47-20.36(b): 11 players at most
    chips = st.one_of(st.integers(1, 12), st.integers(40, 400))
    stacks = draw(st.lists(st.one_of(st.just(0), chips, chips), min_size=seats,
                           max_size=seats).filter(lambda s: sum(1 for x in s if x) >= 2))
    button = draw(st.sampled_from([s for s in range(seats) if stacks[s]]))
    small = draw(st.integers(1, 10))
    big = draw(st.integers(small, 3 * small))
    # More blinds than players is allowed: the round drops the first ones (see
    # test_no_seat_posts_two_blinds_when_blinds_outnumber_players).
    blinds = draw(st.lists(st.integers(1, small), max_size=3))
    ante = draw(st.integers(0, 3))
    cap = draw(st.sampled_from([0, 2, 3, 4, 5]))
    structure = FixedLimit(small, big, blinds, ante, cap)
    note("stacks %r, button %d, structure %r" % (stacks, button, structure.as_dict()))
    return stacks, button, structure


def snapshot(r):
    """A deep copy of the round's whole state; the structure and the variant (shared,
    read-only rows) compared by their fields."""
    state = copy.deepcopy({k: v for k, v in vars(r).items()
                           if k not in ("structure", "variant")})
    state["structure"] = dict(vars(r.structure))
    state["variant"] = dict(vars(r.variant))
    return state


def events_to_refuse(r):
    """Events the rules must refuse in the round's present state."""
    out = [("card", c) for c in UNKNOWN_CODES]
    out += [("shove", 0), ("fold", -1), ("fold", r.n), ("call", "1"), ("check", None)]
    seen = [C.code(c) for c in range(C.DECK_SIZE) if r.seen[c]]
    unseen = [C.code(c) for c in range(C.DECK_SIZE) if not r.seen[c]]
    if r.expecting() is not None:
        # A card is due: a card already dealt (one deck, 13:47-20.34(a); a card seen
        # twice is an extra card, 20.38(h)), also spelled in lower or upper case; and
        # any action, as nobody may act now.
        out += [("card", c) for c in seen[:6]]
        out += [("card", c.lower()) for c in seen[:2]] + [("card", c.upper()) for c in seen[:2]]
        out += [(a, s) for a in ACTIONS for s in range(r.n)]
    else:
        # No card is due: while betting or after the round.
        out += [("card", c) for c in unseen[:4] + seen[:2]]
        legal = set(r.legal_actions(r.to_act)) if r.to_act >= 0 else set()
        for s in range(r.n):
            for a in ACTIONS:
                if s != r.to_act or a not in legal:  # out of turn, or not allowed now
                    out.append((a, s))
    return out


def play(data, try_refused):
    """Play one random round to its end: (round, events applied, effects, chips).

    With try_refused, before each legal event one or more events the rules must
    refuse are tried, each checked to leave the whole state unchanged."""
    stacks, button, structure = data.draw(tables(), label="table")
    deck = data.draw(st.permutations(range(C.DECK_SIZE)).map(list), label="deck")
    r = Round(stacks, button, structure)
    note("deck %s" % C.codes(deck))
    chips = sum(stacks)
    events = []
    out = r.start()
    check_chips(r, chips)
    next_card = 0
    while not r.finished():
        while try_refused and data.draw(st.booleans(), label="try a refused event"):
            event = data.draw(st.sampled_from(events_to_refuse(r)), label="refused")
            assert_refused_and_unchanged(r, event)
        if r.expecting() is not None:
            event = ("card", C.code(deck[next_card]))
            next_card += 1
        else:
            legal = r.legal_actions(r.to_act)
            assert legal, "the action is on seat %d, who has no legal action" % r.to_act
            event = (data.draw(st.sampled_from(legal), label="action"), r.to_act)
        out += r.apply(event)
        events.append(event)
        note("applied %r" % (event,))
        check_chips(r, chips)
    return r, events, out, chips


def check_chips(r, chips):
    """While the round runs every chip is in a stack or in the pot; once it is over,
    the pot has been paid out (pot() then reports what was played for)."""
    if r.finished():
        assert sum(r.stacks) == chips
    else:
        assert sum(r.stacks) + r.pot() == chips
    assert min(r.stacks) >= 0 and min(r.total) >= 0


def assert_refused_and_unchanged(r, event):
    before = snapshot(r)
    reason = r.why_not(event)
    assert isinstance(reason, str) and reason, event
    try:
        r.apply(event)
    except Refused as e:
        assert str(e) == reason
    else:
        raise AssertionError("%r was accepted" % (event,))
    assert snapshot(r) == before, event


@SETTINGS
@given(st.data())
def test_chips_are_conserved_at_every_step(data):
    """13:47-20.2: the pot is the total anted and bet; table stakes: no chip leaves the
    table or appears.  While the round runs, stacks plus pot stay constant; at the end
    the pot has been awarded entirely (an uncalled bet returned, the rest won)."""
    r, events, out, chips = play(data, try_refused=False)
    assert sum(r.stacks) == chips
    won = sum(e[3] for e in out if e[0] == "award")
    assert won == r.pot() == sum(amount for amount, _ in r.pots())
    assert out[-1] == ("end",)


@SETTINGS
@given(st.data())
def test_refused_events_leave_the_round_unchanged(data):
    """round.py: a refused event raises Refused and leaves the round unchanged.  Tried:
    unknown card codes, a card already dealt (one deck, 13:47-20.34(a)), a card when
    none is due, actions out of turn (13:47-20.36(f)-(g): in turn, clockwise), actions
    the rules do not allow now (fold with nothing to call, check facing a bet, bet
    after a bet, raise at the cap or not reopened), unknown actions and seats."""
    r, events, out, chips = play(data, try_refused=True)
    assert sum(r.stacks) == chips
    # After the end, every event is refused.
    for event in [("card", "As"), ("fold", r.button), ("check", 0), ("call", 1)]:
        assert_refused_and_unchanged(r, event)


@SETTINGS
@given(st.data())
def test_replaying_the_events_rebuilds_the_same_round(data):
    """round.py: replaying the same events rebuilds the same round (the journal)."""
    r, events, out, chips = play(data, try_refused=True)
    again = Round(r.start_stacks, r.button, r.structure)
    replayed = again.start()
    for event in events:
        replayed += again.apply(event)
    assert replayed == out
    assert snapshot(again) == snapshot(r)


@SETTINGS
@given(tables())
def test_hole_cards_go_left_of_the_button_first_and_to_the_button_last(table):
    """13:47-20.36(e): two rounds of hole cards, starting with the player to the
    immediate left of the button, the button last each time; empty seats skipped."""
    stacks, button, structure = table
    r = Round(stacks, button, structure)
    r.start()
    order = clockwise_from(button, [s > 0 for s in stacks])
    asked = []
    for card in range(2 * len(order)):
        asked.append(r.expecting())
        r.apply(("card", C.code(card)))
    assert asked == [("hole", s) for s in order + order]
    assert order[-1] == button


# ----- blinds ---------------------------------------------------------------------------

def test_no_seat_posts_two_blinds_when_blinds_outnumber_players():
    """13:47-20.36(d): the additional blinds are made by the players after the first,
    one each.  Two players (seat 0: 100, seat 1: 2), button on seat 1, blinds
    (1, 1, 2): the first blind is dropped, nobody posts twice, and the round can be
    played to its end."""
    r = Round([100, 2], 1, FixedLimit(2, 4, (1, 1, 2)))
    out = r.start()
    posts = [(e[1], e[3]) for e in out if e[0] == "post" and e[2] == "blind"]
    assert posts == [(0, 1), (1, 2)]
    for code in ["As", "Ks", "Ad", "Kd"]:
        r.apply(("card", code))
    deck = iter(["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"])
    while not r.finished():
        if r.expecting():
            r.apply(("card", next(deck)))
        else:
            legal = r.legal_actions(r.to_act)
            assert legal, "seat %d has no legal action" % r.to_act
            r.apply(("call" if "call" in legal else legal[0], r.to_act))
    assert sum(r.stacks) == 102

