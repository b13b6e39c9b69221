"""The journal: every accepted event of a round, written before the table acts on it.

One mechanism for three features: rebuild a round after a power cut, recall a past
round, export a hand history.  A round is its header (hand number, button, stacks,
structure) plus its events; replaying them through the pure rules core rebuilds it.
Between rounds, and as each begins, the table's lasting state (its configuration,
stacks, button, decks...) is written as a `table` record: a restart resumes from the
last one and the round begun after it, if any.  With a `phh_dir`, each finished round is
also written there as a Poker Hand History, `hand-<n>.phh` (felt.table.phh, docs/phh.md).

The file (docs/journal.md) holds one line per record, `<seq> <crc> <json>`: a sequence
number that runs on across files, the CRC-32 of the sequence number's digits and the
JSON, and the record.  Each file begins with a stamp (the firmware and the table that
wrote it) and a table record, written whole under `<path>.new` and renamed into place;
past `limit` bytes the file is renamed to `<path>.1` as the next table record starts a
new one, so the file always holds the round under way whole and flash never fills.
A power cut at any byte leaves the old state or the new one readable: a record cut
short at the end is cut off at boot, before anything is written after it.  Anything
else that does not read exactly (a checksum, a sequence number, a stamp, a file lost)
is `Damaged`, and the table stops (Controller.lock) rather than forget its chips.
"""

import binascii
import json
import os

from felt import check, protocol
from felt.poker import rake, structure, variants
from felt.poker.round import Round

MAX_RECORD = 4096   # bytes in one line: a link frame, a record's "from", is at most 1024
MAX_WHY = 200       # characters in a reason: it goes out inside one link frame
KINDS = ("stamp", "table", "round", "event")
CALLED_OFF = (None, "void", "dead", "misdeal")

# An OSError's number in words of ours: its own text differs between runtimes.
_ERRNO = {2: "no such file", 5: "an input/output error", 13: "permission denied",
          20: "a folder on the path is a file", 21: "the path is a folder",
          28: "no space left", 30: "the filesystem is read-only"}


class JournalError(Exception):
    """A write to the journal failed; str() says why, in a sentence."""


class Damaged(Exception):
    """The journal cannot be read exactly; str() says which file, which line or record,
    and what is wrong."""


def brief(text):
    """`text`, cut to MAX_WHY characters."""
    return text if len(text) <= MAX_WHY else text[:MAX_WHY - 3] + "..."


def why(e):
    """An exception in words of ours, the same on every runtime."""
    n = e.args[0] if isinstance(e, OSError) and e.args else None
    if not check.is_whole(n):
        return "an error (%s)" % type(e).__name__
    return "%s (errno %d)" % (_ERRNO.get(n, "an OS error"), n)


class Journal:
    def __init__(self, path=None, phh_dir=None, limit=64 * 1024):
        self.path = path
        self.limit = limit
        self.phh_dir = phh_dir
        self.header = None
        self.header_seq = 0      # the round header's sequence number, for reasons
        self.table_seq = 0       # the last table record's
        self.events = []
        self.source = None       # the link frame being applied, noted on each record
        self.last_frame = None   # after recover(): the last link frame applied
        self.stamp = {"board": None, "fw": None}
        self.seq = 0             # the last record's sequence number
        self._size = None        # bytes in the file; None: none yet, the next write makes it
        # Records are added only to a file read whole at boot: never after damage, a
        # failed write or a partial record.
        self._ready = path is None

    def identify(self, fw, board):
        """Who writes: the stamp each file begins with.  A journal of another table is
        Damaged (a board's flash moved, or a journal copied in)."""
        self.stamp = {"board": board, "fw": fw}

    # ----- writing ------------------------------------------------------------------

    def begin(self, hand, button, stacks, config):
        header = {"hand": hand, "button": button, "stacks": list(stacks),
                  "game": config.game, "structure": config.structure.as_dict(),
                  "rake": config.rake.as_dict()}
        self._write({"round": header})
        self.header, self.header_seq, self.events = header, self.seq, []

    def table(self, state):
        """The table's lasting state, as felt.table.controller saves it."""
        self._write({"table": state})

    def append(self, event):
        self._write({"event": list(event)})
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
                line = _line(self.seq + 1, record)
                self._put(self.path, line, "ab")
                self._size += len(line)
                self.seq += 1
        except OSError as e:
            self._ready = False  # the file may end in part of a record
            raise JournalError(brief("journal write failed: %s: %s" % (self.path, why(e))))

    def _new_file(self, record):
        """A file begun whole: its stamp and first record under <path>.new, renamed over
        the file (the file before kept as <path>.1).  A cut before the last rename
        leaves the file as it was, or, between the renames, <path>.new to take its place
        at boot."""
        data = _line(self.seq + 1, {"stamp": self.stamp}) + _line(self.seq + 2, record)
        new = self.path + ".new"
        self._put(new, data, "wb")
        if self._size is not None:
            self._rename(self.path, self.path + ".1")
        self._rename(new, self.path)
        self._size = len(data)
        self.seq += 2

    # The file operations, one place for each (tests/host/journal_cuts.py cuts the
    # power between and within them).

    def _put(self, path, data, mode):
        with open(path, mode) as f:
            f.write(data)

    def _rename(self, old, new):
        try:
            os.rename(old, new)
        except OSError:
            if not _exists(new):
                raise
            os.remove(new)       # a filesystem that will not rename onto a file
            os.rename(old, new)

    def _remove(self, path):
        os.remove(path)

    # ----- reading at boot ----------------------------------------------------------

    def recover(self):
        """(table, header, events, under_way) to resume from after a restart, or None for
        a new table (no journal, nor a <path>.1): the last table
        record, and the last round in the file (header None if none), under_way when it
        began after that record.  Damaged when the journal cannot be read exactly; it
        is then left as found and never written to.  The journal carries on from here."""
        if self.path is None:
            return None
        try:
            return self._recover()
        except OSError as e:
            raise Damaged(brief("journal %s cannot be read: %s" % (self.path, why(e))))

    def _recover(self):
        path, prev, new = self.path, self.path + ".1", self.path + ".new"
        if _exists(new):
            self._settle(new)
        size = _size(path)
        if size == 0:
            # Every file is born whole (renamed into place): an empty one was emptied.
            raise Damaged(brief("journal %s is empty: the journal was lost" % path))
        if size < 0:
            if _exists(prev):
                raise Damaged(brief("journal %s is missing but %s is there: the journal "
                                    "was lost" % (path, prev)))
            self._size = None
            self._ready = True
            return None
        table = None
        under_way = False
        last = None
        found = {}
        for n, seq, kind, record in _records(path, found):
            if (n == 1) != (kind == "stamp") or (n == 2 and kind != "table"):
                raise _damaged(path, n, "a %s record where the file must begin with its "
                               "stamp and a table record" % kind)
            body = record[kind]
            if kind == "stamp":
                self._check_stamp(path, body)
                first = seq
            elif kind == "table":
                table, self.table_seq, under_way = body, seq, False
            elif kind == "round":
                self.header, self.header_seq, self.events = body, seq, []
                under_way = True
            elif last not in ("round", "event"):
                raise _damaged(path, n, "an event outside any round")
            else:
                self.events.append(tuple(body))
            if "from" in record:
                self.last_frame = record["from"]
            last = kind
            self.seq = seq
        if table is None:
            raise Damaged(brief("journal %s holds no whole table record" % path))
        if _exists(prev):
            seq = _first_seq(prev)
            if seq >= first:
                raise Damaged(brief("journal %s begins at record %d, but %s, the file before "
                                    "it, at %d: an older copy" % (path, first, prev, seq)))
        if found["torn"] is not None:
            self._cut(found["torn"])
        self._size = found["torn"] if found["torn"] is not None else found["end"]
        self._ready = True
        return table, self.header, self.events, under_way

    def _check_stamp(self, path, stamp):
        if stamp.get("board") != self.stamp["board"]:
            raise Damaged(brief("journal %s was written by table %s, not this one (%s)" % (
                path, check.shown(stamp.get("board")), check.shown(self.stamp["board"]))))

    def _settle(self, new):
        """<path>.new left by a power cut: beside the file, a new file begun and not
        renamed (the file is as it was); alone, one cut between its renames, to take the
        file's place if it is whole."""
        path = self.path
        if _exists(path):
            self._remove(new)
            return
        found = {}
        try:
            kinds = [r[2] for r in _records(new, found)]
            whole = kinds == ["stamp", "table"] and found["torn"] is None
        except Damaged:
            whole = False
        if whole:
            self._rename(new, path)
        elif _exists(path + ".1"):
            raise Damaged(brief("journal %s is missing and %s is not whole" % (path, new)))
        else:
            self._remove(new)    # the table's first file, cut short: a new table

    def _cut(self, end):
        """Cut a record torn by a power cut off the end of the file, so the next record
        never follows part of one: the whole records are copied to <path>.new, which
        then replaces the file (a cut meanwhile leaves the file as it was)."""
        new = self.path + ".new"
        self._put(new, b"", "wb")
        with open(self.path, "rb") as f:
            while end > 0:
                chunk = f.read(min(end, 512))
                if not chunk:
                    break
                self._put(new, chunk, "ab")
                end -= len(chunk)
        self._rename(new, self.path)

    # ----- rounds ---------------------------------------------------------------------

    def write_phh(self, round=None):
        """Write the round's hand history to <phh_dir>/hand-<n>.phh, if a phh_dir is set;
        returns the path written, or None."""
        if self.phh_dir is None or self.header is None:
            return None
        from felt.table.phh import history
        path = "%s/hand-%d.phh" % (self.phh_dir, self.header["hand"])
        text = history(self.header, self.events, round)
        with open(path, "w") as f:
            f.write(text)
        return path

    def replay(self):
        """The current round rebuilt from its header and events; Damaged, naming the
        record, when the rules refuse one or the chips do not add up."""
        h = self.header
        where = "journal %s record %d" % (self.path, self.header_seq)
        stacks = h.get("stacks")
        if not isinstance(stacks, list) or not all([check.is_whole(s) and 0 <= s <= check.MAX_CHIPS
                                                    for s in stacks]):
            raise Damaged(brief("%s: the round's stacks are not whole numbers of chips" % where))
        if not check.is_whole(h.get("button")) or not check.is_whole(h.get("hand")):
            raise Damaged(brief("%s: the round's hand or button is not a whole number" % where))
        try:
            r = _begun(h)
        except MemoryError:
            raise    # the heap, not the journal: the board reboots (felt.guard)
        except Exception:  # noqa: BLE001 - whatever the header holds, a sentence
            raise Damaged(brief("%s: a round the rules cannot begin" % where))
        for i, e in enumerate(self.events):
            try:
                r.apply(tuple(e))
            except MemoryError:
                raise    # the heap, not the journal: the board reboots (felt.guard)
            except Exception:  # noqa: BLE001
                raise Damaged(brief("journal %s record %d: the rules refuse the event %s" % (
                    self.path, self.header_seq + 1 + i, check.shown(e))))
        # 13:47-20.37: chips leave a round only as rake.
        held = sum(r.stacks) + r.raked + (0 if r.finished() else r.pot())
        if held != sum(stacks):
            raise Damaged(brief("%s: the round's chips do not add up" % where))
        return r


def _begun(header):
    """The round a header begins, started."""
    r = Round(header["stacks"], header["button"], structure.from_dict(header["structure"]),
              variants.get(header["game"]), rake.from_dict(header["rake"]))
    r.start()
    return r


def rebuild(header, events):
    r = _begun(header)
    for e in events:
        r.apply(tuple(e))
    return r


def load(path):
    """[(header, events)] for every round in a journal file, oldest first."""
    rounds = []
    for _, _, kind, record in _records(path, {}):
        if kind == "round":
            rounds.append((record["round"], []))
        elif kind == "event" and rounds:
            rounds[-1][1].append(tuple(record["event"]))
    return rounds


# ----- the record format (docs/journal.md) -----------------------------------------------

def _line(seq, record):
    """One record as its line: `<seq> <crc> <json>\\n`, printable ASCII."""
    try:
        body = protocol.dumps(record)
    except MemoryError:
        raise    # the heap, not the journal: the board reboots (felt.guard)
    except Exception:  # noqa: BLE001 - a value JSON of ours cannot hold
        raise JournalError("journal write failed: a record that cannot be written")
    body = body.encode()
    digits = str(seq).encode()
    line = b"%s %s %s\n" % (digits, _crc_text(digits, body), body)
    if len(line) > MAX_RECORD:
        raise JournalError("journal write failed: a record of %d bytes, more than %d"
                           % (len(line), MAX_RECORD))
    return line


def _crc_text(digits, body):
    return b"%08x" % (binascii.crc32(body, binascii.crc32(digits)) & 0xffffffff)


def _records(path, found):
    """(line number, seq, kind, record) for each whole record of the file, one at a time
    (a board never holds the whole file); Damaged at the first that does not read
    exactly.  A last line cut short by a power cut ends them: found["torn"] is then the
    offset where it begins (else None); found["end"], where the whole records end."""
    found["torn"] = None
    end = 0
    n = 0
    due = None
    with open(path, "rb") as f:
        lines = _Lines(f)
        while True:
            line = lines.next()
            if not line:
                break
            n += 1
            if line[-1:] != b"\n":
                if len(line) > MAX_RECORD:
                    raise _damaged(path, n, "longer than any record")
                _check_torn(path, n, line, due)
                found["torn"] = end
                break
            seq, record = _parse(path, n, line)
            if due is not None and seq != due:
                raise _damaged(path, n, "record %d where %d was due: a record lost, "
                               "repeated or out of order" % (seq, due))
            due = seq + 1
            end += len(line)
            yield n, seq, _kind(path, n, record), record
    found["end"] = end


class _Lines:
    """A file's lines, one at a time, read in small pieces: a board's heap is
    fragmented, and readline(limit) asks for `limit` bytes in one block.  A line
    longer than MAX_RECORD comes back cut there, without its end."""

    def __init__(self, f):
        self.f = f
        self.buf = b""

    def next(self):
        while True:
            i = self.buf.find(b"\n")
            if i >= 0 or len(self.buf) > MAX_RECORD:
                i = i + 1 if i >= 0 else MAX_RECORD + 1
                line, self.buf = self.buf[:i], self.buf[i:]
                return line
            piece = self.f.read(256)
            if not piece:
                line, self.buf = self.buf, b""
                return line
            self.buf += piece


def _parse(path, n, line):
    a = line.find(b" ")
    b = line.find(b" ", a + 1) if a > 0 else -1
    if b != a + 9 or not line[:a].isdigit():
        raise _damaged(path, n, "a record without its number and checksum (an older "
                       "firmware's journal?)" if line[:1] == b"{" else "not a journal record")
    digits = line[:a]
    body = line[b + 1:-1]
    if _crc_text(digits, body) != line[a + 1:b]:
        raise _damaged(path, n, "the checksum does not match: damaged or edited")
    try:
        record = json.loads(body)
    except ValueError:
        raise _damaged(path, n, "not JSON")
    return int(digits), record


def _kind(path, n, record):
    """Which of KINDS the record is, checking its shape."""
    kinds = [k for k in KINDS if isinstance(record, dict) and k in record]
    if len(kinds) != 1 or len(record) != 1 + ("from" in record):
        raise _damaged(path, n, "not a record the journal writes")
    kind = kinds[0]
    body = record[kind]
    if kind == "event":
        ok = isinstance(body, list) and len(body) > 0 and isinstance(body[0], str)
    else:
        ok = isinstance(body, dict)
    fr = record.get("from")
    if fr is not None and not (isinstance(fr, list) and 3 <= len(fr) <= 4
                               and check.is_whole(fr[0]) and isinstance(fr[1], str)):
        ok = False
    if not ok:
        raise _damaged(path, n, "a %s record of the wrong shape" % kind)
    return kind


def _check_torn(path, n, tail, due):
    """A last line without its end: part of a record a power cut interrupted, to be cut
    off, or Damaged when no record begins so (a byte we never write, a whole record
    whose end was changed)."""
    for c in tail:
        if c < 0x20 or c > 0x7e:
            raise _damaged(path, n, "a byte no record holds (%d) in the last line" % c)
    a = tail.find(b" ")
    digits = tail if a < 0 else tail[:a]
    if a == 0 or (digits and not digits.isdigit()):
        raise _damaged(path, n, "the last line is not part of a record")
    if a < 0:
        return
    if due is not None and int(digits) != due:
        raise _damaged(path, n, "the last line begins record %s where %d was due" % (
            digits.decode(), due))
    rest = tail[a + 1:]
    b = rest.find(b" ")
    crc = rest if b < 0 else rest[:b]
    if len(crc) > 8 or (b >= 0 and len(crc) != 8) or \
            not all([c in b"0123456789abcdef" for c in crc]):
        raise _damaged(path, n, "the last line is not part of a record")
    if b > 0 and len(rest) > b + 1 and _crc_text(digits, rest[b + 1:-1]) == crc:
        raise _damaged(path, n, "the last record's end is damaged")


def _damaged(path, n, what):
    return Damaged(brief("journal %s line %d: %s" % (path, n, what)))


def _first_seq(path):
    """The sequence number of the file's first record (its stamp); Damaged if none."""
    with open(path, "rb") as f:
        line = _Lines(f).next()
    if line[-1:] != b"\n":
        raise _damaged(path, 1, "no whole record")
    seq, record = _parse(path, 1, line)
    if _kind(path, 1, record) != "stamp":
        raise _damaged(path, 1, "the file does not begin with its stamp")
    return seq


def _size(path):
    """Bytes in the file; -1 when there is none."""
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def _exists(path):
    return _size(path) >= 0
