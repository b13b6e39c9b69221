"""A journal the board vouches for (issue 38, item 5; docs/journal.md, "The board's
MAC"): where the board keeps its key beside the journal, each line carries the MAC of
its number and its JSON by that key.  A record edited with its checksum computed again
locks the table (critical_memory), as a flipped bit does; damage is still told from an
edit by the checksum, so a damaged copy is still read from the other and a record torn
by a power cut is still cut off.  Without a key the same edit is not found.  Runs on
CPython and MicroPython."""

import binascii
import json
import os

from felt import boardkey, mac, protocol
from felt.table import journal as J
from felt.table import recall
from felt.table.records import UNCHECKED

from table_fakes import (BOARD_KEY, boot, events, fold_round, give_key, journal_path,
                         read_bytes, start_round, write_bytes)

CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}
OTHER_KEY = bytes(range(100, 132))      # another board's
HOLES = "2c 3c 4c 5c 2d 3d 4d 5d"


def played(name, keyed=True, mid_round=False):
    """A journal at a table that played a round folded to the big blind (and dealt the
    next, called once, if `mid_round`), its board keeping BOARD_KEY if `keyed`; (path,
    the table's lasting state)."""
    path = journal_path(name)
    if keyed:
        give_key(path)
    ctl, _ = boot(path)
    assert ctl.handle("cfg", CFG) is None
    fold_round(ctl)
    if mid_round:
        start_round(ctl)
        for code in HOLES.split():
            assert ctl.handle("card", {"code": code}) is None
        assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "call"}) is None
    return path, ctl.lasting()


def lines(path):
    return read_bytes(path).split(b"\n")[:-1]


def put_lines(path, ls):
    write_bytes(path, b"\n".join(ls) + b"\n")


def fields(line):
    """(seq, crc, mac or None, JSON) of a line."""
    seq, crc, rest = line.split(b" ", 2)
    if rest.startswith(b"{"):
        return seq, crc, None, rest
    tag, body = rest.split(b" ", 1)
    return seq, crc, tag, body


def rewritten(line, edit, key=None):
    """The line's record changed by edit(record), its checksum computed again: its MAC
    kept as it was, or made by `key` (a key not the board's)."""
    seq, _, tag, body = fields(line)
    record = json.loads(body)
    edit(record)
    rest = body = protocol.dumps(record).encode()
    if key is not None:
        tag = J.mac_text(key, seq, body)
    if tag is not None:
        rest = b"%s %s" % (tag, body)
    return b"%s %s %s" % (seq, J.crc_text(seq, rest), rest)


def table_pair(ls):
    """Where the last table record is (its copy the next line)."""
    i = [k for k in range(len(ls)) if b' {"table":' in ls[k]][-1]
    assert b' {"copy":1,"table":' in ls[i + 1]
    return i


def to_397(record):
    record["table"]["stacks"] = [397, 1, 1, 1]       # the issue's edit: the chips add up


def edited_to_397(name, keyed):
    """A journal whose last table record and its copy were edited to_397, each line's
    checksum computed again (issue 38: a journal edited so resumed); its path."""
    path, _ = played(name, keyed)
    ls = lines(path)
    i = table_pair(ls)
    ls[i], ls[i + 1] = rewritten(ls[i], to_397), rewritten(ls[i + 1], to_397)
    put_lines(path, ls)
    return path, i + 1


def assert_boot_locks(path, why):
    """A boot on the journal at `path` locks with critical_memory saying `why`, and
    leaves the journal as found."""
    before = read_bytes(path)
    ctl, hal = boot(path)
    assert ctl.locked == why, ctl.locked
    assert events(hal, "locked") == [{"e": "locked", "code": "critical_memory", "why": why}]
    assert events(hal, "resumed") == []
    assert ctl.handle("dealer", {"b": "deal"}).startswith("the table is locked: ")
    assert read_bytes(path) == before
    return ctl


def test_each_line_carries_the_mac_of_its_number_and_json_by_the_boards_key():
    path, _ = played("mac-format", mid_round=True)
    ls = lines(path)
    assert b' {"stamp":' in ls[0] and len(ls) > 8
    for i in range(len(ls)):
        seq, crc, tag, body = fields(ls[i])
        assert int(seq) == i + 1
        want = binascii.hexlify(mac.digest(BOARD_KEY, seq + body)[:8])
        assert tag == want and len(tag) == 16
        # The checksum covers the MAC too: a bit flipped in it is damage, not an edit.
        assert crc == b"%08x" % (binascii.crc32(tag + b" " + body, binascii.crc32(seq))
                                 & 0xffffffff)
    try:
        import hashlib
        import hmac               # CPython's own HMAC: felt.mac is the RFC's
        seq, _, tag, body = fields(ls[3])
        assert tag == hmac.new(BOARD_KEY, seq + body, hashlib.sha256).hexdigest()[:16].encode()
    except ImportError:
        pass                      # MicroPython has no hmac module


def test_a_board_without_a_key_writes_todays_lines():
    path, _ = played("mac-none", keyed=False)
    for line in lines(path):
        assert fields(line)[2] is None


def test_the_issues_edit_with_its_checksums_recomputed_locks_with_critical_memory():
    # Issue 38: stacks [100]*4 became [397, 1, 1, 1], both copies, the checksums
    # computed again: the chips add up, so only the MAC finds it.
    path, line = edited_to_397("mac-edit", True)
    why = "journal %s line %d: the MAC does not hold, the checksum does: edited" % (
        path, line)
    assert_boot_locks(path, why)
    assert_boot_locks(path, why)                        # at every boot


def test_an_edit_whose_mac_is_made_by_another_key_locks():
    path, _ = played("mac-other-key", mid_round=True)
    ls = lines(path)
    i = [k for k in range(len(ls)) if b' {"event":["call",' in ls[k]][-1]

    def fold(record):
        record["event"][0] = "fold"
    ls[i] = rewritten(ls[i], fold, OTHER_KEY)
    put_lines(path, ls)
    assert_boot_locks(path, "journal %s line %d: the MAC does not hold, the checksum "
                      "does: edited" % (path, i + 1))


def test_without_a_key_the_same_edit_resumes_undetected():
    # What docs/journal.md says a developer's table cannot catch: its lines carry no MAC.
    path, _ = edited_to_397("mac-none-edit", False)
    ctl, _ = boot(path)
    assert ctl.locked is None and ctl.stacks == [397, 1, 1, 1]


def test_an_edited_copy_is_never_read_for_its_damaged_record():
    # The table record damaged (its checksum fails) and its copy edited with a right
    # checksum: without a key the copy is taken, with one the table locks.
    for keyed in (False, True):
        path, _ = played("mac-launder-%s" % keyed, keyed)
        ls = lines(path)
        i = table_pair(ls)
        ls[i] = ls[i][:40] + (b"X" if ls[i][40:41] != b"X" else b"Y") + ls[i][41:]
        ls[i + 1] = rewritten(ls[i + 1], to_397)
        put_lines(path, ls)
        if keyed:
            assert_boot_locks(path, "journal %s line %d: the MAC does not hold, the "
                              "checksum does: edited" % (path, i + 2))
        else:
            ctl, _ = boot(path)
            assert ctl.locked is None and ctl.stacks == [397, 1, 1, 1]


def test_a_damaged_copy_is_still_read_from_the_other_with_a_key():
    path, lasting = played("mac-damage")
    data = read_bytes(path)
    at = data.rindex(b"\n", 0, len(data) - 1) + 1        # the last line: the copy
    write_bytes(path, data[:at + 30] + bytes([data[at + 30] ^ 0x04]) + data[at + 31:])
    ctl, _ = boot(path)
    assert ctl.locked is None and ctl.lasting() == lasting


def test_a_bit_flipped_in_a_mac_is_damage_not_an_edit():
    # The checksum covers the MAC: the record is read from its other copy.
    path, lasting = played("mac-flip-mac")
    data = read_bytes(path)
    at = data.rindex(b"\n", 0, len(data) - 1) + 1
    tag = at + data[at:].index(b" ", data[at:].index(b" ") + 1) + 1
    write_bytes(path, data[:tag] + bytes([data[tag] ^ 0x01]) + data[tag + 1:])
    ctl, _ = boot(path)
    assert ctl.locked is None and ctl.lasting() == lasting


def test_a_record_cut_at_each_byte_resumes_from_the_records_before_it_with_a_key():
    path, _ = played("mac-torn", mid_round=True)
    ctl, _ = boot(path)
    whole = read_bytes(path)
    before = ctl.snapshot()
    assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "raise"}) is None
    after = ctl.snapshot()
    raised = read_bytes(path)[len(whole):]
    assert len(fields(raised[:-1])[2]) == 16
    for k in range(len(raised) + 1):
        write_bytes(path, whole + raised[:k])
        ctl2, _ = boot(path)
        assert ctl2.locked is None, (k, ctl2.locked)
        assert ctl2.snapshot() == (after if k == len(raised) else before)
        assert read_bytes(path) == (whole + raised if k == len(raised) else whole)


def test_the_key_file_removed_locks():
    # The key deleted is an edit too: a board that keeps none writes no MAC.
    path, _ = played("mac-key-gone")
    os.remove(boardkey.path(path))
    assert_boot_locks(path, "journal %s line 1: a MAC, but the board keeps no key: "
                      "its key file removed, or the journal of another board" % path)


def test_another_boards_key_locks():
    path, _ = played("mac-key-other")
    give_key(path, OTHER_KEY)
    assert_boot_locks(path, "journal %s line 1: the MAC does not hold, the checksum "
                      "does: edited" % path)


def test_a_line_without_its_mac_locks_a_board_with_a_key():
    # A record written by something else: its checksum right, no MAC.
    path, _ = played("mac-plain")
    ls = lines(path)
    seq, _, _, body = fields(ls[-1])
    ls[-1] = b"%s %s %s" % (seq, J.crc_text(seq, body), body)
    put_lines(path, ls)
    assert_boot_locks(path, "journal %s line %d: no MAC, where the board keeps a "
                      "key: written by something else" % (path, len(ls)))


def test_a_journal_without_macs_locks_a_board_given_a_key():
    path, _ = played("mac-given", keyed=False)
    give_key(path)
    assert_boot_locks(path, "journal %s line 1: no MAC, where the board keeps a "
                      "key: written by something else" % path)


def test_recall_names_an_edited_line_unread_by_the_key_and_reads_it_unchecked():
    path, _ = played("mac-recall")
    ls = lines(path)
    i = [k for k in range(len(ls)) if b' {"event":["fold",' in ls[k]][-1]

    def call(record):
        record["event"][0] = "call"
    ls[i] = rewritten(ls[i], call)
    put_lines(path, ls)
    edited = json.loads(fields(ls[i])[3])["event"]
    checked = recall.page(path, key=BOARD_KEY)
    assert checked["unread"] == [[0, i + 1]] and checked["header"] is not None
    assert edited not in checked["events"]
    unchecked = recall.page(path, key=UNCHECKED)             # a host without the key
    assert unchecked["unread"] == [] and edited in unchecked["events"]
    assert unchecked["events"] == checked["events"][:-1] + [edited] or \
        len(unchecked["events"]) == len(checked["events"]) + 1
    assert recall.page(path)["rounds"] == 0     # None: a board that keeps no key


def test_a_board_with_a_key_answers_recall_and_public_from_its_checked_records():
    # The board reads its own journal by its key: recall and a round's public record
    # give the round it played (by no key, every line of it would be one not read).
    path, _ = played("mac-queries")
    ctl, hal = boot(path)
    assert ctl.handle("recall", {"round": 0}) is None
    kind, answer = hal.link.sent[-1]
    assert kind == "recall" and answer["rounds"] == 1 and answer["unread"] == []
    assert answer["header"]["hand"] == 1 and len(answer["events"]) == len(HOLES.split()) + 3
    assert ctl.handle("public", {"round": 0}) is None
    kind, answer = hal.link.sent[-1]
    assert kind == "public" and answer["rounds"] == 1 and answer["format"] is not None
