"""The controller: inputs in the protocol's vocabulary, refusals that change nothing,
the journal written before acting, and LED scenes drawn from state."""

from felt.table.controller import IDLE, PLAYING, SHUFFLING
from felt.table import scenes
from felt.table.recovery import rebuild

from table_fakes import LEDS, boot, configured, deal_holes, events, journal_path

CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}


def table(cfg=None):
    return configured(cfg or CFG)


def dealt_round(ctl, hal):
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.handle("shuf", {"state": "done"}) is None
    assert ctl.handle("dealer", {"b": "cut_done"}) is None   # 20.38(f)1: the cut
    for code in "2c 3c 4c 5c 2d 3d 4d 5d".split():
        assert ctl.handle("card", {"code": code}) is None


def test_deal_starts_the_shuffler_and_the_round_waits_for_it():
    ctl, hal = table()
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert hal.shuffler.calls == [("start",)] and ctl.state == SHUFFLING
    assert ctl.centre_status() == scenes.SHUFFLING
    ctl.handle("shuf", {"state": "done"})
    assert ctl.handle("dealer", {"b": "cut_done"}) is None   # 20.38(f)1: the cut
    assert ctl.state == PLAYING and hal.card_reader.calls[0] == ("hole", 0)


def test_a_shuffler_taken_off_mid_shuffle_calls_for_a_hand_shuffle():
    # 13:47-20.38(o) and (p): the dealer takes off a shuffler that never finishes its
    # cycle; the deck is shuffled by hand, then cut, and the round is dealt.
    from felt.table.states import HAND_SHUFFLE
    ctl, hal = table()
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.handle("shuf", {"state": "shuffling"}) is None
    assert ctl.handle("dealer", {"b": "shuffler_removed"}) is None
    assert ctl.state == HAND_SHUFFLE
    assert events(hal, "irregularity")[-1]["kind"] == "shuffler_jam"
    assert events(hal, "waiting")[-1]["for"] == HAND_SHUFFLE
    assert ctl.handle("dealer", {"b": "hand_shuffle_done"}) is None
    assert ctl.handle("dealer", {"b": "cut_done"}) is None
    assert ctl.state == PLAYING


def test_button_starts_right_of_the_dealer_when_so_configured():
    # 19:47-14.10(c)2i
    ctl, hal = table()
    ctl.handle("dealer", {"b": "deal"})
    assert events(hal, "button")[0]["seat"] == 3


def test_button_placed_by_high_card_when_so_configured():
    # 19:47-14.10(c)2ii: one card to each seat, the highest takes the button.
    cfg = dict(CFG)
    cfg["button"] = "high_card"
    ctl, hal = table(cfg)
    ctl.handle("dealer", {"b": "deal"})
    for code in ("Kc", "Ah", "As", "2d"):
        assert ctl.handle("card", {"code": code}) is None
    assert ctl.button == 2 and ctl.state == SHUFFLING


def test_out_of_turn_press_is_refused_reported_and_changes_nothing():
    ctl, hal = table()
    dealt_round(ctl, hal)
    before = (ctl.snapshot(), list(ctl.journal.events), list(hal.pixels.px))
    why = ctl.handle("btn", {"seat": 0, "b": "call"})
    assert "out of turn" in why
    assert events(hal, "refused")[-1]["why"] == why
    assert (ctl.snapshot(), list(ctl.journal.events), list(hal.pixels.px)) == before


def test_unknown_card_code_is_refused_and_changes_nothing():
    ctl, hal = table()
    ctl.handle("dealer", {"b": "deal"})
    ctl.handle("shuf", {"state": "done"})
    assert ctl.handle("dealer", {"b": "cut_done"}) is None   # 20.38(f)1: the cut
    before = ctl.snapshot()
    assert "unknown card code" in ctl.handle("card", {"code": "Xx"})
    assert ctl.snapshot() == before and ctl.journal.events == []


def test_malformed_message_is_refused_with_a_reason():
    ctl, hal = table()
    assert ctl.handle("btn", {"b": "call"}) == "btn lacks seat"
    assert "unknown message" in ctl.handle("teleport", {})


def test_invalid_configuration_is_refused_and_the_old_one_kept():
    ctl, hal = table()
    bad = dict(CFG)
    bad["seats"] = 12
    assert "seats must be" in ctl.handle("cfg", bad)
    bad = dict(CFG)
    bad["big_bet"] = 1
    assert "big_bet" in ctl.handle("cfg", bad)
    assert ctl.config.seats == 4


def test_call_button_checks_when_nothing_is_owed_and_raise_button_bets():
    ctl, hal = table()
    dealt_round(ctl, hal)
    for seat in (2, 3, 0):                           # button 3: blinds on seats 0 and 1
        ctl.handle("btn", {"seat": seat, "b": "call"})
    ctl.handle("btn", {"seat": 1, "b": "call"})      # the big blind checks its option
    assert events(hal, "action")[-1]["a"] == "check"
    for code in "9s Ah Kh Qd".split():
        ctl.handle("card", {"code": code})
    assert ctl.handle("btn", {"seat": 0, "b": "raise"}) is None
    assert events(hal, "action")[-1]["a"] == "bet"


def test_journal_is_written_before_acting_and_replays_to_the_same_round():
    ctl, hal = table()
    dealt_round(ctl, hal)
    ctl.handle("btn", {"seat": 0, "b": "raise"})
    r = rebuild(ctl.journal.header, ctl.journal.events)
    assert r.stacks == ctl.round.stacks and r.to_act == ctl.round.to_act
    assert r.hole == ctl.round.hole


def test_led_frame_shows_the_button_and_the_action_seat():
    ctl, hal = table()
    dealt_round(ctl, hal)
    assert scenes.button_seat(hal.pixels.px, LEDS) == 3
    assert scenes.seat_status(hal.pixels.px, LEDS, 2) == scenes.ACTION
    ctl.handle("btn", {"seat": 2, "b": "fold"})
    assert scenes.seat_status(hal.pixels.px, LEDS, 2) == scenes.FOLDED
    assert scenes.seat_status(hal.pixels.px, LEDS, 3) == scenes.ACTION


def test_round_end_shows_winners_moves_the_button_and_conserves_chips():
    ctl, hal = table()
    dealt_round(ctl, hal)
    for seat in (2, 3, 0):
        ctl.handle("btn", {"seat": seat, "b": "fold"})
    assert ctl.state == IDLE
    assert sum(ctl.stacks) == 400
    assert events(hal, "end")[0]["winners"] == [1]
    assert scenes.seat_status(hal.pixels.px, LEDS, 1) == scenes.WINNER
    assert ctl.button == 0   # 13:47-20.36(c)3: clockwise after each round


def test_deal_refused_while_a_round_is_under_way():
    ctl, hal = table()
    dealt_round(ctl, hal)
    assert "already under way" in ctl.handle("dealer", {"b": "deal"})


def test_a_press_lights_the_leds_and_the_showdowns_winners_before_its_journal_write():
    # The LEDs first: a board's UART and flash are slow, a seat's light must not wait,
    # nor the winners' (the showdown is settled before the press's journal write).
    ctl, hal = table()
    dealt_round(ctl, hal)
    order = []
    write, append, send = hal.pixels.write, ctl.journal.append, hal.link.send
    hal.pixels.write = lambda: (order.append("leds"), write())
    ctl.journal.append = lambda e: (order.append("journal"), append(e))
    hal.link.send = lambda k, p: (order.append(p.get("e", k)), send(k, p))
    cards = "9s Ah Kh Qd 8s 7h 6s Jc".split()
    while ctl.state == PLAYING:
        del order[:]
        if ctl.round.to_act >= 0:
            assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "call"}) is None
        else:
            assert ctl.handle("card", {"code": cards.pop(0)}) is None
    # The last call ended the round: its LEDs, then the showdown's winners lit, then
    # its record, then its frames, and nothing lit again once the round has ended.
    assert order[:4] == ["leds", "leds", "journal", "action"], order
    assert order.index("show") > 3 and order.count("leds") == 2 and "end" in order
    assert scenes.seat_status(hal.pixels.px, LEDS, events(hal, "end")[0]["winners"][0]) \
        == scenes.WINNER


def test_leds_that_do_not_change_are_not_written_again():
    ctl, hal = table()
    writes = hal.pixels.writes
    assert ctl.handle("clock", {"minutes": 5}) is None
    assert ctl.handle("state", {}) is None
    assert hal.pixels.writes == writes
    assert ctl.handle("dealer", {"b": "deal"}) is None    # shuffling: the centre changes
    assert hal.pixels.writes == writes + 1


def test_a_lost_host_link_stops_new_rounds_and_actions_but_not_the_tables_devices():
    # docs/tilts.md, link_lost: a table whose board needs its host (link.timeout_ms).
    ctl, hal = table()
    ctl.link_lost(True)
    assert ctl.centre_status() == scenes.LOCKED
    assert ctl.handle("dealer", {"b": "deal"}) == "the host link is lost: play waits for it"
    ctl.link_lost(False)
    dealt_round(ctl, hal)
    seat = ctl.round.to_act
    ctl.link_lost(True)
    assert ctl.handle("btn", {"seat": seat, "b": "call"}) == \
        "the host link is lost: play waits for it"
    assert ctl.handle("shuf", {"state": "idle"}) is None      # devices are still heard
    hal.link.frame = (7, "clock", {"minutes": 1}, None)       # the host speaks again
    assert ctl.handle("clock", {"minutes": 1}) is None
    hal.link.frame = None
    assert not ctl.link_down
    assert ctl.handle("btn", {"seat": seat, "b": "call"}) is None
    assert [r["code"] for r in ctl.eventlog.memory] == \
        ["link_lost", "link_restored", "link_lost", "link_restored"]


# ----- no limit: table stakes unless a maximum is posted (19:47-8.2) ---------------------

NO_LIMIT = {"seats": 3, "stacks": [50, 50, 50], "structure": "no", "small_bet": 2,
            "blinds": [1, 2], "cap": 0}
CARDS = "2c 3c 4c 5c 2d 3d 9s Ah Kh Qd 8s 7h 6s Jc".split()


def no_limit(**changes):
    """A no-limit hold 'em table of three, its hole cards dealt (seat 2 first to act)."""
    ctl, hal = table(dict(NO_LIMIT, **changes))
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.handle("shuf", {"state": "done"}) is None
    assert ctl.handle("dealer", {"b": "cut_done"}) is None
    cards(ctl)
    return ctl, hal


def cards(ctl):
    while ctl.round.expecting() is not None:
        assert ctl.handle("card", {"code": CARDS[len(ctl.journal.events)]}) is None


def flop(ctl):
    """Every seat calls before the flop; the flop is dealt."""
    for seat in (2, 0):
        assert ctl.handle("btn", {"seat": seat, "b": "call"}) is None
    assert ctl.handle("btn", {"seat": 1, "b": "call"}) is None     # the big blind checks
    cards(ctl)
    assert ctl.round.to_act == 0


def test_no_limit_without_a_posted_maximum_takes_an_all_in_of_50_from_a_50_stack():
    # 19:47-8.2(a) sets a floor under a posted maximum and invents none: table stakes.
    ctl, hal = no_limit()
    assert ctl.config.max_wager is None
    assert ctl.handle("btn", {"seat": 2, "b": "raise", "to": 20}) is None
    assert ctl.handle("btn", {"seat": 0, "b": "raise", "to": 50}) is None
    assert events(hal, "action")[-1] == {"e": "action", "seat": 0, "a": "raise",
                                         "amount": 49, "all_in": True}


def test_no_limit_without_a_posted_maximum_takes_a_flop_bet_of_30_from_1000_stacks():
    ctl, hal = no_limit(stacks=[1000, 1000, 1000])
    flop(ctl)
    assert events(hal, "to_act")[-1]["max"] == 998        # all in: the stack is the limit
    assert ctl.handle("btn", {"seat": 0, "b": "raise", "to": 30}) is None
    assert events(hal, "action")[-1] == {"e": "action", "seat": 0, "a": "bet",
                                         "amount": 30, "all_in": False}


def test_a_bet_over_the_posted_maximum_is_refused_as_a_bet_that_says_so():
    # The raise button bets when nothing is bet: its refusal is the bet's, not "no bet
    # to raise" (the last action it tried).
    ctl, hal = no_limit(stacks=[1000, 1000, 1000], max_wager=20)
    flop(ctl)
    before = ctl.snapshot()
    assert ctl.handle("btn", {"seat": 0, "b": "raise", "to": 30}) == (
        "bet to 30 refused: above the posted maximum wager of 20 (19:47-8.2); the no "
        "limit may go to 2..20")
    assert ctl.snapshot() == before
    assert ctl.handle("btn", {"seat": 0, "b": "raise", "to": 1}) == (
        "bet to 1 refused: the no limit may go to 2..20")
    assert ctl.handle("btn", {"seat": 0, "b": "raise", "to": 20}) is None


def test_a_refused_raise_press_names_the_raise_it_meant():
    ctl, hal = no_limit(stacks=[1000, 1000, 1000])
    assert ctl.handle("btn", {"seat": 2, "b": "raise", "to": 3}) == (
        "raise to 3 refused: the no limit may go to 4..1000")
    assert ctl.handle("btn", {"seat": 2, "b": "raise", "to": 1001}) == (
        "raise to 1001 refused: the no limit may go to 4..1000")


def test_asked_to_run_the_board_twice_raise_agrees_and_fold_or_call_declines():
    # 13:69F-14.10(l), docs/rules.md: seat 2 moves all in, seats 0 and 1 call all-in;
    # each is asked in turn from the button's left (seat 0 first: the button is seat 2).
    for press, answer, runouts in (("raise", "run_it", 2), ("fold", "run_once", 1),
                                   ("call", "run_once", 1)):
        ctl, hal = no_limit(stacks=[100, 100, 100], run_it=2)
        assert ctl.handle("btn", {"seat": 2, "b": "raise", "to": 100}) is None
        for seat in (0, 1):
            assert ctl.handle("btn", {"seat": seat, "b": "call"}) is None
        assert events(hal, "to_act")[-1] == {"e": "to_act", "seat": 0,
                                             "legal": ["run_it", "run_once"]}
        assert ctl.handle("btn", {"seat": 0, "b": "raise"}) is None
        assert "out of turn" in ctl.handle("btn", {"seat": 2, "b": "raise"})
        assert ctl.handle("btn", {"seat": 1, "b": press}) is None
        assert events(hal, "action")[-1] == {"e": "action", "seat": 1, "a": answer,
                                             "amount": 0, "all_in": False}
        if runouts == 1:
            assert ctl.round.to_act == -1 and ctl.round.expecting() == ("burn", -1)
            continue
        assert ctl.handle("btn", {"seat": 2, "b": "raise"}) is None
        assert events(hal, "runout") == [{"e": "runout", "n": 1, "of": 2, "board": ""}]
        for code in "9s Ah Kh Qd 8s 7h 6s Jc Tc Td Th Ts 9c 9d 9h As".split():
            assert ctl.handle("card", {"code": code}) is None
        assert ctl.state == IDLE and sum(ctl.stacks) == 300
        assert [e["n"] for e in events(hal, "runout")] == [1, 2, 1, 2]


# ----- faults: a bug is never answered as bad input --------------------------------------

def test_a_bug_in_a_handler_mid_change_locks_the_table_with_internal_fault_chips_unchanged():
    ctl, hal = table()
    dealt_round(ctl, hal)
    before = ctl.snapshot()
    journaled = list(ctl.journal.events)
    r = ctl.round
    rules_apply = type(r).apply

    def apply_then_fail(self, event, settle=True):
        rules_apply(self, event, settle)     # the chips moved into the pot ...
        raise TypeError("a bug")             # ... and then the bug
    type(r).apply = apply_then_fail          # the class's: a Round has slots (CPython)
    seat = r.to_act
    try:
        why = ctl.handle("btn", {"seat": seat, "b": "raise"})
    finally:
        type(r).apply = rules_apply
    assert ctl.locked.startswith("internal fault: TypeError in apply_then_fail (")
    assert ctl.locked.endswith(", handling btn")
    assert why == "the table is locked: " + ctl.locked
    # The host sees the fault, not a refusal; the event log keeps where it was.
    assert events(hal, "locked") == [{"e": "locked", "code": "internal_fault",
                                      "why": ctl.locked}]
    assert events(hal, "refused") == []
    assert ctl.eventlog.memory[-1]["code"] == "internal_fault"
    assert "TypeError in apply_then_fail" in ctl.eventlog.memory[-1]["detail"]
    # The round is put back: every chip where it was, nothing journaled.
    assert ctl.snapshot() == dict(before, locked=ctl.locked)
    assert ctl.journal.events == journaled and ctl.round.to_act == seat
    assert ctl.centre_status() == scenes.LOCKED
    assert ctl.handle("btn", {"seat": seat, "b": "call"}) == why


def test_a_fault_between_rounds_puts_back_the_chips_it_moved():
    # A time charge (13:47-20.37(a)4iii) takes chips from the stacks, then fails.
    ctl, hal = table(dict(CFG, rake={"method": "time", "hourly": 6, "every": 30}))
    before = ctl.lasting()
    send = hal.link.send

    def send_fails(kind, payload):
        if payload.get("e") == "time_charge":
            raise KeyError("charges")
        send(kind, payload)
    hal.link.send = send_fails
    why = ctl.handle("clock", {"minutes": 30})
    assert why.startswith("the table is locked: internal fault: KeyError in send_fails (")
    assert ctl.lasting() == before and sum(ctl.stacks) == 400


def journaling_round(name):
    """A table journaling to a file of its own, its round's hole cards dealt;
    (controller, hal, the journal's path)."""
    path = journal_path(name)
    ctl, hal = boot(path)
    assert ctl.handle("cfg", CFG) is None
    deal_holes(ctl)
    return ctl, hal, path


def test_a_handler_failing_after_its_journal_write_is_acked_and_the_reboot_resumes_with_it():
    # A nak is final (docs/protocol.md, 5): a frame the journal took is answered as
    # applied, since the next boot resumes with it (felt.table.recovery).
    ctl, hal, path = journaling_round("fault-journaled")
    seat = ctl.round.to_act
    send = hal.link.send

    def send_fails(kind, payload):     # the journal took the call; its frames fail
        if payload.get("e") == "action":
            raise KeyError("action")
        send(kind, payload)
    hal.link.send = send_fails
    assert ctl.handle("btn", {"seat": seat, "b": "call"}) is None
    assert ctl.locked.startswith("internal fault: KeyError in send_fails (")
    assert events(hal, "refused") == []
    ctl, hal = boot(path)               # a technician reboots the board
    called, _, _ = journaling_round("fault-journaled-twin")    # the same call, no fault
    assert called.handle("btn", {"seat": seat, "b": "call"}) is None
    assert ctl.snapshot() == called.snapshot() and ctl.round.to_act != seat


def test_a_handler_failing_before_any_journal_write_is_nakked_and_the_reboot_is_without_it():
    ctl, hal, path = journaling_round("fault-unjournaled")
    seat = ctl.round.to_act
    before = ctl.snapshot()
    r = ctl.round
    rules_apply = type(r).apply

    def fails(self, event, settle=True):
        raise TypeError("a bug")
    type(r).apply = fails                # the class's: a Round has slots (CPython)
    try:
        why = ctl.handle("btn", {"seat": seat, "b": "call"})
    finally:
        type(r).apply = rules_apply
    assert why == "the table is locked: " + ctl.locked
    ctl, hal = boot(path)               # a technician reboots the board
    assert ctl.snapshot() == before and ctl.round.to_act == seat


def test_running_out_of_memory_in_a_handler_still_reboots_the_board():
    # felt.guard reboots on a MemoryError: the table resumes from its journal.
    ctl, hal = table()
    dealt_round(ctl, hal)
    cls = type(ctl.round)
    rules_apply = cls.apply

    def out_of_memory(self, event, settle=True):
        raise MemoryError()
    cls.apply = out_of_memory                # the class's: a Round has slots (CPython)
    try:
        ctl.handle("btn", {"seat": ctl.round.to_act, "b": "call"})
    except MemoryError:
        pass
    else:
        raise AssertionError("a MemoryError was answered")
    finally:
        cls.apply = rules_apply
    assert ctl.locked is None


def test_a_question_the_heap_cannot_answer_is_refused_and_the_round_plays_on():
    # A long round's public record on a crowded heap: any host on the link may ask it,
    # so it must not reboot the board mid-round as a MemoryError mid-change does.
    ctl, hal = table()
    dealt_round(ctl, hal)
    before = ctl.snapshot()
    journaled = list(ctl.journal.events)

    def out_of_memory(p):
        raise MemoryError()
    ctl._on_public = out_of_memory             # this table's only
    why = ctl.handle("public", {"round": 0})
    assert why == "the board's heap cannot answer public now: ask again later"
    assert events(hal, "refused")[-1] == {"e": "refused", "what": "public", "why": why}
    assert ctl.snapshot() == before and ctl.journal.events == journaled
    assert ctl.locked is None and ctl.public is None
    assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "call"}) is None


def test_a_signed_command_is_refused_as_handle_refuses_it_and_carried_out_under_its_key():
    # Controller.signed, felt.table.technician's dispatch once a signature holds.
    ctl, hal = configured(CFG)
    bad = dict(CFG, seats=99)
    assert ctl.signed("cfg", bad, "21fe31df", "n1") == ctl.handle("cfg", bad) is not None
    seen = []

    def vouched(kind, answer, nonce, field="mac"):   # what the answer is vouched for
        seen.append((kind, ctl.authorised, nonce))
        return answer
    ctl.vouched = vouched
    assert ctl.signed("eventlog", {}, "21fe31df", "n1") is None
    assert seen == [("eventlog", "21fe31df", "n1")] and hal.link.sent[-1][0] == "eventlog"
    assert (ctl.authorised, ctl.asked) == (False, None)       # only while it ran
    ctl.lock("a test's lock")
    assert ctl.signed("cfg", CFG, "21fe31df", "n2") == "the table is locked: a test's lock"
    assert ctl.signed("state", {}, "21fe31df", "n2") is None  # a question, locked or not
