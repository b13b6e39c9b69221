"""Frames of the serial link, shared by the firmware and the host tools.

A frame is one line of printable ASCII (docs/protocol.md is the specification):

    @<seq> <kind> <json object> *<crc32 of what lies between '@' and ' *', 8 hex>\\n

Runs unchanged on MicroPython and CPython.  The JSON codec is our own rather than the
`json` module because the two runtimes' modules differ: MicroPython's `dumps` has no
`sort_keys` and writes raw UTF-8, and its `loads` accepts `[1 2]` and mangles
surrogate pairs.  Ours is strict, emits sorted keys and pure ASCII, and so gives the same
bytes and the same verdicts on both.
"""

import binascii

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

MAX_FRAME = const(1024)  # bytes, from '@' to '\n' inclusive
MAX_KIND = const(12)
MAX_DEPTH = const(8)  # nesting of objects and arrays in a payload
SEQ_MOD = const(65536)
RESEND_MS = const(500)
TRIES = const(3)  # resends after the first send before a sender gives up
_QUEUE = const(8)  # frames a Sender holds awaiting their turn

# Kinds the receiver must answer with ack or nak; the sender resends them until it does.
ACKED = ("btn", "dealer", "card", "shuf", "cfg", "need", "shuffle", "discard", "chip", "clock",
         "shoe", "deck", "rules", "tech", "clear", "wager", "root", "service")
# Questions to the board: answered by their reply, never acked, changing nothing.
QUERIES = ("hello", "state", "sign", "heap", "eventlog", "challenge", "recall", "verify",
           "public")

# What a `need` frame (and a wired card reader's "want" line) may ask the shoe for: every
# kind of card either round engine, felt.poker.round and felt.banked.banked_round, or
# the table (placing the button) asks for; every card reader takes these and no other.
CARD_KINDS = ("hole", "up", "burn", "board", "button", "dealer")

_MIN_BODY = const(16)  # "0 k {} *12345678" between '@' and '\n'


class ProtocolError(ValueError):
    pass


def check_card_kind(kind):
    """ValueError unless `kind` is one of CARD_KINDS: a card reader's `want` checks it."""
    if kind not in CARD_KINDS:
        raise ValueError("unknown card kind %r" % (kind,))


def next_seq(seq):
    return (seq + 1) % SEQ_MOD


def ack(seq):
    return ("ack", {"seq": seq})


def nak(seq, why):
    return ("nak", {"seq": seq, "why": why})


# ---- encoding ----------------------------------------------------------------------

def _check_kind(kind):
    if not isinstance(kind, str) or not 1 <= len(kind) <= MAX_KIND:
        raise ProtocolError("bad kind")
    for c in kind:
        if not ("a" <= c <= "z" or c == "_"):
            raise ProtocolError("bad kind")


def dumps(obj):
    """Compact JSON with sorted keys, pure printable ASCII, never containing '@'.

    Accepts dict (str keys), list, tuple, str, int, bool and None; floats are refused
    (chips are whole numbers and float text differs between runtimes).
    """
    out = []
    _dump(obj, out, 0)
    return "".join(out)


def _coalesce(out):
    # Keep the list of pieces short: a long one needs a large block of a board's
    # fragmented heap each time it grows.
    if len(out) > 32:
        text = "".join(out)
        del out[:]
        out.append(text)


def _dump(o, out, depth):
    # True and False first: bool is an int subclass on CPython but not on MicroPython.
    if o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif isinstance(o, int):
        out.append(str(o))
    elif isinstance(o, str):
        _dump_str(o, out)
    elif isinstance(o, dict):
        if depth >= MAX_DEPTH:
            raise ProtocolError("too deep")
        for k in o:
            if not isinstance(k, str):
                raise ProtocolError("key not a str")
        out.append("{")
        first = True
        for k in sorted(o):  # code point order; MicroPython's byte order of UTF-8 agrees
            if not first:
                out.append(",")
            first = False
            _dump_str(k, out)
            out.append(":")
            _dump(o[k], out, depth + 1)
            _coalesce(out)
        out.append("}")
    elif isinstance(o, (list, tuple)):
        if depth >= MAX_DEPTH:
            raise ProtocolError("too deep")
        out.append("[")
        first = True
        for v in o:
            if not first:
                out.append(",")
            first = False
            _dump(v, out, depth + 1)
            _coalesce(out)
        out.append("]")
    else:
        raise ProtocolError("cannot encode %s" % type(o).__name__)


_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _dump_str(s, out):
    out.append('"')
    start = 0
    i = 0
    for c in s:
        o = ord(c)
        if 0x20 <= o < 0x7F and c != '"' and c != "\\" and c != "@":
            i += 1
            continue
        if start < i:
            out.append(s[start:i])
        e = _SHORT.get(c)
        if e is not None:
            out.append(e)
        elif o < 0x10000:
            if 0xD800 <= o < 0xE000:
                raise ProtocolError("lone surrogate")
            out.append("\\u%04x" % o)
        else:
            o -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
        i += 1
        start = i
    if start < i:
        out.append(s[start:])
    out.append('"')


def encode(seq, kind, payload):
    """One frame as bytes, ending in '\\n'.  Raises ProtocolError on bad arguments."""
    if seq is True or seq is False or not isinstance(seq, int) or not 0 <= seq < SEQ_MOD:
        raise ProtocolError("bad seq")
    _check_kind(kind)
    if not isinstance(payload, dict):
        raise ProtocolError("payload not a dict")
    return _frame(seq, kind, dumps(payload))


def _frame(seq, kind, body):
    # The frame is made in one piece: a recall page is 700 bytes, and each copy of
    # it is a block a board's fragmented heap may not have (docs/journal.md).
    head = "%d %s " % (seq, kind)
    _check_length(head, body)
    crc = binascii.crc32(_bytes(body), binascii.crc32(head.encode())) & 0xFFFFFFFF
    return ("@%s%s *%08x\n" % (head, body, crc)).encode()


def _check_length(head, body):
    # '@', head, body, ' *', eight hex digits, '\n'; a body is ASCII (dumps).
    if 1 + len(head) + len(body) + 11 > MAX_FRAME:
        raise ProtocolError("frame too long")


try:
    binascii.crc32("")      # MicroPython reads a str's bytes in place

    def _bytes(s):
        return s
except TypeError:           # CPython needs a copy

    def _bytes(s):
        return s.encode()


# ---- decoding ----------------------------------------------------------------------

def loads(text):
    """Parse JSON as the decoder does (str or bytes; strict, ASCII, no floats)."""
    if isinstance(text, str):
        text = text.encode()
    b = bytes(text)
    v, i = _value(b, 0, len(b), 0)
    if _ws(b, i, len(b)) != len(b):
        raise ProtocolError("bad json")
    return v


def _bad():
    raise ProtocolError("bad json")


def _ws(b, i, end):
    while i < end and b[i] == 0x20:
        i += 1
    return i


# A const (before its use, as MicroPython wants): not a name in the module's globals.
_WORDS = const(((b"true", True), (b"false", False), (b"null", None)))


def _value(b, i, end, depth):
    i = _ws(b, i, end)
    if i >= end:
        _bad()
    c = b[i]
    if c == 0x22:  # "
        return _string(b, i, end)
    if c == 0x7B:  # {
        if depth >= MAX_DEPTH:
            _bad()
        d = {}
        i = _ws(b, i + 1, end)
        if i < end and b[i] == 0x7D:
            return d, i + 1
        while True:
            i = _ws(b, i, end)
            if i >= end or b[i] != 0x22:
                _bad()
            k, i = _string(b, i, end)
            i = _ws(b, i, end)
            if i >= end or b[i] != 0x3A:  # :
                _bad()
            v, i = _value(b, i + 1, end, depth + 1)
            if k in d:
                _bad()
            d[k] = v
            i = _ws(b, i, end)
            if i < end and b[i] == 0x2C:  # ,
                i += 1
            elif i < end and b[i] == 0x7D:
                return d, i + 1
            else:
                _bad()
    if c == 0x5B:  # [
        if depth >= MAX_DEPTH:
            _bad()
        a = []
        i = _ws(b, i + 1, end)
        if i < end and b[i] == 0x5D:
            return a, i + 1
        while True:
            v, i = _value(b, i, end, depth + 1)
            a.append(v)
            i = _ws(b, i, end)
            if i < end and b[i] == 0x2C:
                i += 1
            elif i < end and b[i] == 0x5D:
                return a, i + 1
            else:
                _bad()
    if c == 0x2D or 0x30 <= c <= 0x39:  # - or digit
        neg = c == 0x2D
        if neg:
            i += 1
        j = i
        n = 0
        while i < end and 0x30 <= b[i] <= 0x39:
            n = n * 10 + b[i] - 0x30
            i += 1
        if i == j or (b[j] == 0x30 and i - j > 1):
            _bad()
        if i < end and b[i] in b".eE":  # no floats
            _bad()
        return (-n if neg else n), i
    for word, v in _WORDS:
        if b[i:i + len(word)] == word:
            return v, i + len(word)
    _bad()


def _hex4(b, i, end):
    if i + 4 > end:
        _bad()
    n = 0
    for k in range(i, i + 4):
        c = b[k]
        if 0x30 <= c <= 0x39:
            n = n * 16 + c - 0x30
        elif 0x61 <= c <= 0x66:
            n = n * 16 + c - 0x57
        elif 0x41 <= c <= 0x46:
            n = n * 16 + c - 0x37
        else:
            _bad()
    return n


_ESC = {0x22: '"', 0x5C: "\\", 0x2F: "/", 0x62: "\b", 0x66: "\f", 0x6E: "\n",
        0x72: "\r", 0x74: "\t"}


def _string(b, i, end):
    i += 1
    start = i
    parts = None
    while True:
        if i >= end:
            _bad()
        c = b[i]
        if c == 0x22:
            s = str(b[start:i], "ascii")
            if parts is None:
                return s, i + 1
            parts.append(s)
            return "".join(parts), i + 1
        if c < 0x20 or c > 0x7E:  # control or non-ASCII: must be escaped
            _bad()
        if c != 0x5C:
            i += 1
            continue
        if parts is None:
            parts = []
        parts.append(str(b[start:i], "ascii"))
        i += 1
        if i >= end:
            _bad()
        c = b[i]
        if c == 0x75:  # u
            u = _hex4(b, i + 1, end)
            i += 5
            if 0xD800 <= u < 0xDC00:  # a high surrogate must be followed by a low one
                if i + 1 < end and b[i] == 0x5C and b[i + 1] == 0x75:
                    lo = _hex4(b, i + 2, end)
                    if 0xDC00 <= lo < 0xE000:
                        u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
                        i += 6
                    else:
                        _bad()
                else:
                    _bad()
            elif 0xDC00 <= u < 0xE000:
                _bad()
            parts.append(chr(u))
        else:
            e = _ESC.get(c)
            if e is None:
                _bad()
            parts.append(e)
            i += 1
        start = i


# Reasons a Decoder gives for a rejected frame (Decoder.reason).
TOO_LONG = "too long"
CUT = "cut short"  # a new '@' arrived before the '\n'
SHORT = "too short"
BAD_CRC = "bad crc"
BAD_SEQ = "bad seq"
BAD_KIND = "bad kind"
BAD_JSON = "bad json"
BAD_FRAME = "bad frame"


class Decoder:
    """Turns received bytes into frames, skipping noise and rejecting corrupt frames.

    `feed(data)` then iterate (or `next(dec)`): each item is `(seq, kind, payload)`.
    Never raises on bad input: rejected frames are counted in `errors`, the latest
    reason is in `reason`; bytes skipped while hunting for '@' are counted in `skipped`.
    Holds at most MAX_FRAME bytes of a partial frame, in a buffer allocated once.
    """

    def __init__(self):
        self._buf = bytearray(MAX_FRAME)
        self._mv = memoryview(self._buf)
        self._n = 0
        self._in = False  # inside a frame (an '@' has been seen)
        self._out = []
        self.errors = 0
        self.reason = None
        self.skipped = 0

    def __iter__(self):
        return self

    def __next__(self):
        if not self._out:
            raise StopIteration
        return self._out.pop(0)

    def read(self):
        """The next decoded frame, or None."""
        return self._out.pop(0) if self._out else None

    def _reject(self, why):
        self.errors += 1
        self.reason = why

    def feed(self, data, end=None):
        """Take received bytes (bytes or bytearray; only data[:end] when end is given,
        so a board can pass its read buffer without slicing).  Returns the number of
        frames waiting to be read."""
        if end is None:
            end = len(data)
        limit = MAX_FRAME - 2  # the '@' and '\n' are not buffered
        i = 0
        while i < end:
            if not self._in:
                j = data.find(b"@", i, end)
                if j < 0:
                    self.skipped += end - i
                    break
                self.skipped += j - i
                self._in = True
                self._n = 0
                i = j + 1
                continue
            nl = data.find(b"\n", i, end)
            at = data.find(b"@", i, end)
            stop = nl if at < 0 or (0 <= nl < at) else at
            j = end if stop < 0 else stop
            n = self._n
            if n + j - i > limit:
                self._reject(TOO_LONG)
                self._in = False  # hunt for the next '@' from here
                i = j
                continue
            if j > i:
                self._buf[n:n + j - i] = memoryview(data)[i:j]
                self._n = n + j - i
            if stop < 0:
                break
            if stop == nl:
                self._in = False
                self._line()
            else:
                self._reject(CUT)
                self._n = 0
            i = stop + 1
        return len(self._out)

    def _line(self):
        n = self._n
        b = self._buf
        if n and b[n - 1] == 0x0D:  # tolerate CRLF from a terminal
            n -= 1
        if n < _MIN_BODY:
            return self._reject(SHORT)
        if b[n - 10] != 0x20 or b[n - 9] != 0x2A:  # " *"
            return self._reject(BAD_FRAME)
        crc = "%08x" % (binascii.crc32(self._mv[0:n - 10]) & 0xFFFFFFFF)
        for k in range(8):
            if b[n - 8 + k] != ord(crc[k]):
                return self._reject(BAD_CRC)
        # The checksum matched: what follows catches senders that break the grammar.
        seq = 0
        i = 0
        while i < 6 and 0x30 <= b[i] <= 0x39:
            seq = seq * 10 + b[i] - 0x30
            i += 1
        if i == 0 or i > 5 or (b[0] == 0x30 and i > 1) or seq >= SEQ_MOD or b[i] != 0x20:
            return self._reject(BAD_SEQ)
        i += 1
        j = i
        while j < n and (0x61 <= b[j] <= 0x7A or b[j] == 0x5F):
            j += 1
        if j == i or j - i > MAX_KIND or b[j] != 0x20:
            return self._reject(BAD_KIND)
        kind = str(b[i:j], "ascii")
        try:
            payload, k = _value(b, j + 1, n - 10, 0)
            if not isinstance(payload, dict) or _ws(b, k, n - 10) != n - 10:
                return self._reject(BAD_JSON)
        except Exception:  # ProtocolError, or MemoryError on a crowded board
            return self._reject(BAD_JSON)
        self._out.append((seq, kind, payload))


# ---- acknowledgement ---------------------------------------------------------------

class Dedup:
    """Receiver's memory of the last frame of an ACKED kind it handled, and the reply.

    Senders keep one such frame in flight and resend it unchanged, so a frame equal to
    the last handled one is a resend: answer with the stored reply, do not apply again.
    The memory outlives a `hello`: a host that reconnects (after the board rebooted,
    say) may resend its unanswered frame after saying hello.  Only a hello naming
    another session (a restarted peer, whose seqs begin again) clears it.

        reply = dedup.replay(seq, kind, payload)
        if reply is None:
            reply = handle(...)           # ack(seq) or nak(seq, why)
            dedup.remember(seq, kind, payload, reply)
        send(*reply)
    """

    def __init__(self):
        self.session = None      # the peer's, from its hello (None: it named none)
        self.reset()

    def reset(self):
        self._last = None
        self._reply = None

    def hello(self, session):
        """The peer said hello, naming `session` or None."""
        if session is not None and session != self.session:
            self.reset()
            self.session = session

    def replay(self, seq, kind, payload):
        """The stored reply if this frame is a resend of the last one handled, else None."""
        if self._last is not None and self._last == (seq, kind, payload):
            return self._reply
        return None

    def remember(self, seq, kind, payload, reply):
        self._last = (seq, kind, payload)
        self._reply = reply


def ticks_diff(a, b):
    """a - b for millisecond counters that wrap like MicroPython's ticks_ms (2**30)."""
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


class Sender:
    """Numbers outgoing frames and resends the one awaiting an ack (stop-and-wait).

    `frame(kind, payload)` encodes a frame needing no ack; `put(kind, payload)` queues
    one that does.  Call `poll(now_ms)` often and write what it returns; pass every
    received ack/nak to `settle`.  After TRIES unanswered resends a frame is dropped
    and `failed` counts it.
    """

    def __init__(self, timeout_ms=RESEND_MS, tries=TRIES, depth=_QUEUE):
        self.seq = 0  # of the next frame
        self.timeout_ms = timeout_ms
        self.tries = tries
        self.depth = depth
        self.failed = 0
        self._queue = []  # (kind, json body) waiting their turn
        self._frame = None  # bytes in flight
        self._fseq = -1
        self._at = 0
        self._left = 0

    def _take_seq(self):
        s = self.seq
        self.seq = next_seq(s)
        return s

    def frame(self, kind, payload):
        return encode(self._take_seq(), kind, payload)

    def put(self, kind, payload):
        """Queue a frame that needs an ack.  False (and nothing queued) when full.
        Bad arguments raise ProtocolError here rather than in poll()."""
        _check_kind(kind)
        if not isinstance(payload, dict):
            raise ProtocolError("payload not a dict")
        body = dumps(payload)
        _check_length("%d %s " % (SEQ_MOD - 1, kind), body)  # now, at the longest seq
        if len(self._queue) >= self.depth:
            return False
        self._queue.append((kind, body))
        return True

    @property
    def busy(self):
        return self._frame is not None or len(self._queue) > 0

    @property
    def waiting(self):
        """The seq of the frame awaiting an ack, or None."""
        return self._fseq if self._frame is not None else None

    def poll(self, now_ms):
        """Bytes to write now (a first send or a resend), or None."""
        if self._frame is not None:
            if ticks_diff(now_ms, self._at) < self.timeout_ms:
                return None
            if self._left > 0:
                self._left -= 1
                self._at = now_ms
                return self._frame
            self._frame = None
            self.failed += 1
        if not self._queue:
            return None
        kind, body = self._queue.pop(0)
        self._fseq = self._take_seq()
        self._frame = _frame(self._fseq, kind, body)
        self._at = now_ms
        self._left = self.tries
        return self._frame

    def settle(self, kind, payload):
        """True if this ack or nak answers the frame in flight (which is then done)."""
        if self._frame is None or (kind != "ack" and kind != "nak"):
            return False
        if payload.get("seq") != self._fseq:
            return False
        self._frame = None
        return True
