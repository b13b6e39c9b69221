"""Frames an attacker, a noisy line or a confused host might send (issue 13): each is
refused with a sentence and changes nothing, or is bounded by the posted limits.  Runs
on CPython and in MicroPython's unix port."""

from felt.table.controller import Controller, PLAYING
from felt.table.journal import Journal

from table_fakes import BOARD, FakeHal, configured, events

TWO = {"seats": 2, "stacks": [100, 100], "small_bet": 2, "big_bet": 4, "blinds": [1, 2]}


def state(ctl):
    return (ctl.snapshot(), ctl.lasting(), ctl.state, ctl.minutes, ctl.last_card)


def refused_unchanged(ctl, kind, payload):
    """The refusal's reason; the test fails if the frame was applied or changed state."""
    before = state(ctl)
    why = ctl.handle(kind, payload)
    assert why is not None, "accepted %s %r" % (kind, payload)
    assert state(ctl) == before, "%s %r changed the table" % (kind, payload)
    return why


def with_(base, **changes):
    d = dict(base)
    d.update(changes)
    return d


def playing(cfg=TWO):
    """A configured table dealt up to its first hole card."""
    ctl, hal = configured(cfg)
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.handle("shuf", {"state": "done"}) is None
    assert ctl.handle("dealer", {"b": "cut_done"}) is None   # 13:47-20.38(f)1
    assert ctl.state == PLAYING
    return ctl, hal


def test_a_huge_clock_step_is_refused_and_no_loop_runs_long():
    # It used to spin the time-charge loop for ever (13:47-20.37(a)4iii).
    ctl, hal = configured(with_(TWO, rake={"every": 30, "hourly": 6, "method": "time"}))
    why = refused_unchanged(ctl, "clock", {"minutes": 1000000000000})
    assert why.startswith("clock minutes must be")
    assert refused_unchanged(ctl, "clock", {"minutes": 1441}) == (
        "clock minutes may go at most 1440 ahead at once")
    assert ctl.handle("clock", {"minutes": 1440}) is None   # 48 assessments at most
    assert ctl.stacks == [0, 0] and ctl.rake_total == 200   # every chip accounted for


def test_a_refused_shoe_frame_leaves_the_failed_shoe_to_be_removed():
    # 19:47-27.12(g): a bogus state must not clear the must-remove flag on the way.
    ctl, hal = playing()
    assert ctl.handle("shoe", {"state": "jam"}) is None
    assert ctl.shoe_must_go
    why = refused_unchanged(ctl, "shoe", {"present": False, "state": "bogus"})
    assert why.startswith("shoe state must be one of ok, jam, stop, incomplete")
    assert ctl.shoe_must_go


def test_a_refused_shuffler_frame_leaves_its_presence_as_it_was():
    ctl, hal = configured(TWO)
    ctl.handle("dealer", {"b": "deal"})
    why = refused_unchanged(ctl, "shuf", {"present": False, "state": "done", "count": "x"})
    assert why == 'shuf count must be a whole number, not "x"'
    assert ctl.shuffler_present


def test_a_garbage_card_of_another_deck_is_refused_not_a_foreign_card():
    # It used to call the round dead and retire the deck (13:47-20.38(h)) before the
    # code was looked at.
    ctl, hal = playing()
    why = refused_unchanged(ctl, "card", {"code": "??", "deck": "Z"})
    assert why.startswith('unknown card code "??"')
    refused_unchanged(ctl, "card", {"code": "As", "deck": "Z"})
    for code in ("as", "AS"):
        refused_unchanged(ctl, "card", {"code": code})
    assert ctl.decks.usable() and ctl.round.called_off is None


def test_a_no_limit_raise_above_the_posted_maximum_wager_is_refused():
    # 19:47-8.2: the posted maximum bounds every wager, in no limit too.
    cfg = with_(TWO, structure="no", max_wager=20, cap=0, stacks=[1000, 1000])
    ctl, hal = playing(cfg)
    for code in ("2c", "3c", "4c", "5c"):
        assert ctl.handle("card", {"code": code}) is None
    turn = events(hal, "to_act")[-1]
    assert turn["max"] == 2 + 20                 # the level (the big blind) plus 20
    seat = turn["seat"]
    why = refused_unchanged(ctl, "btn", {"seat": seat, "b": "raise", "to": 500})
    assert why == "raise to 500 refused: above the posted maximum wager of 20 " \
        "(19:47-8.2); the no limit may go to 4..22"
    assert ctl.handle("btn", {"seat": seat, "b": "raise", "to": 22}) is None


def test_a_chip_must_be_a_real_chip_and_the_announcement_a_yes_or_no():
    cfg = with_(TWO, structure="no", cap=0)
    ctl, hal = playing(cfg)
    for code in ("2c", "3c", "4c", "5c"):
        ctl.handle("card", {"code": code})
    seat = ctl.round.to_act
    assert refused_unchanged(ctl, "chip", {"seat": seat, "amount": -100}) == (
        "chip amount must be 1 to 10000000, not -100")
    assert refused_unchanged(ctl, "chip", {"seat": seat, "amount": 5, "announced": "no"}) == (
        'chip announced must be true or false, not "no"')


def test_posted_rake_limits_are_refused_when_beyond_the_rules():
    ctl = Controller(FakeHal(), BOARD, Journal())
    # An increment that takes a whole pot; a time charge with no ceiling.
    assert ctl.handle("cfg", with_(TWO, rake={"method": "incremental",
                                              "levels": [[1, 1000000]]})) == (
        "a rake of 1000000 at a pot of 1 is above 10 % of it (13:47-20.37(a)4)")
    assert ctl.handle("cfg", with_(TWO, rake={"method": "time", "hourly": 1000000,
                                              "every": 30}, max_wager=20)) == (
        "a time charge of 1000000 an hour is above ten maximum wagers (200)")
    assert ctl.handle("cfg", with_(TWO, rake={"method": "time", "hourly": 1000000,
                                              "every": 30})) == (
        "a time charge of 1000000 an hour is above a hundred minimum wagers (200): no "
        "maximum wager is posted")
    assert ctl.config is None


def test_settings_of_the_wrong_type_or_size_are_refused():
    ctl = Controller(FakeHal(), BOARD, Journal())
    assert ctl.handle("cfg", with_(TWO, check_raise="yes")) == "check_raise must be true or false"
    assert ctl.handle("cfg", with_(TWO, straddle=7)) == "straddle must be true or false"
    assert ctl.handle("cfg", with_(TWO, stacks=[10 ** 200, 100])).startswith(
        "each stack must be a whole number of chips 0 to 10000000")
    assert ctl.handle("cfg", with_(TWO, big_bet=400, max_wager=20)) == (
        "a bet of 400 is above the posted maximum wager of 20 (19:47-8.2)")
    assert ctl.config is None


def test_every_reason_fits_a_frame():
    # A refusal goes out as a nak and a `refused` event: it must fit the link's frame.
    ctl, hal = playing()
    why = refused_unchanged(ctl, "shuf", {"missing": ["As"] * 60})
    assert len(why) < 200


def test_the_largest_table_answers_state_and_sign_within_a_frame():
    # Every amount is bounded (felt.check.MAX_CHIPS), so no configuration can make an
    # answer longer than the link's frame (docs/protocol.md, 1024 bytes).
    from felt import check, protocol as P
    from felt.table import config as config_mod
    from table_fakes import FakePixels
    big = check.MAX_CHIPS
    board = {"name": "x" * 20, "leds": {"count": 60, "seats": [[i * 5, 5] for i in range(11)],
                                        "centre": [55, 5]}}
    hal = FakeHal()
    hal.pixels = FakePixels(60)
    ctl = Controller(hal, board, Journal())
    cfg = {"game": "crazy-pineapple", "seats": 11, "stacks": [big] * 9 + [0, 0],
           "structure": "spread", "small_bet": big // 10, "big_bet": big,
           "blinds": [big // 10, big // 10], "ante": big, "cap": 999, "min_wager": big // 10,
           "max_wager": big, "rake": {"method": "incremental", "maximum": big,
                                      "levels": [[big - 7 + i, 1] for i in range(8)]}}
    assert ctl.handle("cfg", cfg) is None
    assert len(P.encode(65535, "state", ctl.snapshot())) <= P.MAX_FRAME
    assert len(P.encode(65535, "sign", {"text": config_mod.sign(ctl.config)})) <= P.MAX_FRAME
    # With every setting but the seats and stacks changing (19:47-8.3(b)): still one frame.
    change = {"game": "pineapple", "small_bet": big // 10 - 1, "big_bet": big - 1,
              "blinds": [big // 10 - 1] * 2, "ante": big - 1, "cap": 998, "min_wager": big // 11,
              "max_wager": big - 1, "check_raise": False, "straddle": True,
              "regime": "casino", "button": "high_card",
              "rake": {"method": "incremental", "maximum": big - 1,
                       "levels": [[big - 8 + i, 2] for i in range(8)]}}
    assert ctl.handle("rules", change) is None and ctl.coming is not None
    assert ctl.handle("sign", {}) is None
    text = [p for k, p in hal.link.sent if k == "sign"][-1]["text"]
    assert "Rule change at table minute 30" in text
    assert len(P.encode(65535, "sign", {"text": text})) <= P.MAX_FRAME


def test_null_in_a_message_is_a_field_left_out():
    # One rule for every field: an optional one null takes its default, a required one
    # null is missing, refused by its name.
    ctl, hal = playing()
    assert refused_unchanged(ctl, "btn", {"seat": None, "b": "call"}) == "btn lacks seat"
    assert refused_unchanged(ctl, "card", {"code": None}) == "card lacks code"
    assert ctl.handle("card", {"code": "2c", "deck": None, "face_up": None}) is None
    assert events(hal, "dealt")[-1]["card"] == "2c"
    for code in ("3c", "4c", "5c"):
        assert ctl.handle("card", {"code": code}) is None
    seat = ctl.round.to_act
    assert ctl.handle("btn", {"seat": seat, "b": "raise", "to": None}) is None
    assert events(hal, "action")[-1]["a"] == "raise"
    assert ctl.handle("eventlog", {"from": None}) is None
    cfg = Controller(FakeHal(), BOARD, Journal())
    assert cfg.handle("cfg", with_(TWO, stacks=None)) == (
        "the configuration lacks stacks: one amount per seat")
    assert cfg.handle("cfg", with_(TWO, blinds=None, max_wager=None, rake=None)) is None
