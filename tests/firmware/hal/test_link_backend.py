"""The serial-link backend: answers, resends and devices as frames (docs/protocol.md)."""

from felt import protocol as P
from felt.hal import link as L
from table_fakes import Wire, serve


def test_applied_input_is_acked_and_refused_input_naked_with_the_reason():
    wire = Wire(P.encode(0, "btn", {"seat": 1, "b": "call"}),
                P.encode(1, "btn", {"seat": 2, "b": "call"}))
    serve(wire, lambda k, p: None if p["seat"] == 1 else "out of turn")
    assert wire.frames() == [("ack", {"seq": 0}), ("nak", {"seq": 1, "why": "out of turn"})]


def test_resent_frame_is_answered_again_but_applied_once():
    frame = P.encode(5, "card", {"code": "As"})
    applied = []
    wire = Wire(frame, frame)
    serve(wire, lambda k, p: applied.append(p))
    assert applied == [{"code": "As"}]
    assert wire.frames() == [("ack", {"seq": 5}), ("ack", {"seq": 5})]


def test_unknown_kind_is_naked_so_the_sender_stops_resending():
    wire = Wire(P.encode(0, "teleport", {}))
    serve(wire, lambda k, p: "unknown message %r" % k)
    assert wire.frames()[0][0] == "nak"


def test_queries_are_answered_by_their_reply_not_acked():
    wire = Wire(P.encode(0, "state", {}))
    lk = None

    def handler(k, p):
        lk.send("state", {"hand": 0})

    lk = L.Link(wire)
    serve(wire, handler, lk)
    assert wire.frames() == [("state", {"hand": 0})]


def test_noise_and_corrupt_frames_are_skipped():
    good = P.encode(0, "btn", {"seat": 0, "b": "fold"})
    bad = bytearray(good)
    bad[5] ^= 1
    wire = Wire(b"\x00garbage", bytes(bad), good)
    lk = serve(wire, lambda k, p: None)
    assert wire.frames() == [("ack", {"seq": 0})] and lk.decoder.errors == 1


def test_card_requests_and_shuffler_start_wait_for_the_hosts_ack():
    wire = Wire()
    hal = L.open({"leds": {"count": 2, "seats": [[0, 1]], "centre": [1, 1]}}, wire)
    hal.card_reader.want("hole", 3)
    hal.shuffler.start()   # queued behind the unanswered need
    assert wire.frames() == [("need", {"what": "hole", "seat": 3})]
    hal.link._receive(0, "ack", {"seq": 0}, None)
    hal.link.flush()
    assert wire.frames() == [("shuffle", {})]


def test_pixels_send_the_whole_chain_as_hex():
    wire = Wire()
    hal = L.open({"leds": {"count": 2, "seats": [[0, 1]], "centre": [1, 1]}}, wire)
    hal.pixels[0] = (255, 0, 16)
    hal.pixels.write()
    assert wire.frames() == [("px", {"rgb": "ff0010000000"})]


class _Trickle:
    """A transport that takes at most 3 bytes a write, and every other write nothing
    (None, as a non-blocking stream says it would block)."""

    def __init__(self):
        self.got = bytearray()
        self.calls = 0
        self.waited = 0

    def write(self, data):
        self.calls += 1
        if self.calls % 2 == 0:
            return None
        n = min(3, len(data))
        self.got.extend(bytes(data[:n]))
        return n

    def wait(self, ms):
        self.waited += 1


def _frames(data):
    d = P.Decoder()
    d.feed(bytes(data))
    return [(k, p) for _, k, p in d], d.errors


def test_partial_writes_deliver_every_frame_whole_and_in_order():
    t = _Trickle()
    lk = L.Link(t)
    sent = [("evt", {"e": "to_act", "seat": s, "legal": ["fold", "call"]}) for s in range(6)]
    for kind, payload in sent:
        lk.send(kind, payload)
    while not lk.drain():      # the writer task's work (pump), here in a loop
        pass
    assert _frames(t.got) == (sent, 0) and lk.queued == 0


def test_a_full_queue_waits_for_the_transport_and_drops_nothing():
    t = _Trickle()
    lk = L.Link(t, limit=64)
    sent = [("log", {"msg": "line %d of the technician's log" % i}) for i in range(20)]
    for kind, payload in sent:
        lk.send(kind, payload)
        assert lk.queued <= 64     # bounded: the send waited until it was back under
    lk.drain()
    while not lk.drain():
        pass
    assert _frames(t.got) == (sent, 0)
    assert lk.waits > 0 and t.waited > 0


def test_the_uart_transport_takes_what_the_uart_takes_and_never_waits():
    from felt.hal import mp
    s = _Trickle()
    u = mp.UartTransport(s)
    assert u.write(b"@0 px {} *0\n") == 3 and u.write(b"@0 px {} *0\n") == 0
    assert bytes(s.got) == b"@0 "


def test_a_frame_resent_after_a_reboot_and_a_hello_is_not_applied_again():
    # Issue 13: the board rebooted and rebuilt its memory from the journal
    # (Link.resume); the host reconnects, says hello and resends its unanswered frame.
    card = P.encode(9, "card", {"code": "As"})
    applied = []
    wire = Wire(P.encode(10, "hello", {"session": "host-1"}), card)
    lk = L.Link(wire)
    lk.resume([9, "card", {"code": "As"}, "host-1"])
    serve(wire, lambda k, p: applied.append(k), lk)
    assert applied == ["hello"]
    assert ("ack", {"seq": 9}) in wire.frames()


def test_the_other_tasks_run_between_two_frames_read_at_once():
    # Issue 38, item 3: bogus `tech` frames queued behind a signature check were all
    # handled in one go, and the loop was held past the guard's STALL_MS (the board
    # rebooted: "task buttons stalled").  Each frame of a burst now lets the others run.
    try:
        import asyncio
    except ImportError:
        import uasyncio as asyncio
    burst = b"".join(P.encode(i, "btn", {"seat": 1, "b": "call"}) for i in range(3))
    wire, handled, ran = Wire(burst), [], []
    lk = L.Link(wire)

    async def other():
        while True:
            ran.append(len(handled))
            await asyncio.sleep(0)

    async def both():
        asyncio.create_task(other())
        await lk.serve(lambda k, p: handled.append(k))
    try:
        asyncio.run(both())
    except KeyboardInterrupt:
        pass
    assert [n for n in (1, 2) if n in ran] == [1, 2], ran    # between the frames, each
