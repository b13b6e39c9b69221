"""Reading the event log back (felt.table.eventlog): at boot for its last number, and
for the link's `eventlog` query, a page at a time; loaded for that and forgotten after.
"""

import json

from felt.protocol import dumps
from felt.table.journal import crc_text, file_size

PAGE = 700          # bytes of records in one `eventlog` answer (a frame is 1024)
TAIL = 600          # bytes from a file's end that hold its last record whole


def last_seq(log):
    """The last record's number: the larger of the kept records' and the others'."""
    return max(_last_seq(log.path), _last_seq(log.kept))


def _last_seq(path):
    """The last record's number, read from the end of the newest file that has one."""
    for name in (path, path + ".1"):
        size = file_size(name)
        if size <= 0:
            continue
        with open(name, "rb") as f:
            f.seek(max(0, size - TAIL))
            lines = f.read().split(b"\n")
        for line in reversed(lines[1:-1] if size > TAIL else lines[:-1]):
            n, _ = _read(name, 0, line + b"\n")
            if n > 0:
                return n
    return 0


def page(log, start):
    """(records from the `start`-th on, as many as fit PAGE; where the next page
    begins, or None), read one line at a time: a board never holds the whole log."""
    out, size, i = [], 0, 0
    for record in every(log):
        if i >= start:
            size += len(dumps(record))
            if size > PAGE:
                return out, i
            out.append(record)
        i += 1
    return out, None


def every(log):
    """Every record the log keeps, oldest first, one at a time: the kept records and
    the others, merged by number."""
    if log.path is None:
        for record in log.memory:
            yield record
        return
    files = (_records(log.path), _records(log.kept))
    heads = [_next(f) for f in files]
    while heads[0] is not None or heads[1] is not None:
        # A damaged line (n -1) comes out where its own file has it.
        i = 1 if heads[0] is None or heads[1] is not None and \
            heads[1]["n"] < heads[0]["n"] else 0
        yield heads[i]
        heads[i] = _next(files[i])


def _next(records):
    try:
        return next(records)
    except StopIteration:
        return None


def _records(path):
    """The records of the files at `path`, oldest first."""
    for name in (path + ".1", path):
        try:
            f = open(name, "rb")
        except OSError:
            continue
        with f:
            n = 0
            for line in f:
                n += 1
                yield _read(name, n, line)[1]


def _read(path, n, line):
    parts = line.rstrip(b"\n").split(b" ", 2)
    try:
        if len(parts) == 3 and line.endswith(b"\n") and crc_text(parts[0], parts[2]) == parts[1]:
            record = json.loads(parts[2])
            if isinstance(record, dict) and record.get("n") == int(parts[0]):
                return record["n"], record
    except ValueError:
        pass
    return 0, {"n": -1, "minute": -1, "hand": -1, "code": "log_damaged",
               "detail": "%s line %d does not read exactly" % (path, n)}
