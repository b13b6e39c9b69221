"""The serial link's frame codec (docs/protocol.md).  Runs on CPython and MicroPython."""

import binascii

from felt import protocol as P

BTN = b'@7 btn {"b":"fold","seat":3} *076baa02\n'


def raw(body):
    """A frame around any body text, with a correct checksum (to test the grammar)."""
    b = body.encode()
    return b"@" + b + (" *%08x\n" % (binascii.crc32(b) & 0xFFFFFFFF)).encode()


def decode_all(data):
    d = P.Decoder()
    d.feed(data)
    return list(d), d


def test_frame_round_trips():
    payload = {"seat": 3, "b": "raise", "n": [1, -20, 0], "ok": True, "no": False, "x": None,
               "sub": {"a": {"b": []}}}
    frames, d = decode_all(P.encode(42, "btn", payload))
    assert frames == [(42, "btn", payload)]
    assert d.errors == 0


def test_encoding_is_deterministic_with_sorted_keys():
    assert P.encode(7, "btn", {"seat": 3, "b": "fold"}) == BTN
    a = {}
    for k in ("zeta", "alpha", "mid", "b", "a"):
        a[k] = len(k)
    b = {}
    for k in ("a", "b", "mid", "alpha", "zeta"):
        b[k] = len(k)
    assert P.encode(1, "cfg", a) == P.encode(1, "cfg", b)
    assert P.dumps(a) == '{"a":1,"alpha":5,"b":1,"mid":3,"zeta":4}'


def test_spec_worked_example():
    # docs/protocol.md, "Checksum": the same numbers appear there.
    assert binascii.crc32(b'7 btn {"b":"fold","seat":3}') & 0xFFFFFFFF == 0x076BAA02
    assert P.encode(0, "hello", {}) == b"@0 hello {} *498be9c5\n"


def test_checksum_is_crc32_of_the_text_between_at_and_star():
    f = P.encode(513, "card", {"code": "As"})
    body = f[1:f.find(b" *")]
    assert f.endswith((" *%08x\n" % (binascii.crc32(body) & 0xFFFFFFFF)).encode())


def test_bad_crc_is_rejected_and_counted_without_raising():
    bad = BTN.replace(b"*076baa02", b"*076baa03")
    frames, d = decode_all(bad)
    assert frames == []
    assert d.errors == 1 and d.reason == P.BAD_CRC


def test_any_single_changed_byte_is_rejected_and_the_next_frame_still_decodes():
    good = P.encode(8, "card", {"code": "Kh"})
    for pos in range(len(BTN)):
        for new in (BTN[pos] ^ 0x01, 0x40, 0x0A, 0x00, 0xFF):
            if new == BTN[pos]:
                continue
            broken = bytearray(BTN)
            broken[pos] = new
            frames, d = decode_all(bytes(broken) + good)
            assert frames == [(8, "card", {"code": "Kh"})], (pos, new)


def test_noise_before_and_between_frames_is_skipped():
    noise = b"\x00\xff garbage *1234\r\n\n"
    frames, d = decode_all(noise + BTN + noise + BTN + noise)
    assert [f[0] for f in frames] == [7, 7]
    assert d.errors == 0
    assert d.skipped == 3 * len(noise)


def test_truncated_frame_is_dropped_when_a_new_at_begins():
    cut = BTN[:20]
    frames, d = decode_all(cut + BTN)
    assert frames == [(7, "btn", {"b": "fold", "seat": 3})]
    assert d.errors == 1 and d.reason == P.CUT


def test_over_length_frame_is_rejected_and_the_buffer_stays_bounded():
    d = P.Decoder()
    size = len(d._buf)
    d.feed(b"@" + b"x" * (3 * P.MAX_FRAME))
    assert d.errors == 1 and d.reason == P.TOO_LONG
    d.feed(b"y" * P.MAX_FRAME + b"\n")  # the rest of the long line is noise
    assert d.errors == 1
    assert len(d._buf) == size == P.MAX_FRAME and d._n <= P.MAX_FRAME - 2
    d.feed(BTN)
    assert list(d) == [(7, "btn", {"b": "fold", "seat": 3})]


def test_frame_of_exactly_max_length_is_accepted_and_one_more_byte_is_not():
    def frame_of(length):
        pad = length - len(P.encode(0, "log", {"msg": ""}))
        return P.encode(0, "log", {"msg": "m" * pad})
    f = frame_of(P.MAX_FRAME)
    assert len(f) == P.MAX_FRAME
    frames, d = decode_all(f)
    assert len(frames) == 1 and d.errors == 0
    try:
        frame_of(P.MAX_FRAME + 1)
    except P.ProtocolError:
        pass
    else:
        assert False, "encoder accepted an over-length frame"
    long = raw('0 log {"msg":"%s"}' % ("m" * (P.MAX_FRAME - 27)))
    assert len(long) == P.MAX_FRAME + 1
    frames, d = decode_all(long)
    assert frames == [] and d.reason == P.TOO_LONG


def test_byte_by_byte_delivery_decodes_the_same_frames():
    stream = b"zz" + BTN + P.encode(9, "shuf", {"state": "done"}) + b"\r\n"
    d = P.Decoder()
    got = []
    for i in range(len(stream)):
        d.feed(stream[i:i + 1])
        got += list(d)
    assert got == [(7, "btn", {"b": "fold", "seat": 3}), (9, "shuf", {"state": "done"})]


def test_feed_reads_only_up_to_end():
    buf = bytearray(64)
    buf[0:len(BTN)] = BTN
    d = P.Decoder()
    assert d.feed(buf, len(BTN) - 1) == 0
    assert d.feed(b"\n") == 1
    assert d.read() == (7, "btn", {"b": "fold", "seat": 3})
    assert d.read() is None


def test_crlf_line_end_from_a_terminal_is_accepted():
    frames, d = decode_all(BTN[:-1] + b"\r\n")
    assert len(frames) == 1 and d.errors == 0


def test_seq_wraps_from_65535_to_0():
    assert P.next_seq(65535) == 0
    assert P.next_seq(0) == 1
    s = P.Sender()
    s.seq = 65535
    a = s.frame("log", {"msg": "a"})
    b = s.frame("log", {"msg": "b"})
    frames, d = decode_all(a + b)
    assert [f[0] for f in frames] == [65535, 0]


def test_seq_out_of_range_is_refused_both_ways():
    for seq in (-1, 65536, True, "1", None):
        try:
            P.encode(seq, "log", {})
        except P.ProtocolError:
            pass
        else:
            assert False, seq
    for body in ('65536 log {}', '007 log {}', 'x log {}', '123456 log {}', ' 1 log {}'):
        frames, d = decode_all(raw(body))
        assert frames == [] and d.reason == P.BAD_SEQ, body


def test_bad_kind_is_refused_both_ways():
    for kind in ("Btn", "", "abcdefghijklm", "a-b", "a b", 7):
        try:
            P.encode(1, kind, {})
        except P.ProtocolError:
            pass
        else:
            assert False, kind
    for body in ('1 Btn {}', '1 abcdefghijklm {}', '1  {"a":1}', '1 b-n {}'):
        frames, d = decode_all(raw(body))
        assert frames == [] and d.reason == P.BAD_KIND, body


def test_bad_json_payload_is_rejected():
    bad = ('{"a":1,}', '[1,2]', '"s"', '{"a":[1 2]}', '{"a":1.5}', '{"a":1e3}', '{"a":01}',
           '{"a":tru}', '{"a":"\\ud800"}', '{"a":"\\udc00x"}', '{"a":"\\q"}', '{"a":1,"a":2}',
           '{a:1}', '{"a":1} x', '{"a":"\x01"}', '{"a":-}', '{}}',
           '{"a":' * 9 + '1' + '}' * 9)
    for payload in bad:
        frames, d = decode_all(raw("1 cfg " + payload))
        assert frames == [] and d.reason == P.BAD_JSON, payload


def test_spaces_inside_a_payload_are_allowed():
    frames, d = decode_all(raw('5 btn { "seat" : 3 , "b" : [ 1 , 2 ] } '))
    assert frames == [(5, "btn", {"seat": 3, "b": [1, 2]})]


def test_json_string_escaping_round_trips():
    s = 'quote " backslash \\ slash / nl \n cr \r tab \t ctl \x01\x1f del \x7f at @ ' \
        'e-acute \u00e9 euro \u20ac clef \U0001d11e smile \U0001f600 nul \x00'
    payload = {"msg": s, s: [s]}
    f = P.encode(3, "log", payload)
    frames, d = decode_all(f)
    assert frames == [(3, "log", payload)]
    assert P.loads(P.dumps(payload)) == payload
    assert P.loads('"\\u00E9\\/\\b\\f"') == "\u00e9/\b\f"


def test_encoded_frames_are_printable_ascii_with_one_at_and_one_newline():
    f = P.encode(3, "log", {"msg": "a@b\n\u00e9\U0001f600\x00"})
    assert f.count(b"@") == 1 and f.count(b"\n") == 1 and f.endswith(b"\n")
    for c in f[:-1]:
        assert 0x20 <= c <= 0x7E


def test_encoder_refuses_what_json_cannot_carry_the_same_on_both_runtimes():
    for payload in ({"a": 1.5}, {1: 2}, {"a": b"x"}, {"a": {"b": set()}}, [1]):
        try:
            P.encode(1, "cfg", payload)
        except P.ProtocolError:
            pass
        else:
            assert False, payload
    deep = {}
    for _ in range(P.MAX_DEPTH):
        deep = {"d": deep}
    try:
        P.dumps(deep)
    except P.ProtocolError:
        pass
    else:
        assert False, "too deep"


def test_garbage_never_raises_and_leaves_the_decoder_usable():
    d = P.Decoder()
    x = 12345
    for _ in range(40):
        chunk = bytearray(97)
        for i in range(len(chunk)):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            chunk[i] = (x >> 16) & 0xFF
            if chunk[i] == 0x41:
                chunk[i] = 0x40  # plenty of '@'
        d.feed(bytes(chunk))
        assert d._n <= P.MAX_FRAME - 2
    assert list(d) == []
    d.feed(b"\n" + BTN)
    assert list(d) == [(7, "btn", {"b": "fold", "seat": 3})]


def test_resent_frame_is_reacked_but_not_applied_twice():
    dedup = P.Dedup()
    applied = []

    def receive(seq, kind, payload):
        reply = dedup.replay(seq, kind, payload)
        if reply is None:
            applied.append((seq, kind, payload))
            reply = P.ack(seq)
            dedup.remember(seq, kind, payload, reply)
        return reply

    press = (7, "btn", {"seat": 3, "b": "fold"})
    assert receive(*press) == ("ack", {"seq": 7})
    assert receive(*press) == ("ack", {"seq": 7})  # the ack was lost; same frame again
    assert applied == [press]
    assert receive(8, "btn", {"seat": 3, "b": "fold"}) == ("ack", {"seq": 8})  # a new press
    assert len(applied) == 2


def test_resent_frame_gets_the_same_nak_again():
    dedup = P.Dedup()
    dedup.remember(4, "shuf", {"state": "melted"}, P.nak(4, "bad state"))
    assert dedup.replay(4, "shuf", {"state": "melted"}) == ("nak", {"seq": 4, "why": "bad state"})


def test_same_seq_with_different_content_is_a_new_frame():
    dedup = P.Dedup()
    dedup.remember(4, "card", {"code": "As"}, P.ack(4))
    assert dedup.replay(4, "card", {"code": "Kd"}) is None  # seq wrapped round, not a resend


def test_a_hello_naming_a_new_session_forgets_the_last_frame():
    dedup = P.Dedup()
    dedup.hello("host-1")
    dedup.remember(0, "btn", {"seat": 1, "b": "call"}, P.ack(0))
    dedup.hello("host-2")   # the host restarted: seq 0 again is a new frame
    assert dedup.replay(0, "btn", {"seat": 1, "b": "call"}) is None


def test_a_hello_of_the_same_session_or_none_keeps_the_last_frame():
    # A host that reconnects says hello, then resends its unanswered frame (issue 13).
    dedup = P.Dedup()
    dedup.hello("host-1")
    dedup.remember(4, "card", {"code": "As"}, P.ack(4))
    dedup.hello("host-1")
    assert dedup.replay(4, "card", {"code": "As"}) == P.ack(4)
    dedup.hello(None)
    assert dedup.replay(4, "card", {"code": "As"}) == P.ack(4)


def test_sender_resends_the_same_bytes_after_the_timeout_then_gives_up():
    s = P.Sender(timeout_ms=500, tries=2)
    s.put("card", {"code": "As"})
    first = s.poll(1000)
    assert first is not None and first.startswith(b"@0 card ")
    assert s.poll(1499) is None
    assert s.poll(1500) == first
    assert s.poll(2000) == first
    assert s.failed == 0 and s.waiting == 0
    assert s.poll(2500) is None  # dropped after two resends
    assert s.failed == 1 and not s.busy and s.waiting is None


def test_sender_keeps_one_acked_frame_in_flight():
    s = P.Sender()
    assert s.put("card", {"code": "As"}) and s.put("card", {"code": "Kd"})
    a = s.poll(0)
    assert s.poll(10) is None  # Kd waits for the ack of As
    log = s.frame("log", {"msg": "hi"})  # frames needing no ack go out at once
    assert log.startswith(b"@1 log ")
    assert not s.settle("ack", {"seq": 1})  # not the frame in flight
    assert not s.settle("log", {"seq": 0})
    assert s.settle("nak", {"seq": 0, "why": "x"})  # a nak settles it too: no resend
    b = s.poll(20)
    assert a.startswith(b"@0 card ") and b.startswith(b"@2 card ")
    assert s.settle("ack", {"seq": 2}) and not s.busy


def test_sender_refuses_bad_frames_at_put_and_when_full():
    s = P.Sender(depth=2)
    for kind, payload in (("Card", {}), ("card", {"x": 1.5}), ("log", {"m": "x" * 2000})):
        try:
            s.put(kind, payload)
        except P.ProtocolError:
            pass
        else:
            assert False, kind
    assert s.put("card", {}) and s.put("card", {})
    assert not s.put("card", {})


def test_sender_timeout_survives_the_ticks_ms_wrap():
    assert P.ticks_diff(5, (1 << 30) - 5) == 10
    assert P.ticks_diff((1 << 30) - 5, 5) == -10
    s = P.Sender(timeout_ms=500)
    s.put("card", {"code": "As"})
    f = s.poll((1 << 30) - 100)
    assert s.poll(300) is None
    assert s.poll(400) == f
