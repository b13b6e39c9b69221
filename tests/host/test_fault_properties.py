"""Irregularities injected at random into random rounds of every game (hypothesis).

felt.poker.irregular: ("void", why) 19:47-27.12(f), ("dead", why) 13:47-20.38(h),
("misdeal", why) 20.38(f), ("face_up", code) 20.38(i) and (f)3, ("replace", code, why)
20.38(g), (m), (n), ("exposed", code) 20.38(l), ("foul", seat) 20.38(j)3 and
("away", seat) 20.38(j)4.

Every game in variants.VARIANTS, every betting structure kind, with or without a rake
(percent or incremental).  A random deck order, random legal play, and at random points a
random irregularity with legal arguments: a card of the deal under way (`just_dealt`) for
replace and exposed, the next card of the stub for face_up, any seat with a hand for foul
and away, every misdeal reason, void and dead-round reasons.  Between the steps, random
irregularities the rules must refuse, each checked to leave the whole state unchanged.

Checked at every step: chips are conserved (stacks + pot + rake), each seat's stack plus
what it has in the pot is its stack before the round, the seat to act has a hand, the
stub is exactly the cards not seen.  A void, a dead round and a misdeal end the round
with every stack as it was before the round and no rake.  A fouled hand gets back all it
put in (the pot's remainder when a rake already taken left less); a player away is
folded and gets nothing back; neither wins anything after.  A replaced card goes to the
discards and its seat still gets its full number of cards; a second face-up card is a
misdeal; in stud one exposed hole card brings the next up card down, both kill the hand
and return the ante; every player with a hand takes part in every discard and draw.
"""


import pytest
from hypothesis import HealthCheck, event as event_stat, given, note, settings, \
    strategies as st

from felt.poker import cards as C
from felt.poker.button import next_seat
from felt.poker.rake import Rake
from felt.poker.round import BETTING, CHOOSING, DEALING, Round
from felt.poker.structure import KINDS, Structure
from felt.poker.variants import every
VARIANTS = every()
from round_helpers import assert_refused_and_unchanged, structures

# Tuned so the file runs in about half a minute while it passes.
SETTINGS = settings(max_examples=25, deadline=None, report_multiple_bugs=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PER_GAME = settings(SETTINGS, max_examples=60)

GAMES = pytest.mark.parametrize("variant", VARIANTS, ids=[v.name for v in VARIANTS])

# The sections a call-off names (irregular.py's docstring, the rules texts).
SECTION = {"void": "19:47-27.12(f)", "dead": "13:47-20.38(h)",
           "no_shuffle": "13:47-20.38(f)1", "wrong_start": "13:47-20.38(f)2",
           "face_up": "13:47-20.38(f)3", "skipped_seat": "13:47-20.38(f)4"}
WHY = {"void": ["shoe jam", "shoe stopped", "shoe failed to deal every card"],
       "dead": ["missing card", "extra card"],
       "misdeal": ["no_shuffle", "wrong_start", "face_up", "skipped_seat"]}
LATE = ("wrong_start", "skipped_seat")    # 20.38(f)2 and 4: only before two voluntary wagers
CALL_OFFS = ("void", "dead", "misdeal")
ALL_FAULTS = CALL_OFFS + ("face_up", "replace", "exposed", "foul", "away")


# ----- random tables --------------------------------------------------------------------

# A rake that can take most of a small pot: what a fouled hand gets back is then what the
# pot holds (20.38(j)3 and irregular.py: a rake already taken stays taken).
HEAVY_RAKE = st.integers(2, 30).map(lambda a: Rake("incremental", levels=[(1, a)]))


@st.composite
def tables(draw, variant, kind, heavy=False):
    seats = draw(st.integers(2, 11), label="seats")
    players = draw(st.integers(2, min(seats, variant.max_players)), label="players")
    order = draw(st.permutations(range(seats)), label="seating")
    stacks = [0] * seats
    for s in order[:players]:
        stacks[s] = draw(st.one_of(st.integers(1, 12), st.integers(40, 300)), label="stack")
    button = draw(st.sampled_from([s for s in range(seats) if stacks[s]]), label="button")
    structure = draw(structures(variant, kind, small_max=6, ante_max=2, caps=(0, 2, 4),
                                      check_raise=True), label="structure")
    rake = draw(HEAVY_RAKE if heavy and draw(st.booleans(), label="heavy rake") else st.one_of(
        st.none(),
        st.integers(1, 10).map(lambda p: Rake("percent", p)),
        # Large amounts at low pot levels: the rake can leave the pot smaller than what a
        # fouled hand put in (20.38(j)3 refunds what the pot holds).
        st.lists(st.integers(1, 60), min_size=1, max_size=3, unique=True).map(
            lambda ls: Rake("incremental", levels=[(lv, 1 + lv // 3) for lv in sorted(ls)]))),
        label="rake")
    note("%s, stacks %r, button %d, structure %r, rake %r" % (
        variant.name, stacks, button, structure.as_dict(), rake and rake.as_dict()))
    return Round(stacks, button, structure, variant, rake)


class Shoe:
    """The stub, in a random order; cards a reshuffle returns go back into it."""

    def __init__(self, data):
        self.data = data
        self.cards = data.draw(st.permutations(range(C.DECK_SIZE)).map(list), label="deck")

    def reshuffle(self, cards):
        self.cards = self.data.draw(st.permutations(self.cards + list(cards)).map(list),
                                    label="reshuffled")


# ----- state ----------------------------------------------------------------------------

def expected_cards(variant, step, board):
    """Cards a player with a hand holds once the steps before `step` are done."""
    n = 0
    for s in variant.steps[:step]:
        if s[0] == "deal":
            n += s[1] + s[2]
        elif s[0] == "discard":
            n -= s[1]
    if variant.hand == "stud":
        n -= len(board)     # the common card stands for a deal (19:47-14.9(h))
    return n


class Watch:
    """What the test knows of the round, kept from the events and effects alone."""

    def __init__(self, r, before):
        self.r = r
        self.before = before            # stacks before the round (before the posts)
        self.chips = sum(before)
        self.voluntary = set()          # seats that called, bet or raised (20.38(f)2, 4)
        self.chosen = {}                # step -> seats that discarded or drew then
        self.out = {}                   # seat -> its stack when fouled or away
        self.face_ups = 0
        self.first = True               # the first deal is under way
        self.first_deal = {}            # seat -> cards dealt down in the first deal
        self.exposed = {}               # seat -> its hole cards reported exposed
        self.up_dealt = set()           # seats whose first deal's up card came up
        self.late_exposures = {}        # seat -> exposures after that
        self.replaced = set()           # seats that had a card replaced in the first deal
        self.first_checked = False
        self.blind = -1                 # the seat of the last blind posted

    def effects(self, out):
        r = self.r
        for e in out:
            if e[0] in ("to_act", "action") or e[0] == "dealt" and e[1] in ("burn", "board"):
                self.first = False          # the first deal is over
            if e[0] == "post" and e[2] == "blind":
                self.blind = e[1]
            elif e[0] == "dealt" and self.first and e[2] >= 0:
                if e[1] == "hole":
                    self.first_deal.setdefault(e[2], []).append(e[3])
                elif e[1] == "up":
                    self.up_dealt.add(e[2])
            elif e[0] == "award":
                assert e[2] not in self.out, "seat %d won after it left the hand" % e[2]
            elif e[0] == "refund":
                assert r.called_off or e[1] not in self.out, e

    def check(self):
        """The invariants of every step."""
        r = self.r
        assert min(r.stacks) >= 0 and min(r.total) >= 0 and r.raked >= 0
        if not r.finished():
            # 13:47-20.2: stacks + pot + rake constant; every seat's chips in the pot
            # are its own contributions (no award before the end).
            assert sum(r.stacks) + r.pot() + r.raked == self.chips
            for s in range(r.n):
                assert r.stacks[s] + r.total[s] == self.before[s], s
            if r.to_act >= 0:
                assert r.live(r.to_act), "the action is on seat %d, who has no hand" % r.to_act
                assert r.legal_actions(r.to_act), "seat %d to act has no legal action" % r.to_act
            else:
                assert r.expecting() is not None, "the round waits for nothing"
        else:
            assert sum(r.stacks) + r.raked == self.chips
        for s, stack in self.out.items():
            if not r.called_off:
                # Fouled or away: nothing more comes back, nothing is won (its chips
                # left in the pot stay there, 20.38(k)2).
                assert r.stacks[s] == stack, s
                assert not r.live(s)
        if r.called_off:
            return
        live = [s for s in range(r.n) if r.live(s)]
        # Every player with a hand takes part in every discard and draw (Pineapple,
        # draw games): a seat leaving does not skip the others.
        for j, step in enumerate(r.variant.steps[:r.step]):
            if step[0] in ("discard", "draw") and len(live) > 1:
                missed = [s for s in live if s not in self.chosen.get(j, ())]
                assert not missed, "seats %r never got to %s (step %d)" % (missed, step[0], j)
        # A straddle is offered only to the seat left of the big blind (13:69F-14.10(f)).
        if r.phase == CHOOSING and r.to_act >= 0 and "straddle" in r.legal_actions(r.to_act):
            assert r.to_act == next_seat(self.blind, r.dealt_in), (r.to_act, self.blind)
            assert r.live(r.to_act)
        # A full hand for everyone who still has one, replaced cards included.
        if r.phase == BETTING or (r.finished() and r.step == len(r.variant.steps)
                                  and len(live) > 1):
            want = expected_cards(r.variant, r.step, r.board)
            for s in live:
                assert len(r.hole[s]) == want, (s, C.codes(r.hole[s]), want)
            if not r.variant.stud():
                assert not [s for s in live if r.up[s]], "a down card is up"
                # The board as full as the steps say, a card off the table replaced.
                assert len(r.board) == sum([st_[1] for st_ in r.variant.steps[:r.step]
                                            if st_[0] == "board"]), C.codes(r.board)
        # Stud, 20.38(l): after the first deal, the up cards of a seat are the one it
        # was dealt up, or the exposed hole card that brought it down, plus any hole card
        # exposed after its up card came.
        if r.variant.stud() and r.betround >= 0 and not self.first_checked:
            self.first_checked = True
            k = r.variant.steps[0][1] + r.variant.steps[0][2]
            for s in live:
                if s not in self.replaced:
                    ups = len([c for c in r.hole[s][:k] if c in r.up[s]])
                    assert ups == 1 + self.late_exposures.get(s, 0), (s, r.up[s])


# ----- irregularities -----------------------------------------------------------------------

def held_by(r, card):
    for s in range(r.n):
        if card in r.hole[s]:
            return s
    return -1


def legal_faults(r, shoe, w, allowed):
    """{kind: [events]} the rules allow now, built from the round's public state."""
    faults = {}
    if "void" in allowed:
        faults["void"] = [("void", why) for why in WHY["void"]]
    if "dead" in allowed:
        faults["dead"] = [("dead", why) for why in WHY["dead"]]
    if "misdeal" in allowed:
        faults["misdeal"] = [("misdeal", why) for why in WHY["misdeal"]
                             if why not in LATE or len(w.voluntary) < 2]
    live = [s for s in range(r.n) if r.live(s)]
    for kind in ("foul", "away"):
        if kind in allowed:
            faults[kind] = [(kind, s) for s in live]
    if "face_up" in allowed and r.phase == DEALING and r.expecting() is not None \
            and shoe.cards:
        faults["face_up"] = [("face_up", C.code(shoe.cards[0]))]
    mine = [(c, held_by(r, c)) for c in r.just_dealt]
    mine = [(c, s) for c, s in mine if s >= 0 and r.live(s)]
    if "replace" in allowed:
        whys = ("ineligible", "off_table") if r.variant.stud() else \
            ("ineligible", "off_table", "exposed")
        faults["replace"] = [("replace", C.code(c), why) for c, s in mine for why in whys] + \
            [("replace", C.code(c), "off_table") for c in r.board if c in r.just_dealt]
    if "exposed" in allowed and r.variant.stud() and r.betround < 0 and r.phase == DEALING:
        faults["exposed"] = [("exposed", C.code(c)) for c, s in mine
                             if r.hole[s].index(c) <= 1 and c not in r.up[s]]
    return dict((k, v) for k, v in faults.items() if v)


def illegal_faults(r, shoe, w):
    """Irregularities the rules must refuse now."""
    bad = [("void",), ("void", 3), ("void", None), ("dead", 0), ("dead", ["missing"]),
           ("misdeal", "shuffle"), ("misdeal", None), ("misdeal", 2), ("misdeal",),
           ("foul",), ("away", None), ("foul", "0"), ("away", 1.0), ("foul", -1),
           ("away", r.n), ("face_up", "Zz"), ("face_up", None),
           ("replace", "Zz", "off_table"), ("exposed", 7), ("void", "jam", "again", 1)]
    if len(w.voluntary) >= 2:
        bad += [("misdeal", why) for why in LATE]        # 20.38(f)2, 4: too late
    for s in range(r.n):
        if not r.dealt_in[s] or r.folded[s]:
            bad += [("foul", s), ("away", s)]            # no hand in the round
    seen = [c for c in range(C.DECK_SIZE) if r.seen[c]]
    for c in seen[:3]:
        bad.append(("face_up", C.code(c)))               # not in the deck any more
    if r.phase != DEALING and shoe.cards:
        bad.append(("face_up", C.code(shoe.cards[0])))   # found only while dealing
    # Cards that are no card just dealt to a player: the board, burns, the stub, a
    # hand's cards from an earlier deal.
    older = [c for s in range(r.n) for c in r.hole[s] if c not in r.just_dealt]
    board = [c for c in r.board if c not in r.just_dealt]
    for c in board[:1] + r.burns[:1] + shoe.cards[:1] + older[:2]:
        bad += [("replace", C.code(c), "off_table"), ("exposed", C.code(c))]
    for c in [c for c in r.board if c in r.just_dealt][:1]:
        # 20.38(m) covers a community card dealt off the table, nothing else does.
        bad += [("replace", C.code(c), "ineligible"), ("replace", C.code(c), "exposed"),
                ("exposed", C.code(c))]
    mine = [c for c in r.just_dealt if held_by(r, c) >= 0]
    for c in mine[:2]:
        code = C.code(c)
        bad += [("replace", code), ("replace", code, "bogus"), ("replace", code, None)]
        s = held_by(r, c)
        i = r.hole[s].index(c)
        if r.variant.stud():
            bad.append(("replace", code, "exposed"))     # stud follows 20.38(l)
            if r.betround >= 0 or i > 1 or c in r.up[s]:
                bad.append(("exposed", code))
        else:
            bad.append(("exposed", code))                # hold 'em follows 20.38(n)
    return bad


def apply_fault(r, w, shoe, event):
    """Apply a legal irregularity and check what it must do."""
    kind = event[0]
    assert r.why_not(event) is None, (event, r.why_not(event))
    totals = list(r.total)
    pot = r.pot()
    if kind == "face_up":
        card = C.parse(event[1])
        assert shoe.cards[0] == card
        shoe.cards.pop(0)
        due = r.expecting()
    if kind in ("replace", "exposed"):
        card = C.parse(event[1])
        seat = held_by(r, card)
        if seat >= 0:
            holding = len(r.hole[seat])
            was_up = card in r.up[seat]
        else:
            holding = len(r.board)      # 20.38(m): a community card off the table
    if kind in ("foul", "away"):
        seat = event[1]
        stack = r.stacks[seat]
        owes = r.structure.bring_in if r.bring_in_due and r.to_act == seat else 0
    out = r.apply(event)
    reshuffled = []
    for e in out:
        if e[0] == "reshuffle":
            reshuffled += e[1]
            shoe.reshuffle(e[1])
    w.effects(out)
    event_stat("fault: %s" % kind)
    if kind == "face_up":
        w.face_ups += 1
        if w.face_ups == 2:
            # 20.38(f)3: more than one card face up in the deck is a misdeal.
            kind = "misdeal"
            event = ("misdeal", "face_up")
            event_stat("two face-up cards: misdeal")
        else:
            # 20.38(i): not used, placed with the discards; the same card is still due.
            assert ("discarded", -1, [card]) in out
            assert card in r.muck or card in reshuffled
            assert r.expecting() == due
            assert not [s for s in range(r.n) if card in r.hole[s]] and card not in r.board
    if kind in CALL_OFFS:
        # Every wager goes back: each stack as before the round, no rake.
        assert r.finished() and r.called_off == kind
        assert r.stacks == w.before, (r.stacks, w.before)
        assert r.raked == 0
        assert [e for e in out if e[0] == "refund"] == \
            [("refund", s, t) for s, t in enumerate(totals) if t]
        section = SECTION[event[1] if kind == "misdeal" else kind]
        assert out[-2:] == [("called_off", kind, event[1], section), ("end",)]
        assert not [e for e in out if e[0] == "award"]
        event_stat("called off with a rake taken" if pot < sum(totals) else "called off")
    elif kind == "foul":
        # 20.38(j)3: a refund of all the player put in; never more than the pot holds.
        back = min(totals[seat], pot)
        assert [e for e in out if e[0] == "refund"] == ([("refund", seat, back)] if back else [])
        assert ("dead_hand", seat) in out and not r.live(seat)
        assert r.stacks[seat] == stack + back
        w.out[seat] = r.stacks[seat]
        if back < totals[seat]:
            event_stat("fouled hand refunded what the pot held after the rake")
    elif kind == "away":
        # 20.38(j)4: folded, the cards collected; what it put in stays in the pot.
        # 20.38(k)2: a bring-in due is still owed, and posted.
        assert not [e for e in out if e[0] == "refund"]
        assert ("dead_hand", seat) in out and not r.live(seat)
        owed = min(owes, stack)
        if owes:
            event_stat("away with the bring-in due")
            assert ("action", seat, "bring_in", owed, owed == stack) in out
        assert r.stacks[seat] == stack - owed and r.total[seat] == totals[seat] + owed
        w.out[seat] = r.stacks[seat]
    elif kind == "replace" and seat < 0:
        # 20.38(m): a board card off the table is not used; the next card replaces it.
        event_stat("board card off the table")
        assert ("discarded", -1, [card]) in out
        assert card in r.muck or card in reshuffled
        assert card not in r.board and card not in r.just_dealt
        assert len(r.board) == holding - 1 and r.expecting() == ("board", -1)
    elif kind == "replace":
        # 20.38(g), (m), (n): the card goes to the discards, the seat gets the next one.
        assert ("discarded", seat, [card]) in out
        assert card in r.muck or card in reshuffled
        assert card not in r.hole[seat] and card not in r.just_dealt
        assert len(r.hole[seat]) == holding - 1
        if card in w.exposed.get(seat, ()):
            # 20.38(l) then (g)/(m): the exposure leaves with the card.  Its replacement
            # comes down, unless the up card it brought down is already dealt (the seat's
            # last card of the first deal): then it shows in its place.
            w.exposed[seat].remove(card)
            if w.late_exposures.get(seat, 0):
                w.late_exposures[seat] -= 1
                was_up = False
            else:
                was_up = holding == r.variant.steps[0][1] + r.variant.steps[0][2]
            event_stat("stud: exposed card replaced, %s" % ("up" if was_up else "down"))
        elif r.betround < 0:
            w.replaced.add(seat)
        assert r.expecting() == ("up" if was_up else "hole", seat), r.expecting()
    elif kind == "exposed":
        # 20.38(l): the cards dealt down in the first deal that are now exposed.
        assert card in w.first_deal.get(seat, ()), "only a card dealt down is exposed"
        w.exposed.setdefault(seat, []).append(card)
        assert ("exposed", seat, card) in out
        if len(w.exposed[seat]) >= 2:
            # Both hole cards up: the hand is dead, the ante comes back.
            event_stat("stud: both hole cards exposed")
            assert ("dead_hand", seat) in out and not r.live(seat) and r.hole[seat] == []
            assert [e for e in out if e[0] == "refund"] == \
                ([("refund", seat, totals[seat])] if totals[seat] else [])
            assert r.stacks[seat] == w.before[seat]
            w.out[seat] = r.stacks[seat]
        else:
            # One: the hand lives, the card stays up; its next up card comes down.
            assert ("dead_hand", seat) not in out and r.live(seat), \
                "the hand died with one hole card exposed: %s, dealt down %s" % (
                    C.code(card), C.codes(w.first_deal[seat]))
            assert len(r.hole[seat]) == holding and card in r.up[seat]
            if seat in w.up_dealt:
                w.late_exposures[seat] = w.late_exposures.get(seat, 0) + 1
    return out


# ----- playing ------------------------------------------------------------------------------

def regular_event(data, r, shoe):
    if r.expecting() is not None:
        return ("card", C.code(shoe.cards.pop(0)))
    seat = r.to_act
    legal = r.legal_actions(seat)
    # Patient players: rounds reach the later deals, draws and discards more often.
    if len(legal) > 1 and data.draw(st.integers(0, 5), label="stay in"):
        legal = [a for a in legal if a != "fold"]
    a = data.draw(st.sampled_from(legal), label="action")
    if a == "discard":
        k = r.variant.steps[r.step][1]
        return ("discard", seat, C.codes(data.draw(st.permutations(r.hole[seat]))[:k]))
    if a == "draw":
        k = data.draw(st.integers(0, min(3, len(r.hole[seat]))), label="drawn")
        return ("draw", seat, C.codes(data.draw(st.permutations(r.hole[seat]))[:k]))
    if a in ("bet", "raise") and data.draw(st.booleans(), label="with an amount"):
        lo, hi = r.raise_bounds(seat)
        return (a, seat, data.draw(st.integers(lo, hi), label="to"))
    return (a, seat)


def regular_step(data, r, shoe, w):
    """A card from the stub or a random legal action, and the checks of every step."""
    event = regular_event(data, r, shoe)
    note("apply %r" % (event,))
    if event[0] in ("call", "bet", "raise"):
        w.voluntary.add(event[1])
    if event[0] in ("discard", "draw"):
        w.chosen.setdefault(r.step, set()).add(event[1])
    effects = r.apply(event)
    for e in effects:
        if e[0] == "reshuffle":
            shoe.reshuffle(e[1])
    w.effects(effects)
    w.check()
    assert sorted(shoe.cards) == [c for c in range(C.DECK_SIZE) if not r.seen[c]]


def play(data, r, allowed, fault_odds=5, refuse_odds=4):
    """Play `r` to its end with irregularities of the `allowed` kinds at random points;
    the Watch, checked after every event."""
    shoe = Shoe(data)
    w = Watch(r, list(r.stacks))
    out = r.start()
    w.effects(out)
    w.check()
    steps = 0
    while not r.finished():
        steps += 1
        assert steps < 2000, "the round does not end"
        if refuse_odds and data.draw(st.integers(0, refuse_odds), label="try refused") == 0:
            event = data.draw(st.sampled_from(illegal_faults(r, shoe, w)), label="refused")
            assert_refused_and_unchanged(r, event)
        if data.draw(st.integers(0, fault_odds), label="fault?") == 0:
            faults = legal_faults(r, shoe, w, allowed)
            # Call-offs end the round: rarer, so the other faults get their turn.
            kinds = sorted(k for k in faults if k not in CALL_OFFS)
            ends = sorted(k for k in faults if k in CALL_OFFS)
            if ends and (not kinds or data.draw(st.integers(0, 4), label="call off?") == 0):
                kinds = ends
            if kinds:
                kind = data.draw(st.sampled_from(kinds), label="fault")
                event = data.draw(st.sampled_from(faults[kind]), label="irregularity")
                note("fault %r" % (event,))
                apply_fault(r, w, shoe, event)
                w.check()
                assert sorted(shoe.cards) == [c for c in range(C.DECK_SIZE) if not r.seen[c]]
                continue
        # The misdeals of 20.38(f)2 and 4: allowed until two players have voluntarily
        # wagered (calls, bets and raises; blinds, antes, the bring-in and the
        # straddle are not counted).
        for why in LATE:
            late = r.why_not(("misdeal", why))
            assert (late is None) == (len(w.voluntary) < 2), (why, late, w.voluntary)
        regular_step(data, r, shoe, w)
    # After the end, every irregularity is refused.
    for event in [("void", "jam"), ("dead", "missing card"), ("misdeal", "no_shuffle"),
                  ("foul", 0), ("away", r.button)] + \
            [("replace", C.code(c), "off_table") for c in r.just_dealt[:1]]:
        assert_refused_and_unchanged(r, event)
    if not r.called_off:
        event_stat("played to the end")
    return w


# ----- properties -------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@GAMES
@SETTINGS
@given(data=st.data())
def test_random_irregularities_keep_every_chip_and_rule(variant, kind, data):
    """Every kind of irregularity, at random points of random rounds of every game and
    structure: chips conserved at every step and at the end; call-offs return every
    stack; fouled and absent players, replaced, exposed and face-up cards as the rules
    say (module docstring); refused irregularities change nothing."""
    r = data.draw(tables(variant, kind), label="table")
    play(data, r, ALL_FAULTS)


@GAMES
@PER_GAME
@given(data=st.data())
def test_void_dead_round_and_misdeal_return_every_wager(variant, data):
    """19:47-27.12(f), 13:47-20.38(h), (f): the round ends and every player's own
    contributions go back, whatever was bet and raked before; two face-up cards in the
    deck are a misdeal ((f)3)."""
    r = data.draw(tables(variant, data.draw(st.sampled_from(KINDS))), label="table")
    w = play(data, r, CALL_OFFS + ("face_up",), fault_odds=12)
    if r.called_off:
        assert r.stacks == w.before and r.raked == 0


@GAMES
@PER_GAME
@given(data=st.data())
def test_replaced_exposed_and_face_up_cards(variant, data):
    """20.38(g), (m), (n): a card that may not be used goes to the discards and the seat
    gets the next; (l) stud's exposed hole cards; (i) a face-up card in the deck is not
    used.  Every player keeps a full hand."""
    r = data.draw(tables(variant, data.draw(st.sampled_from(KINDS))), label="table")
    play(data, r, ("replace", "exposed", "face_up"), fault_odds=2)


@GAMES
@PER_GAME
@given(data=st.data())
def test_fouled_and_absent_players(variant, data):
    """20.38(j)3: a fouled or collected protected hand gets back what it put in (what
    the pot holds, after a rake); (j)4: a player away is folded and keeps nothing in the
    hand.  The round carries on with the others: every one of them is asked to act,
    discard and draw in turn."""
    r = data.draw(tables(variant, data.draw(st.sampled_from(KINDS)), heavy=True), label="table")
    play(data, r, ("foul", "away"), fault_odds=8)


@GAMES
@PER_GAME
@given(data=st.data())
def test_two_face_up_cards_in_one_round_are_a_misdeal(variant, data):
    """20.38(i) then (f)3: the first face-up card is discarded and the deal goes on, the
    second ends the round as a misdeal with every wager returned."""
    r = data.draw(tables(variant, data.draw(st.sampled_from(KINDS))), label="table")
    shoe = Shoe(data)
    w = Watch(r, list(r.stacks))
    w.effects(r.start())
    found = 0
    while not r.finished():
        if r.expecting() is not None and data.draw(st.integers(0, 3), label="face up?") == 0:
            apply_fault(r, w, shoe, ("face_up", C.code(shoe.cards[0])))
            found += 1
            assert r.finished() == (found == 2)
            if found == 2:
                assert r.called_off == "misdeal" and r.stacks == w.before
            w.check()
        else:
            regular_step(data, r, shoe, w)
    event_stat("face-up cards found: %d" % found)


def test_malformed_irregularities_are_refused_and_change_nothing():
    """Round.why_not: a seat is a whole number, never True or False (as for actions);
    an irregularity takes exactly its arguments.  Hold 'em, three seats of 50, the
    hole cards dealt, seat 0 to act."""
    r = Round([50, 50, 50], 0, Structure("fixed", 2, 4, (1, 2)), VARIANTS[0])
    r.start()
    for card in range(6):
        r.apply(("card", C.code(card)))
    assert r.to_act == 0
    for event in [("foul", True), ("away", False), ("foul", 1, 2), ("away", 0, "now"),
                  ("void", "shoe jam", 1), ("dead", "missing card", "4s"),
                  ("misdeal", "no_shuffle", 2), ("replace", "2c", "off_table", 1),
                  ("exposed", "2c", 0)]:
        assert_refused_and_unchanged(r, event)
