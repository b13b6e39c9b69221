"""Chips at the house-banked tables: over random seeded rounds of both games, every
settled seat is paid exactly the posted odds for its hands and wagers (worked out here
by tests/host/banked_oracle.py, not by the firmware), a void (19:47-27.12) returns
every wager exactly, players' chips plus the house's always equal the start, and the
events replayed rebuild the same round (the journal relies on this)."""

import random

from hypothesis import given, settings, strategies as st

from felt.banked.four_card import FourCardPoker
from felt.banked.holdem_bonus import HoldemBonus
from felt.banked.settings import Settings
from felt.poker import cards as C
from felt.poker.evaluate import evaluate, category, FLUSH, STRAIGHT
from banked_oracle import ACES_UP, four_card_net, bonus_odds
from sampling import examples, sampled

STACK = 1000
IRREGULAR = (None, "face_up", "face_up_twice", "miscount", "dealer_exposed", "void")


def seat_wagers(game):
    ante = st.sampled_from([0, 5, 10]) if game == "four_card" else st.sampled_from([5, 10])
    return st.tuples(ante, st.sampled_from([0, 1, 5]),
                     st.integers(0, 3), st.booleans(), st.booleans())


@st.composite
def rounds(draw):
    game = draw(st.sampled_from(["four_card", "holdem_bonus"]))
    seats = draw(st.lists(seat_wagers(game), min_size=1, max_size=7))
    if not any(a or s for a, s, *_ in seats):
        seats[0] = (5,) + seats[0][1:]
    return {"game": game, "seats": seats, "seed": draw(st.integers(0, 2 ** 32)),
            "aces_up": draw(st.sampled_from(sorted(ACES_UP))),
            "settle_order": draw(st.sampled_from([1, 2])),
            "ante_pays_from": draw(st.sampled_from(["flush", "straight"])),
            "irregular": draw(st.sampled_from(IRREGULAR)),
            "at": draw(st.integers(0, 45)), "mirror": draw(st.booleans())}


def new_round(p):
    s = Settings(p["game"], aces_up=p["aces_up"], settle_order=p["settle_order"],
                 ante_pays_from=p["ante_pays_from"])
    cls = FourCardPoker if p["game"] == "four_card" else HoldemBonus
    return cls([STACK] * len(p["seats"]), [w[:2] for w in p["seats"]], s)


def decision(p, r, seat):
    ante, side, times, turn, river = p["seats"][seat]
    if p["game"] == "four_card":
        return ("play", seat, times) if times else ("fold", seat)
    if r.deciding == "flop":
        return ("play", seat) if times else ("fold", seat)
    bets = turn if r.deciding == "turn" else river
    return ("bet", seat) if bets else ("check", seat)


def irregularity(p, r, deck, i):
    """The event for the drawn irregularity, if the round allows it now, and the
    number of deck cards it uses."""
    kind = p["irregular"]
    if kind in ("face_up", "face_up_twice"):
        return ("face_up", C.code(deck[i])), 1
    if kind == "miscount":
        live = [s for s in range(r.n) if r.active(s)]
        return ("miscount", live[0] if live and p["at"] % 2 else -1), 0
    if kind == "dealer_exposed":
        return ("dealer_exposed", C.code(r.dealer[0]) if r.dealer else "As"), 0
    return ("void", "shoe jam"), 0


def mirrored(deck, players):
    """Four card poker: the deck rearranged so that the dealer's first five cards have
    the ranks of the first player's five, so ties (27.11(a)1) come often."""
    fixed = set()
    for k in range(5):
        mine = k * (players + 1)
        theirs = mine + players
        fixed.add(mine)
        same = [j for j in range(len(deck)) if j not in fixed and j != mine
                and deck[j] // 4 == deck[mine] // 4]
        if same:
            deck[theirs], deck[same[0]] = deck[same[0]], deck[theirs]
        fixed.add(theirs)
    return deck


def play(p):
    deck = list(range(C.DECK_SIZE))
    random.Random(p["seed"]).shuffle(deck)
    if p["mirror"] and p["game"] == "four_card":
        deck = mirrored(deck, len([w for w in p["seats"] if w[0] or w[1]]))
    r = new_round(p)
    out = r.start()
    events = []
    i = step = 0
    left = 2 if p["irregular"] == "face_up_twice" else 1 if p["irregular"] else 0
    while not r.finished():
        event = None
        if left and step >= p["at"]:
            event, used = irregularity(p, r, deck, i)
            if r.why_not(event) is None:
                i += used
                left -= 1
            else:
                event = None
        if event is None:
            if r.expecting() is not None:
                event = ("card", C.code(deck[i]))
                i += 1
            else:
                seat = [s for s in range(r.n) if r.undecided[s]][0]
                event = decision(p, r, seat)
        step += 1
        events.append(event)
        out += r.apply(event)
        assert sum(r.stacks) + r.house() == sum(r.start_stacks)
    # Did the irregularity drawn happen in full?  Then it voided every hand.
    voids = p["irregular"] not in (None, "face_up") and not left
    assert voids == (r.called_off == "void")
    return r, events, out


def cards_as_dealt(p, events):
    """Hands, dealer and board from the cards read, in the documented order of deal."""
    read = [C.parse(e[1]) for e in events if e[0] == "card"]
    players = [s for s, w in enumerate(p["seats"]) if w[0] or w[1]]
    holes = {s: [] for s in players}
    dealer = []
    rounds_of = 5 if p["game"] == "four_card" else 2
    k = 0
    for _ in range(rounds_of):
        for s in players:
            holes[s].append(read[k])
            k += 1
        dealer.append(read[k])
        k += 1
    if p["game"] == "four_card":
        dealer.append(read[k])
        return holes, dealer, []
    board = [read[x] for x in (k + 1, k + 2, k + 3, k + 5, k + 7) if x < len(read)]
    return holes, dealer, board


def expected_net(p, seat, holes, dealer, board):
    ante, side, times, turn, river = p["seats"][seat]
    if p["game"] == "four_card":
        return four_card_net(holes[seat], dealer, ante, times, side, p["aces_up"])
    if not times:
        return -(ante + side)
    staked = ante * (2 + turn + river)
    mine, theirs = evaluate(holes[seat] + board), evaluate(dealer + board)
    least = FLUSH if p["ante_pays_from"] == "flush" else STRAIGHT
    if mine > theirs:
        net = staked + (ante if category(mine) >= least else 0)
    elif mine == theirs:
        net = 0
    else:
        net = -(ante + staked)
    odds = bonus_odds(holes[seat], dealer)
    return net + (side * odds if odds else -side)


@sampled
@settings(max_examples=examples(1500), deadline=None)
@given(rounds())
def test_every_seat_is_paid_the_posted_odds_and_chips_are_conserved(p):
    r, events, out = play(p)
    assert sum(r.stacks) + r.house() == sum(r.start_stacks)
    result = r.result()
    if r.called_off == "void":
        # 19:47-27.12: all hands void: every wager goes back exactly.
        assert all(taken == paid for taken, paid in result)
        assert r.stacks == r.start_stacks and r.house() == 0
        return
    holes, dealer, board = cards_as_dealt(p, events)
    for seat, w in enumerate(p["seats"]):
        net = r.stacks[seat] - STACK
        assert net == result[seat][1] - result[seat][0]
        if not (w[0] or w[1]):
            assert result[seat] == (0, 0)
            continue
        assert net == expected_net(p, seat, holes, dealer, board), (seat, w)


@sampled
@settings(max_examples=examples(300), deadline=None)
@given(rounds())
def test_replaying_the_events_rebuilds_the_round(p):
    r, events, out = play(p)
    again = new_round(p)
    replayed = again.start()
    for e in events:
        replayed += again.apply(e)
    assert replayed == out and again.stacks == r.stacks
