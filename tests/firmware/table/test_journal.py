"""The journal against damage, edits and failing flash (felt.table.journal,
docs/journal.md): whatever the file holds, the table resumes exactly or stops LOCKED
with a short sentence saying what it found; it never crashes, never forgets its chips
for a new table, and never moves a chip it could not record.  Runs on CPython and
MicroPython."""

import json
import os

from felt import FIRMWARE, protocol as P
from felt.table import journal as J

from table_fakes import (BOARD, boot, events, fold_round, journal_path, read_bytes,
                         start_round, write_bytes)

CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}
TIME_RAKE = {"method": "time", "hourly": 6, "every": 30, "per": "player"}
HOLES = "2c 3c 4c 5c 2d 3d 4d 5d"


# ----- helpers ----------------------------------------------------------------------------

def dealt(ctl):
    for code in HOLES.split():
        assert ctl.handle("card", {"code": code}) is None


def mid_round(path, cfg=CFG):
    """A table journaling to `path`: configured, its first round dealt and the first
    player to act has called.  Returns the controller."""
    ctl, _ = boot(path)
    assert ctl.handle("cfg", cfg) is None
    start_round(ctl)
    dealt(ctl)
    assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "call"}) is None
    return ctl


def lines(path):
    return read_bytes(path).split(b"\n")[:-1]


def put_lines(path, ls):
    write_bytes(path, b"\n".join(ls) + b"\n")


def resigned(line, edit):
    """The record on `line` changed by edit(record) and given its right checksum: an
    edit made by someone who knows the format, which only the chip checks can catch
    (a table record's, to both copies: edit_table)."""
    seq, _, body = line.split(b" ", 2)
    record = json.loads(body)
    edit(record)
    return J.record_line(int(seq), record)[:-1]


def index_of(ls, kind, last=True):
    """Where the last (or first) record of `kind` is."""
    found = [i for i in range(len(ls)) if (b' {"%s":' % kind.encode()) in ls[i]]
    return found[-1] if last else found[0]


def assert_locked(ctl, hal, *words):
    """Locked at boot, saying so once in a short sentence that fits a frame."""
    why = ctl.locked
    assert why is not None, "the table resumed"
    for w in words:
        assert w in why, (w, why)
    assert len(why) <= J.MAX_WHY
    assert events(hal, "locked") == [{"e": "locked", "code": "critical_memory", "why": why}]
    assert events(hal, "resumed") == []
    for kind, payload in hal.link.sent:
        assert len(P.encode(999, kind, payload)) <= P.MAX_FRAME
    # Nothing moves while locked, and no chips came from anywhere.
    assert ctl.handle("dealer", {"b": "deal"}).startswith("the table is locked: ")
    assert ctl.config is None and ctl.stacks == []


# ----- the format -------------------------------------------------------------------------

def test_each_record_is_a_line_with_its_sequence_number_and_checksum():
    import binascii
    path = journal_path("format")
    mid_round(path)
    ls = lines(path)
    stamp = ' {"stamp":{"archives":[],"board":"test","fw":"%s"}}' % FIRMWARE
    assert stamp.encode() in ls[0]
    for i in range(len(ls)):
        seq, crc, body = ls[i].split(b" ", 2)
        assert int(seq) == i + 1
        assert crc == b"%08x" % (binascii.crc32(body, binascii.crc32(seq)) & 0xffffffff)
        assert P.dumps(json.loads(body)).encode() == body   # sorted keys: the same bytes


def test_no_journal_is_a_new_table():
    path = journal_path("new")
    ctl, hal = boot(path)
    assert ctl.locked is None and ctl.config is None and events(hal, "resumed") == []
    assert ctl.handle("cfg", CFG) is None
    ctl, hal = boot(path)
    assert ctl.locked is None and ctl.config is not None


def test_an_empty_journal_locks_the_table():
    # Every file is born whole (renamed into place), so an empty one was emptied: a
    # table that took it for a new one would forget every chip on it.
    path = journal_path("empty")
    ctl, _ = boot(path)
    assert ctl.handle("cfg", CFG) is None
    write_bytes(path, b"")
    ctl, hal = boot(path)
    assert_locked(ctl, hal, "empty", "the journal was lost")
    assert read_bytes(path) == b""


# ----- damage -----------------------------------------------------------------------------

def test_a_byte_set_to_0xff_in_the_middle_locks_the_table_at_every_boot():
    # It used to crash every boot: its log line was longer than a frame.
    path = journal_path("ff")
    mid_round(path)
    data = read_bytes(path)
    at = data.index(b' {"round":') + 40          # in the round's header: it has no copy
    write_bytes(path, data[:at] + b"\xff" + data[at + 1:])
    for _ in range(2):
        ctl, hal = boot(path)
        assert_locked(ctl, hal, path, "line", "checksum")
    assert read_bytes(path) == data[:at] + b"\xff" + data[at + 1:]   # left as found


def test_the_last_newline_damaged_is_not_taken_for_a_power_cut():
    path = journal_path("newline")
    mid_round(path)
    data = read_bytes(path)
    for byte in (b"\xff", b"x", b" "):
        write_bytes(path, data[:-1] + byte)
        ctl, hal = boot(path)
        assert_locked(ctl, hal, "line")


def test_a_structural_byte_flipped_locks_the_table():
    path = journal_path("flip")
    mid_round(path)
    data = read_bytes(path)
    ls = lines(path)
    # The round's header: a record with no copy, after a table record's copy.
    h = index_of(ls, "round")
    start = sum([len(ls[i]) + 1 for i in range(h)])
    for at, byte, line in ((start - 1, b" ", h),   # a newline: two records run together
                           (data.index(b" ", start), b"x", h + 1),   # a separator
                           (data.index(b"{", start), b"[", h + 1),
                           (start, b"7", h + 1)):              # a sequence number
        write_bytes(path, data[:at] + byte + data[at + 1:])
        ctl, hal = boot(path)
        assert_locked(ctl, hal, "line %d" % line)


def test_a_repeated_event_record_locks_the_table():
    path = journal_path("repeat")
    mid_round(path)
    ls = lines(path)
    i = index_of(ls, "event")
    put_lines(path, ls[:i + 1] + [ls[i]])
    ctl, hal = boot(path)
    assert_locked(ctl, hal, "line %d" % (i + 2), "where %d was due" % (i + 2))


def test_a_record_cut_at_each_byte_resumes_from_the_records_before_it():
    path = journal_path("torn")
    ctl = mid_round(path)
    whole = read_bytes(path)
    before = ctl.snapshot()
    assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "raise"}) is None
    after = ctl.snapshot()
    raise_record = read_bytes(path)[len(whole):]
    for k in range(len(raise_record) + 1):
        write_bytes(path, whole + raise_record[:k])
        ctl2, hal2 = boot(path)
        assert ctl2.locked is None
        assert ctl2.snapshot() == (after if k == len(raise_record) else before)
        # The torn tail is gone from the file: the next record follows a whole one.
        assert read_bytes(path) == (whole + raise_record if k == len(raise_record) else whole)
    ctl3, _ = boot(path)
    assert ctl3.snapshot() == after


# ----- files lost ---------------------------------------------------------------------------

def rotated(name):
    """A journal that has begun a second file (<path>.1 is the first)."""
    path = journal_path(name)
    ctl, _ = boot(path, limit=600)
    assert ctl.handle("cfg", CFG) is None
    fold_round(ctl)
    fold_round(ctl)
    assert os.stat(path + ".1")[6] > 600
    return path, ctl


def test_an_empty_journal_beside_its_previous_file_locks_the_table():
    path, _ = rotated("empty-with-1")
    write_bytes(path, b"")
    ctl, hal = boot(path)
    assert_locked(ctl, hal, "empty", "the journal was lost")


def test_a_missing_journal_beside_its_previous_file_locks_the_table():
    path, _ = rotated("missing-with-1")
    os.remove(path)
    ctl, hal = boot(path)
    assert_locked(ctl, hal, "missing", path + ".1")


def test_a_cut_between_the_renames_of_a_new_file_resumes_from_the_new_file():
    path, ctl = rotated("between-renames")
    lasting = ctl.lasting()
    # The power failed after the file became <path>.1 and before <path>.new took its place.
    os.rename(path, path + ".new")
    ctl2, hal2 = boot(path)
    assert ctl2.locked is None and ctl2.lasting() == lasting
    assert os.stat(path)[6] > 0 and ".new" not in " ".join(os.listdir(path[:path.rindex("/")]))


def test_a_new_file_left_beside_the_journal_is_dropped():
    path, ctl = rotated("new-beside")
    snap = ctl.snapshot()
    write_bytes(path + ".new", b"1 0000")                 # begun, never renamed into place
    ctl2, _ = boot(path)
    assert ctl2.locked is None and ctl2.snapshot() == snap
    assert "journal.jsonl.new" not in os.listdir(path[:path.rindex("/")])


def test_the_first_file_cut_before_its_rename_is_a_new_table():
    path = journal_path("first-cut")
    write_bytes(path + ".new", b'1 1eb6ae1c {"stamp":{"board":"test","fw":"felt 0.1"}}\n2 8')
    ctl, hal = boot(path)
    assert ctl.locked is None and ctl.config is None
    assert "journal.jsonl.new" not in os.listdir(path[:path.rindex("/")])


def test_an_older_copy_of_the_journal_locks_the_table():
    # The previous file copied over the journal: its numbers are not after .1's.
    path, _ = rotated("older-copy")
    write_bytes(path, read_bytes(path + ".1"))
    ctl, hal = boot(path)
    assert_locked(ctl, hal, "older copy")


def test_an_older_record_put_back_at_the_end_locks_the_table():
    path = journal_path("older-record")
    mid_round(path)
    ls = lines(path)
    put_lines(path, ls + [ls[index_of(ls, "table")]])
    ctl, hal = boot(path)
    assert_locked(ctl, hal, "line %d" % (len(ls) + 1), "where %d was due" % (len(ls) + 1))


def test_a_journal_of_another_table_locks_the_table():
    path = journal_path("other-table")
    mid_round(path)
    ctl, hal = boot(path, {"name": "table-7", "leds": BOARD["leds"]})
    assert_locked(ctl, hal, "written by table \"test\"", "table-7")


# ----- edits --------------------------------------------------------------------------------

def edit_table(ls, edit):
    """The last table record and its copy edited alike, each given a right checksum."""
    i = index_of(ls, "table")
    assert b' {"copy":1,"table":' in ls[i + 1]
    ls[i] = resigned(ls[i], edit)
    ls[i + 1] = resigned(ls[i + 1], edit)


def edited(name, kind, edit, cfg=CFG, between=False):
    """A journal with its last `kind` record (a table record: both copies) edited and
    given a right checksum."""
    path = journal_path(name)
    if between:
        ctl, _ = boot(path)
        assert ctl.handle("cfg", cfg) is None
        fold_round(ctl)
    else:
        mid_round(path, cfg)
    ls = lines(path)
    if kind == "table":
        edit_table(ls, edit)
    else:
        i = index_of(ls, kind)
        ls[i] = resigned(ls[i], edit)
    put_lines(path, ls)
    return boot(path)


def test_a_stack_raised_by_8000_chips_locks_the_table():
    def edit(r):
        r["table"]["stacks"][0] += 8000
    ctl, hal = edited("plus-8000", "table", edit, between=True)
    assert_locked(ctl, hal, "8400 chips", "began with 400")


def test_a_round_begun_with_more_chips_than_the_table_had_locks_the_table():
    def edit(r):
        r["round"]["stacks"][0] += 8000
    ctl, hal = edited("round-8000", "round", edit)
    assert_locked(ctl, hal, "does not begin from the table")


def test_a_negative_stack_locks_the_table():
    def edit(r):
        r["table"]["stacks"][1] = -500
    ctl, hal = edited("minus-500", "table", edit, between=True)
    assert_locked(ctl, hal, "stack 1 must be 0 to")


def test_a_stack_of_a_fraction_of_a_chip_locks_the_table():
    # Re-signed with the float in it, as a hand-made edit would be.
    path = journal_path("float")
    ctl, _ = boot(path)
    assert ctl.handle("cfg", CFG) is None
    fold_round(ctl)
    ls = lines(path)
    i = index_of(ls, "table")
    for k in (i, i + 1):                         # the table record and its copy
        seq, _, body = ls[k].split(b" ", 2)
        body = body.replace(b'"stacks":[99,101,100,100]}', b'"stacks":[99.5,101,100,100]}')
        ls[k] = seq + b" " + J.crc_text(seq, body) + b" " + body
    put_lines(path, ls)
    ctl, hal = boot(path)
    assert_locked(ctl, hal, "stack 0 must be a whole number")


def test_the_rake_taken_set_to_nothing_locks_the_table():
    path = journal_path("rake-0")
    ctl, _ = boot(path)
    cfg = dict(CFG)
    cfg["rake"] = TIME_RAKE
    assert ctl.handle("cfg", cfg) is None
    assert ctl.handle("clock", {"minutes": 30}) is None
    assert ctl.rake_total > 0
    ls = lines(path)

    def edit(r):
        r["table"]["rake_total"] = 0
    edit_table(ls, edit)
    put_lines(path, ls)
    ctl, hal = boot(path)
    assert_locked(ctl, hal, "rake hold", "began with 400")


def test_a_call_turned_into_a_fold_locks_the_table():
    path = journal_path("call-fold")
    mid_round(path)
    ls = lines(path)
    i = index_of(ls, "event")
    assert b'["call",' in ls[i]
    ls[i] = ls[i].replace(b'["call",', b'["fold",')
    put_lines(path, ls)
    ctl, hal = boot(path)
    assert_locked(ctl, hal, "line %d" % (i + 1), "checksum")


def test_an_event_the_rules_refuse_locks_the_table_naming_its_record():
    def edit(r):
        r["event"] = ["raise", 0]            # seat 0 is not to act
    ctl, hal = edited("refused-event", "event", edit)
    assert_locked(ctl, hal, "the rules refuse the event [\"raise\",0]")


# ----- write errors -------------------------------------------------------------------------

def test_a_journal_that_cannot_be_written_locks_the_table_before_a_round():
    # The journal's folder is not there: nothing can be written.
    path = journal_path("no-folder")
    path = path[:path.rindex("/")] + "/not-there/journal.jsonl"
    ctl, hal = boot(path)
    assert ctl.locked is None                     # nothing to resume: a new table
    assert ctl.handle("cfg", CFG) is None         # taken, but it could not be kept
    assert ctl.locked == "journal write failed: %s: no such file (errno 2)" % path
    assert events(hal, "locked") == [{"e": "locked", "code": "journal_write_failed",
                                      "why": ctl.locked}]
    assert ctl.handle("dealer", {"b": "deal"}).startswith("the table is locked")


def test_a_journal_that_is_a_folder_locks_the_table_at_boot():
    path = journal_path("folder")
    os.mkdir(path)
    ctl, hal = boot(path)
    assert_locked(ctl, hal, "cannot be read: the path is a folder (errno 21)")
    os.rmdir(path)


def event_write_fails(name, spoil):
    """Mid-round, the journal stops taking writes (spoil(path)); the next card."""
    path = journal_path(name)
    ctl, hal = boot(path)
    assert ctl.handle("cfg", CFG) is None
    start_round(ctl)
    assert ctl.handle("card", {"code": "2c"}) is None
    before = ctl.snapshot()
    dealt_before = list(ctl.round.just_dealt)
    ctl.journal.path = spoil(path)
    why = ctl.handle("card", {"code": "3c"})
    assert why == "the table is locked: " + ctl.locked, why
    assert ctl.locked.startswith("journal write failed: ") and len(ctl.locked) <= J.MAX_WHY
    assert events(hal, "locked") == [{"e": "locked", "code": "journal_write_failed",
                                      "why": ctl.locked}]
    # The card was not applied: it was not journaled.
    assert ctl.round.just_dealt == dealt_before
    locked = dict(before)
    locked["locked"] = ctl.locked
    assert ctl.snapshot() == locked
    assert ctl.handle("card", {"code": "3c"}).startswith("the table is locked")
    return path


def test_a_full_flash_mid_round_locks_the_table_and_the_event_is_not_applied():
    event_write_fails("full", lambda path: "/dev/full")


def test_a_journal_gone_bad_mid_round_locks_the_table_and_the_event_is_not_applied():
    def spoil(path):
        os.remove(path)
        os.mkdir(path)
        return path
    path = event_write_fails("gone-bad", spoil)
    os.rmdir(path)


def test_a_full_flash_at_the_showdown_press_undoes_the_showdown_lit_before_the_write():
    # The press that ends the round has its showdown settled and its winners lit before
    # its journal write (Controller.settle_now): a write that fails then puts the round
    # back as the press found it, its LEDs too, and says none of the showdown.
    from felt.table import scenes
    from table_fakes import LEDS
    path = journal_path("full-showdown")
    ctl, hal = boot(path)
    assert ctl.handle("cfg", CFG) is None
    start_round(ctl)
    dealt(ctl)
    board = "9s Ah Kh Qd 8s 7h 6s Jc".split()    # burns and the board's five
    river_checks = 0
    while river_checks < 3:                        # four seats in: the fourth check ends it
        if ctl.round.to_act < 0:
            assert ctl.handle("card", {"code": board.pop(0)}) is None
            continue
        river_checks += len(ctl.round.board) == 5
        assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "call"}) is None
    seat = ctl.round.to_act
    before = ctl.snapshot()
    lines_before = lines(path)
    ctl.journal.path = "/dev/full"
    why = ctl.handle("btn", {"seat": seat, "b": "call"})
    assert why == "the table is locked: " + ctl.locked, why
    assert ctl.round.winners == [] and ctl.round.to_act == seat
    locked = dict(before)
    locked["locked"] = ctl.locked
    assert ctl.snapshot() == locked
    assert [scenes.seat_status(hal.pixels.px, LEDS, s) for s in range(4)].count(
        scenes.WINNER) == 0
    assert scenes.seat_status(hal.pixels.px, LEDS, seat) == scenes.ACTION
    assert events(hal, "show") == [] and events(hal, "award") == [] and \
        events(hal, "end") == []
    assert lines(path) == lines_before


def test_after_a_failed_write_the_next_boot_resumes_from_the_last_whole_record():
    path = journal_path("partial-write")
    ctl, _ = boot(path)
    assert ctl.handle("cfg", CFG) is None
    start_round(ctl)
    assert ctl.handle("card", {"code": "2c"}) is None
    snap = ctl.snapshot()
    with open(path, "ab") as f:                  # what a failing write left
        f.write(b"%d 0f3a" % (int(lines(path)[-1].split(b" ")[0]) + 1))
    ctl2, _ = boot(path)
    assert ctl2.locked is None and ctl2.snapshot() == snap
    assert ctl2.handle("card", {"code": "3c"}) is None
    ctl3, _ = boot(path)
    assert ctl3.locked is None and len(ctl3.round.just_dealt) == 2
