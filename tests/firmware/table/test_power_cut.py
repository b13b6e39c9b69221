"""A power cut: the controller resumes from its journal at boot (felt.table.journal,
Controller._resume), mid-round or between rounds; a journal it cannot read locks the
table and is left as found (more of that in test_journal.py).  Runs on CPython and
MicroPython."""

from felt.table.controller import IDLE, PLAYING
from felt.table.journal import Journal

from table_fakes import (BOARD, Wire, boot, events, fold_round, journal_path, read_bytes,
                         serve, start_round, write_bytes)

CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}
HOLES = "2c 3c 4c 5c 2d 3d 4d 5d"


def three_cards_dealt(path):
    """A table journaling to `path`, its first round three hole cards in."""
    ctl, _ = boot(path)
    assert ctl.handle("cfg", CFG) is None
    start_round(ctl)
    for code in HOLES.split()[:3]:
        assert ctl.handle("card", {"code": code}) is None


def lines(path):
    with open(path) as f:
        return f.read().split("\n")[:-1]


def write(path, text_lines):
    with open(path, "w") as f:
        f.write("\n".join(text_lines) + "\n")


def test_a_power_cut_mid_round_resumes_the_round_where_it_was():
    path = journal_path("cut-mid-round")
    ctl, _ = boot(path)
    assert ctl.handle("cfg", CFG) is None
    start_round(ctl)
    for code in HOLES.split():
        assert ctl.handle("card", {"code": code}) is None
    assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "raise"}) is None
    before = ctl.snapshot()
    ctl2, hal2 = boot(path)                     # the power comes back
    assert ctl2.snapshot() == before and ctl2.state == PLAYING
    assert events(hal2, "resumed") == [{"e": "resumed", "hand": 1, "state": PLAYING,
                                        "events": 9}]
    # The player on turn is asked again, and play goes on to the end.
    assert events(hal2, "to_act")[-1]["seat"] == before["to_act"]
    assert ctl2.handle("btn", {"seat": 0, "b": "call"}) is not None   # out of turn
    while ctl2.state == PLAYING:
        r = ctl2.round
        if r.expecting() is not None:
            assert ctl2.handle("card", {"code": "AKQJT98765"[len(r.board)] + "h"}) is None
        else:
            assert ctl2.handle("btn", {"seat": r.to_act, "b": "call"}) is None
    assert sum(ctl2.stacks) == 400 and events(hal2, "end")[0]["hand"] == 1


def test_power_cuts_while_the_players_answer_and_between_runouts_resume_the_runouts():
    # 13:69F-14.10(l): the answers to running the board twice and the runouts dealt
    # are round events like any other: journaled, replayed at boot.  The button on
    # seat 3: seat 2 moves all in for 100, the others call all-in (50, 30, 20).
    path = journal_path("cut-run-it")
    ctl, _ = boot(path)
    cfg = dict(CFG, structure="no", stacks=[30, 20, 100, 50], run_it=2, cap=0)
    assert ctl.handle("cfg", cfg) is None
    start_round(ctl)
    for code in "As Ks Qs Js Ad Kd Qd Jd".split():
        assert ctl.handle("card", {"code": code}) is None
    assert ctl.handle("btn", {"seat": 2, "b": "raise", "to": 100}) is None
    for seat in (3, 0, 1):
        assert ctl.handle("btn", {"seat": seat, "b": "call"}) is None
    assert ctl.handle("btn", {"seat": 0, "b": "raise"}) is None     # agrees
    before = ctl.snapshot()
    ctl, hal = boot(path)                       # the power comes back mid-question
    assert ctl.snapshot() == before
    assert events(hal, "to_act")[-1] == {"e": "to_act", "seat": 1,
                                         "legal": ["run_it", "run_once"]}
    for seat in (1, 2, 3):
        assert ctl.handle("btn", {"seat": seat, "b": "raise"}) is None
    for code in "2d 2c 7h 9d 3d 3s 4d 4c 5d".split():   # the first runout, a burn
        assert ctl.handle("card", {"code": code}) is None
    before = ctl.snapshot()
    ctl, hal = boot(path)                       # and back between the runouts
    assert ctl.snapshot() == before and ctl.round.runouts == 2
    assert ctl.round.boards[0] and hal.card_reader.calls == [("board", -1)]
    for code in "Qh 5c 8d 6d Jc 7d 2h".split():
        assert ctl.handle("card", {"code": code}) is None
    assert ctl.state == IDLE and sum(ctl.stacks) == 200
    assert [e["n"] for e in events(hal, "runout")] == [1, 2]


def test_a_power_cut_while_a_card_is_due_asks_for_it_again():
    path = journal_path("cut-card-due")
    three_cards_dealt(path)
    ctl2, hal2 = boot(path)
    assert hal2.card_reader.calls == [("hole", 3)]     # the button's first card, as before
    assert "already seen" in ctl2.round.why_not(("card", "2c"))   # dealt before the cut
    assert ctl2.handle("card", {"code": "5c"}) is None


def test_between_rounds_the_table_keeps_stacks_button_decks_and_configuration():
    path = journal_path("cut-between")
    ctl, _ = boot(path)
    ctl.handle("cfg", CFG)
    fold_round(ctl)
    # 13:47-20.38(h): a deck retired stays retired across the cut.
    ctl.handle("dealer", {"b": "deal"})
    ctl.handle("shuf", {"state": "done", "count": 51, "missing": ["As"]})
    before = ctl.lasting()
    ctl2, hal2 = boot(path)
    assert ctl2.lasting() == before and ctl2.state == IDLE
    assert ctl2.decks.as_dict() == {"in_play": "A", "retired": ["B"]}
    assert ctl2.stacks == [99, 101, 100, 100] and ctl2.button == 0
    assert events(hal2, "resumed") == [{"e": "resumed", "hand": 1, "state": IDLE, "events": 0}]
    # The shuffle it waited for is not trusted: the dealer deals again, shuffle and cut.
    assert ctl2.handle("dealer", {"b": "deal"}) is None and hal2.shuffler.calls == [("start",)]


def test_a_power_cut_after_the_last_event_of_a_round_ends_it_on_resuming():
    path = journal_path("cut-at-end")
    ctl, _ = boot(path)
    ctl.handle("cfg", CFG)
    fold_round(ctl)
    after = ctl.lasting()
    kept = lines(path)
    assert ' {"table":' in kept[-2] and ' {"copy":1,"table":' in kept[-1]
    write(path, kept[:-2])                     # the cut came before the table was saved
    ctl2, hal2 = boot(path)
    assert ctl2.lasting() == after and ctl2.state == IDLE
    assert events(hal2, "end")[0]["stacks"] == [99, 101, 100, 100]


def test_a_record_cut_short_by_the_power_cut_is_cut_off_and_play_goes_on():
    # The event was being written before the table acted on it: it never happened.  It
    # is cut off the file at boot, so the next record never follows part of one.
    path = journal_path("cut-torn")
    three_cards_dealt(path)
    whole = read_bytes(path)
    ctl, _ = boot(path)
    assert ctl.handle("card", {"code": "5c"}) is None
    fourth = read_bytes(path)[len(whole):]
    for k in range(1, len(fourth)):            # the power fails after k bytes of it
        write_bytes(path, whole + fourth[:k])
        ctl2, hal2 = boot(path)
        assert ctl2.locked is None and hal2.card_reader.calls == [("hole", 3)]
        assert len(ctl2.round.just_dealt) == 3 and read_bytes(path) == whole
    assert ctl2.handle("card", {"code": "5c"}) is None
    assert read_bytes(path) == whole + fourth     # the same record, whole this time
    ctl3, hal3 = boot(path)
    assert ctl3.locked is None and len(ctl3.round.just_dealt) == 4


def test_a_journal_that_cannot_be_read_locks_the_table_and_is_left_as_found():
    path = journal_path("cut-corrupt")
    ctl, _ = boot(path)
    ctl.handle("cfg", CFG)
    start_round(ctl)
    text = lines(path)
    write(path, text[:1] + ["garbage"] + text[1:])
    ctl2, hal2 = boot(path)
    why = "journal %s line 2: not a journal record" % path
    assert ctl2.locked == why and events(hal2, "locked") == [
        {"e": "locked", "code": "critical_memory", "why": why}]
    assert ctl2.config is None and events(hal2, "resumed") == []
    # Play is stopped, and nothing more is written: a technician sees what was found.
    assert ctl2.handle("cfg", CFG) == "the table is locked: " + why
    assert lines(path) == text[:1] + ["garbage"] + text[1:]


def test_a_long_journal_moves_aside_between_rounds_and_still_resumes():
    import os
    path = journal_path("cut-rotate")
    ctl, _ = boot(path, limit=600)
    ctl.handle("cfg", CFG)
    for _ in range(3):
        fold_round(ctl)
    # Each file begins with its stamp and a table record; the numbers run on.
    first = lines(path)
    assert os.stat(path + ".1")[6] > 600 and ' {"stamp":' in first[0]
    assert ' {"table":' in first[1] and ' {"copy":1,"table":' in first[2]
    assert int(first[0].split()[0]) == int(lines(path + ".1")[-1].split()[0]) + 1
    start_round(ctl)
    before = ctl.snapshot()
    ctl2, _ = boot(path)
    assert ctl2.snapshot() == before and ctl2.hand == 4


def test_a_frame_applied_before_the_cut_is_acked_again_not_applied_twice():
    # The board journaled and applied the card, then lost power before its ack went
    # out: the host resends the same frame to the rebooted board (docs/protocol.md, 5).
    from felt import protocol as P
    from felt.hal import link as L
    from felt.table.controller import Controller
    path = journal_path("cut-resend")
    frames = [P.encode(0, "cfg", CFG), P.encode(1, "dealer", {"b": "deal"}),
              P.encode(2, "shuf", {"state": "done"}), P.encode(3, "dealer", {"b": "cut_done"}),
              P.encode(4, "card", {"code": "2c"})]
    wire = Wire(*frames)
    hal = L.open(BOARD, wire)
    serve(wire, Controller(hal, BOARD, Journal(path)).handle, hal.link)
    assert [p for k, p in wire.frames() if k == "ack"][-1] == {"seq": 4}
    wire2 = Wire(frames[-1], P.encode(5, "card", {"code": "3c"}))
    hal2 = L.open(BOARD, wire2)
    ctl2 = Controller(hal2, BOARD, Journal(path))
    serve(wire2, ctl2.handle, hal2.link)
    said = wire2.frames()
    assert [p for k, p in said if k in ("ack", "nak")] == [{"seq": 4}, {"seq": 5}]
    assert ctl2.state == PLAYING and ctl2.round.called_off is None
    assert [p["card"] for k, p in said if k == "evt" and p["e"] == "dealt"] == ["3c"]


# ----- every lasting change a button or a message makes, kept across power cuts ----------

FOUR = {"game": "four-card-poker", "seats": 3, "stacks": [100, 100, 0], "min_wager": 5,
        "max_wager": 50}


def kept_across_cuts(name, cfg, changes):
    """The table configured with `cfg`, then each of `changes` ((what, change(ctl))) made
    by buttons and messages on a table just back from a power cut: each is kept by the
    next cut and the one after it (it is journaled, and nothing it changed is shared
    with the copy the table keeps of what it journaled)."""
    path = journal_path(name)
    ctl, _ = boot(path)
    assert ctl.handle("cfg", cfg) is None
    for what, change in changes:
        ctl, _ = boot(path)                    # the power was cut and came back
        before = ctl.lasting()
        change(ctl)
        after = ctl.lasting()
        assert after != before, "%s changed nothing" % what
        for _ in range(2):                     # cut, resume; cut again, resume
            ctl, _ = boot(path)
            assert ctl.locked is None, ctl.locked
            assert ctl.lasting() == after, "%s lost at a power cut" % what


def sent(*messages):
    """A change made by these messages, each accepted."""
    def change(ctl):
        for kind, payload in messages:
            assert ctl.handle(kind, payload) is None, (kind, payload)
    return change


def test_a_side_wager_set_by_a_seat_button_after_a_power_cut_survives_the_next_cuts():
    # The lost side wager: the table resumed with its saved copy's own list of wagers,
    # so a button's change was never seen as a change and never journaled.
    kept_across_cuts("cut-side-wager", FOUR, [
        ("seat 0's aces up wager by its raise button", sent(("btn", {"seat": 0, "b": "raise"}))),
        ("seat 1 sitting out by its fold button", sent(("btn", {"seat": 1, "b": "fold"}))),
        ("seat 1 back to the ante alone by its call button",
         sent(("btn", {"seat": 1, "b": "call"})))])


def test_standing_wagers_set_by_the_wager_message_after_a_power_cut_survive_the_next_cuts():
    kept_across_cuts("cut-wager-message", FOUR, [
        ("seat 1's aces up wager alone", sent(("wager", {"seat": 1, "ante": 0, "side": 10}))),
        ("seat 0's ante and side", sent(("wager", {"seat": 0, "ante": 20, "side": 5})))])


def banked_round(ctl):
    """A Four Card Poker round dealt and decided: the house's result, the stacks, the
    hand and the decks change."""
    for kind, payload in (("dealer", {"b": "deal"}), ("shuf", {"state": "done"}),
                          ("dealer", {"b": "cut_done"})):
        assert ctl.handle(kind, payload) is None
    for code in "As Ks 2c Ad Kd 3c Ac Kc 5d Qh 9s 7h 2s 8d 9c Jd".split():
        assert ctl.handle("card", {"code": code}) is None
    assert ctl.handle("btn", {"seat": 0, "b": "raise"}) is None
    assert ctl.handle("btn", {"seat": 1, "b": "fold"}) is None


def test_a_banked_round_played_after_a_power_cut_survives_the_next_cuts():
    kept_across_cuts("cut-banked-round", FOUR, [("a round settled with the house", banked_round),
                                                ("another round", banked_round)])


def shoe_failure(ctl):
    """A round under way voided by a jammed shoe (19:47-27.12(f)): the shoe must go."""
    start_round(ctl)
    assert ctl.handle("card", {"code": "2c"}) is None
    assert ctl.handle("shoe", {"state": "jam"}) is None


def misdeal(ctl):
    """A round under way called off as a misdeal (13:47-20.38(f))."""
    start_round(ctl)
    assert ctl.handle("card", {"code": "2c"}) is None
    assert ctl.handle("dealer", {"b": "misdeal", "why": "wrong_start"}) is None


def test_every_lasting_change_at_a_poker_table_after_a_power_cut_survives_the_next_cuts():
    kept_across_cuts("cut-poker-changes", CFG, [
        ("a round played: stacks, button, hand, decks", fold_round),
        ("a misdeal called off", misdeal),
        ("a failed shoe to remove (19:47-27.12(g))", shoe_failure),
        ("the failed shoe removed", sent(("shoe", {"present": False}))),
        ("a deck retired by the shuffler's check (13:47-20.38(h))",
         sent(("dealer", {"b": "deal"}), ("shuf", {"state": "done", "count": 51}))),
        ("the retired deck registered again", sent(("deck", {"register": "B"}))),
        ("the shuffler removed", sent(("dealer", {"b": "shuffler_removed"}))),
        ("the shuffler fitted again", sent(("shuf", {"present": True}))),
        ("the table's clock", sent(("clock", {"minutes": 12}))),
        ("a rule change posted (19:47-8.3(b))", sent(("rules", {"cap": 3}))),
        ("the rule change in effect", sent(("clock", {"minutes": 42}))),
        ("the maximum wager changed at once (19:47-8.3(c))",
         sent(("rules", {"max_wager": 40}))),
        ("a new table", sent(("cfg", dict(CFG, stacks=[50, 60, 70, 80]))))])


def test_time_charges_after_a_power_cut_survive_the_next_cuts():
    # 13:47-20.37(a)4iii: the stacks, the rake and the assessments made.
    cfg = dict(CFG, rake={"method": "time", "hourly": 6, "every": 30})
    kept_across_cuts("cut-time-charges", cfg, [
        ("a time charge", sent(("clock", {"minutes": 30}))),
        ("two more", sent(("clock", {"minutes": 95})))])
