"""Reading the journal's lines back (felt.table.journal writes them; docs/journal.md):
a file's lines one at a time through one buffer, and each line checked whole: its
number, its checksum, its JSON, its shape.  For the boot (felt.table.recovery) and for
recall (felt.table.recall), both loaded seldom and forgotten after (felt.lazy), and
this with them.
"""

import json
import sys

from felt import check
from felt.table.journal import KINDS, MAC_BYTES, crc_text, mac_text

UNCHECKED = "unchecked"     # a reader without the board's key (a host's): MACs read past
MAC_DIGITS = 2 * MAC_BYTES


class Edited(ValueError):
    """A line whose checksum holds but whose MAC by the board's key does not (or that
    has a MAC the board cannot check, or none where it must): an edit by someone who
    computed the checksum again, never damage, so no other copy stands in for it."""


class Lines:
    """A file's lines, one at a time, each a memoryview into one buffer (valid until the
    next), without its newline; `whole` says whether it had one, `at` where it begins
    in the file (the file read from `base` on).  A board's heap is fragmented: a line
    copied, or read by readline(), needs a fresh block its size each time, and the
    buffer is taken once.  A line longer than the buffer less one byte comes back cut
    there (len(buf) bytes, `whole` False)."""

    def __init__(self, f, buf, base=0):
        self.f = f
        self.buf = buf
        self.view = memoryview(buf)
        self.most = len(buf) - 1      # the longest line that comes back whole
        self.start = self.end = 0
        self.base = base              # where in the file buf[0] is
        self.at = base
        self.whole = False

    def next(self):
        buf, view = self.buf, self.view
        while True:
            i = buf.find(b"\n", self.start, self.end)
            if i >= 0:
                self.at = self.base + self.start
                line, self.start, self.whole = view[self.start:i], i + 1, True
                return line
            if self.end - self.start > self.most:
                self.at = self.base + self.start
                self.whole = False
                line = view[self.start:self.start + self.most + 1]
                self.start += self.most + 1
                return line
            n = self.end - self.start
            view[0:n] = view[self.start:self.end]     # what is left to the front
            self.base += self.start
            self.start, self.end = 0, n
            got = self.f.readinto(view[n:])
            if not got:
                self.at = self.base
                self.whole = False
                line, self.start = view[0:n], n
                return line
            self.end += got


def head(line):
    """(the digits of a line's number, its checksum's 8 hex digits, where what it checks
    begins: the MAC, if any, then the JSON); ValueError saying what is wrong when it
    has no such beginning."""
    start = bytes(line[:20])
    a = start.find(b" ")
    b = start.find(b" ", a + 1) if a > 0 else -1
    if b != a + 9 or not start[:a].isdigit():
        raise ValueError("a record without its number and checksum (an older firmware's "
                         "journal?)" if start[:1] == b"{" else "not a journal record")
    return start[:a], start[a + 1:b], b + 1


def checksummed(line, key):
    """(seq, its JSON unread) of a whole line (a memoryview, without its newline) whose
    number and checksum read, and whose MAC holds by `key`, the board's key (None: the
    board keeps none, and no line may carry a MAC; UNCHECKED: a reader without it, the
    MAC read past); ValueError saying what is wrong otherwise, Edited for the MAC."""
    digits, crc, at = head(line)
    rest = line[at:]
    if crc_text(digits, rest) != crc:
        raise ValueError("the checksum does not match: damaged or edited")
    tag = None
    if len(rest) and rest[0] != 0x7B:        # not "{": the MAC first
        tag, rest = bytes(rest[:MAC_DIGITS]), rest[MAC_DIGITS + 1:]
    if key is not UNCHECKED:
        vouched(key, digits, tag, rest)
    return int(digits), rest


def vouched(key, digits, tag, body):
    """Edited unless the record's MAC `tag` (None: none) is the board's by `key`."""
    if key is None:
        if tag is not None:
            raise Edited("a MAC, but the board keeps no key: its key file removed, or the "
                         "journal of another board")
    elif tag is None:
        raise Edited("no MAC, where the board keeps a key: written by something else")
    elif mac_text(key, digits, body) != tag:
        raise Edited("the MAC does not hold, the checksum does: edited")


def parse(line, key):
    """(seq, record) of a whole line (a memoryview, without its newline); ValueError
    saying what is wrong when it does not read exactly (checksummed: `key`)."""
    seq, body = checksummed(line, key)
    return seq, loads(body)


def loads(body):
    """The record a line's JSON (a memoryview) holds; ValueError when it is not JSON."""
    try:
        return _loads(body)
    except ValueError:
        raise ValueError("not JSON")


# MicroPython's json reads the buffer in place; CPython's wants bytes.
_loads = json.loads if sys.implementation.name == "micropython" else \
    (lambda body: json.loads(bytes(body)))


def kind(record):
    """Which of KINDS the record is, its shape checked; ValueError saying what is wrong.
    A table record is written twice, the second marked `"copy": 1` (docs/journal.md)."""
    kinds = [k for k in KINDS if isinstance(record, dict) and k in record]
    extra = ("from" in record) + ("copy" in record) if len(kinds) == 1 else 0
    if len(kinds) != 1 or len(record) != 1 + extra:
        raise ValueError("not a record the journal writes")
    k = kinds[0]
    body = record[k]
    if k == "event":
        ok = isinstance(body, list) and len(body) > 0 and isinstance(body[0], str)
    else:
        ok = isinstance(body, dict)
    fr = record.get("from")
    if fr is not None and not (isinstance(fr, list) and 3 <= len(fr) <= 4
                               and check.is_whole(fr[0]) and isinstance(fr[1], str)):
        ok = False
    if "copy" in record and (k != "table" or not check.is_whole(record["copy"])
                             or record["copy"] != 1):
        ok = False
    if not ok:
        raise ValueError("a %s record of the wrong shape" % k)
    return k
