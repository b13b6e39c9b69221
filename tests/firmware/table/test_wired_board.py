"""A wired board's devices are its own (issue 21, item 1; docs/security.md): what its
buttons, card reader, shuffler and clock say is taken from them, never from the link.
Each case is an attack an unsigned host made on the link, refused and changing nothing;
the same input from the board's devices is taken.  Runs on CPython and MicroPython."""

import asyncio

from felt import loop
from felt.poker import cards as C
from felt.hal.clock import sleep_ms
from felt.table.controller import CUT, IDLE, PLAYING, SHUFFLING, Controller
from felt.table.journal import Journal

from table_fakes import BOARD, FakeHal, events

CFG = {"seats": 4, "stacks": [1000, 1000, 1000, 1000], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}
TIME_CFG = dict(CFG, rake={"method": "time", "hourly": 12, "every": 30, "per": "player"})


def wired_table(cfg=CFG, devices="wired"):
    hal = FakeHal()
    hal.wired = True                      # buttons, reader and shuffler at its pins
    ctl = Controller(hal, dict(BOARD, devices=devices), Journal())
    assert ctl.handle("cfg", cfg) is None
    return ctl, hal


def from_link(ctl, hal, kind, payload):
    """`kind` as a frame of the link brings it (felt.hal.link.Link.serve)."""
    hal.link.frame = (7, kind, payload, None)
    try:
        return ctl.handle(kind, payload)
    finally:
        hal.link.frame = None


def refused_and_nothing_changed(ctl, hal, kind, payload):
    before = ctl.snapshot()
    why = from_link(ctl, hal, kind, payload)
    assert why == "%s comes from this table's own devices, never from the link" % kind, why
    assert ctl.snapshot() == before
    return why


def test_the_link_cannot_deal_shuffle_or_cut_but_the_dealer_panel_and_shuffler_can():
    ctl, hal = wired_table()
    refused_and_nothing_changed(ctl, hal, "dealer", {"b": "deal"})
    assert ctl.state == IDLE and hal.shuffler.calls == []
    assert ctl.handle("dealer", {"b": "deal"}) is None          # the panel's button
    assert ctl.state == SHUFFLING
    refused_and_nothing_changed(ctl, hal, "shuf", {"state": "done"})
    assert ctl.handle("shuf", {"state": "done"}) is None        # the shuffler's lines
    assert ctl.state == CUT
    refused_and_nothing_changed(ctl, hal, "dealer", {"b": "cut_done"})
    assert ctl.handle("dealer", {"b": "cut_done"}) is None
    assert ctl.state == PLAYING


def dealt(ctl, hal):
    for b in ("deal", "shuffled", "cut_done"):
        assert (ctl.handle("shuf", {"state": "done"}) if b == "shuffled"
                else ctl.handle("dealer", {"b": b})) is None


def test_cards_the_link_chooses_are_never_dealt():
    ctl, hal = wired_table()
    dealt(ctl, hal)
    for code in ("As", "Ah", "2c", "7d"):     # the hole cards the attacker chose
        refused_and_nothing_changed(ctl, hal, "card", {"code": code})
    assert events(hal, "dealt") == []
    assert ctl.handle("card", {"code": "Kd"}) is None    # read by the shoe's reader
    assert [h for h in ctl.round.hole if h] == [[C.parse("Kd")]]
    assert [e["what"] for e in events(hal, "dealt")] == ["hole"]


def test_the_link_cannot_press_a_seat_button_void_the_round_or_retire_a_deck():
    ctl, hal = wired_table()
    dealt(ctl, hal)
    for code in "2c 3c 4c 5c 2d 3d 4d 5d".split():
        assert ctl.handle("card", {"code": code}) is None
    seat = ctl.round.to_act
    refused_and_nothing_changed(ctl, hal, "btn", {"seat": seat, "b": "raise"})
    refused_and_nothing_changed(ctl, hal, "btn", {"seat": seat, "b": "fold", "to": 5})
    refused_and_nothing_changed(ctl, hal, "dealer", {"b": "dead_round", "why": "x"})
    refused_and_nothing_changed(ctl, hal, "shoe", {"state": "jam"})
    refused_and_nothing_changed(ctl, hal, "chip", {"seat": seat, "amount": 2})
    refused_and_nothing_changed(ctl, hal, "discard", {"seat": seat, "cards": ""})
    refused_and_nothing_changed(ctl, hal, "wager", {"seat": seat, "ante": 5})
    assert ctl.decks.usable() and ctl.state == PLAYING
    assert ctl.handle("btn", {"seat": seat, "b": "raise"}) is None   # the seat's button
    assert ctl.round.to_act != seat


def test_clock_frames_cannot_move_chips_to_the_house_on_a_time_charge_table():
    # The attack: eight clock frames of +1440 minutes took all 4 x 1000 chips.
    ctl, hal = wired_table(TIME_CFG)
    for k in range(1, 9):
        refused_and_nothing_changed(ctl, hal, "clock", {"minutes": 1440 * k})
    assert ctl.minutes == 0 and ctl.stacks == [1000] * 4 and ctl.rake_total == 0
    assert events(hal, "time_charge") == []


def test_a_draw_game_is_refused_where_no_muck_reader_says_the_discards():
    ctl, hal = wired_table()
    for game in ("triple-draw-27", "pineapple"):
        assert ctl.handle("cfg", dict(CFG, game=game)) == \
            "%s needs the players' discards, and this board has no muck reader" % game
    assert ctl.config.game == "holdem"


def test_refusals_are_counted_in_the_event_log_not_written_one_by_one():
    ctl, hal = wired_table()
    for _ in range(12):
        from_link(ctl, hal, "card", {"code": "As"})
    records, _ = ctl.eventlog.page(0)
    assert [(r["code"], r["detail"]) for r in records] == [
        ("link_input_refused", "card"), ("link_input_refused", "card (the 10th since boot)")]


def test_a_test_rigs_board_and_the_emulators_link_take_device_frames():
    # "devices": "link" (hardware/boards/SCHEMA.md): a rig plays the devices on the link.
    ctl, hal = wired_table(devices="link")
    assert from_link(ctl, hal, "dealer", {"b": "deal"}) is None
    hal = FakeHal()                           # the emulator's board: its devices are frames
    ctl = Controller(hal, BOARD, Journal())
    assert ctl.handle("cfg", CFG) is None
    assert from_link(ctl, hal, "dealer", {"b": "deal"}) is None


class Beats:
    def beat(self, name):
        pass


def test_the_boards_own_clock_moves_table_time_a_minute_at_a_time():
    # Time charges (13:47-20.37(a)4iii) by the board's clock: 30 minutes, one charge.
    ctl, hal = wired_table(TIME_CFG)
    ticks = [0]

    def ticks_ms():
        ticks[0] += 15000                     # a quarter of a minute a look
        return ticks[0]

    hal.ticks_ms = ticks_ms

    async def run():
        task = asyncio.create_task(loop.clock_task(hal, ctl, Beats(), period_ms=1))
        while ctl.minutes < 31:
            await sleep_ms(1)
        task.cancel()

    asyncio.run(run())
    assert ctl.minutes == 31
    assert [e["charges"] for e in events(hal, "time_charge")] == [[6, 6, 6, 6]]
    assert sum(ctl.stacks) + ctl.rake_total == 4000


class Line:
    """A status line of the shuffler at its pin, active low (hardware/WIRING.md); as
    the start output, it takes what it is driven with."""

    def __init__(self, on=False):
        self.on = on

    def value(self, v=None):
        return 0 if self.on else 1


def test_a_shuffler_silent_with_done_on_since_the_last_round_is_jammed_after_ten_seconds():
    # 13:47-20.38(o) (docs/rules.md): a done left on since its last cycle is no answer
    # to the start pulse; silent SILENT_MS from it, the shuffler failed: a hand shuffle.
    from felt.hal import mp
    from felt.table.states import HAND_SHUFFLE
    ctl, hal = wired_table()
    lines = [Line(), Line(on=True), Line(), Line(on=True)]    # busy, done, jam, present
    now = [0]
    sh = mp.Shuffler(lines, Line(), True, 200, 20, lambda: now[0])
    sh.spawn = lambda coro: coro.close()                      # the start pulse's end
    hal.shuffler = sh

    async def run():
        task = asyncio.create_task(loop.shuffler_task(hal, ctl, Beats()))
        await sleep_ms(60)
        assert ctl.handle("dealer", {"b": "deal"}) is None
        now[0] += mp.SILENT_MS - 1
        await sleep_ms(60)
        assert ctl.state == SHUFFLING                         # waits: the old done is no done
        now[0] += 1
        await sleep_ms(60)
        task.cancel()

    asyncio.run(run())
    assert ctl.state == HAND_SHUFFLE
    assert events(hal, "irregularity")[-1]["kind"] == "shuffler_jam"


def test_a_face_down_card_goes_out_as_dealt_its_face_said_only_once_shown():
    # Issue 21, item 6: every hole card went out on the link as it was dealt.
    ctl, hal = wired_table()
    dealt(ctl, hal)
    deck = ["%s%s" % (r, s) for s in "cdhs" for r in "23456789TJQKA"]
    while ctl.state == PLAYING:
        if ctl.round.expecting() is not None:
            assert ctl.handle("card", {"code": deck.pop()}) is None     # the reader
        else:
            assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "call"}) is None
    faces = [(e["what"], "card" in e) for e in events(hal, "dealt")]
    assert set(faces) == {("hole", False), ("burn", False), ("board", True)}, faces
    shown = events(hal, "show")
    assert shown and all(len(e["cards"].split()) == 2 for e in shown)   # at the showdown
