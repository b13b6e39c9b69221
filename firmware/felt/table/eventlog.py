"""The event log: every tilt and error the table meets (docs/tilts.md), and each
clearing, kept on the board's flash beside the journal (`<journal>.events`) so that it
outlives power cycles, and read over the link (`eventlog`).

Append-only: one line a record, `<seq> <crc> <json>` as the journal writes them
(felt.table.journal), the record `{"n": seq, "minute": table minute, "hand": rounds
begun, "code": docs/tilts.md, "detail": a sentence}`.  Bounded: past `limit` bytes the
file becomes `<path>.1` and a new one begins, so the last `limit` to 2 x `limit` bytes
are kept.  A line that does not read exactly (a power cut in its middle, a bad byte)
is shown as a `log_damaged` record, never taken for another.  Without a file (the
journal kept nowhere) the last MEMORY records are kept in memory.  A failing write
never stops the table: the journal, not this log, guards the chips.
"""

import os

from felt import lazy
from felt.table.journal import MAX_WHY, file_size, record_line

MEMORY = 32         # records kept without a file
READING = "felt.table.eventlog_read"   # reading the log back, seldom (felt.lazy)


class EventLog:
    def __init__(self, path=None, limit=8 * 1024):
        self.path = path
        self.limit = limit
        self.memory = []         # without a file
        self.seq = 0             # the last record's number
        self.failed = 0          # writes that failed
        self._size = 0
        if path is not None:
            self.seq = lazy.load(READING).last_seq(path)
            lazy.forget(READING)
            self._size = max(0, file_size(path))

    def add(self, minute, hand, code, detail=""):
        self.seq += 1
        record = {"n": self.seq, "minute": minute, "hand": hand, "code": code,
                  "detail": detail[:MAX_WHY]}
        if self.path is None:
            self.memory.append(record)
            del self.memory[:-MEMORY]
            return
        try:
            line = record_line(self.seq, record)
            if self._size + len(line) > self.limit:
                if file_size(self.path) >= 0:
                    if file_size(self.path + ".1") >= 0:
                        os.remove(self.path + ".1")   # not every filesystem renames onto one
                    os.rename(self.path, self.path + ".1")
                self._size = 0
            with open(self.path, "ab") as f:
                f.write(line)
            self._size += len(line)
        except Exception:  # noqa: BLE001 - out of flash or heap: the table plays on
            self.failed += 1

    def page(self, start=0):
        """(the records kept from the `start`-th on, oldest first, as many as fit one
        answer; the position to ask from next, or None when these are the last)."""
        pages = lazy.load(READING)
        try:
            return pages.page(self, start)
        finally:
            lazy.forget(READING)
