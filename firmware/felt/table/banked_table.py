"""A house-banked table at the controller (felt.table.controller): Four Card Poker
(19:47-27.10 to 27.12) and Texas Hold 'em Bonus Poker (19:47-28), their rounds played
by the pure cores of felt.banked.  One of the two table kinds,
each a module of the same operations (felt.table.poker_table is the other), loaded only
when a table is configured for one of these games (felt.lazy), so a poker table's heap
never holds it.  Each operation takes the controller, whose public methods it calls.

Wagers.  Each seat has standing wagers, (ante, side), kept between rounds and across a
power cut: the configured ante and no side wager (the aces up wager, or the bonus
wager) until it says otherwise.  Between rounds a seat's buttons set them: `fold` sits
the seat out, `call` plays the ante alone, `raise` the ante and the side wager of one
ante; the `wager` message sets any amounts within the posted limits (19:47-8.2),
`{"seat", "ante", "side"}`, an ante of 0 sitting the seat out (Four Card Poker takes an
aces up wager alone, 19:47-27.10(a) of the game; hold 'em bonus's bonus goes with an
ante, 19:47-28.1).  At the deal, a seat without the chips for its wagers sits out.

Decisions, with the seat buttons, in any order among the seats deciding:
  Four Card Poker (19:47-27.10(c)): `fold`; `call` plays one times the ante; `raise`
  three times, or `raise` with `to` the play wager in chips (one to three antes).
  Hold 'em Bonus (19:47-28.1): before the flop `fold`, or `call`/`raise` for the flop
  wager (twice the ante); before the turn and the river `call` checks and `raise` bets
  the turn or river wager (one ante).
"""

from felt import lazy
from felt.poker import cards as C
from felt.banked import settings
from felt.table import scenes
from felt.table.shown import dealt, see
from felt.table.states import BEFORE_DEAL, IDLE, PLAYING

IRREGULAR_RULES = "felt.banked.irregular"
PANEL = ("miscount", "dealer_exposed")   # the dealer's reports: 19:47-27.12(c), (d)
# The sections of the procedures a poker table and a banked one share.
HAND_SHUFFLE_RULE = "19:47-27.12(g)"   # the shuffler removed before a hand shuffle
SHUFFLER_JAM_RULE = "19:47-27.12(e)"   # a jammed shuffler: shuffle by hand
TIMES = 3          # the most a Four Card Poker play wager is, in antes (27.10(c))
TWO_DECKS = "19:47-28.2(b)"
# What a banked table keeps across a power cut besides a poker table's (Controller.lasting).
LASTING = ("house", "wagers")
BANKED_RECORD = "felt.table.banked_record"   # a round's record, for its writing (felt.lazy)


def round_of(header):
    """The round a journal header begins, not started (felt.table.recovery)."""
    return settings.from_header(header)


def history(ctl, r):
    """The round's record (felt.table.banked_record, loaded for it) written to
    <history folder>/hand-<n>.banked: its path, or None without a history folder."""
    j = ctl.journal
    path = j.history_path("banked")
    if path is not None:
        try:
            with open(path, "w") as f:
                lazy.load(BANKED_RECORD).write(f, j.header, j.events, j.stamp["fw"])
        finally:
            lazy.forget(BANKED_RECORD)
    return path


def configured(ctl):
    """A new banked table, or one resumed: every seat's standing wagers."""
    n = len(ctl.stacks)
    w = ctl.wagers
    if not isinstance(w, list) or len(w) != n:
        ctl.stand_wagers([[ctl.config.ante, 0] for _ in range(n)])


def forget():
    """The table is a poker table again: the banked cores go (felt.lazy)."""
    for name in settings.CORES + (IRREGULAR_RULES, "felt.banked.banked_round", "felt.banked.hands4",
                         "felt.banked.paytables", "felt.banked.settings",
                         "felt.table.banked_config"):
        lazy.forget(name)


# ----- wagers ---------------------------------------------------------------------------

def wager(ctl, p):
    """`wager`: a seat's standing wagers, between rounds."""
    if ctl.state not in BEFORE_DEAL:
        return "wagers are placed before the deal"
    seat = p["seat"]
    if seat >= len(ctl.stacks):
        return "no seat %d at this table" % seat
    old = ctl.wagers[seat]
    return _set(ctl, seat, p.get("ante", old[0]), p.get("side", old[1]))


def _set(ctl, seat, ante, side):
    cfg = ctl.config
    for name, v in (("ante", ante), (_side(cfg), side)):
        if v and not cfg.within(v):
            return "the %s must be 0 or %s (19:47-8.2)" % (name, cfg.limits())
    if side and not ante and cfg.game == "holdem-bonus":
        return "the bonus wager goes with an ante (19:47-28.1)"
    if ante + side > ctl.stacks[seat]:
        return "seat %d has %d chips, not %d" % (seat, ctl.stacks[seat], ante + side)
    if ctl.wagers[seat] != [ante, side]:
        ctl.wagers[seat] = [ante, side]
        ctl.evt({"e": "wagers", "seat": seat, "ante": ante, "side": side})
    return None


def _side(cfg):
    return "aces up wager" if cfg.game == "four-card-poker" else "bonus wager"


def round_wagers(ctl):
    """The wagers of the round about to be dealt: a seat short of chips sits out."""
    out = []
    for s in range(len(ctl.stacks)):
        ante, side = ctl.wagers[s]
        out.append((ante, side) if 0 < ante + side <= ctl.stacks[s] else (0, 0))
    return out


def deal(ctl):
    """The dealer pressed deal at a banked table: the shuffle, then the cut, first."""
    if not [w for w in round_wagers(ctl) if w[0] + w[1]]:
        return "nobody has wagered"
    ctl.start_shuffle()
    return None


def start_round(ctl):
    """After the cut: the round's header to the journal, then the round begins."""
    wagers = round_wagers(ctl)
    r = settings.new_round(ctl.config.core, ctl.stacks, wagers, ctl.config.settings)
    ctl.begin_round(r, -1, wagers)
    ctl.evt({"e": "hand", "hand": ctl.hand, "button": -1, "stacks": list(ctl.stacks),
              "wagers": [list(w) for w in wagers]})
    effects(ctl, r.start())


# ----- the round's inputs ---------------------------------------------------------------

def button(ctl, p):
    """A seat button: the standing wagers between rounds, a decision in the round."""
    seat, b, to = p["seat"], p["b"], p.get("to")
    if seat >= len(ctl.stacks):
        return "no seat %d at this table" % seat
    if ctl.state != PLAYING:
        if to is not None:
            return "a button sets the wagers by the ante: send wager for other amounts"
        ante = ctl.wagers[seat][0] or ctl.config.ante
        return _set(ctl, seat, 0 if b == "fold" else ante, ante if b == "raise" else 0)
    r = ctl.round
    if r.deciding is None:
        return "no decisions now: the round is dealing"
    event = _decision(r, seat, b, to)
    if isinstance(event, str):
        return event
    return _event(ctl, event)


def _decision(r, seat, b, to):
    """The round's event for a button press, or why not."""
    ante = r.ante(seat)
    if r.GAME == "four_card":
        if b == "fold":
            return ("fold", seat)
        if b == "call" or to is None:
            return ("play", seat, 1 if b == "call" else TIMES)
        if not ante or to % ante or not 1 <= to // ante <= TIMES:
            return "the play wager is one to three times the ante of %d (19:47-27.10(c))" % ante
        return ("play", seat, to // ante)
    if r.deciding == "flop":
        if b == "fold":
            return ("fold", seat)
        if to is not None and to != 2 * ante:
            return "the flop wager is twice the ante: %d (19:47-28.1)" % (2 * ante)
        return ("play", seat)
    if b == "fold":
        return "after the flop wager a player checks or bets the %s wager" % r.deciding
    if b == "call":
        return ("check", seat)
    if to is not None and to != ante:
        return "the %s wager is the ante: %d (19:47-28.1)" % (r.deciding, ante)
    return ("bet", seat)


def chip(ctl, p):
    """Chips are counted into a poker round's betting, not a banked round's circles."""
    return "no betting now: the table is %s" % ctl.state


def discard(ctl, p):
    return "no discards now: the table is %s" % ctl.state


def card(ctl, p):
    """A card read from the shoe: one face up is 27.12(a)'s; one of the deck not in
    play is refused (the two decks' backs differ, 19:47-28.2(b))."""
    code = p["code"]
    deck = p.get("deck")
    if deck is not None and deck != ctl.decks.name():
        return "a card of deck %s: deck %s is in play (%s)" % (deck, ctl.decks.name(), TWO_DECKS)
    event = ("face_up" if p.get("face_up") else "card", code)
    if ctl.round.why_not(event) is None:
        ctl.card_read(code)
    return _event(ctl, event)


def panel(ctl, b, p):
    """The dealer's panel: a miscount (`seat`, or none for the dealer's hand) or the
    dealer's card exposed (`card`, or the last card read), 19:47-27.12(c), (d)."""
    if b not in PANEL:
        return "%s is a poker table's report: at a %s table report miscount or " \
            "dealer_exposed (19:47-27.12)" % (b, ctl.config.game)
    if ctl.state != PLAYING:
        return "no round under way for %s" % b
    if b == "miscount":
        event = ("miscount", p.get("seat", -1))
    else:
        code = p.get("card", ctl.last_card)
        if code is None:
            return "no card read yet to report"
        event = ("dealer_exposed", code)
    return _event(ctl, event)


def _event(ctl, event):
    """Apply the round's event if its rules allow it (journaled first), or say why not."""
    reason = ctl.round.why_not(event)
    if reason is None:
        ctl.apply(event)
    return reason


# ----- the round's effects, as link events ----------------------------------------------

def effects(ctl, out):
    """The round's effects (felt.banked.banked_round) as `evt` frames and card requests:
    those every kind of round has, the controller's (Controller.effect)."""
    r = ctl.round
    see(ctl.shown, r, out, True)       # before an irregularity's detail names one
    for e in out:
        k = e[0]
        if ctl.effect(e):
            pass
        elif k == "wager":
            ctl.evt({"e": "wager", "seat": e[1], "kind": e[2], "amount": e[3]})
        elif k == "dealt":
            ctl.evt(dealt(e, ctl.own_devices))
        elif k == "held":       # kept for the next round: face down, as dealt
            d = {"e": "held", "section": e[2]}
            if not ctl.own_devices:
                d["card"] = C.code(e[1])
            ctl.evt(d)
        elif k == "unused":
            ctl.noticed("face_up")
            ctl.evt({"e": "discarded", "seat": -1, "cards": C.code(e[1]), "section": e[2]})
            if r.expecting() is not None:      # the card due is asked for again
                ctl.hal.card_reader.want(*r.expecting())
        elif k == "decide":
            _decide(ctl, e[1], e[2])
        elif k in ("fold", "check", "muck"):
            ctl.evt({"e": k, "seat": e[1]})
        elif k == "show":
            ctl.evt({"e": "show", "seat": e[1], "cards": C.codes(e[3]),
                      "hand": r.describe(e[2]), "value": e[2]})
        elif k in ("collect", "return", "pay"):
            if k == "return" and r.called_off is not None:
                k = "refund"      # every wager back: the round is void
            ctl.evt({"e": k, "seat": e[1], "kind": e[2], "amount": e[3], "section": e[4]})


def ask(ctl):
    """After a power cut, the seats deciding asked again (felt.table.recovery)."""
    r = ctl.round
    if r.deciding is not None:
        _decide(ctl, r.deciding, [s for s in range(r.n) if r.undecided[s]])


def _decide(ctl, name, seats):
    """The seats now deciding, and what each may do."""
    r = ctl.round
    ctl.evt({"e": "decide", "name": name, "seats": list(seats),
              "legal": [r.legal_actions(s) for s in seats]})


def end_round(ctl):
    """The round is over: the stacks, the house's result, the decks (19:47-28.2(b): a
    second deck only with the shuffler)."""
    r = ctl.round
    lazy.forget(IRREGULAR_RULES)   # loaded if the round had an irregularity
    ctl.round_ended(r.stacks, 0, r.house())
    res = r.result()
    ctl.evt({"e": "end", "hand": ctl.hand, "button": -1, "stacks": list(ctl.stacks),
              "winners": [s for s in range(r.n) if res[s][1] > res[s][0]],
              "board": C.codes(r.board), "rake": 0, "called_off": r.called_off,
              "deck": ctl.decks.name(), "house": ctl.house, "house_round": r.house(),
              "results": [list(x) for x in res]})
    if r.called_off is None and ctl.shuffler_present:
        ctl.decks.alternate()
    ctl.write_history(r)     # the round's record (history)


# ----- what the table shows -------------------------------------------------------------

def seat_statuses(ctl, out):
    r = ctl.round
    for s in range(min(len(out), len(ctl.stacks))):
        if r is None or not r.in_round[s]:
            out[s] = scenes.WAITING if ctl.stacks[s] > 0 else scenes.EMPTY
        elif ctl.state == IDLE:
            won = r.paid[s] > r.taken[s]
            out[s] = scenes.WINNER if won else \
                scenes.WAITING if ctl.stacks[s] > 0 else scenes.EMPTY
        elif r.folded[s]:
            out[s] = scenes.FOLDED
        elif r.undecided[s]:
            out[s] = scenes.ACTION
        else:
            out[s] = scenes.WAITING
    return out


def shown_button(ctl):
    return ctl.button      # none: the house deals every round


def snapshot(ctl, d):
    """The state answer's banked fields: the house's result this session (the players'
    chips plus it make what the table began with), the standing wagers, the chips in
    the circles and the seats deciding."""
    r = ctl.round
    live = r is not None and ctl.state == PLAYING
    d["house"] = ctl.house
    d["wagers"] = [list(w) for w in ctl.wagers]
    d["pot"] = sum([sum(c.values()) for c in r.circle]) if live else 0
    d["deciding"] = [s for s in range(r.n) if r.undecided[s]] if live else []
    d["dealer"] = C.codes(r.dealer) if r is not None and r.finished() else ""
    return d
