"""One list of card kinds (felt.protocol.CARD_KINDS), and every backend's card reader
takes every kind the table can ask the shoe for.  The kinds asked for are found by
playing every game of both round engines to its end, and placing the button, never
read from the list: a kind an engine starts asking for fails here until the list, and
so every reader, knows it (seven-card stud's "up" once stalled a real board)."""

from felt import protocol as P
from felt.banked.four_card import FourCardPoker
from felt.banked.holdem_bonus import HoldemBonus
from felt.banked.settings import Settings
from felt.hal import link as L
from felt.hal import mp
from felt.poker import cards as C
from felt.poker.round import BETTING
from felt.poker.variants import NAMES, get
from felt.table import placing
from table_fakes import LEDS, Wire
from test_mp_backend_logic import FakeUart, _open_feather, _open_pico
from variant_helpers import DECK, new_game, passive

POKER_CHOICES = ("decline", "discard", "draw")   # the straddle declined, cards thrown
BANKED_CHOICES = ("play", "bet", "check", "fold")   # the first a seat may make


def _asked(r, out, kinds):
    for e in out:
        if e[0] == "need":
            kinds.add(e[1])
    if r.expecting() is not None:
        kinds.add(r.expecting()[0])


def _next_card(r):
    for c in DECK:
        if r.why_not(("card", c)) is None:
            return c
    raise AssertionError("no card left that the round takes")


def _poker_choice(r, seat):
    legal = r.legal_actions(seat)
    kind = [k for k in POKER_CHOICES if k in legal][0]
    if kind == "decline":
        return (kind, seat)
    step = r.variant.steps[r.step]
    n = step[1] if kind == "discard" else 1     # a draw replaces one card: dealt again
    return (kind, seat, " ".join([C.code(c) for c in r.hole[seat][:n]]))


def _play(r, out, choose, kinds):
    """Play the round to its end (cards from DECK, `choose` at every other turn)."""
    for _ in range(1000):
        _asked(r, out, kinds)
        if r.finished():
            return
        if r.expecting() is not None:
            out = r.apply(("card", _next_card(r)))
        else:
            out = choose(r)
    raise AssertionError("the round did not end")


def _poker_turn(r):
    if r.phase == BETTING:
        return passive(r)
    return r.apply(_poker_choice(r, r.to_act))


def _banked_turn(r):
    for seat in range(r.n):
        legal = r.legal_actions(seat)
        if legal:
            return r.apply(([k for k in BANKED_CHOICES if k in legal][0], seat))
    raise AssertionError("no seat may decide")


class _Placing:
    """What felt.table.placing needs of a controller: the seats, its reader."""

    def __init__(self, seated, reader):
        self.placing = []
        self._seated = seated
        self.hal = self
        self.card_reader = reader

    def seated(self):
        return self._seated


class _Kinds:
    def __init__(self):
        self.kinds = set()

    def want(self, kind, seat=-1):
        self.kinds.add(kind)


def kinds_asked():
    """Every kind of card the round engines and the table ask the shoe for."""
    kinds = set()
    for name in NAMES:
        # Every seat filled: seven-card stud then runs out of cards and deals a common
        # card to the board (19:47-14.9(h)).
        r, out = new_game(name, [100] * get(name).max_players)
        _play(r, out, _poker_turn, kinds)
    for game, name in ((FourCardPoker, "four_card"), (HoldemBonus, "holdem_bonus")):
        r = game([100] * 6, [(5, 5)] * 6, Settings(name))
        _play(r, r.start(), _banked_turn, kinds)
    table = _Kinds()
    placing.want(_Placing([True] * 4, table))
    return kinds | table.kinds


def _readers():
    """(backend, card reader) of every backend, opened as a board opens it."""
    return [("mp", _open_pico()[0].card_reader), ("mp uart", mp.CardReader(FakeUart())),
            ("cp", _open_feather()[0].card_reader),
            ("link", L.open({"leds": LEDS}, Wire()).card_reader)]


def test_every_backends_card_reader_takes_every_kind_the_table_asks_for():
    kinds = sorted(kinds_asked())
    for backend, reader in _readers():
        for kind in kinds:
            try:
                reader.want(kind, 0)
            except ValueError:
                raise AssertionError("the %s card reader refuses %r" % (backend, kind))
        try:
            reader.want("river", 0)
        except ValueError:
            pass
        else:
            raise AssertionError("the %s card reader takes any kind" % backend)


def test_the_list_holds_the_kinds_asked_for_and_the_protocol_names_them():
    assert sorted(kinds_asked()) == sorted(P.CARD_KINDS)
    here = __file__.replace("\\", "/")
    with open(here[:here.rfind("/tests/")] + "/docs/protocol.md") as f:
        row = [line for line in f.read().split("\n") if line.startswith("| `need`")][0]
    documented = row.split('"what":"')[1].split('"')[0].split("\\|")
    assert documented == list(P.CARD_KINDS), documented
