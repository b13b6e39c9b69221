"""Helpers for the rule tests of the games beside hold 'em (felt.poker.variants) and of
the betting structures.  They run on CPython and inside MicroPython: no pytest, no
reliance on dict order.  Seats are numbered clockwise from the dealer's left."""

from felt.poker.cards import parse, code
from felt.poker.round import Round, BETTING
from felt.poker.structure import Structure
from felt.poker.variants import get
from firmware_helpers import deal

# A deck order to deal from when the cards themselves do not matter.
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def stud_limit(ante=1, bring_in=1, small=2, big=4, cap=4, check_raise=True):
    """Fixed-limit stud: an ante, a bring-in below the small bet, no blinds."""
    return Structure("fixed", small, big, (), ante, cap, bring_in, check_raise)


def blinds_limit(blinds=(1, 2), ante=0, cap=4, small=2, big=4, check_raise=True,
                 straddle=False):
    """Fixed-limit with blinds, for the button games."""
    return Structure("fixed", small, big, blinds, ante, cap, 0, check_raise, straddle)


def new_game(name, stacks, button=0, structure=None, rake=None):
    """A started Round of the named game and the effects of start()."""
    v = get(name)
    if structure is None:
        structure = stud_limit() if v.stud() else blinds_limit()
    r = Round(stacks, button, structure, v, rake)
    return r, r.start()


def cards(codes):
    return [parse(c) for c in codes.split()]


def codes_of(cs):
    return " ".join([code(c) for c in cs])


def face_up(r, seat):
    """Whether each of the seat's hole cards is up, in the order it holds them."""
    return [c in r.up[seat] for c in r.hole[seat]]


def dealt(effects, what=None):
    """[(what, seat, code)] of the "dealt" effects, or [(seat, code)] of one kind."""
    out = []
    for e in effects:
        if e[0] != "dealt":
            continue
        if what is None:
            out.append((e[1], e[2], code(e[3])))
        elif e[1] == what:
            out.append((e[2], code(e[3])))
    return out


def feed(r, order=None):
    """Deal, while the round asks for cards, the first card of `order` (default DECK)
    not yet seen this round; cards shuffled back in by a reshuffle are unseen again."""
    out = []
    order = order or DECK
    while r.expecting() is not None:
        for c in order:
            if not r.seen[parse(c)]:
                out += r.apply(("card", c))
                break
        else:
            raise AssertionError("the deck order has no unseen card left")
    return out


def passive(r):
    """Play out the current betting round: post the bring-in when due, else check,
    else call.  Stops when the betting round ends."""
    out = []
    start = r.betround
    while r.phase == BETTING and r.betround == start and r.to_act >= 0:
        seat = r.to_act
        for a in ("bring_in", "check", "call"):
            if r.why_not((a, seat)) is None:
                out += r.apply((a, seat))
                break
        else:
            raise AssertionError("seat %d can neither check nor call" % seat)
    return out


def bet_round(r, folds=()):
    """The first to act bets (or completes), everyone else calls except the seats in
    `folds`, who fold when their turn comes."""
    out = []
    start = r.betround
    first = True
    while r.phase == BETTING and r.betround == start and r.to_act >= 0:
        seat = r.to_act
        if first:
            out += r.apply(("bet", seat))
            first = False
        elif seat in folds:
            out += r.apply(("fold", seat))
        else:
            out += r.apply(("call", seat))
    return out


def stud7_streets(hands, burns):
    """The cards of a seven-card stud round in dealing order, one string per street,
    for every seat staying to the end.  hands: per seat from the dealer's left, seven
    codes "down down up up up up down"; burns: the four burn cards."""
    hs = [h.split() for h in hands]
    b = burns.split()
    third = [h[i] for i in range(3) for h in hs]
    streets = [" ".join(third)]
    for k in range(4):
        streets.append(" ".join([b[k]] + [h[3 + k] for h in hs]))
    return streets


def stud7_showdown(name, hands, burns, structure=None, stacks=None):
    """Play a seven-card stud round where everyone stays and nobody bets beyond the
    bring-in and its calls: (round, every effect)."""
    r, out = new_game(name, stacks or [100] * len(hands), 0, structure)
    for street in stud7_streets(hands, burns):
        out += deal(r, street)
        out += passive(r)
    return r, out


def awards(effects):
    """[(seat, amount, share)] of the "award" effects, in order."""
    return [(e[2], e[3], e[4]) for e in effects if e[0] == "award"]


def won(r):
    """Chips each seat won or lost in the round."""
    return [r.stacks[s] - r.start_stacks[s] for s in range(r.n)]


def draw_showdown(name, hands, button=0, structure=None):
    """A button game of five cards held (five-card draw, triple draw) played with
    everyone calling the blinds, checking and standing pat: (round, every effect).
    hands: per seat, five codes; cards go out left of the button first."""
    n = len(hands)
    r, out = new_game(name, [100] * n, button, structure)
    hs = [h.split() for h in hands]
    order = [(button + 1 + i) % n for i in range(n)]
    out += deal(r, " ".join([hs[s][k] for k in range(5) for s in order]))
    spare = [c for c in DECK if c not in " ".join(hands).split()]
    while not r.finished():
        if r.expecting() is not None:
            out += deal(r, spare.pop())
        elif r.phase == BETTING:
            out += passive(r)
        else:
            out += r.apply(("draw", r.to_act, ""))   # stand pat
    return r, out
