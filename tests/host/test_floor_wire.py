"""What of a table's events leaves it for the floor (host_tools.floorlink.wire.redacted, and
the board's own masking of the irregularities' details and the refusals,
felt.table.shown): every event of every game, played with random faults over many seeds,
names no card that was not face up at the table when it was sent."""

import re

import pytest

from felt.poker import variants
from felt.table.config import BANKED
from host_tools.emulator.session import Session, table_config
from host_tools.floorlink import wire
from sampling import first

CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
GAMES = variants.NAMES + BANKED
ROUNDS = 8


def face_up(e):
    """The cards an event shows face up at the table, by what the event means."""
    k = e["e"]
    if k == "dealt" and e["what"] in ("up", "board", "button") and "card" in e:
        return [e["card"]]
    if k == "exposed":
        return [e["card"]]
    if k == "show" or (k == "discarded" and e["seat"] < 0):
        return e["cards"].split()
    if k == "runout":
        return e["board"].split()
    return []


def named(value):
    """Every card code in a value's strings, however deep."""
    if isinstance(value, str):
        return CARD.findall(value)
    if isinstance(value, dict):
        return [c for v in value.values() for c in named(v)]
    if isinstance(value, list):
        return [c for v in value for c in named(v)]
    return []


class Floor:
    """The events as they leave for the floor, each checked against the cards the
    table had shown when it was sent (the round's, from its `hand` on)."""

    def __init__(self):
        self.shown = set()
        self.kinds = set()
        self.leaks = []
        self.masked = 0          # details and refusals with a card masked
        self.named = 0           # cards named in an irregularity's detail

    def frame(self, kind, p):
        if kind != "evt":
            return
        if p["e"] == "hand":
            self.shown = set()
        e = wire.redacted(p)
        self.kinds.add(e["e"])
        self.shown.update(face_up(e))
        for card in named(e):
            if card not in self.shown:
                self.leaks.append((card, e))
        if e["e"] in ("irregularity", "refused"):
            text = e.get("detail", e.get("why", ""))
            self.masked += "??" in text
            self.named += e["e"] == "irregularity" and bool(CARD.search(text))

    def close(self):
        pass


@pytest.mark.parametrize("seed", first(range(1, 13), 3))
def test_no_event_names_a_card_the_table_did_not_show(seed):
    floor = Floor()
    for game in GAMES:
        players = 4 if game in BANKED else min(6, variants.get(game).max_players)
        s = Session(players=players, seed=seed * 100 + GAMES.index(game), stack=100,
                    inject="random", config=table_config(game, players, 100))
        s.observers.append(floor)
        s.open()
        try:
            for _ in range(ROUNDS):
                s.play_round()
        finally:
            s.close()
    assert floor.leaks == [], floor.leaks[:5]
    assert {"dealt", "show", "irregularity", "end"} <= floor.kinds
    assert floor.masked and floor.named, (floor.masked, floor.named)
