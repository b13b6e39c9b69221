"""Reading the journal's lines back (felt.table.records): a line at a time through one
buffer, longer lines cut, each line checked whole.  Runs on CPython and MicroPython."""

from felt.table import records
from felt.table.journal import record_line

from table_fakes import journal_path, write_bytes

EVENT = record_line(7, {"event": ["card", "2c"]})
LONG = record_line(8, {"table": {"stacks": [1000] * 40}})


def lines_of(data, size):
    """(offset, whole, line) of every line of `data`, through a buffer of `size` bytes."""
    path = journal_path("records")
    write_bytes(path, data)
    out = []
    with open(path, "rb") as f:
        lines = records.Lines(f, bytearray(size))
        while True:
            line = lines.next()
            if not len(line) and not lines.whole:
                return out
            out.append((lines.at, lines.whole, bytes(line)))
            if not lines.whole and len(line) > lines.most:
                return out


def test_lines_come_one_at_a_time_with_where_each_begins():
    got = lines_of(EVENT + EVENT + b"7 0123", 64)
    assert got == [(0, True, EVENT[:-1]), (len(EVENT), True, EVENT[:-1]),
                   (2 * len(EVENT), False, b"7 0123")]


def test_a_line_longer_than_the_buffer_comes_back_cut():
    assert len(LONG) > 100
    assert lines_of(EVENT + LONG + EVENT, 64)[1] == (len(EVENT), False, LONG[:64])


def test_each_line_is_checked_whole():
    seq, record = records.parse(memoryview(EVENT[:-1]), None)
    assert seq == 7 and records.kind(record) == "event"
    for bad, why in ((EVENT[:-2] + b"]", "the checksum does not match: damaged or edited"),
                     (b"{\"event\":1}", "a record without its number and checksum (an "
                                        "older firmware's journal?)"),
                     (b"seven", "not a journal record")):
        try:
            records.parse(memoryview(bad), None)
            assert False, bad
        except ValueError as e:
            assert str(e) == why
    copy = record_line(3, {"table": {}, "copy": 1})
    seq, record = records.parse(memoryview(copy[:-1]), None)
    assert records.kind(record) == "table"
    for record in ({"event": ["fold", 1], "copy": 1}, {"table": {}, "copy": 2},
                   {"table": {}, "copy": True}):
        try:
            records.kind(record)
            assert False, record
        except ValueError as e:
            assert "wrong shape" in str(e)
