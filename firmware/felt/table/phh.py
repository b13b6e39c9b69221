"""Poker Hand History (PHH): one TOML document for each round the table plays.

PHH is the format PokerKit reads and writes (docs/phh.md says which fields Felt writes
and what its own `_` fields and variant codes mean).  The document is built from the
journal: the round's header and its accepted events are replayed through the rules core,
so every card is known for what it was (hole, up, burn, board, a dead position's card)
and every wager for its amount.  The TOML is written by hand: MicroPython has no TOML
library, and the document needs only strings, integers, booleans, arrays and inline
tables.

PHH players are the seats dealt in, in PHH's order: the first to the left of the
button, the button last (stud: from the dealer's left).  `_seats` maps them back.
"""

from felt import FIRMWARE
from felt.poker import cards as C
from felt.poker.phases import BETTING
from felt.poker.round import ACTIONS, IRREGULAR, from_header

# Variant codes: the structure's letter, then the game's part.  FT, NT, PO, FO/8, F7S,
# F7S/8 and F2L3D are PHH's own (the PHH specification and PokerKit 0.7.7); every
# other combination is Felt's own code (docs/phh.md), which PHH readers refuse.
STRUCTURE_LETTERS = {"fixed": "F", "spread": "S", "pot": "P", "no": "N"}
GAME_CODES = {
    "holdem": "T", "pineapple": "TPI", "crazy-pineapple": "TCPI", "omaha": "O",
    "omaha-hilo8": "O/8", "stud7": "7S", "stud7-hilo": "7S/H", "stud7-hilo8": "7S/8",
    "stud5": "5S", "draw5": "5D", "draw5-low": "AL1D", "triple-draw-a5": "AL3D",
    "triple-draw-27": "2L3D", "mambo-stud": "MS/6",
}
PHH_CODES = ("FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")


def variant_code(game, kind):
    """The PHH variant code for a game in a betting structure."""
    return STRUCTURE_LETTERS[kind] + GAME_CODES[game]


def standard(code):
    """True for a code the PHH specification defines (PokerKit can load it)."""
    return code in PHH_CODES


class Checks:
    """The check PHH asks for and Felt does not.  Felt asks nobody whom nobody could
    call (felt.poker.round, set_to_act).  PokerKit (and so PHH) leaves such a player
    out of a betting round only if so when the round begins: one whom the others' folds
    leave so is still asked, and their only choice is to check.  The history writes that
    check and a replay takes it.  Call `seen(r)` after every event and `asked(r)` after
    an action: the seat whose check PHH asks for now, or -1."""

    def __init__(self):
        self.betround = -2
        self.live = []

    def seen(self, r):
        if r.betround != self.betround:
            self.betround = r.betround
            self.live = [r.live(s) for s in range(r.n)]

    def asked(self, r):
        if r.alive < 2 or r.phase == BETTING:
            return -1
        # The betting is over with a player still in who has chips and has not acted:
        # Felt left them out (their bet was the level, before any uncalled part went
        # back).  PHH asks them unless nobody in at the round's start could call more.
        # (Chips behind: what a seat has not put in, the round's awards left out.)
        behind = [r.start_stacks[s] - r.total[s] for s in range(r.n)]
        for seat in range(r.n):
            if r.live(seat) and r.acted_at[seat] < 0 and behind[seat] > 0:
                for s in range(r.n):
                    if s != seat and self.live[s] and r.street_bet[s] + behind[s] > r.level:
                        return seat
        return -1


def settled(r):
    """No player decision is left before the showdown: where PHH shows the hands down
    (PokerKit shows them as soon as betting is over, before the remaining cards)."""
    if r.finished() or not r.dealing() or r.betround < 0:
        return False
    live = [s for s in range(r.n) if r.live(s)]
    if len(live) < 2 or len([s for s in live if r.stacks[s] > 0]) > 1:
        return False
    for st in r.variant.steps[r.step:]:
        if st[0] in ("draw", "discard"):
            return False
    return True


def forced_bets(r, straddled=False):
    """The blinds and the straddle each PHH player owes, as posted on the sign (the
    amounts, not what a short stack could pay), in PHH's order.  As in the round, the
    first blinds are dropped when fewer players than blinds are dealt in."""
    s = r.structure
    posts = [0] * len(r.clockwise())
    if r.variant.stud():
        return posts
    blinds = s.blinds[max(0, len(s.blinds) - len(posts)):]
    for i, b in enumerate(blinds):
        posts[i] = b
    if straddled:
        posts[len(blinds)] = 2 * max(s.blinds)   # 13:69F-14.10(f)
    return posts


class _Writer:
    def __init__(self, r):
        self.r = r
        self.checks = Checks()
        self.order = r.clockwise()
        self.index = [-1] * r.n
        for i, seat in enumerate(self.order):
            self.index[seat] = i
        self.actions = []
        self.pending = []         # (player or -1 for the board, card) not yet written
        self.drawn = []           # replacement cards of the draw round under way
        self.burns = []
        self.dead = []

    def player(self, seat):
        return "p%d" % (self.index[seat] + 1)

    def flush(self, cards, drawn=False):
        """Write dealt cards as PHH does: each player's hole cards, then the board."""
        if not cards:
            return
        for i in range(len(self.order)):
            mine = "".join([c for p, c in cards if p == i])
            if mine:
                self.actions.append("d dh p%d %s" % (i + 1, mine))
        board = "".join([c for p, c in cards if p < 0])
        if board:
            self.actions.append("d db " + board)
        if drawn:
            self.drawn = []
        else:
            self.pending = []

    def flush_all(self):
        self.flush(self.pending)
        self.flush(self.drawn, True)

    def card(self, code):
        what, seat = self.r.expecting()
        if what == "burn":
            self.flush(self.pending)   # a burn starts a street: one dealing action each
            self.burns.append(code)
        elif what == "board":
            self.pending.append((-1, code))
        elif not self.r.live(seat):
            self.dead.append(code)   # a folded stud position still dealt to (20.38(e))
        elif self.r.dealing() and self.r.drawing():
            self.drawn.append((self.index[seat], code))
        else:
            self.pending.append((self.index[seat], code))

    def take_back(self, code):
        """A dealt hole card taken back (an irregularity replaced it): out of the
        dealing not yet written, else out of the player's last dealing action."""
        for i in range(len(self.pending)):
            if self.pending[i][1] == code:
                self.pending.pop(i)
                return
        for i in range(len(self.actions) - 1, -1, -1):
            words = self.actions[i].split()
            if words[:2] == ["d", "dh"] and code in pairs(words[3]):
                rest = "".join([c for c in pairs(words[3]) if c != code])
                if rest:
                    self.actions[i] = "d dh %s %s" % (words[2], rest)
                else:
                    self.actions.pop(i)
                return

    def irregularity(self, e):
        """A commentary line (a no-op for PHH readers): `# felt: misdeal no_shuffle`,
        `# felt: replace 7c ineligible`, `# felt: foul p2` ..."""
        kind = e[0]
        if kind == "replace":
            self.take_back(C.code(C.parse(e[1])))
        args = list(e[1:])
        if kind in ("foul", "away"):
            args[0] = self.player(args[0])
        elif kind in ("face_up", "replace", "exposed"):
            args[0] = C.code(C.parse(args[0]))
        return "# felt: " + " ".join([kind] + [str(a) for a in args])

    def decision(self, e):
        """The PHH line for a player's event, worked out before the round applies it."""
        r = self.r
        kind, seat = e[0], e[1]
        if kind in ("straddle", "decline"):
            return None              # the straddle is in blinds_or_straddles
        if kind in ("run_it", "run_once"):
            # PHH has no notation for the runouts' agreement: a commentary line (a
            # no-op for PHH readers), the count in `_runouts`.
            return "# felt: %s %s" % (kind, self.player(seat))
        if kind in ("discard", "draw"):
            cards = "".join([C.code(C.parse(c)) for c in e[2].split()])
            return ("%s sd %s" % (self.player(seat), cards)).strip()
        if kind == "fold":
            return self.player(seat) + " f"
        if kind == "check" or kind == "call":
            return self.player(seat) + " cc"
        if kind == "bring_in":
            return self.player(seat) + " pb"
        lo, _ = r.raise_bounds(seat)
        to = e[2] if len(e) == 3 else lo
        if to <= r.level:
            # An all-in "bet" that puts in no more than the bet to call (the round takes
            # one when it completes a bring-in): a call, as PHH has it.
            return self.player(seat) + " cc"
        return "%s cbr %d" % (self.player(seat), to)


def history(header, events, round=None):
    """The PHH document of one round: the journal's `header` (hand, button, stacks,
    game, structure, rake), its accepted `events`, and the finished Round for the
    finishing stacks (replayed from the events when not given)."""
    return "\n".join(lines(header, events, round)) + "\n"


def lines(header, events, round=None, public=None):
    """history()'s document as its lines, without their newlines: a board writes them
    one at a time, as its heap, cut up by the round, may hold no block for the whole.
    `public`: a felt.table.public.Seen, for the round's public record: it hears the
    replay's effects and masks every card the table did not show; the burns and the
    journal's events are left out."""
    r = from_header(header)
    variant, st, rk = r.variant, r.structure, r.rake
    said = r.start()
    if public is not None:
        public.heard(r, said)
    w = _Writer(r)
    w.checks.seen(r)
    show_at = -1
    held = None
    straddled = False
    irregular_events = False
    for e in events:
        e = tuple(e)
        if e[0] == "card":
            w.card(C.code(C.parse(e[1])))
        elif e[0] in IRREGULAR:
            irregular_events = True
            line = w.irregularity(e)
            w.flush(w.pending)
            w.actions.append(line)
        else:
            if e[0] != "draw":
                w.flush(w.drawn, True)
            w.flush(w.pending)
            line = w.decision(e)
            if line is not None:
                w.actions.append(line)
            straddled = straddled or e[0] == "straddle"
        said = r.apply(e)
        if public is not None:
            public.heard(r, said)
        w.checks.seen(r)
        if e[0] in ACTIONS and w.checks.asked(r) >= 0:
            w.actions.append(w.player(w.checks.asked(r)) + " cc")
        if w.drawn and not r.drawing():
            w.flush(w.drawn, True)     # the draw round is over: its replacement cards
        if show_at < 0 and settled(r):
            w.flush_all()
            show_at = len(w.actions)
            held = [list(h) for h in r.hole]    # what each shows when PHH shows down
    w.flush_all()
    if r.finished() and r.show_order and not r.called_off:
        if show_at < 0:
            show_at = len(w.actions)
            held = r.hole
        shows = ["%s sm %s" % (w.player(s), "".join([C.code(c) for c in held[s]]))
                 for s in r.show_order]
        # A face-down card dealt after that (stud's seventh) is shown at the end.
        w.actions += ["%s sm %s" % (w.player(s), "".join([C.code(c) for c in r.hole[s]]))
                      for s in r.show_order if _down_after(r, s, len(held[s]))]
        w.actions = w.actions[:show_at] + shows + w.actions[show_at:]
    done = round if round is not None else r

    code = variant_code(header["game"], st.kind)
    order = w.order
    n = len(order)
    out = []

    def put(key, value):
        out.append("%s = %s" % (key, toml(value)))

    put("variant", code)
    put("ante_trimming_status", True)
    put("antes", [st.ante] * n)
    if variant.stud():
        put("bring_in", st.bring_in)
    else:
        posts = forced_bets(r, straddled)
        # PHH assigns the forced bets in reverse when two play (PokerKit does too).
        put("blinds_or_straddles", posts[::-1] if n == 2 else posts)
    if st.kind in ("fixed", "spread"):
        put("small_bet", st.small_bet)
        put("big_bet", st.big_bet)
    else:
        put("min_bet", st.small_bet)
    put("starting_stacks", [header["stacks"][s] for s in order])
    out.append("actions = [")
    for a in (w.actions if public is None else public.actions(w.actions, order)):
        out.append("  %s," % toml(a))
    out.append("]")
    if done.finished():
        put("finishing_stacks", [done.stacks[s] for s in order])
    put("hand", header["hand"])
    put("seats", [s + 1 for s in order])
    put("seat_count", len(header["stacks"]))
    put("_felt_game", header["game"])
    put("_felt_structure", header["structure"])
    put("_felt_rake", header["rake"])
    put("_rake_method", rk.method)
    put("_rake", done.raked)
    if public is None:
        put("_burns", w.burns)
    put("_dead", w.dead if public is None else public.cards(w.dead))
    put("_button", header["button"])
    put("_seats", order)
    put("_felt_version", FIRMWARE)
    if done.runouts > 1:
        put("_runouts", done.runouts)     # PokerKit's runout count (docs/phh.md)
    if r.called_off:
        put("_called_off", r.called_off)
        put("_called_off_why", r.called_why if public is None else public.text(r.called_why))
    if irregular_events and public is None:
        # PHH cannot say what an irregularity did (a replaced or exposed card, a foul, a
        # misdeal): the journal's own events rebuild the round exactly.
        put("_felt_events", [list(e) for e in events])
    return out


def _down_after(r, seat, k):
    """True if the seat holds a face-down card after its first k."""
    for c in r.hole[seat][k:]:
        if c not in r.up[seat]:
            return True
    return False


def pairs(cards):
    """PHH's cards ("AsKd") as their codes."""
    return [cards[i:i + 2] for i in range(0, len(cards), 2)]


def toml(v):
    """A TOML value: bool, int, str, list, or dict (as an inline table, keys sorted)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        if "'" in v or "\n" in v:
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
        return "'" + v + "'"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join([toml(x) for x in v]) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(["%s = %s" % (k, toml(v[k])) for k in sorted(v)]) + "}"
    raise TypeError("no TOML for %r" % (v,))
