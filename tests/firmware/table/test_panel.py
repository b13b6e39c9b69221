"""The dealer's panel (felt.table.panel): keys become the messages of the link, handled
as every input is; the display says what was keyed, what the table takes and why it
refused.  Seats are keyed and shown from 1."""

from felt.poker import cards as C
from felt.table.controller import Controller
from felt.table.journal import Journal

from table_fakes import BOARD, FakeHal, events

NO_LIMIT = {"seats": 3, "stacks": [50, 50, 50], "structure": "no", "small_bet": 2,
            "blinds": [1, 2], "cap": 0}
FOUR = {"game": "four-card-poker", "seats": 3, "stacks": [100, 100, 100], "min_wager": 5,
        "max_wager": 50}
CARDS = "2c 3c 4c 5c 2d 3d 9s Ah Kh Qd 8s 7h 6s Jc".split()


def table(cfg):
    hal = FakeHal()
    hal.keypad = True            # a keypad at the dealer's place: the panel is made
    ctl = Controller(hal, BOARD, Journal())
    assert ctl.handle("cfg", cfg) is None
    return ctl, hal


def keys(ctl, typed):
    """Each key of `typed` pressed in turn; the last message sent, if any."""
    sent = None
    for k in typed:
        sent = ctl.panel.key(k) or sent
    return sent


def dealt(cfg=NO_LIMIT):
    """A no-limit hold 'em table of three, its hole cards dealt: seat 2 (keyed 3) acts."""
    ctl, hal = table(cfg)
    for kind, p in (("dealer", {"b": "deal"}), ("shuf", {"state": "done"}),
                    ("dealer", {"b": "cut_done"})):
        assert ctl.handle(kind, p) is None
    while ctl.round.expecting() is not None:
        assert ctl.handle("card", {"code": CARDS[len(ctl.journal.events)]}) is None
    return ctl, hal


def test_an_amount_keyed_is_the_bet_or_raise_of_the_seat_on_turn():
    ctl, hal = dealt()
    assert ctl.panel.lines()[:3] == ["#1 seat 3 acts", "> s3 to _", "4-50 pot 3"]
    assert keys(ctl, "12#") == ("btn", {"seat": 2, "b": "raise", "to": 12})
    assert events(hal, "action")[-1] == {"e": "action", "seat": 2, "a": "raise",
                                         "amount": 12, "all_in": False}
    assert ctl.panel.lines()[:4] == ["#1 seat 1 acts", "> s1 to _", "22-50 pot 15",
                                     "ok: to 12"]


def test_a_raise_the_table_refuses_is_shown_with_its_reason_and_changes_nothing():
    ctl, hal = dealt()
    keys(ctl, "3#")
    assert ctl.round.to_act == 2 and not events(hal, "action")
    lines = ctl.panel.lines()
    assert lines[3].startswith("! raise to 3")
    assert "".join(lines[3:]).startswith("! " + events(hal, "refused")[-1]["why"][:40])


def test_the_most_key_keys_all_in_and_star_clears():
    ctl, hal = dealt()
    keys(ctl, "7")
    assert ctl.panel.lines()[1] == "> s3 to 7_"
    keys(ctl, "*")
    assert ctl.panel.lines()[1] == "> s3 to _"
    keys(ctl, "D")
    assert ctl.panel.lines()[1] == "> s3 to 50_"
    assert keys(ctl, "#") == ("btn", {"seat": 2, "b": "raise", "to": 50})
    assert events(hal, "action")[-1]["all_in"] is True


def test_a_seat_named_with_a_keys_its_amount_and_one_out_of_turn_is_refused():
    ctl, hal = dealt()
    assert keys(ctl, "A1#12#") == ("btn", {"seat": 0, "b": "raise", "to": 12})
    assert "out of turn" in ctl.panel.said
    assert keys(ctl, "A9#") is None and ctl.panel.said == "! no seat 9 at this table"


def test_a_foul_and_a_player_away_name_their_seat():
    ctl, hal = dealt()
    assert keys(ctl, "C14#") == ("dealer", {"b": "foul", "seat": 3})
    assert keys(ctl, "C1#") is None and ctl.panel.said.startswith("! key the seat")
    assert keys(ctl, "*C22#") == ("dealer", {"b": "player_away", "seat": 1})
    assert events(hal, "dead_hand")[-1] == {"e": "dead_hand", "seat": 1}


def test_a_card_report_names_a_card_by_rank_and_suit_or_the_card_last_read():
    ctl, hal = dealt()
    assert ctl.panel.lines()[1] == "> s3 to _"
    keys(ctl, "C3")
    assert ctl.panel.lines()[1] == "> card _ A-D"
    assert keys(ctl, "12B") == ("dealer", {"b": "exposed", "card": "Qd"})
    assert keys(ctl, "C4#") == ("dealer", {"b": "ineligible"})     # the card last read
    assert keys(ctl, "C314") is None and ctl.panel.lines()[1] == "> card 14_ A-D"
    assert keys(ctl, "A") is None and ctl.panel.said.startswith("! key the rank")


def test_a_misdeal_and_a_dead_round_give_their_reason_by_number():
    ctl, hal = dealt()
    assert keys(ctl, "C6") is None and ctl.panel.lines()[1] == "> why 1-4 or #"
    assert keys(ctl, "9") is None and ctl.panel.said == "! reasons are 1 to 4"
    assert keys(ctl, "2") == ("dealer", {"b": "misdeal", "why": "wrong_start"})
    assert events(hal, "end")[-1]["called_off"] == "misdeal"


def test_standing_wagers_are_keyed_for_a_seat_and_kept_where_left_out():
    ctl, hal = table(FOUR)
    assert keys(ctl, "B2#10#5#") == ("wager", {"seat": 1, "ante": 10, "side": 5})
    assert ctl.wagers[1] == [10, 5] and ctl.panel.said == "ok: s2 ante 10 side 5"
    assert keys(ctl, "B2##0#") == ("wager", {"seat": 1, "side": 0})
    assert ctl.wagers[1] == [10, 0]
    keys(ctl, "B3#60#")
    assert ctl.panel.lines()[1] == "> side _"
    assert keys(ctl, "#") == ("wager", {"seat": 2, "ante": 60})
    assert ctl.wagers[2] == [5, 0] and ctl.panel.said.startswith("! ")


def test_a_banked_decision_is_keyed_for_its_seat():
    ctl, hal = table(dict(FOUR, stacks=[100, 0, 0]))
    for kind, p in (("dealer", {"b": "deal"}), ("shuf", {"state": "done"}),
                    ("dealer", {"b": "cut_done"})):
        assert ctl.handle(kind, p) is None
    for code in "As Ks 2c Ad Kd 3c Ac Kc 5d Qh 9s".split():   # 5 each, the dealer 6
        assert ctl.handle("card", {"code": code}) is None
    assert ctl.panel.lines()[0] == "#1 1 deciding"
    assert keys(ctl, "10#") is None and ctl.panel.said.startswith("! no seat is on turn")
    assert keys(ctl, "A1#10#") == ("btn", {"seat": 0, "b": "raise", "to": 10})
    assert events(hal, "wager")[-1] == {"e": "wager", "seat": 0, "kind": "play",
                                        "amount": 10}


# ----- discards over the muck reader -----------------------------------------------------

DRAW = {"game": "triple-draw-27", "seats": 3, "stacks": [100, 100, 100], "small_bet": 2,
        "big_bet": 4, "blinds": [1, 2], "cap": 4}
# Five cards a seat, one at a time from seat 0; seat 0 holds 2c 3c 4c 5c Kd.
DRAW_CARDS = ("2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h Kd Kh Ks").split()


def wired(cfg):
    """A wired board with the dealer's keypad and a muck reader, configured."""
    hal = FakeHal()
    hal.wired = hal.keypad = hal.muck = True
    ctl = Controller(hal, BOARD, Journal())
    assert ctl.handle("cfg", cfg) is None
    return ctl, hal


def to_the_draw(cfg=DRAW, cards=DRAW_CARDS):
    ctl, hal = wired(cfg)
    for kind, p in (("dealer", {"b": "deal"}), ("shuf", {"state": "done"}),
                    ("dealer", {"b": "cut_done"})):
        assert ctl.handle(kind, p) is None
    for code in cards:
        assert ctl.handle("card", {"code": code}) is None
    while ctl.round.to_act < 0 or "draw" not in ctl.round.legal_actions(ctl.round.to_act):
        if ctl.round.to_act < 0:
            assert ctl.handle("card", {"code": "9s"}) is None     # the burn before the draw
        else:
            assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "call"}) is None
    return ctl, hal


def test_a_draw_is_the_cards_the_muck_reader_read_and_hash_throws_them():
    ctl, hal = to_the_draw()
    seat = ctl.round.to_act
    assert seat == 0 and ctl.panel.lines()[1] == "> s1: # = pat"
    ctl.panel.muck("Kd")
    assert ctl.panel.lines()[1] == "> s1: Kd"
    assert keys(ctl, "#") == ("discard", {"seat": 0, "cards": "Kd"})
    assert events(hal, "discarded")[-1] == {"e": "discarded", "seat": 0, "count": 1}
    assert "Kd" not in C.codes(ctl.round.hole[0]).split()    # thrown away
    assert ctl.panel.said == "ok: s1 threw 1"


def test_hash_alone_stands_pat_and_star_forgets_the_cards_read():
    ctl, hal = to_the_draw()
    ctl.panel.muck("Kd")
    ctl.panel.muck("Kd")
    assert ctl.panel.said == "! muck: Kd read twice"
    keys(ctl, "*")
    assert ctl.panel.lines()[1] == "> s1: # = pat"
    assert keys(ctl, "#") == ("discard", {"seat": 0, "cards": ""})


def test_a_card_not_the_seats_is_refused_as_a_discard_and_a_misread_said():
    ctl, hal = to_the_draw()
    ctl.panel.muck("?")
    assert ctl.panel.said == "! muck misread: pass it again"
    ctl.panel.muck("As")
    keys(ctl, "#")
    assert ctl.round.to_act == 0 and ctl.panel.said.startswith("! ")
    assert events(hal, "refused")[-1]["what"] == "discard"


def test_a_card_read_at_the_muck_when_no_discard_is_due_is_left_alone():
    ctl, hal = dealt()
    ctl.panel.muck("9s")
    assert ctl.panel.said == "! muck: 9s, no discard now"
    assert ctl.panel.lines()[1] == "> s3 to _"


class Display:
    """felt.hal.display.TextDisplay's surface: what it showed, each time it changed."""
    rows = 8

    def __init__(self):
        self.shown = []

    def show(self, lines):
        if not self.shown or self.shown[-1] != lines:
            self.shown.append(list(lines))


def test_the_display_is_drawn_after_every_key_and_every_input_the_table_handled():
    hal = FakeHal()
    hal.keypad, hal.display = True, Display()
    ctl = Controller(hal, BOARD, Journal())
    assert hal.display.shown[-1][0] == "#0 idle"              # at boot
    assert ctl.handle("cfg", NO_LIMIT) is None
    n = len(hal.display.shown)
    keys(ctl, "7")
    assert len(hal.display.shown) == n + 1 and hal.display.shown[-1][1] == "> to 7_"
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert hal.display.shown[-1][0] == "#0 shuffling"
    n = len(hal.display.shown)
    ctl.handle("state", {})                                    # nothing new to show
    assert len(hal.display.shown) == n
