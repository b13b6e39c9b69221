"""The event log: every tilt and error the table meets (docs/tilts.md), and each
clearing, kept on the board's flash beside the journal (`<journal>.events`) so that it
outlives power cycles, and read over the link (`eventlog`).

Append-only: one line a record, `<seq> <crc> <json>` as the journal writes them
(felt.table.journal; never with the board's MAC: the log is evidence, not chips), the
record `{"n": seq, "minute": table minute, "hand": rounds begun, "code": docs/tilts.md,
"detail": a sentence}`.  Bounded: past `limit` bytes a
file becomes `<file>.1` and a new one begins, so the last `limit` to 2 x `limit` bytes
are kept.  What must outlive a flood of the records anyone can cause (CAUSED) has
files of its own, `<journal>.events.kept`: tilts, technicians' acts, program checks,
decks retired, reboots.  A refusal (a `..._refused` code) is counted: its record is
written at the 1st, 10th, 100th... since boot, so a flood of them writes a handful.  A line that does not read exactly (a power cut in its middle, a bad byte)
is shown as a `log_damaged` record, never taken for another.  Without a file (the
journal kept nowhere) the last MEMORY records are kept in memory.  A failing write
never stops the table: the journal, not this log, guards the chips.
"""

import os

from felt import lazy
from felt.table.journal import MAX_WHY, file_size, record_line

MEMORY = 32         # records kept without a file
READING = "felt.table.eventlog_read"   # reading the log back, seldom (felt.lazy)
# Records anyone at the link or the table can cause: every other code (tilts, their
# clearing, reboots, technicians' acts, decks retired) is kept, in files of its own.
CAUSED = ("shuffler_jam", "shuffler_jam_cleared", "shoe_failure", "shoe_failure_cleared",
          "link_lost", "link_restored", "power_lost_in_play", "technician_refused",
          "link_input_refused", "recall_unsigned")


def files(path):
    """Every file of the log at `path` (a tool removing it: a new table)."""
    return (path, path + ".1", path + ".kept", path + ".kept.1")


class EventLog:
    def __init__(self, path=None, limit=8 * 1024):
        self.path = path
        self.kept = None if path is None else files(path)[2]   # the kept records'
        self.limit = limit
        self.memory = []         # without a file
        self.seq = 0             # the last record's number
        self.failed = 0          # writes that failed
        self.counted = {}        # a refusal's code: how many since boot
        if path is not None:
            self.seq = lazy.load(READING).last_seq(self)
            lazy.forget(READING)

    def add(self, minute, hand, code, detail=""):
        if code.endswith("_refused"):        # a refusal: counted
            n = self.counted[code] = self.counted.get(code, 0) + 1
            if str(n).strip("0") != "1":      # only the 1st, 10th, 100th...
                return
            if n > 1:
                detail = "%s (the %dth since boot)" % (detail, n)
        self.seq += 1
        record = {"n": self.seq, "minute": minute, "hand": hand, "code": code,
                  "detail": detail[:MAX_WHY]}
        if self.path is None:
            self.memory.append(record)
            del self.memory[:-MEMORY]
            return
        path = self.path if code in CAUSED else self.kept
        try:
            line = record_line(self.seq, record)
            if max(0, file_size(path)) + len(line) > self.limit:
                if file_size(path + ".1") >= 0:
                    os.remove(path + ".1")   # not every filesystem renames onto one
                os.rename(path, path + ".1")
            with open(path, "ab") as f:
                f.write(line)
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
