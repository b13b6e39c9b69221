"""Recall (felt.table.recall; docs/journal.md, "Archives and recall"; docs/protocol.md):
the last ten complete rounds stay on the flash, and the link's `recall` query gives any
of them a frame at a time, also while the table is locked, reading what reads.  Runs
on CPython and MicroPython."""

import os

from felt import protocol as P
from felt.table import recall, recovery
from felt.table.config import from_dict
from felt.table.controller import PLAYING
from felt.table.journal import RECALL, Journal, archive

from table_fakes import (HOLES, boot, events, first_card_dealt, fold_round, journal_path,
                         read_bytes, start_round, write_bytes)

CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}


def played(name, rounds):
    """A table journaling to a path of its own after `rounds` rounds folded to the big
    blind; (path, controller)."""
    path = journal_path(name)
    ctl, _ = boot(path)
    assert ctl.handle("cfg", CFG) is None
    for _ in range(rounds):
        fold_round(ctl)
    return path, ctl


def folded(events):
    """Whether `events` are a round of fold_round(): the hole cards, then three folds."""
    return events[:8] == [["card", c] for c in HOLES.split()] and \
        [e[0] for e in events[8:]] == ["fold"] * 3


def whole_round(path, k):
    """Round k from every page of it: (the first page, every event)."""
    first = recall.page(path, k)
    got, nxt = list(first["events"]), first["next"]
    while nxt is not None:
        p = recall.page(path, k, nxt)
        assert p["seq"] == first["seq"] and p["header"] is None and p["from"] == nxt
        got += p["events"]
        nxt = p["next"]
    return first, got


def fits(payload):
    return len(P.encode(65535, "recall", payload)) <= P.MAX_FRAME


def archives(path):
    return [i for i in range(1, 2 * RECALL) if _exists(archive(path, i))]


def _exists(name):
    try:
        os.stat(name)
        return True
    except OSError:
        return False


def test_the_last_ten_complete_rounds_stay_on_the_flash_and_older_files_go():
    path = journal_path("recall-ten")
    ctl, _ = boot(path, limit=1500)            # a file holds a round or two
    assert ctl.handle("cfg", CFG) is None
    for n in range(1, 26):
        fold_round(ctl)
        newest = recall.page(path)
        assert newest["hand"] == n and newest["rounds"] >= min(RECALL, n)
        assert len(archives(path)) <= RECALL
    assert newest["rounds"] < 2 * RECALL          # older ones were removed
    assert [recall.page(path, k)["hand"] for k in range(RECALL)] == list(range(25, 15, -1))
    for k in range(RECALL):
        first, got = whole_round(path, k)
        assert first["header"]["hand"] == 25 - k and folded(got) and first["unread"] == []
    # A round under way is not complete: recall starts from the one before it.
    start_round(ctl)
    assert recall.page(path)["hand"] == 25
    ctl2, _ = boot(path, limit=1500)           # and a boot keeps the archives as they are
    assert ctl2.locked is None and recall.page(path)["hand"] == 25


def long_round(path, n_events):
    """A journal written directly: a table record, a round of `n_events` events (the
    rules core does not check a journal it reads back), then the table record that
    ends it."""
    cfg = from_dict(CFG, 4)
    j = Journal(path)
    assert recovery.recover(j) is None          # a new table: it may write
    state = {"stacks": [100] * 4}
    j.table(state)
    j.begin(1, 3, [100] * 4, cfg)
    for i in range(n_events):
        j.append(("raise", i % 4, 10000 + i))
    j.table(state)
    return j


def test_a_long_round_comes_in_pages_each_within_a_frame():
    path = journal_path("recall-pages")
    long_round(path, 300)
    first, got = whole_round(path, 0)
    assert got == [["raise", i % 4, 10000 + i] for i in range(300)]
    assert first["rounds"] == 1 and first["hand"] == 1 and first["next"] is not None
    nxt = 0
    while nxt is not None:
        p = recall.page(path, 0, nxt)
        assert fits(p) and (len(p["events"]) > 10 or p["next"] is None)
        nxt = p["next"]


def test_the_largest_header_and_event_fit_the_first_page():
    # Eleven seats, every amount as large as a configuration allows, eight rake
    # levels; a draw of 52 codes; unread lines and a next page as far as a file goes.
    most = 10000000
    cfg = from_dict({"game": "crazy-pineapple", "seats": 11, "stacks": [most] * 11,
                     "small_bet": most // 10, "big_bet": most // 10, "cap": 4,
                     "blinds": [most // 10, most // 10], "ante": most // 10,
                     "min_wager": most // 10, "max_wager": most,
                     "rake": {"method": "incremental", "maximum": most,
                              "levels": [[most - 8 + i, 10000 + i] for i in range(8)]}},
                    11)
    header = {"hand": most * 100, "button": 10, "stacks": cfg.stacks, "game": cfg.game,
              "structure": cfg.structure.as_dict(), "rake": cfg.rake.as_dict()}
    event = ["draw", 10, " ".join(["As"] * 52)]
    unread = [[RECALL, 99999]] * recall.MAX_UNREAD
    # Each alone on its page, with every line unread and a next page.
    first = {"round": most, "rounds": most, "seq": most * 100, "hand": most * 100,
             "header": header, "events": [], "from": 0, "next": 99999, "unread": unread}
    assert fits(first)
    first["header"], first["events"] = None, [event]
    assert fits(first)
    # A page goes past PAGE only by its first record, and by the lines unread.
    page = dict(first, events=[["card", "2c"]] * 200)
    while len(P.dumps(page)) - len(P.dumps(unread)) > recall.PAGE:
        page["events"].pop()
    assert fits(page)


def test_recall_over_the_link_while_locked_reads_what_reads():
    path, ctl = played("recall-locked", 2)
    start_round(ctl)
    assert ctl.handle("card", {"code": "2c"}) is None
    assert ctl.handle("card", {"code": "3c"}) is None
    data = read_bytes(path)
    ls = data.split(b"\n")[:-1]
    i = [n for n in range(len(ls)) if b'["card","2c"]' in ls[n]][-1]
    at = sum([len(line) + 1 for line in ls[:i]]) + 20
    write_bytes(path, data[:at] + b"\xff" + data[at + 1:])   # the round under way's card
    ctl, hal = boot(path)
    assert ctl.locked is not None
    before = read_bytes(path)
    assert ctl.handle("recall", {"round": 1}) is None       # a query: answered while locked
    answer = [p for k, p in hal.link.sent if k == "recall"][-1]
    assert answer["hand"] == 1 and answer["rounds"] == 2 and folded(answer["events"])
    assert read_bytes(path) == before                       # and nothing changed
    # The round under way is no complete round; a damaged round names its lines.
    ls[index_of(ls, b'["fold",1]')] = b"damaged"
    write_bytes(path, b"\n".join(ls) + b"\n")
    answer = recall.page(path, 0)
    assert answer["hand"] == 2 and folded(answer["events"] + [["fold", 0]])
    assert answer["unread"] == [[0, index_of(ls, b"damaged") + 1]]


def index_of(ls, text):
    return [n for n in range(len(ls)) if text in ls[n]][-1]


def test_a_round_whose_header_does_not_read_comes_without_it():
    path, _ = played("recall-headless", 2)
    ls = read_bytes(path).split(b"\n")[:-1]
    h = index_of(ls, b' {"round":')
    ls[h] = ls[h][:-3] + b"!!!"
    write_bytes(path, b"\n".join(ls) + b"\n")
    answer = recall.page(path, 0)
    assert answer["header"] is None and answer["hand"] is None and answer["seq"] is None
    assert folded(answer["events"]) and answer["unread"] == [[0, h + 1]]
    assert answer["rounds"] == 2 and recall.page(path, 1)["hand"] == 1


def test_an_event_whose_checksum_holds_but_not_its_json_is_named_unread():
    # It used to be given as an event of no record, and the answer failed on it.
    from felt.table.journal import crc_text
    path, _ = played("recall-not-json", 2)
    ls = read_bytes(path).split(b"\n")[:-1]
    e = index_of(ls, b'["fold",')
    seq, _, body = ls[e].split(b" ", 2)
    body = body[:-2]                                  # no JSON, its checksum right
    ls[e] = b"%s %s %s" % (seq, crc_text(seq, body), body)
    write_bytes(path, b"\n".join(ls) + b"\n")
    answer = recall.page(path, 0)
    assert answer["unread"] == [[0, e + 1]] and answer["hand"] == 2
    assert folded(answer["events"] + [["fold", 0]])


def test_a_round_resumed_after_a_power_cut_is_recalled_once_whole():
    path = journal_path("recall-resumed")
    ctl, _ = boot(path)
    assert ctl.handle("cfg", CFG) is None
    start_round(ctl)
    for code in HOLES.split()[:5]:
        assert ctl.handle("card", {"code": code}) is None
    ctl, _ = boot(path)                                  # the power comes back
    for code in HOLES.split()[5:]:
        assert ctl.handle("card", {"code": code}) is None
    while ctl.state == PLAYING:
        assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "fold"}) is None
    answer = recall.page(path)
    assert answer["rounds"] == 1 and folded(answer["events"])


def test_a_void_round_is_a_round_with_its_irregularity():
    path = journal_path("recall-void")
    ctl, hal = first_card_dealt(path, CFG)
    assert ctl.handle("shoe", {"state": "jam"}) is None   # 19:47-27.12(f)
    assert events(hal, "end")[-1]["called_off"] == "void"
    assert ctl.handle("shoe", {"present": False}) is None
    fold_round(ctl)
    assert recall.page(path, 0)["hand"] == 2
    assert recall.page(path, 1)["events"] == [["card", "2c"], ["void", "dealing shoe jam"]]


def test_a_recall_query_is_checked_and_changes_nothing():
    path, _ = played("recall-query", 1)
    ctl, hal = boot(path)
    before = (read_bytes(path), ctl.snapshot(), len(hal.pixels.px))
    assert ctl.handle("recall", {}) is None
    assert [p["hand"] for k, p in hal.link.sent if k == "recall"] == [1]
    assert ctl.handle("recall", {"round": 5}) is None       # none so old: an empty answer
    assert [p for k, p in hal.link.sent if k == "recall"][-1]["seq"] is None
    assert ctl.handle("recall", {"round": -1}) == "recall round must be 0 to 10000000, not -1"
    assert ctl.handle("recall", {"page": 1}) == "recall takes no \"page\""
    assert (read_bytes(path), ctl.snapshot(), len(hal.pixels.px)) == before
    # A table journaling nowhere keeps no rounds to recall.
    assert recall.page(None) == {"round": 0, "rounds": 0, "seq": None, "hand": None,
                                 "header": None, "events": [], "from": 0, "next": None,
                                 "unread": []}


def test_a_table_record_longer_than_the_reader_s_buffer_is_read_past_by_its_checksum():
    # Recall reads through a buffer of one frame: a longer line (a table record with a
    # large configuration and the frame that made it) is checked, its JSON unread.
    path = journal_path("recall-long")
    j = long_round(path, 3)
    j.table({"stacks": [100] * 4, "padding": "x" * 1500})     # a round's end, long
    j.begin(2, 0, [100] * 4, from_dict(CFG, 4))
    j.append(("card", "2c"))
    j.table({"stacks": [100] * 4})
    assert recall.page(path)["hand"] == 2 and recall.page(path, 1)["hand"] == 1
    assert recall.page(path)["rounds"] == 2 and recall.page(path)["unread"] == []
    data = read_bytes(path)
    at = data.index(b"xxxxx")
    write_bytes(path, data[:at] + b"y" + data[at + 1:])     # it no longer reads
    answer = recall.page(path)                 # no round's record: the rounds read on
    assert answer["hand"] == 2 and answer["rounds"] == 2 and answer["events"] == [["card", "2c"]]
    assert recall.page(path, 1)["hand"] == 1
