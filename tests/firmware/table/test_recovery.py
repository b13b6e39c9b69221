"""Two copies of the table's lasting state (felt.table.journal writes each table record
twice; felt.table.recovery reads the other copy when one is damaged; docs/journal.md):
bytes flipped anywhere in the table records of a real journal, the table resumes
exactly from the good copy or stops locked (critical_memory), and never holds a chip
more or less.  Damage anywhere else locks.  Runs on CPython and MicroPython."""

import json

from felt.table import journal as J

from firmware_helpers import every
from table_fakes import (boot, deal_holes, fold_round, journal_path, read_bytes,
                         start_round, write_bytes)

CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}
CHIPS = 400
# At every offset in make check, every fifth in make test (firmware_helpers.every).
SAMPLED = ("test_a_byte_flipped_anywhere_in_the_table_records_between_rounds_resumes_or_locks",
           "test_a_byte_flipped_anywhere_in_the_table_records_mid_round_resumes_or_locks",
           "test_a_copy_cut_short_by_the_power_is_cut_off_with_its_table_record")


def play(path, rounds, mid_round=False):
    """A table journaling to `path` after `rounds` rounds folded to the big blind, and
    the next round dealt and called once if `mid_round`; the controller."""
    ctl, _ = boot(path)
    assert ctl.handle("cfg", CFG) is None
    for _ in range(rounds):
        fold_round(ctl)
    if mid_round:
        deal_holes(ctl)
        assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "call"}) is None
    return ctl


def lines(data):
    return data.split(b"\n")[:-1]


def table_lines(data):
    """(start, end, is the copy) of every table record's line in the file's bytes."""
    out, at = [], 0
    for line in lines(data):
        body = line.split(b" ", 2)[2]
        if body.startswith(b'{"table":') or body.startswith(b'{"copy":1,"table":'):
            out.append((at, at + len(line) + 1, body.startswith(b'{"copy"')))
        at += len(line) + 1
    return out


def held(ctl):
    """The chips the table holds: stacks, the pot and the rake."""
    s = ctl.snapshot()
    return sum(s["stacks"]) + s["pot"] + s["rake"]


def damage_everywhere(path, data, span, spoil, step, want):
    """Boot on `data` spoiled (spoil(data, at)) at every `step`-th offset of `span` and
    at each newline in it (the damage that locks): each boot resumes with `want`
    (lasting, snapshot) or is locked, with every chip there.  The counts (resumed,
    locked)."""
    newlines = [at for at in range(*span) if data[at] == 10]
    resumed = locked = 0
    for at in sorted(set(range(span[0], span[1], step)) | set(newlines)):
        write_bytes(path, spoil(data, at))
        ctl, hal = boot(path)
        if ctl.locked is None:
            assert (ctl.lasting(), ctl.snapshot()) == want, at
            assert held(ctl) == CHIPS
            resumed += 1
        else:
            assert ctl.config is None and ctl.stacks == [], at    # nothing made up
            locked += 1
    return resumed, locked


def flipped(data, at):
    return data[:at] + bytes([data[at] ^ 0xff]) + data[at + 1:]


def run_of_bytes(data, at):
    return data[:at] + b"\x00" * 8 + data[at + 8:]


def check_every_offset(name, mid_round):
    """Damage at every offset of the last table record and its copy: between rounds
    they end the file, mid-round the round's header follows them."""
    path = journal_path(name)
    ctl = play(path, 2, mid_round)
    want = (ctl.lasting(), ctl.snapshot())
    data = read_bytes(path)
    pair = table_lines(data)[-2:]
    assert not pair[0][2] and pair[1][2]
    span = (pair[0][0], pair[1][1])
    resumed, locked = damage_everywhere(path, data, span, flipped, every(5), want)
    assert resumed > 20 * locked > 0, (resumed, locked)   # mostly read from the other copy
    resumed, locked = damage_everywhere(path, data, span, run_of_bytes, 4 * every(5), want)
    assert resumed > 4 * locked > 0, (resumed, locked)


def test_a_byte_flipped_anywhere_in_the_table_records_between_rounds_resumes_or_locks():
    check_every_offset("flip-between", False)


def test_a_byte_flipped_anywhere_in_the_table_records_mid_round_resumes_or_locks():
    check_every_offset("flip-mid-round", True)


def test_a_byte_flipped_in_the_stamp_a_round_header_or_an_event_locks():
    # They have no copy: the table cannot vouch for what they held.
    path = journal_path("flip-events")
    play(path, 1, True)
    data = read_bytes(path)
    tables = [a for a, _, _ in table_lines(data)]
    at = 0
    for line in lines(data):
        if at not in tables:
            for k in range(at, at + len(line) + 1, 7):
                write_bytes(path, flipped(data, k))
                ctl, _ = boot(path)
                assert ctl.locked is not None, k
        at += len(line) + 1


def logged(ctl):
    """The event log's records (docs/tilts.md), oldest first."""
    from felt.table import eventlog_read
    return list(eventlog_read.every(ctl.eventlog))


def test_a_damaged_copy_is_logged_for_a_technician_and_the_table_plays_on():
    path = journal_path("repaired")
    ctl = play(path, 2)
    want = ctl.lasting()
    data = read_bytes(path)
    start, end, copy = table_lines(data)[-1]
    assert copy and end == len(data)
    write_bytes(path, flipped(data, start + 40))     # the copy, at the end of the file
    ctl, hal = boot(path)
    assert ctl.locked is None and ctl.lasting() == want
    line = len(lines(data))
    repaired = [r for r in logged(ctl) if r["code"] == "critical_memory_repaired"]
    assert len(repaired) == 1 and repaired[0]["detail"].startswith(
        "journal %s line %d: the checksum does not match" % (path, line))
    assert "read from its other copy, line %d" % (line - 1) in repaired[0]["detail"]
    # Play goes on after the damaged line, and the next boot reads past it again.
    start_round(ctl)
    assert ctl.handle("card", {"code": "2c"}) is None
    snap = ctl.snapshot()
    ctl2, _ = boot(path)
    assert ctl2.locked is None and ctl2.snapshot() == snap


def test_both_copies_damaged_lock_the_table_with_critical_memory():
    path = journal_path("both")
    play(path, 2, True)
    data = read_bytes(path)
    pair = table_lines(data)[-2:]
    write_bytes(path, flipped(flipped(data, pair[0][0] + 30), pair[1][0] + 30))
    ctl, hal = boot(path)
    assert ctl.locked == "journal %s line %d: the checksum does not match: damaged or " \
        "edited" % (path, data[:pair[0][0]].count(b"\n") + 1)
    assert [r["code"] for r in logged(ctl)] == ["critical_memory"]
    assert ctl.handle("dealer", {"b": "deal"}).startswith("the table is locked")


def test_copies_that_differ_lock_the_table():
    # One copy edited and given its right checksum: which one is the table's?
    path = journal_path("differ")
    play(path, 1)
    ls = lines(read_bytes(path))
    seq, _, body = ls[-1].split(b" ", 2)
    record = json.loads(body)
    record["table"]["stacks"][0] += 1
    record["table"]["stacks"][1] -= 1
    ls[-1] = J.record_line(int(seq), record)[:-1]
    write_bytes(path, b"\n".join(ls) + b"\n")
    ctl, _ = boot(path)
    assert ctl.locked == "journal %s line %d: the table record's copy differs from it" % (
        path, len(ls))


def test_a_table_record_without_its_copy_locks_the_table():
    # What a journal written before the copies were kept holds.
    path = journal_path("no-copy")
    play(path, 1, True)
    ls = lines(read_bytes(path))
    at = [i for i in range(len(ls)) if b' {"copy":1,' in ls[i]][0]
    kept = ls[:at]
    for line in ls[at + 1:]:                      # numbered on without it
        seq, _, body = line.split(b" ", 2)
        kept.append(J.record_line(int(seq) - 1, json.loads(body))[:-1])
    write_bytes(path, b"\n".join(kept) + b"\n")
    ctl, _ = boot(path)
    assert ctl.locked == "journal %s line %d: a table record without its copy (a journal " \
        "of an older firmware?)" % (path, at)


def test_a_copy_cut_short_by_the_power_is_cut_off_with_its_table_record():
    # Both are one write: the table before them is resumed, as if neither was written.
    path = journal_path("copy-torn")
    ctl = play(path, 1)
    before = (ctl.lasting(), read_bytes(path))
    assert ctl.handle("clock", {"minutes": 5}) is None       # a new table record
    data = read_bytes(path)
    start, end, copy = table_lines(data)[-1]
    assert copy and start > len(before[1])
    for k in range(start - len(before[1]), end - len(before[1]), every(5)):
        write_bytes(path, data[:len(before[1]) + k])
        ctl2, _ = boot(path)
        assert ctl2.locked is None and (ctl2.lasting(), read_bytes(path)) == before, k
