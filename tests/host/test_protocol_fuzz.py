"""Property tests of the serial link's codec (firmware/felt/protocol.py) on CPython."""

import binascii
import json
import os
import sys

from hypothesis import assume, given, settings, strategies as st

from sampling import examples, sampled

try:
    from felt import protocol as P
except ImportError:  # run without PYTHONPATH=firmware
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "firmware"))
    from felt import protocol as P

scalars = st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=12)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
payloads = st.dictionaries(st.text(max_size=8), values, max_size=5)
kinds = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=P.MAX_KIND)
seqs = st.integers(0, P.SEQ_MOD - 1)


def depth(v):
    if isinstance(v, dict):
        return 1 + max([depth(x) for x in v.values()] or [0])
    if isinstance(v, list):
        return 1 + max([depth(x) for x in v] or [0])
    return 0


def encodable(seq, kind, payload):
    assume(depth(payload) <= P.MAX_DEPTH)
    try:
        return P.encode(seq, kind, payload)
    except P.ProtocolError:
        assume(False)  # too long for one frame


frames = st.tuples(seqs, kinds, payloads)
# Noise rich in the bytes the decoder cares about, not just uniform random bytes.
noise_bytes = st.lists(st.sampled_from(b'@\n\r *{}":,0123456789abcdef') | st.integers(0, 255),
                       max_size=60).map(bytes)


def decode(data, chunks=None):
    d = P.Decoder()
    out = []
    if chunks is None:
        d.feed(data)
        out += list(d)
    else:
        i = 0
        for n in chunks:
            d.feed(data[i:i + n])
            out += list(d)
            i += n
        d.feed(data[i:])
        out += list(d)
    assert d._n <= P.MAX_FRAME - 2 and len(d._buf) == P.MAX_FRAME
    return out, d


@given(seqs, kinds, payloads)
def test_random_payloads_round_trip(seq, kind, payload):
    f = encodable(seq, kind, payload)
    assert len(f) <= P.MAX_FRAME
    got, d = decode(f)
    assert got == [(seq, kind, payload)] and d.errors == 0


@given(payloads)
def test_our_json_agrees_with_the_standard_library(payload):
    assume(depth(payload) <= P.MAX_DEPTH)
    text = P.dumps(payload)
    assert json.loads(text) == payload
    assert P.loads(json.dumps(payload)) == payload
    assert P.loads(json.dumps(payload, indent=None, separators=(", ", ": "))) == payload


@given(st.lists(st.tuples(frames, noise_bytes), max_size=6),
       noise_bytes, st.lists(st.integers(1, 60), max_size=20))
def test_noise_between_frames_never_adds_or_loses_a_frame(items, lead, chunks):
    sent = []
    stream = lead
    for (seq, kind, payload), noise in items:
        stream += encodable(seq, kind, payload) + noise
        sent.append((seq, kind, payload))
    got, d = decode(stream, chunks)
    assert got == sent  # an '@' always restarts a frame, and frames contain no other '@'


@sampled
@settings(max_examples=examples(300))
@given(st.binary(max_size=3000) | st.lists(noise_bytes, max_size=50).map(b"".join),
       st.lists(st.integers(1, 700), max_size=10))
def test_random_bytes_never_crash_or_yield_a_frame(data, chunks):
    got, d = decode(data, chunks)
    assert got == []


@given(frames, st.data())
def test_a_single_changed_byte_is_rejected(frame, data):
    f = encodable(*frame)
    pos = data.draw(st.integers(0, len(f) - 1))
    new = data.draw(st.integers(0, 255).filter(lambda b: b != f[pos]))
    broken = bytearray(f)
    broken[pos] = new
    follow = P.encode(1, "log", {"msg": "after"})
    got, d = decode(bytes(broken) + follow)
    assert got == [(1, "log", {"msg": "after"})]


@given(st.text(max_size=60))
def test_any_text_survives_as_printable_ascii(s):
    f = P.encode(0, "log", {"msg": s})
    assert all(0x20 <= c <= 0x7E for c in f[:-1]) and f.count(b"@") == 1
    assert decode(f)[0] == [(0, "log", {"msg": s})]


@given(st.lists(st.booleans(), min_size=1, max_size=200), st.integers(1, 6))
def test_lossy_link_applies_each_acked_frame_once_and_in_order(drops, n):
    """Host sends n card frames through a link that drops frames (both ways) as `drops`
    says; the board acks through its own Sender.  Nothing is applied twice or out of
    order, and a frame the host saw acked was applied."""
    host, board = P.Sender(), P.Sender()
    host_rx, board_rx = P.Decoder(), P.Decoder()
    dedup = P.Dedup()
    applied, settled = [], []
    codes = ["%d%s" % (i + 2, "s") for i in range(n)]
    for c in codes:
        assert host.put("card", {"code": c})
    drop = iter(drops)
    now = 0
    for _ in range(4 * (P.TRIES + 1) * n + 4):
        out = host.poll(now)
        if out is not None and not next(drop, False):
            board_rx.feed(out)
        for seq, kind, payload in board_rx:
            reply = dedup.replay(seq, kind, payload)
            if reply is None:
                applied.append(payload["code"])
                reply = P.ack(seq)
                dedup.remember(seq, kind, payload, reply)
            back = board.frame(*reply)
            if not next(drop, False):
                host_rx.feed(back)
        for kind, payload in ((k, p) for _, k, p in host_rx):
            if host.settle(kind, payload):
                settled.append(kind)
        now += P.RESEND_MS
    assert len(applied) == len(set(applied))
    assert applied == [c for c in codes if c in applied]
    assert len(settled) + host.failed == n
    assert len(settled) <= len(applied)
    if not any(drops):
        assert applied == codes


def test_checksum_example_in_the_spec():
    body = b'7 btn {"b":"fold","seat":3}'
    assert "%08x" % binascii.crc32(body) == "076baa02"
