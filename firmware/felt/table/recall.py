"""Recall: the last rounds the table played, read back from its journal a page at a
time, for the link's `recall` query (docs/protocol.md) and for felt-recall on a PC
(host_tools/recall.py).  Loaded for a query and forgotten after (felt.lazy).

A round is its header and the events after it, up to the next record that is not an
event: complete when such a record follows (the table record written as it ended), or
when the file is an archive (<path>.1, <path>.2, ...: that table record began the next
file).  Round 0 is the newest complete round, in the journal or its archives (the
journal keeps at least `journal.RECALL` of them: felt.table.journal).

The files are read a line at a time through a buffer of one frame's size, as a board
must.  A line that does not read is passed over and named in `unread`, and a file is
read as far as it reads: a locked table recalls what it can.  A round whose header
does not read is given with its events and a null header.
"""

import binascii

from felt import protocol
from felt.table import records
from felt.table.journal import RECALL, archive

BUF = protocol.MAX_FRAME    # a round's header and its events fit; a table record may not
# Bytes of an answer's JSON: past them the next record goes to the next page.  Frames
# of 1 KB would need blocks a board's heap, cut up by the reading, may not have; the
# largest header alone still fits a frame (test_recall.py).
PAGE = 700
MAX_UNREAD = 4              # lines named in `unread`, the first of the round's
# A record's kind by how its JSON begins (keys sorted): only a record noting the link
# frame that made it ("from" first) is parsed to tell.  Parsing every line would leave
# a board's heap too cut up for the answer's frame.
STARTS = ((b'{"event":', "event"), (b'{"copy":', "table"), (b'{"round":', "round"),
          (b'{"table":', "table"), (b'{"stamp":', "stamp"))


def files(path):
    """Every file of the journal at `path`, newest first: the journal, its archives,
    a new file begun (docs/journal.md).  Removed in the reverse order, a journal lost
    beside its archive never locks a table that was being started anew (felt-flash
    --new-table, the emulator)."""
    return [path] + [archive(path, i) for i in range(1, RECALL + 1)] + [path + ".new"]


def page(path, k=0, start=0, most=PAGE, key=None):
    """The answer to `recall {"round": k, "from": start}`: round k (0 the newest
    complete one) from its `start`-th record (0 its header, 1... its events), as many
    as fit `most` bytes of JSON (None: all of them, for the board's own use).  Each
    line's MAC is checked by `key` (records.checksummed: the board's own, None where it
    keeps none, or UNCHECKED on a host without it): a line whose MAC does not hold is
    one that does not read."""
    out = {"round": k, "rounds": 0, "seq": None, "hand": None, "header": None,
           "events": [], "from": start, "next": None, "unread": []}
    if path is None:
        return out          # no journal on a file: nothing kept
    buf = bytearray(BUF + 1)
    found = None
    names = files(path)[:-1]
    for i in range(len(names)):
        name = names[i]
        spans = _spans(name, buf, i > 0, key)
        if found is None and k - out["rounds"] < len(spans):
            found = (i, name, spans[len(spans) - 1 - (k - out["rounds"])])
        out["rounds"] += len(spans)
    if found is not None:
        _fill(out, found, start, buf, most, key)
    return out


def _spans(name, buf, archived, key):
    """(offset, line) of each complete round in the file, oldest first; none if the
    file is not there."""
    rounds = []
    span = None             # the round being read
    lost = None             # a line that did not read between rounds: perhaps a header
    for at, n, _, kind, _ in _read(name, buf, 0, 0, False, key):
        if kind == "event":
            span = span or lost       # a round whose header did not read
            lost = None
        elif kind is None:
            if span is None:
                lost = lost or (at, n)
        else:
            if span is not None:
                rounds.append(span)
            span = (at, n) if kind == "round" else None
            lost = None
    if span is not None and archived:
        rounds.append(span)
    return rounds


def _fill(out, found, start, buf, most, key):
    """Round `found` (file index, file, (offset, line)) into the answer `out`: its
    records from the `start`-th, its header 0 and its events 1, 2, ..., as many as
    fit `most` bytes (and one at least), up to the next record that is not an event."""
    i, name, (offset, first) = found
    size = len(protocol.dumps(out))
    at = 0                  # the round's record at hand: 0 its header, 1... its events
    for _, n, seq, kind, record in _read(name, buf, offset, first - 1, True, key):
        if kind is None:
            if len(out["unread"]) < MAX_UNREAD:
                out["unread"].append([i, n])
            at += n == first            # a header that does not read
            continue
        if n != first and kind != "event":
            break
        if n == first:
            out["seq"], out["hand"] = seq, record["round"].get("hand")
        if at >= start and out["next"] is None:
            item = record["round"] if n == first else record["event"]
            text = len(protocol.dumps(item)) + 1 if most is not None else 0
            if most is not None and size + text > most and at > start:
                out["next"] = at
            elif n == first:
                out["header"] = item
                size += text
            else:
                out["events"].append(item)
                size += text
        at += 1


def _read(name, buf, offset, n, parse, key):
    """(offset, line number, seq, kind, record) for each line of the file from
    `offset` (line `n` + 1 on): kind None for a line that does not read, "long" for
    one longer than the buffer that reads (a table record: no round's); the record
    parsed only if `parse`, or if its kind needs it; MACs checked by `key`.  Nothing
    if the file is not there.  A long line is read past with its checksum alone: it
    is a table record, in no answer."""
    try:
        f = open(name, "rb")
    except OSError:
        return
    with f:
        f.seek(offset)
        lines = records.Lines(f, buf, offset)
        while True:
            line = lines.next()
            if not len(line) and not lines.whole:
                return
            n += 1
            seq = kind = record = None
            try:
                if lines.whole:
                    seq, body = records.checksummed(line, key)
                    kind = _kind(bytes(body[:10]))
                    if parse or kind is None:
                        record = records.loads(body)
                        kind = records.kind(record)
                elif len(line) > lines.most and _long_reads(lines, line):
                    kind = "long"
            except ValueError:
                kind = record = None     # its checksum may hold, its JSON or MAC not
            yield lines.at, n, seq, kind, record


def _kind(start):
    for prefix, kind in STARTS:
        if start.startswith(prefix):
            return kind
    return None


def _long_reads(lines, line):
    """Whether a line that came back cut (longer than the buffer) reads to its end
    with the checksum it begins with, its JSON unread; the lines go on past it."""
    try:
        digits, crc, at = records.head(line)
        value = binascii.crc32(line[at:], binascii.crc32(digits))
    except ValueError:
        crc = value = None                        # read past it all the same
    buf, view = lines.buf, lines.view
    while True:
        i = buf.find(b"\n", lines.start, lines.end)
        if i >= 0:
            if crc is not None:
                value = binascii.crc32(view[lines.start:i], value)
            lines.start = i + 1
            return crc is not None and b"%08x" % (value & 0xffffffff) == crc
        if crc is not None:
            value = binascii.crc32(view[lines.start:lines.end], value)
        lines.base += lines.end
        lines.start = lines.end = 0
        lines.end = lines.f.readinto(view)
        if not lines.end:
            return False
