"""The event log (felt.table.eventlog, docs/tilts.md): every tilt, error and clearing,
on flash beside the journal, outliving power cycles, bounded, read over the link."""

import os

from felt.table.eventlog import EventLog
from felt.table.eventlog_read import every

from table_fakes import boot, first_card_dealt, journal_path, write_bytes

CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}


def codes(ctl):
    records, nxt = ctl.eventlog.page()
    assert nxt is None
    return [r["code"] for r in records]


def test_tilts_errors_and_their_clearing_are_logged_and_outlive_a_power_cycle():
    path = journal_path("eventlog")
    ctl, hal = boot(path)
    assert ctl.handle("cfg", CFG) is None
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.handle("shuf", {"state": "jammed"}) is None           # 13:47-20.38(o)
    assert ctl.handle("shuf", {"present": False}) is None
    assert ctl.handle("dealer", {"b": "hand_shuffle_done"}) is None
    assert ctl.handle("dealer", {"b": "cut_done"}) is None
    assert ctl.handle("card", {"code": "2c"}) is None
    assert ctl.handle("shoe", {"state": "jam"}) is None               # 19:47-27.12(f)
    assert ctl.handle("shoe", {"present": False}) is None
    assert codes(ctl) == ["shuffler_jam", "shuffler_jam_cleared", "shoe_failure",
                          "shoe_failure_cleared"]
    ctl2, _ = boot(path)                                              # a power cycle
    assert codes(ctl2) == codes(ctl)
    ctl2.record("task_reset", "task link died: MemoryError")
    records, _ = ctl2.eventlog.page()
    assert [r["n"] for r in records] == [1, 2, 3, 4, 5]              # numbering goes on
    assert records[-1]["detail"] == "task link died: MemoryError"


def test_a_round_cut_by_a_power_loss_and_a_damaged_journal_are_logged():
    path = journal_path("eventlog-lock")
    first_card_dealt(path, CFG)
    ctl2, _ = boot(path)
    assert codes(ctl2)[-1] == "power_lost_in_play"
    with open(path, "ab") as f:
        f.write(b"garbage that is no record\n")
    ctl3, _ = boot(path)
    assert ctl3.locked is not None and codes(ctl3)[-1] == "critical_memory"


def test_the_log_is_bounded_and_keeps_the_newest():
    path = journal_path("eventlog-bounded") + ".events"
    log = EventLog(path, limit=600)
    for code in ("shuffler_jam", "deck_retired"):    # the others, then kept ones
        for i in range(60):
            log.add(i, 0, code, "deck A: check %d" % i)
    for name in (path, path + ".1", path + ".kept", path + ".kept.1"):
        assert os.stat(name)[6] <= 600
    kept = list(every(EventLog(path)))
    assert kept[-1]["n"] == 120 and kept[-1]["detail"] == "deck A: check 59"
    # The newest of each: a flood of the others never pushes the kept ones out.
    assert [r["code"] for r in kept] == sorted(r["code"] for r in kept)[::-1]
    assert [r["n"] for r in kept] == sorted(r["n"] for r in kept)
    assert [r["n"] for r in kept if r["code"] == "deck_retired"] == \
        list(range(kept[-1]["n"] - sum(r["code"] == "deck_retired" for r in kept) + 1, 121))


def test_a_damaged_line_is_shown_as_such_and_hides_no_other():
    path = journal_path("eventlog-damaged") + ".events"
    log = EventLog(path)
    log.add(0, 0, "shuffler_jam", "deck A")
    with open(path, "rb") as f:
        good = f.read()
    write_bytes(path, good.replace(b"deck A", b"deck B") + good)
    kept = list(every(EventLog(path)))
    assert [r["code"] for r in kept] == ["log_damaged", "shuffler_jam"]


def test_the_link_reads_the_log_a_frame_at_a_time():
    from felt import protocol as P
    ctl, hal = boot(journal_path("eventlog-pages"))
    for i in range(40):
        ctl.record("deck_retired", "deck A: a deck check found %d cards" % i)
    got, start = [], 0
    while start is not None:
        assert ctl.handle("eventlog", {"from": start}) is None
        answer = [p for k, p in hal.link.sent if k == "eventlog"][-1]
        assert len(P.encode(65535, "eventlog", answer)) <= P.MAX_FRAME
        got += answer["records"]
        start = answer["next"]
    assert [r["n"] for r in got] == list(range(1, 41))
    assert "from must be" in ctl.handle("eventlog", {"from": -1})
