"""Properties of the rules core over random rounds of every game (hypothesis).

Every game in variants.VARIANTS, every betting structure (fixed, spread, pot and no
limit) and every rake method (none, percent, incremental; time charges, which take
nothing from a pot).  Random tables (2..11 seats, empty seats, no more players than the
game allows, short and deep stacks, any button), random structures within Structure's
validation (stud: antes and the bring-in, no blinds; the others: blinds, an ante,
optionally the straddle), a random deck order and random legal events: actions with
random in-range amounts, Pineapple's discards, draws of random held cards (the cards a
`reshuffle` effect returns go back into the stub).  Between the legal events, random
events the rules must refuse.
"""


from hypothesis import HealthCheck, event as event_stat, given, note, settings, \
    strategies as st

from felt.poker import cards as C
from felt.poker.button import clockwise_from
from felt.poker.rake import Rake
from felt.poker.round import ACTIONS, BETTING, CHOICES, CHOOSING, Round
from felt.poker.structure import KINDS, FixedLimit, Structure
from felt.poker.variants import every, get
VARIANTS = every()
from felt.table import config
from round_helpers import assert_refused_and_unchanged, snapshot, structures
from sampling import examples, sampled

# Tuned so the whole file runs in about half a minute when it passes (a round with
# refused events tried between its steps costs ~30-50 ms, one without ~5 ms).
SETTINGS = settings(max_examples=examples(600), deadline=None, report_multiple_bugs=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FEWER = settings(SETTINGS, max_examples=examples(300))
pytestmark = sampled

# Codes the card reader could send that are no card: 13:47-20.34(a), one 52-card deck.
UNKNOWN_CODES = ["Zz", "1x", "10h", "Ax", "Xs", "A", "", "Asd", " s", None, 42]


# ----- random tables ------------------------------------------------------------------------

@st.composite
def rakes(draw):
    method = draw(st.sampled_from(["none", "percent", "incremental", "time"]), label="rake")
    maximum = draw(st.sampled_from([0, 0, 1, 3, 10]), label="rake maximum")
    if method == "percent":
        return Rake("percent", draw(st.integers(1, 10), label="percent"), maximum=maximum)
    if method == "incremental":
        # As posted: the increments never more than 10 % of the pot (rake.from_dict).
        pots = draw(st.lists(st.integers(10, 300), min_size=1, max_size=4, unique=True),
                    label="rake levels")
        levels, taken = [], 0
        for pot in sorted(pots):
            room = min(5, pot // 10 - taken)
            if room >= 1:
                levels.append((pot, draw(st.integers(1, room), label="rake amount")))
                taken += levels[-1][1]
        return Rake("incremental", levels=levels, maximum=maximum)
    if method == "time":
        return Rake("time", hourly=draw(st.integers(1, 60)), every=draw(st.sampled_from([20, 30])),
                    per=draw(st.sampled_from(["player", "table"])))
    return draw(st.sampled_from([None, Rake()]))


@st.composite
def tables(draw, games=VARIANTS, kinds=KINDS, players=None):
    """(variant, stacks, button, structure, rake): at least two players with chips and
    no more than the game seats (or, given, exactly `players`)."""
    variant = draw(st.sampled_from(games), label="game")
    kind = draw(st.sampled_from(kinds), label="structure")
    if players:
        seats = draw(st.integers(players, 11), label="seats")
    else:
        seats = draw(st.integers(2, 11), label="seats")   # 11 players at most on a board
        players = draw(st.integers(2, min(seats, variant.max_players)), label="players")
    order = draw(st.permutations(range(seats)), label="seating")
    chips = st.one_of(st.integers(1, 12), st.integers(40, 400))
    stacks = [0] * seats
    for s in order[:players]:
        stacks[s] = draw(chips, label="stack")
    button = draw(st.sampled_from([s for s in range(seats) if stacks[s]]), label="button")
    structure = draw(structures(variant, kind), label="structure")
    rake = draw(rakes(), label="rake")
    note("%s, stacks %r, button %d, structure %r, rake %r" % (
        variant.name, stacks, button, structure.as_dict(), rake and rake.as_dict()))
    return variant, stacks, button, structure, rake


def new_round(table):
    variant, stacks, button, structure, rake = table
    return Round(stacks, button, structure, variant, rake)


# ----- state, legal and refused events ---------------------------------------------------

def choice_now(r):
    """The choice the seat to act has ("discard", "draw", "straddle", "run_it"), or
    None."""
    if r.phase != CHOOSING or r.to_act < 0:
        return None
    legal = r.legal_actions(r.to_act)
    for c in ("discard", "draw", "straddle", "run_it"):
        if c in legal:
            return c
    return None


def amount_ok(r, seat, to):
    """What the structure allows a bet or raise to reach (structure.py): lo..hi from
    raise_bounds, which are already capped at the seat's all-in; a short all-in below
    the minimum is within them too."""
    lo, hi = r.raise_bounds(seat)
    return isinstance(to, int) and not isinstance(to, bool) and lo <= to <= hi


def bad_amounts(r, seat):
    lo, hi = r.raise_bounds(seat)
    allin = r.street_bet[seat] + r.stacks[seat]
    out = [lo - 1, hi + 1, allin + 1, r.street_bet[seat], -1, 0, "10", 2.5, None, True]
    if allin > hi:
        out.append(allin)   # all in above the limit: more than the structure allows
    return [to for to in out if not amount_ok(r, seat, to)]


def events_to_refuse(r):
    """Events the rules must refuse in the round's present state, by kind of fault:
    {fault: [events]}, only faults that apply now."""
    faults = {"unknown card": [("card", c) for c in UNKNOWN_CODES],
              "malformed": [("shove", 0), ("fold", -1), ("fold", r.n), ("fold", True),
                            ("call", "1"), ("check", None), ("card",), ("fold", 0, None, 1),
                            "fold", None, ("draw", r.n, ""), ("straddle", -1)]}
    seen = [C.code(c) for c in range(C.DECK_SIZE) if r.seen[c]]
    unseen = [C.code(c) for c in range(C.DECK_SIZE) if not r.seen[c]]
    if r.expecting() is not None:
        # A card is due: a card already dealt (one deck, 13:47-20.34(a); a card seen
        # twice is an extra card, 20.38(h)), also spelled in lower or upper case; and
        # any action or choice, as nobody may act now.
        faults["card seen"] = [("card", c) for c in seen[:6]] + \
            [("card", c.lower()) for c in seen[:2]] + [("card", c.upper()) for c in seen[:2]]
        faults["no action due"] = [(a, s) for a in ACTIONS + CHOICES for s in range(r.n)] + \
            [(c, s, "") for c in ("discard", "draw") for s in range(r.n)]
        return _nonempty(faults)
    # No card is due: while betting or choosing, or after the round.
    faults["no card due"] = [("card", c) for c in unseen[:4] + seen[:2]]
    seat = r.to_act
    legal = set(r.legal_actions(seat)) if seat >= 0 else set()
    out_of_turn, not_now = [], []
    for s in range(r.n):
        for a in ACTIONS + CHOICES:
            with_arg = (a, s, 2) if a not in ("discard", "draw") else (a, s, "")
            if s != seat:
                out_of_turn += [(a, s), with_arg]
            elif a not in legal:
                not_now += [(a, s), with_arg]
    faults["out of turn"] = out_of_turn
    faults["not allowed now"] = not_now
    if seat < 0:
        return _nonempty(faults)
    if r.phase == BETTING:
        # Amounts on actions that take none, and bad amounts for a bet or raise.
        faults["amount on a call"] = [(a, seat, 2) for a in ("fold", "check", "call", "bring_in")]
        faults["bad amount"] = [(a, seat, to) for a in ("bet", "raise") if a in legal
                                for to in bad_amounts(r, seat)]
        return _nonempty(faults)
    choice = choice_now(r)
    if choice == "straddle":
        faults["straddle amount"] = [("straddle", seat, 4), ("decline", seat, 0)]
        return _nonempty(faults)
    if choice == "run_it":
        # 13:69F-14.10(l): an answer takes no amount; the straddle's decline is not one.
        faults["runouts amount"] = [("run_it", seat, 2), ("run_once", seat, 0),
                                    ("decline", seat)]
        return _nonempty(faults)
    # A discard or a draw: cards the seat does not hold, named twice, unknown, not a
    # string; for a discard, the wrong number of cards; another seat's cards.
    held = [C.code(c) for c in r.hole[seat]]
    others = [C.code(c) for s in range(r.n) if s != seat for c in r.hole[s]]
    bad = []
    for c in others[:2] + unseen[:2]:
        bad.append((choice, seat, c))
        if held:
            bad.append((choice, seat, held[0] + " " + c))
    if held:
        bad += [(choice, seat, held[0] + " " + held[0]), (choice, seat, held[0] + " Zz")]
    bad += [(choice, seat, "Zz"), (choice, seat, 42), (choice, seat, ["As"]), (choice, seat)]
    if choice == "discard":
        want = r.variant.steps[r.step][1]
        bad.append(("discard", seat, ""))
        if len(held) > want:
            bad.append(("discard", seat, " ".join(held[:want + 1])))
    faults["bad " + choice] = bad
    faults["out of turn"] += [(choice, s, C.code(r.hole[s][0])) for s in range(r.n)
                              if s != seat and r.hole[s]]
    return _nonempty(faults)


def _nonempty(faults):
    return dict((k, v) for k, v in faults.items() if v)


def all_faults(r):
    return [e for events in events_to_refuse(r).values() for e in events]


def legal_event(data, r, patient=False):
    """A random legal event for the seat to act (no card is due); `patient` players
    seldom fold, so more of them see the later cards."""
    seat = r.to_act
    legal = r.legal_actions(seat)
    assert legal, "the action is on seat %d, who has no legal action" % seat
    if patient and len(legal) > 1 and data.draw(st.integers(0, 9), label="stay in"):
        legal = [a for a in legal if a not in ("fold", "decline")]
    a = data.draw(st.sampled_from(legal), label="action")
    if a == "discard":
        want = r.variant.steps[r.step][1]
        cards = data.draw(st.permutations(r.hole[seat]), label="discard")[:want]
        return ("discard", seat, C.codes(cards))
    if a == "draw":
        k = data.draw(st.integers(0, len(r.hole[seat])), label="drawn")
        cards = data.draw(st.permutations(r.hole[seat]), label="draw")[:k]
        return ("draw", seat, C.codes(cards))
    if a in ("bet", "raise") and data.draw(st.booleans(), label="with an amount"):
        lo, hi = r.raise_bounds(seat)
        to = data.draw(st.one_of(st.just(lo), st.just(hi), st.integers(lo, hi)), label="to")
        return (a, seat, to)
    return (a, seat)


class Shoe:
    """The stub, in a random order; cards a reshuffle returns go back into it."""

    def __init__(self, data):
        self.data = data
        self.cards = data.draw(st.permutations(range(C.DECK_SIZE)).map(list), label="deck")

    def next(self):
        assert self.cards, "the round asked for a card the stub does not hold"
        return self.cards.pop(0)

    def reshuffle(self, cards):
        self.cards = self.data.draw(st.permutations(self.cards + list(cards)).map(list),
                                    label="reshuffled")


def play(data, try_refused, table=None, patient=False, skip=()):
    """Play one random round to its end: (round, events applied, effects, chips).

    With try_refused, before each legal event one or more events the rules must
    refuse are tried (of any kind of fault but those in `skip`), each checked to leave
    the whole state unchanged."""
    table = table or data.draw(tables(), label="table")
    r = new_round(table)
    shoe = Shoe(data)
    chips = sum(r.stacks)
    events = []
    replaced = None
    out = r.start()
    check_chips(r, chips)
    event_stat("game: " + r.variant.name)
    event_stat("structure: " + r.structure.kind)
    event_stat("rake: " + (r.rake.method if r.rake else "None"))
    while not r.finished():
        while try_refused and data.draw(st.booleans(), label="try a refused event"):
            faults = events_to_refuse(r)
            fault = data.draw(st.sampled_from(sorted(f for f in faults if f not in skip)),
                              label="fault")
            event = data.draw(st.sampled_from(faults[fault]), label="refused")
            event_stat("refused: " + fault)
            assert_refused_and_unchanged(r, event)
        if r.expecting() is not None:
            event = ("card", C.code(shoe.next()))
        else:
            assert r.to_act >= 0, "the round waits for nothing"
            event = legal_event(data, r, patient)
        note("apply %r" % (event,))
        if event[0] in ("discard", "draw"):
            seat, thrown = event[1], [C.parse(c) for c in event[2].split()]
            replaced = (seat, len(r.hole[seat]) - (len(thrown) if event[0] == "discard" else 0),
                        thrown)
        effects = r.apply(event)
        for e in effects:
            if e[0] == "reshuffle":
                shoe.reshuffle(e[1])
        out += effects
        events.append(event)
        check_chips(r, chips)
        if replaced and r.expecting() is None:
            # A discard leaves the seat without the cards thrown; a draw deals as many
            # as were thrown (13:69F-14.12B), never one of them back.
            seat, holding, thrown = replaced
            assert len(r.hole[seat]) == holding, (seat, C.codes(r.hole[seat]))
            assert not [c for c in thrown if c in r.hole[seat]]
            replaced = None
        # The stub is what the round has not seen: reshuffles give back exactly the
        # cards they make available again.
        assert sorted(shoe.cards) == [c for c in range(C.DECK_SIZE) if not r.seen[c]]
    kinds = set(e[0] for e in out)
    for k in ("show", "return", "rake", "reshuffle"):
        if k in kinds:
            event_stat("effect: " + k)
    event_stat("events: %s" % ("<20" if len(events) < 20 else "<50" if len(events) < 50 else "50+"))
    return r, events, out, chips


def check_chips(r, chips):
    """While the round runs every chip is in a stack, in the pot or taken by the rake
    (pot() is what was put in less the rake)."""
    if not r.finished():
        assert sum(r.stacks) + r.pot() + r.raked == chips
    assert min(r.stacks) >= 0 and min(r.total) >= 0 and r.raked >= 0


# ----- properties ---------------------------------------------------------------------------

@SETTINGS
@given(st.data())
def test_chips_are_conserved_at_every_step(data):
    """13:47-20.2: the pot is the total anted and bet; table stakes: no chip leaves the
    table or appears.  While the round runs, stacks plus pot plus rake stay constant; at
    the end the pot has been awarded entirely (an uncalled bet returned, the rake taken,
    the rest won)."""
    r, events, out, chips = play(data, try_refused=False)
    assert sum(r.stacks) + r.raked == chips
    won = sum(e[3] for e in out if e[0] == "award")
    assert won + r.raked == sum(r.total) == sum(amount for amount, _ in r.pots())
    assert out[-1] == ("end",)


@SETTINGS
@given(st.data())
def test_the_rake_keeps_to_the_posted_method(data):
    """13:47-20.37: a percentage of at most the posted percent of the wagers, or the
    posted amounts of the pot levels reached; the uncalled final bet no part of it
    ((b)); never above the posted maximum, never more than the pot; nothing taken
    once the pot is awarded ((c)); time charges and no rake take nothing from a pot."""
    r, events, out, chips = play(data, try_refused=False)
    rake = r.rake
    pot = sum(r.total)            # what was played for: the uncalled bet is returned
    taken = [e[1] for e in out if e[0] == "rake"]
    assert sum(taken) == r.raked and all(t > 0 for t in taken)
    kinds = [e[0] for e in out]
    if "rake" in kinds and "award" in kinds:
        assert len(kinds) - 1 - kinds[::-1].index("rake") < kinds.index("award")
    assert r.raked <= pot
    if rake is None or rake.method in ("none", "time"):
        assert r.raked == 0
        return
    if rake.maximum:
        assert r.raked <= rake.maximum
    if rake.method == "percent":
        assert r.raked * 100 <= rake.percent * pot, (r.raked, pot)
    else:
        assert r.raked <= sum(a for level, a in rake.levels if pot >= level), (r.raked, pot)


# The games whose stub can run out: draws (13:69F-14.12B(f): the discards are
# reshuffled) and stud (19:47-14.9(h): the common card, the burn cards reshuffled).
DEEP = tuple([v for v in VARIANTS if v.hand == "draw" or v.name in ("stud7", "stud7-hilo",
                                                                    "stud7-hilo8", "stud5")])


@FEWER
@given(st.data())
def test_rounds_that_run_the_stub_out(data):
    """Draw and stud rounds at full tables, where the stub runs out: every card the
    round asks for is one it has not seen, a `reshuffle` gives back exactly the cards it
    makes available again, a draw is replaced card for card; refused events in between
    change nothing, and every chip is accounted for."""
    game = data.draw(st.sampled_from(DEEP), label="game")
    table = data.draw(tables(games=(game,), players=game.max_players), label="table")
    # Bad amounts are left to the test below, which tries them in every game.
    r, events, out, chips = play(data, try_refused=True, table=table, patient=True,
                                 skip=("bad amount",))
    assert sum(r.stacks) + r.raked == chips


@FEWER
@given(st.data())
def test_refused_events_leave_the_round_unchanged(data):
    """round.py: a refused event raises Refused and leaves the round unchanged.  Tried:
    unknown card codes, a card already dealt (one deck, 13:47-20.34(a)), a card when
    none is due, actions and choices out of turn (13:47-20.36(f)-(g)), actions the rules
    do not allow now, amounts outside the structure's bounds or on actions that take
    none, discards and draws of cards not held, named twice or unknown, a Pineapple
    discard of the wrong number of cards, a straddle with an amount, unknown actions and
    seats, malformed events."""
    r, events, out, chips = play(data, try_refused=True)
    # After the end, every event is refused.
    for event in all_faults(r) + [("card", "As"), ("fold", r.button), ("check", 0),
                                  ("call", 1)]:
        assert_refused_and_unchanged(r, event)


@FEWER
@given(st.data())
def test_replaying_the_events_rebuilds_the_same_round(data):
    """round.py: replaying the same events rebuilds the same round (the journal)."""
    r, events, out, chips = play(data, try_refused=False)
    again = Round(r.start_stacks, r.button, r.structure, r.variant, r.rake)
    replayed = again.start()
    for event in events:
        replayed += again.apply(event)
    assert replayed == out
    assert snapshot(again) == snapshot(r)


@SETTINGS
@given(tables())
def test_every_table_played_here_is_one_the_configuration_accepts(table):
    """The tables above are ones an operator could configure (config.py), so the
    properties hold for real tables and not only for the round's own checks."""
    variant, stacks, button, structure, rake = table
    d = structure.as_dict()
    d.update({"game": variant.name, "stacks": stacks})
    if rake is not None:
        d["rake"] = rake.as_dict()
    cfg = config.from_dict(d)
    assert cfg.variant.name == variant.name and cfg.stacks == stacks


@SETTINGS
@given(tables())
def test_first_cards_go_round_the_table_in_dealing_order(table):
    """13:47-20.36(e): hole cards start with the player to the immediate left of the
    button, the button last each time, empty seats skipped.  Stud (13:47-20.35,
    19:47-14.9): from the dealer's left, the down cards first, then the up card."""
    variant, stacks, button, structure, rake = table
    r = new_round(table)
    r.start()
    if r.to_act >= 0:                        # a straddle offered before the deal
        legal = r.legal_actions(r.to_act)
        r.apply(("decline" if "decline" in legal else "straddle", r.to_act))
    seated = [s > 0 for s in stacks]
    order = clockwise_from(len(stacks) - 1 if variant.stud() else button, seated)
    kind, down, up = variant.steps[0]
    assert kind == "deal"
    asked = []
    for card in range((down + up) * len(order)):
        asked.append(r.expecting())
        r.apply(("card", C.code(card)))
    assert asked == [("hole" if i < down else "up", s) for i in range(down + up) for s in order]
    if not variant.stud():
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


# ----- amounts ------------------------------------------------------------------------------

def test_an_all_in_above_the_limit_is_refused():
    """structure.py: in fixed limit a bet or raise is one unit; in spread limit at most
    the posted maximum; in pot limit at most the pot.  Being all in does not lift the
    limit (only a short all-in below the minimum is allowed).  Three seats of 100,
    button on seat 2, blinds 1 and 2 (seats 0 and 1): seat 2 acts first; a raise to 100,
    all in, is refused in every limit game and accepted in no limit."""
    for structure in (FixedLimit(2, 4, (1, 2)), Structure("spread", 2, 6, (1, 2)),
                      Structure("pot", 2, 0, (1, 2), cap=0), Structure("no", 2, 0, (1, 2), cap=0)):
        r = Round([100, 100, 100], 2, structure, get("holdem"))
        r.start()
        for code in "As Kd Ah Kc 2c 3c".split():
            r.apply(("card", code))
        assert r.to_act == 2
        lo, hi = r.raise_bounds(2)
        if structure.kind == "no":
            assert hi == 100 and r.why_not(("raise", 2, 100)) is None
        else:
            assert hi < 100
            assert r.why_not(("raise", 2, 100)) is not None, \
                "%s: an all-in raise to 100 accepted, the limit is %d" % (structure.name(), hi)
