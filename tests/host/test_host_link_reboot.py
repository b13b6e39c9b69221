"""The emulator's end of the link when the firmware reboots (host_tools/link.py,
felt.guard): the frame in flight is resent to the rebooted firmware; if the resend is
applied only now, what the firmware asked for at boot (a card, a turn) is stale and
dropped; if its journal acked it again, what it asked for at boot stands.  A fake
firmware plays the other end of two ptys, before and after the reboot."""

import os
import pty
import select
import threading
import tty

from felt import protocol as P
from host_tools.link import HostLink, LinkError

import pytest


def _pty():
    master, slave = pty.openpty()
    tty.setraw(slave)
    return master, slave


def _read_frame(fd, decoder, kind):
    """The next frame of `kind` the host wrote to `fd` (waits up to 5 s)."""
    for _ in range(100):
        for seq, k, p in decoder:
            if k == kind:
                return seq, p
        if select.select([fd], [], [], 0.05)[0]:
            decoder.feed(os.read(fd, 4096))
    raise AssertionError("no %s frame from the host" % kind)


class Firmware:
    """The fake firmware: receives the card, dies before answering, boots again with
    `boot` frames, and answers the resend with `answer` frames then its ack."""

    def __init__(self, answer):
        self.answer = answer
        self.m1, self.s1 = _pty()
        self.m2, self.s2 = _pty()
        self.dead = threading.Event()
        self.booted = threading.Event()

    def gone(self):
        self.dead.clear()                    # a new process, alive
        self.booted.set()
        return self.m2

    def run(self):
        _read_frame(self.s1, P.Decoder(), "card")
        self.dead.set()                      # down before the ack went out
        self.booted.wait(5)
        out = [("log", {"msg": "rebooted: task link died: MemoryError"}),
               ("need", {"what": "hole", "seat": 1}), ("px", {"rgb": "00"})]
        os.write(self.s2, b"".join(P.encode(i, k, p) for i, (k, p) in enumerate(out)))
        seq, _ = _read_frame(self.s2, P.Decoder(), "card")   # the resend
        frames = [(k, p) for k, p in self.answer] + [("ack", {"seq": seq})]
        os.write(self.s2, b"".join(P.encode(10 + i, k, p) for i, (k, p) in enumerate(frames)))


def _send_through_a_reboot(answer):
    fw = Firmware(answer)
    host = HostLink(fw.m1)
    host.ended = fw.dead.is_set
    host.on_gone = fw.gone
    t = threading.Thread(target=fw.run)
    t.start()
    try:
        assert host.send("card", {"code": "2c"}) is None
        t.join(5)
        got = []
        while True:
            try:
                got.append(host.recv(0.3))
            except LinkError:
                return host, got
    finally:
        for fd in (fw.m1, fw.s1, fw.m2, fw.s2):
            os.close(fd)


def test_a_resend_applied_after_the_reboot_makes_the_boots_request_stale():
    host, got = _send_through_a_reboot([("evt", {"e": "dealt", "what": "hole", "seat": 1,
                                                 "card": "2c"}),
                                        ("need", {"what": "hole", "seat": 2})])
    assert host.reboots == ["task link died: MemoryError"]
    assert [k for k, _ in got] == ["log", "px", "evt", "need"]
    assert got[-1][1]["seat"] == 2            # only the card asked for after the resend


def test_a_resend_the_journal_acks_again_leaves_the_boots_request_standing():
    host, got = _send_through_a_reboot([])
    assert [k for k, _ in got] == ["log", "need", "px"]


def test_a_firmware_that_dies_at_every_boot_is_given_up_not_waited_on():
    m, s = _pty()
    host = HostLink(m, timeout_s=1.0)
    host.ended = lambda: True                    # every process it boots ends at once
    spares = []

    def gone():
        a, b = _pty()
        spares.extend((a, b))
        return a

    host.on_gone = gone
    with pytest.raises(LinkError, match="rebooted 3 times in a row, getting nowhere"):
        host.recv(1.0)
    for fd in [m, s] + spares:
        os.close(fd)
