"""A poker table at the controller (felt.table.controller): its rounds played by the
rules core (felt.poker.round), the button, the seats' betting buttons, the dealer's
panel reports of a round's irregularities, and the round's effects as link events.

One of the two table kinds, each a module of the same operations, chosen when the
table is configured and loaded for it (felt.lazy); felt.table.banked_table is the
other.  Each operation takes the controller, whose public methods it calls.
"""

from felt import lazy
from felt.poker import cards as C
from felt.table.states import IDLE, PLAYING

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Few names in the module's globals: consts of its own, helpers written out where used
# once, imports for one use inside the function (a round's phases through its module,
# _ROUND).  On MicroPython the globals dict (in the heap while a poker table is
# configured) then holds 28 names: 232 bytes, not 376.
_ROUND = const("felt.poker.round")
_PLACE = const("felt.table.placing")     # the high card that places the button (felt.lazy)
_REPORTS = const("felt.table.reports")   # the dealer's reports, the decks retired (felt.lazy)
IRREGULAR_RULES = "felt.poker.irregular"   # felt.poker.round's, when one happens
_RUNOUTS = const("felt.poker.runouts")   # felt.poker.round's, at a table offering them
_LOWS = const("felt.poker.low")          # felt.poker.hands', at a showdown with a low
_REFUSALS = const("felt.poker.refusals")   # felt.poker.round's, asked at buttons and cards
# The sections of the procedures a poker table and a banked one share.
HAND_SHUFFLE_RULE = "13:47-20.38(p)"   # the shuffler removed before a hand shuffle
SHUFFLER_JAM_RULE = "13:47-20.38(o)"   # a jammed shuffler: shuffle by hand

# Dealer-panel buttons that report an irregularity of the round, with the event each
# makes (felt.poker.irregular); "card" and "seat" name what they concern.
_PANEL = const(("misdeal", "exposed", "off_table", "ineligible", "dead_round",
                "player_away", "foul"))

# Seat buttons: fold; check or call; bet or raise.  The forced and optional bets use
# them too: call posts the bring-in, raise completes it or makes the straddle, fold
# declines the straddle.  Asked to run the board more than once (13:69F-14.10(l)), raise
# agrees and fold or call declines (docs/rules.md).
# _ACTIONS[k] are _BUTTONS[k]'s actions (tuples: a dict would be in the heap).
_BUTTONS = const(("fold", "call", "raise"))
_ACTIONS = const((("fold", "decline", "run_once"),
                  ("check", "call", "bring_in", "run_once"),
                  ("bet", "raise", "straddle", "run_it")))
LASTING = ()   # a poker table keeps nothing of its own across a power cut (Controller.lasting)


def configured(ctl):
    """A new poker table, or one resumed: its rounds' rules loaded (the runouts' by a
    round that offers them, the low hands' by a showdown with a low: neither kept from
    a configuration before)."""
    lazy.load(_ROUND)
    lazy.forget(_RUNOUTS)
    lazy.forget(_LOWS)


def round_of(header):
    """The round a journal header begins, not started (felt.table.recovery)."""
    return lazy.load(_ROUND).from_header(header)


def history(ctl, r):
    """The round's hand history (felt.table.phh) written to <history folder>/hand-<n>.phh
    a line at a time (no block of the heap for the whole): its path, or None without a
    history folder."""
    j = ctl.journal
    path = j.history_path("phh")
    if path is not None:
        from felt.table.phh import lines
        text = lines(j.header, j.events, r)
        with open(path, "w") as f:
            for line in text:
                f.write(line)
                f.write("\n")
    return path


def forget():
    """The table is a house-banked table now: a poker table's modules go (felt.lazy)."""
    for name in (_ROUND, "felt.poker.showdown", "felt.poker.hands", _LOWS,
                 "felt.poker.rake", "felt.poker.variants", IRREGULAR_RULES, _RUNOUTS,
                 _REFUSALS):
        lazy.forget(name)


# ----- between rounds -------------------------------------------------------------------

def deal(ctl):
    """The dealer pressed deal: the button placed or moved on, then the shuffle."""
    seated = ctl.seated()
    if sum(seated) < 2:
        return "fewer than two players with chips"
    if ctl.config.variant.stud():
        ctl.start_shuffle()   # stud has no button: dealing starts left of the dealer
        return None
    if ctl.button < 0 or not seated[ctl.button]:
        from felt.poker.button import dealer_right, next_seat
        if ctl.button < 0 and ctl.config.button_start == "high_card":
            ctl.place_by_high_card()
            return None
        ctl.place_button(dealer_right(seated) if ctl.button < 0 else
                         next_seat(ctl.button, seated), "dealer_right")
    ctl.start_shuffle()
    return None


def wager(ctl, p):
    """Standing wagers are a house-banked table's (felt.table.banked_table)."""
    return "no house-banked table"


def start_round(ctl):
    """After the cut: the table saved, the round's header journaled, the deal."""
    cfg = ctl.config
    button = ctl.button if ctl.button >= 0 else len(ctl.stacks) - 1
    r = lazy.load(_ROUND).Round(ctl.stacks, button, cfg.structure, cfg.variant, cfg.rake)
    # The table as the round begins, then its header: a cut between them resumes
    # the table as it was, the hand not yet counted.
    ctl.begin_round(r, button)
    ctl.evt({"e": "hand", "hand": ctl.hand, "button": ctl.button,
             "stacks": list(ctl.stacks)})
    effects(ctl, r.start())


# ----- the round's inputs ---------------------------------------------------------------

def card(ctl, p):
    """A card read from the shoe: face up (13:47-20.38(i)), of the other deck or seen
    already (an extra card, (h)), or the one due."""
    code = p["code"]
    r = ctl.round
    deck = p.get("deck")
    if p.get("face_up"):
        event = ("face_up", code)          # 13:47-20.38(i)
    elif deck is not None and deck != ctl.decks.name() and r.expecting():
        # A card of another deck: an extra card (13:47-20.38(h)).
        event = ("dead", "foreign card %s from deck %s" % (code, deck))
    else:
        event = ("card", code)
        reason = r.why_not(event)
        if reason is not None and "already seen" in reason:
            event = ("dead", "duplicate card %s" % code)   # an extra card, (h)
        elif reason is not None:
            return reason
    reason = r.why_not(event)
    if reason is None:
        ctl.card_read(code)
        ctl.apply(event)
    return reason


def button(ctl, p):
    """A seat's betting button: the first of its actions the round allows."""
    seat, b = p["seat"], p["b"]
    r = ctl.round
    R = lazy.load(_ROUND)      # its phases (felt.poker.phases), no name of this module's
    if ctl.state != PLAYING or r.phase not in (R.BETTING, R.CHOOSING):
        return "no betting now: the table is %s" % ctl.state
    if seat != r.to_act:
        return "out of turn: seat %s pressed %s, the action is on seat %d" % (
            seat, b, r.to_act)
    to = p.get("to")
    actions = _ACTIONS[_BUTTONS.index(b)]
    for action in actions:
        event = (action, seat, to) if to is not None and action in ("bet", "raise") \
            else (action, seat)
        if r.why_not(event) is None:
            ctl.apply(event)
            return None
    # Refused: the action the press meant, refused as that.  The first of its button's
    # the round allows now, whatever the amount (a bet of too much is refused as a bet,
    # not as a raise with no bet to raise); else the one the betting calls for (a raise
    # once a bet is made, a call once one is owed).
    legal = r.legal_actions(seat)
    for meant in actions:
        if meant in legal:
            break
    else:
        if b == "fold":
            meant = "fold"
        elif b == "call":
            meant = "call" if r.to_call(seat) > 0 else "check"
        else:
            meant = "raise" if r.level > 0 else "bet"
    return r.why_not((meant, seat) if to is None or meant not in ("bet", "raise")
                     else (meant, seat, to))


def chip(ctl, p):
    """A single chip put in by the player on turn (a chip-sensing table)."""
    seat, amount = p["seat"], p["amount"]
    r = ctl.round
    if r.phase != lazy.load(_ROUND).BETTING:   # the controller asks only while playing
        return "no betting now: the table is %s" % ctl.state
    if seat != r.to_act:
        return "out of turn: the action is on seat %d" % r.to_act
    event = r.chip_event(seat, amount, p.get("announced", False))
    reason = r.why_not(event)
    if reason is None:
        ctl.apply(event)
    return reason


def discard(ctl, p):
    """The cards a player throws away: Pineapple's discard or a draw."""
    seat, codes = p["seat"], p["cards"]     # the controller asks only while playing
    kind = "draw" if "draw" in ctl.round.legal_actions(seat) else "discard"
    reason = ctl.round.why_not((kind, seat, codes))
    if reason is None:
        ctl.apply((kind, seat, codes))
    return reason


def panel(ctl, b, p):
    """The dealer's report of an irregularity of the round (felt.table.reports)."""
    if b not in _PANEL:
        return "%s is a house-banked table's report: at a poker table report %s" % (
            b, ", ".join(_PANEL))
    return ctl.cold(_REPORTS, "panel", (b, p))


# ----- the round's effects, as link events ----------------------------------------------

def effects(ctl, out):
    """The round's effects (felt.poker.round) as `evt` frames and card requests: those
    every kind of round has, the controller's (Controller.effect)."""
    from felt.table.shown import see
    evt = ctl.evt
    see(ctl.shown, ctl.round, out)     # before an irregularity's detail names one
    for e in out:
        k = e[0]
        if ctl.effect(e):
            pass
        elif k == "to_act":
            r = ctl.round
            d = {"e": "to_act", "seat": e[1], "legal": r.legal_actions(e[1])}
            if r.phase == lazy.load(_ROUND).BETTING and ctl.config.structure.kind != "fixed":
                d["min"], d["max"] = r.raise_bounds(e[1])
            evt(d)
        elif k == "irregularity":
            ctl.noticed(e[1])
            ctl.irregularity(e[1], e[2], e[3])
        else:
            evt(event_of(ctl.round, e, ctl.own_devices))


def event_of(r, e, own_devices=False):
    """The `evt` frame of one of round r's effects that is only said (docs/protocol.md):
    no request, no change at the table.  A board with its own devices never says a
    face down card's face (dealt, reshuffle, a seat's discards); host_tools.recall says
    every card."""
    k = e[0]
    if k == "dealt":
        from felt.table.shown import dealt
        return dealt(e, own_devices)
    if k == "action":
        return {"e": k, "seat": e[1], "a": e[2], "amount": e[3], "all_in": e[4]}
    if k == "post":
        return {"e": k, "seat": e[1], "kind": e[2], "amount": e[3], "all_in": e[4]}
    if k == "reshuffle":
        return {"e": k, "count": len(e[1])} if own_devices else {"e": k, "cards": C.codes(e[1])}
    if k == "discarded":
        if own_devices and e[1] >= 0:     # thrown away face down: how many, not which
            return {"e": k, "seat": e[1], "count": len(e[2])}
        return {"e": k, "seat": e[1], "cards": C.codes(e[2])}
    if k == "rake":
        return {"e": k, "amount": e[1]}    # counted when the round ends
    if k == "street":
        return {"e": k, "name": e[1]}
    if k == "runout":
        return {"e": k, "n": e[1], "of": e[2], "board": C.codes(e[3])}
    if k == "return" or k == "refund":
        return {"e": k, "seat": e[1], "amount": e[2]}
    if k == "show":
        s = e[1]
        hands = lazy.load("felt.poker.hands")
        high, low = hands.kinds(r.variant)
        d = {"e": k, "seat": s, "high": e[2], "low": e[3], "cards": C.codes(r.hole[s])}
        if e[2] >= 0:
            d["hand"] = hands.describe(e[2], high)
        if e[3] >= 0:
            d["low_hand"] = hands.describe(e[3], low)
        return d
    if k == "award":
        return {"e": k, "pot": e[1], "seat": e[2], "amount": e[3], "share": e[4]}
    if k == "dead_hand":
        return {"e": k, "seat": e[1]}
    if k == "exposed":
        return {"e": k, "seat": e[1], "card": C.code(e[2])}
    raise ValueError(k)     # an effect with no frame: a bug, the table faults


def ask(ctl):
    """After a power cut, the seat whose action it is, asked again (felt.table.recovery)."""
    if ctl.round.to_act >= 0:
        effects(ctl, (("to_act", ctl.round.to_act),))


def end_round(ctl):
    """The round is over: the stacks, the rake, the decks, the button (13:47-20.36(c)3)."""
    r = ctl.round
    lazy.forget(IRREGULAR_RULES)   # loaded if the round had an irregularity
    lazy.forget(_REFUSALS)         # loaded by the round's buttons and cards
    ctl.round_ended(r.stacks, r.raked)   # a void, dead round or misdeal: no rake
    ctl.evt({"e": "end", "hand": ctl.hand, "button": ctl.button,
             "stacks": list(ctl.stacks), "winners": list(r.winners),
             "board": C.codes(r.board), "rake": r.raked,
             "called_off": r.called_off, "deck": ctl.decks.name()})
    if r.called_off == "dead":
        ctl.cold(_REPORTS, "retire_deck", "the round was called dead")
    elif r.called_off is None:
        ctl.decks.alternate()
    ctl.write_history(r)
    # After a misdeal, void or dead round the cards go back for a reshuffle and the
    # round is dealt again: the button stays (13:47-20.38(f) for a misdeal).
    if r.called_off is None and ctl.button >= 0:
        # 13:47-20.36(c)3: the button moves clockwise after each round.
        from felt.poker.button import rotate
        nxt = rotate(ctl.button, ctl.seated())
        if nxt >= 0:
            ctl.place_button(nxt)
    ctl.time_charges()


# ----- what the table shows -------------------------------------------------------------

def seat_statuses(ctl, out):
    from felt.table import scenes
    r = ctl.round
    state = ctl.state
    for s in range(min(len(out), len(ctl.stacks))):
        if r is None or not r.dealt_in[s]:
            out[s] = scenes.WAITING if ctl.stacks[s] > 0 else scenes.EMPTY
        elif state == IDLE and s in r.winners:
            out[s] = scenes.WINNER
        elif r.folded[s]:
            out[s] = scenes.FOLDED
        elif s == r.to_act:
            out[s] = scenes.ACTION
        elif r.stacks[s] == 0 and state == PLAYING:
            out[s] = scenes.ALL_IN
        else:
            out[s] = scenes.WAITING if ctl.stacks[s] > 0 or state == PLAYING \
                else scenes.EMPTY
    return out


def shown_button(ctl):
    """Between rounds the last round's button stays lit with its winners; stud has none
    (its dealing starts left of the dealer), so none is lit after a stud round either."""
    if ctl.state == IDLE and ctl.round is not None:
        return -1 if ctl.round.variant.stud() else ctl.round.button
    return ctl.button


def snapshot(ctl, d):
    """The state answer's fields of the round under way: the stacks as they stand,
    whose action it is, the pot and the rake so far."""
    r = ctl.round
    if r is not None and ctl.state == PLAYING:
        d["stacks"], d["to_act"], d["pot"] = list(r.stacks), r.to_act, r.pot()
        d["rake"] += r.raked
    return d
