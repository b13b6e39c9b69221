"""The journal: every accepted event of a round, written before the table acts on it.

One mechanism for three features: rebuild a round after a power cut, recall a past
round, export a hand history.  A round is its header (hand number, button, stacks,
structure) plus its events; replaying them through the pure rules core rebuilds it.
Between rounds, and as each begins, the table's lasting state (its configuration,
stacks, button, decks...) is written as a `table` record, twice (the second its copy,
read when the first is damaged): a restart resumes from the last one and the round
begun after it, if any.  With a `phh_dir`, each finished round's history is also
written there by its table (history_path): a Poker Hand History, `hand-<n>.phh`
(felt.table.phh, docs/phh.md), or a house-banked round's record, `hand-<n>.banked`.

The file (docs/journal.md) holds one line per record, `<seq> <crc> <json>`: a sequence
number that runs on across files, the CRC-32 of the sequence number's digits and the
JSON, and the record.  Where the board keeps a key (felt.boardkey, beside the journal),
each line also carries the MAC of the number and the JSON by it, `<seq> <crc> <mac>
<json>`, the CRC then over the MAC too: the CRC tells damage from an edit, the MAC an
edit from the board's own write.  Each file begins with a stamp (the firmware and the
table that wrote it) and a table record, written whole under `<path>.new` and renamed into place;
past `limit` bytes the file is renamed to `<path>.1` as the next table record starts a
new one, so the file always holds the round under way whole.  The files before it
are kept as archives, `<path>.1`, `<path>.2`, ..., as many as hold the last `recall`
complete rounds with it, for recall (felt.table.recall), and no more: flash never fills.
A power cut at any byte leaves the old state or the new one readable: a record cut
short at the end is cut off at boot, before anything is written after it.  Anything
else that does not read exactly (a checksum, a sequence number, a stamp, a file lost)
is `Damaged`, and the table stops (Controller.lock) rather than forget its chips.
"""

import binascii
import os

from felt import boardkey, check, mac, protocol

MAX_RECORD = 4096   # bytes in one line: a link frame, a record's "from", is at most 1024
MAX_WHY = 200       # characters in a reason: it goes out inside one link frame
MAC_BYTES = 8       # of the HMAC-SHA256 on each line: 16 hex digits keep the lines short
KINDS = ("stamp", "table", "round", "event")
RECALL = 10         # complete rounds kept on the flash at the least, for recall
CALLED_OFF = (None, "void", "dead", "misdeal")

# An OSError's number in words of ours: its own text differs between runtimes.
_ERRNO = {2: "no such file", 5: "an input/output error", 13: "permission denied",
          20: "a folder on the path is a file", 21: "the path is a folder",
          28: "no space left", 30: "the filesystem is read-only"}


class JournalError(Exception):
    """A write to the journal failed; str() says why, in a sentence."""


def brief(text):
    """`text`, cut to MAX_WHY characters."""
    return text if len(text) <= MAX_WHY else text[:MAX_WHY - 3] + "..."


def why(e):
    """An exception in words of ours, the same on every runtime."""
    n = e.args[0] if isinstance(e, OSError) and e.args else None
    if not check.is_whole(n):
        return "an error (%s)" % type(e).__name__
    return "%s (errno %d)" % (_ERRNO.get(n, "an OS error"), n)


def archive(path, i):
    """The name of the journal's i-th archive, i from 1: the file before it, ..."""
    return "%s.%d" % (path, i)


class Journal:
    def __init__(self, path=None, phh_dir=None, limit=64 * 1024, recall=RECALL):
        self.path = path
        self.limit = limit
        self.recall = recall     # complete rounds the archives keep, with the file
        self.phh_dir = phh_dir
        self.rounds = 0          # rounds begun in the file (their headers)
        self.kept = []           # complete rounds in each archive, <path>.1 first
        self.header = None
        self.header_seq = 0      # the round header's sequence number, for reasons
        self.table_seq = 0       # the last table record's
        # The round's events in memory, only where something reads them there: a hand
        # history to write, or no file to hold them.  On a board they are in the file:
        # a list growing all round would cut up the heap.
        self.events = [] if phh_dir is not None or path is None else None
        self.count = 0           # events in the round under way
        self.source = None       # the link frame being applied, noted on each record
        self.last_frame = None   # after recover(): the last link frame applied
        self.repaired = None     # after recover(): a line read from the other copy, why
        self.stamp = {"board": None, "fw": None}
        # The board's key: each record's MAC by it, written and checked (None: a board
        # that keeps none, a developer's table; its lines carry no MAC).
        self.key = boardkey.load(path)
        self.seq = 0             # the last record's sequence number
        self._size = None        # bytes in the file; None: none yet, the next write makes it
        # Records are added only to a file read whole at boot: never after damage, a
        # failed write or a partial record.
        self._ready = path is None
        # Where felt.table.recovery reads the file's lines at boot: taken now, before the
        # heap fragments, and let go once the table has resumed (Controller).
        self.buf = bytearray(MAX_RECORD + 1) if path is not None else None

    def ready(self, size):
        """Records may be added, the file holding `size` bytes (None: none yet): once it
        was read whole at boot (felt.table.recovery), or begun anew (a technician's clear)."""
        self._size = size
        self._ready = True

    def identify(self, fw, board):
        """Who writes: the stamp each file begins with.  A journal of another table is
        Damaged (a board's flash moved, or a journal copied in)."""
        self.stamp = {"board": board, "fw": fw}

    # ----- writing ------------------------------------------------------------------

    def begin(self, hand, button, stacks, config, wagers=None):
        """A round's header; `wagers`, a house-banked round's (ante, side) per seat."""
        header = {"hand": hand, "button": button, "stacks": list(stacks), "game": config.game}
        header.update(config.header())
        if wagers is not None:
            header["wagers"] = [list(w) for w in wagers]
        self._write({"round": header})
        self.header, self.header_seq, self.count = header, self.seq, 0
        self.rounds += 1
        if self.events is not None:
            self.events = []

    def table(self, state):
        """The table's lasting state, as felt.table.controller saves it: written twice
        (_lines)."""
        self._write({"table": state})

    def append(self, event):
        self._write({"event": list(event)})
        self.count += 1
        if self.events is not None:
            self.events.append(event)

    def _write(self, record):
        """Add a record, or raise JournalError (nothing more is written after one)."""
        if self.path is None:
            return
        if not self._ready:
            raise JournalError("journal write refused: the journal was not read whole at "
                               "boot or a write failed before")
        if self.source is not None:
            # Which link frame made this record: after a power cut, its resend is known.
            record["from"] = list(self.source)
        try:
            if self._size is None or ("table" in record and self._size > self.limit):
                self._new_file(record)
            else:
                self._size += self.put(self.path, _lines(self.key, self.seq + 1, record), "ab")
                self.seq += 1 + ("table" in record)
        except JournalError:
            self._ready = False  # a table record's copy refused: its record may be written
            raise
        except OSError as e:
            self._ready = False  # the file may end in part of a record
            raise JournalError(brief("journal write failed: %s: %s" % (self.path, why(e))))

    def _new_file(self, record):
        """A file begun whole: its stamp and first record under <path>.new, renamed over
        the file.  The file before becomes <path>.1, the archives before it move one
        number on, and those the last `recall` complete rounds no longer need are
        removed first; a file without a round is not kept.  The stamp says how many
        complete rounds each archive holds.  A cut before the last two renames leaves
        the file as it was (an archive's number freed on the way is taken back at boot:
        felt.table.recovery); between them, <path>.new to take its place at boot."""
        kept = self.kept
        if self._size is not None and self.rounds:
            kept = [self.rounds] + kept
            n = 1
            while n < len(kept) and sum(kept[:n]) < self.recall:
                n += 1
            kept = kept[:n]
        stamp = {"board": self.stamp["board"], "fw": self.stamp["fw"], "archives": kept}
        new = self.path + ".new"
        size = self.put(new, _lines(self.key, self.seq + 1, {"stamp": stamp}, record), "wb")
        if kept is not self.kept:
            path = self.path
            for i in range(len(self.kept), len(kept) - 1, -1):
                self.remove(archive(path, i))
            for i in range(len(kept) - 1, 0, -1):
                self.rename(archive(path, i), archive(path, i + 1))
            self.rename(path, archive(path, 1))
        self.rename(new, self.path)
        self._size = size
        self.seq += 2 + ("table" in record)
        self.kept, self.rounds = kept, 0

    # The file operations, one place for each (tests/host/journal_cuts.py cuts the
    # power between and within them).

    def put(self, path, pieces, mode):
        """Write `pieces` one after the other, in one open; how many bytes."""
        n = 0
        with open(path, mode) as f:
            for piece in pieces:
                f.write(piece)
                n += len(piece)
        return n

    def rename(self, old, new):
        try:
            os.rename(old, new)
        except OSError:
            if not exists(new):
                raise
            os.remove(new)       # a filesystem that will not rename onto a file
            os.rename(old, new)

    def remove(self, path):
        os.remove(path)

    # ----- rounds ---------------------------------------------------------------------

    def history_path(self, kind):
        """Where the round's history goes: <phh_dir>/hand-<n>.<kind>, its table's kind of
        file ("phh", "banked": the game's table writes it, felt.table.poker_table's or
        banked_table's history); None without a phh_dir or a round."""
        if self.phh_dir is None or self.header is None:
            return None
        return "%s/hand-%d.%s" % (self.phh_dir, self.header["hand"], kind)


# ----- the record format (docs/journal.md) -----------------------------------------------


def _lines(key, seq, *records):
    """The records' lines, numbered from `seq`, with their MACs by `key` (None: none),
    one at a time (each made as the one before is written: a board's heap has no room
    for both): a table record twice, the
    second marked as the copy, so that a copy damaged on the flash is read from the
    other (felt.table.recovery).  Both go in one write, which a power cut leaves whole,
    torn in the copy (cut off with its table record at boot) or before it."""
    for record in records:
        yield record_line(seq, record, key)
        seq += 1
        if "table" in record:
            record["copy"] = 1
            yield record_line(seq, record, key)
            seq += 1


def record_line(seq, record, key=None):
    """One record as its line, printable ASCII: `<seq> <crc> <json>\\n`, or with the
    board's `key`, `<seq> <crc> <mac> <json>\\n`."""
    try:
        body = protocol.dumps(record)
    except MemoryError:
        raise    # the heap, not the journal: the board reboots (felt.guard)
    except Exception:  # noqa: BLE001 - a value JSON of ours cannot hold
        raise JournalError("journal write failed: a record that cannot be written")
    body = body.encode()
    digits = str(seq).encode()
    if key is not None:
        body = b"%s %s" % (mac_text(key, digits, body), body)
    line = b"%s %s %s\n" % (digits, crc_text(digits, body), body)
    if len(line) > MAX_RECORD:
        raise JournalError("journal write failed: a record of %d bytes, more than %d"
                           % (len(line), MAX_RECORD))
    return line


def crc_text(digits, rest):
    """The checksum of a line: the CRC-32 of its number's digits and all after the
    checksum (the MAC, if any, and the JSON)."""
    return b"%08x" % (binascii.crc32(rest, binascii.crc32(digits)) & 0xffffffff)


def mac_text(key, digits, body):
    """A record's MAC: the first MAC_BYTES of the HMAC-SHA256 by the board's key of its
    number's digits and its JSON, in hex; fed in two pieces, no copy of a long record."""
    inner, outer = mac.keyed(key)
    inner.update(digits)
    inner.update(body)
    outer.update(inner.digest())
    return binascii.hexlify(outer.digest()[:MAC_BYTES])


def file_size(path):
    """Bytes in the file; -1 when there is none."""
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def exists(path):
    return file_size(path) >= 0
