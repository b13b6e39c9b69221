"""felt-phh: replay Poker Hand History (PHH) files through Felt's rules core.

    felt-phh replay FILE          print the finishing stacks, in the file's player order
    felt-phh check FILE...        replay each file and compare with its finishing_stacks

A file the table wrote (it has `_felt_game`) is rebuilt exactly: the same seats,
button, structure, rake, burn cards and dead cards.  Any other PHH file, PokerKit's
for one, is mapped onto a Felt table: player i sits in seat i and the last player has
the button (stud: the dealer sits after the last player); the variant code and the
forced-bet fields give the game and the structure, with no raise cap (the file's
actions are taken as played); burn cards, and the cards Felt deals to a folded stud
position (13:47-20.38(e)), are chosen from cards the file does not use.  docs/phh.md
describes the fields and the codes.
"""

import json
import sys
import tomllib
from collections import deque

from felt.poker import cards as C
from felt.poker import rake as rake_mod
from felt.poker import structure as structure_mod
from felt.poker import variants
from felt.poker.round import ACTIONS, CHOOSING, Refused, Round
from felt.poker.structure import ConfigError
from felt.table import phh as writer
from host_tools import cli


RUNOUT_VERBS = ("run_it", "run_once")   # felt.poker.round's answers, 13:69F-14.10(l)


class ReplayError(ValueError):
    """A file Felt cannot replay, with the reason; `round` and `event`, when set, are
    the Felt round and the event it refused."""

    def __init__(self, message, round=None, event=None):
        ValueError.__init__(self, message)
        self.round = round
        self.event = event


def parse_code(code):
    """(game, structure kind) for a variant code; ReplayError for an unknown one."""
    if isinstance(code, str) and code:
        kinds = dict((v, k) for k, v in writer.STRUCTURE_LETTERS.items())
        games = dict((v, k) for k, v in writer.GAME_CODES.items())
        kind, game = kinds.get(code[0]), games.get(code[1:])
        if kind and game:
            return game, kind
    known = sorted(writer.variant_code(g, k) for g in writer.GAME_CODES
                   for k in writer.STRUCTURE_LETTERS)
    raise ReplayError("unknown variant %r: Felt plays %s" % (code, ", ".join(known)))


def split_cards(text, where):
    """Card codes from PHH's run-together notation ("AcKd")."""
    if len(text) % 2:
        raise ReplayError("%s: %r is not a run of two-character card codes" % (where, text))
    out = []
    for i in range(0, len(text), 2):
        code = text[i:i + 2]
        if code == "??":
            raise ReplayError("%s: unknown cards (??) cannot be replayed" % where)
        try:
            out.append(C.parse(code))
        except C.CardError as e:
            raise ReplayError("%s: %s" % (where, e))
    return out


def _whole(doc, name, default=None):
    v = doc.get(name, default)
    if v is None:
        raise ReplayError("missing field %r" % name)
    if isinstance(v, list):
        for x in v:
            if not isinstance(x, int) or isinstance(x, bool):
                raise ReplayError("%s: %r is not a whole number of chips" % (name, x))
    elif not isinstance(v, int) or isinstance(v, bool):
        raise ReplayError("%s: %r is not a whole number of chips" % (name, v))
    return v


class Table:
    """What a replay needs: the Felt round to start and how PHH players map to seats."""

    def __init__(self, doc):
        stacks = _whole(doc, "starting_stacks")
        n = len(stacks)
        if n < 2:
            raise ReplayError("starting_stacks: a hand needs two players")
        if "_felt_game" in doc:
            self._felt(doc, stacks)
        else:
            self._foreign(doc, stacks)
        if len(self.order) != n:
            raise ReplayError("the table deals in %d players, the file has %d"
                              % (len(self.order), n))
        self.index = dict((seat, i) for i, seat in enumerate(self.order))

    def _felt(self, doc, stacks):
        seats = _whole(doc, "_seats")
        count = doc.get("seat_count", max(seats) + 1)
        if len(seats) != len(stacks) or len(set(seats)) != len(seats) \
                or min(seats) < 0 or max(seats) >= count:
            raise ReplayError("_seats must give a distinct table seat for each player")
        table = [0] * count
        for seat, chips in zip(seats, stacks):
            table[seat] = chips
        try:
            self.variant = variants.get(doc["_felt_game"])
            self.structure = structure_mod.from_dict(doc.get("_felt_structure", {}))
            self.rake = rake_mod.from_dict(doc.get("_felt_rake"))
        except (KeyError, ConfigError) as e:
            raise ReplayError(str(e.args[0] if e.args else e))
        self.round = self._round(table, _whole(doc, "_button"))
        self.order = self.round.clockwise()
        if self.order != list(seats):
            raise ReplayError("_seats %r are not in PHH order from the button (%r)"
                              % (seats, self.order))
        self.straddle = None       # the blinds field says whether it was made
        self.burns = [C.parse(c) for c in doc.get("_burns", [])]
        self.dead = [C.parse(c) for c in doc.get("_dead", [])]
        self.known = True
        posts = _whole(doc, "blinds_or_straddles", [0] * len(stacks))
        posts = posts[::-1] if len(stacks) == 2 else posts
        self.straddled = bool(self.structure.straddle) and \
            len([b for b in posts if b]) > len(self.structure.blinds)

    def _foreign(self, doc, stacks):
        game, kind = parse_code(doc.get("variant"))
        self.variant = variants.get(game)
        n = len(stacks)
        antes = _whole(doc, "antes", [0] * n)
        antes = [antes] * n if isinstance(antes, int) else antes
        if len(set(antes)) > 1:
            raise ReplayError("antes %r: Felt takes the same ante from every player" % antes)
        ante = antes[0] if antes else 0
        blinds, straddle = (), False
        if not self.variant.stud():
            posts = _whole(doc, "blinds_or_straddles", [0] * n)
            posts = [posts] * n if isinstance(posts, int) else list(posts)
            if len(posts) != n:
                raise ReplayError("blinds_or_straddles needs one entry a player")
            if n == 2:
                posts = posts[::-1]  # PHH assigns heads-up forced bets in reverse
            k = 0
            while k < n and posts[k] > 0:
                k += 1
            if [b for b in posts[k:] if b]:
                raise ReplayError("blinds_or_straddles %r: Felt posts blinds from the "
                                  "player left of the button on, with no gaps" % posts)
            blinds = posts[:k]
            if len(blinds) >= 3 and blinds[-1] == 2 * max(blinds[:-1]):
                blinds, straddle = blinds[:-1], True     # 13:69F-14.10(f)
            if list(blinds) != sorted(blinds):
                raise ReplayError(
                    "blinds %r (in posting order, left of the button first) decrease: "
                    "Felt posts the first blind left of the button and starts the action "
                    "after the last blind (13:47-20.36(d), (f)); %s" % (
                        list(blinds), "heads-up, PHH's button posts the small blind"
                        if n == 2 else "PHH starts after the largest"))
        if kind in ("fixed", "spread"):
            small, big = _whole(doc, "small_bet"), _whole(doc, "big_bet")
        else:
            small = big = _whole(doc, "min_bet")
        bring_in = _whole(doc, "bring_in", 0) if self.variant.stud() else 0
        try:
            self.structure = structure_mod.Structure(kind, small, big, blinds, ante, 0,
                                                     bring_in, True, straddle)
        except ConfigError as e:
            raise ReplayError("as a Felt table: %s" % e)
        self.rake = None
        self.round = self._round(list(stacks), n - 1)
        self.order = self.round.clockwise()
        self.straddled = straddle
        self.burns = self.dead = None
        self.known = False

    def _round(self, stacks, button):
        if min(stacks) < 0:
            raise ReplayError("starting_stacks must not be negative")
        try:
            return Round(stacks, button, self.structure, self.variant, self.rake)
        except ValueError as e:
            raise ReplayError(str(e))


def parse_actions(actions):
    """(hole cards per player, board cards, decisions) from the actions field.
    A decision is (player, verb, argument, text, index in actions); shows and mucks are left out: Felt
    shows every hand still in at the showdown.  Felt's commentary `# felt: run_it p2`
    (or `run_once`) is a player's answer to running the board more than once."""
    holes, board, decisions = {}, [], []
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise ReplayError("actions[%d] is not a string" % i)
        words = text.split("#")[0].split()
        where = "actions[%d] %r" % (i, text)
        if not words:
            said = text.split()
            if said[:2] == ["#", "felt:"] and len(said) == 4 and said[2] in RUNOUT_VERBS:
                decisions.append((_player(said[3], where), said[2], None, where, i))
            continue
        if words[0] == "d":
            if len(words) == 3 and words[1] == "db":
                board += split_cards(words[2], where)
            elif len(words) == 4 and words[1] == "dh":
                p = _player(words[2], where)
                holes.setdefault(p, []).extend(split_cards(words[3], where))
            else:
                raise ReplayError("%s: not a dealing action" % where)
            continue
        p = _player(words[0], where)
        verb, args = (words[1] if len(words) > 1 else ""), words[2:]
        if verb == "sm":
            continue
        if verb in ("f", "cc", "pb") and not args:
            decisions.append((p, verb, None, where, i))
        elif verb == "cbr" and len(args) == 1:
            try:
                amount = int(args[0])
            except ValueError:
                raise ReplayError("%s: the amount must be a whole number of chips" % where)
            decisions.append((p, verb, amount, where, i))
        elif verb == "sd" and len(args) <= 1:
            decisions.append((p, verb, split_cards(args[0], where) if args else [], where, i))
        else:
            raise ReplayError("%s: unknown action" % where)
    return holes, board, decisions


def _player(word, where):
    if len(word) < 2 or word[0] != "p" or not word[1:].isdigit() or int(word[1:]) < 1:
        raise ReplayError("%s: %r is not a player (p1, p2, ...)" % (where, word))
    return int(word[1:]) - 1


def replay(doc, watch=None):
    """Replay a PHH document (a dict as TOML gives it); the finished Felt round and its
    finishing stacks in the file's player order.  ReplayError says why not.
    `watch(round, action_index, event)`, if given, sees each player's event from the
    file just before the round applies it."""
    t = Table(doc)
    r = t.round
    if t.known and "_felt_events" in doc:
        return _rebuild(t, doc["_felt_events"])
    holes, board, decisions = parse_actions(doc.get("actions", []))
    n = len(t.order)
    for p in holes:
        if p >= n:
            raise ReplayError("cards dealt to p%d, but the file has %d players" % (p + 1, n))
    used = set(board)
    for cards in holes.values():
        used.update(cards)
    for _, verb, arg, _, _ in decisions:
        if verb == "sd":
            used.update(arg)
    hole_q = dict((p, deque(holes.get(p, []))) for p in range(n))
    board_q, dec_q = deque(board), deque(decisions)
    burn_q = deque(t.burns) if t.known else None
    dead_q = deque(t.dead) if t.known else None

    def spare():
        """A card for a burn or a dead position the file does not name: one it never
        uses, else one neither dealt yet nor still to come."""
        pending = set()
        for q in hole_q.values():
            pending.update(q)
        pending.update(board_q)
        for c in range(C.DECK_SIZE):
            if not r.seen[c] and c not in used:
                return c
        for c in range(C.DECK_SIZE):
            if not r.seen[c] and c not in pending:
                return c
        fail("no card left to burn: the file uses every card Felt has not reshuffled")

    def apply(event, where):
        try:
            r.apply(event)
        except Refused as e:
            raise ReplayError("%s: Felt refuses %r: %s" % (where, event, e), r, event)
        checks.seen(r)

    def fail(message):
        raise ReplayError(message, r)

    checks = writer.Checks()
    r.start()
    checks.seen(r)
    while not r.finished():
        due = r.expecting()
        if due is not None:
            what, seat = due
            if what == "burn":
                card = burn_q.popleft() if burn_q else spare()
            elif what == "board":
                if not board_q:
                    fail("Felt's round needs a board card the file does not deal")
                card = board_q.popleft()
            elif not r.live(seat):
                card = dead_q.popleft() if dead_q else spare()
            else:
                q = hole_q[t.index[seat]]
                if not q:
                    fail("Felt's round deals p%d a card the file does not" % (t.index[seat] + 1))
                card = q.popleft()
            apply(("card", C.code(card)), "dealing %s" % what)
            continue
        seat = r.to_act
        legal = r.legal_actions(seat)
        if "straddle" in legal:
            apply(("straddle" if t.straddled else "decline", seat), "the straddle")
            continue
        p = t.index[seat]
        d = dec_q[0] if dec_q else None
        if "run_it" in legal and (d is None or d[0] != p or d[1] not in RUNOUT_VERBS):
            fail("p%d is asked to run the board more than once; the file has %s"
                 % (p + 1, d[3] if d else "no more actions"))
        if d is None or d[0] != p or (d[1] == "sd" or d[1] in RUNOUT_VERBS) != \
                (r.phase == CHOOSING):
            fail("p%d is to act in Felt's round; the file has %s"
                 % (p + 1, d[3] if d else "no more actions"))
        dec_q.popleft()
        _, verb, arg, where, index = d
        if verb == "f":
            event = ("fold", seat)
        elif verb == "cc":
            event = ("call" if r.level > r.street_bet[seat] else "check", seat)
        elif verb == "pb":
            event = ("bring_in", seat)
        elif verb in RUNOUT_VERBS:
            event = (verb, seat)
        elif verb == "cbr":
            event = ("bet" if "bet" in legal else "raise", seat, arg)
        else:
            event = ("draw" if "draw" in legal else "discard", seat,
                     " ".join(C.code(c) for c in arg))
        if watch is not None:
            watch(r, index, event)
        apply(event, where)
        covered = checks.asked(r) if event[0] in ACTIONS else -1
        if covered >= 0:
            # PHH asks a player whom nobody could call to check; Felt's betting is over.
            d = dec_q[0] if dec_q else None
            if d is None or d[0] != t.index[covered] or d[1] != "cc":
                fail("p%d checks in PHH, whom nobody could call; the file has %s"
                     % (t.index[covered] + 1, d[3] if d else "no more actions"))
            dec_q.popleft()
    if dec_q:
        fail("%s: after the end of Felt's round" % dec_q[0][3])
    left = [C.code(c) for q in hole_q.values() for c in q] + [C.code(c) for c in board_q]
    if left:
        fail("cards Felt's round never dealt: %s" % " ".join(left))
    return r, [r.stacks[s] for s in t.order]


def _rebuild(t, events):
    """A round with an irregularity (felt.poker.irregular), which PHH's actions cannot
    express: rebuilt from the journal's events the file carries in `_felt_events`."""
    r = t.round
    r.start()
    for i, e in enumerate(events):
        if not isinstance(e, list) or not e:
            raise ReplayError("_felt_events[%d] is not an event" % i, r)
        try:
            r.apply(tuple(e))
        except Refused as x:
            raise ReplayError("_felt_events[%d] %r: Felt refuses it: %s" % (i, e, x), r,
                              tuple(e))
    if not r.finished():
        raise ReplayError("_felt_events end before the round does", r)
    return r, [r.stacks[s] for s in t.order]


def load(path):
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise ReplayError("cannot read: %s" % e.strerror)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ReplayError("not TOML: %s" % e)


def check(path):
    """(ok, message) for one file."""
    try:
        doc = load(path)
        _, stacks = replay(doc)
    except ReplayError as e:
        return False, "error %s: %s" % (path, e)
    want = doc.get("finishing_stacks")
    if want is None:
        return False, "error %s: no finishing_stacks to compare" % path
    if stacks != want:
        return False, "mismatch %s: felt %s, file %s" % (path, json.dumps(stacks),
                                                          json.dumps(want))
    return True, "ok %s" % path


@cli.command("felt-phh")
def main(argv=None):
    ap = cli.parser("felt-phh", __doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="print the finishing stacks as a JSON list")
    rp.add_argument("file")
    cp = sub.add_parser("check", help="replay and compare with finishing_stacks")
    cp.add_argument("files", nargs="+")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "replay":
        try:
            _, stacks = replay(load(args.file))
        except ReplayError as e:
            raise cli.UserError("%s: %s" % (args.file, e), 1)
        print(json.dumps(stacks))
        return 0
    failed = 0
    for path in args.files:
        ok, message = check(path)
        print(message)
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
