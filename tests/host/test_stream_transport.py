"""The firmware's link transport over a real pty, as the emulator gives it (CPython
here; every emulator run with --runtime micropython drives it in the unix port)."""

import asyncio
import os
import pty
import threading
import tty

import pytest

from felt.hal.link import StreamTransport


@pytest.fixture
def port():
    """(the host's end of a raw pty, the firmware's transport on the other end)."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    yield master, StreamTransport(os.ttyname(slave), size=256)
    os.close(master)
    os.close(slave)


def test_read_returns_what_has_arrived_without_waiting_for_more(port):
    master, t = port
    os.write(master, b"@1 hello {} *0")   # less than `size`, no end of line
    assert asyncio.run(asyncio.wait_for(t.read(), 2)) == b"@1 hello {} *0"


def test_read_waits_for_input_then_returns_it(port):
    master, t = port

    async def later():
        await asyncio.sleep(0.05)
        os.write(master, b"x\n")

    async def both():
        writer = asyncio.ensure_future(later())
        data = await asyncio.wait_for(t.read(), 2)
        await writer
        return data

    assert asyncio.run(both()) == b"x\n"


def test_a_write_larger_than_the_pty_buffer_arrives_whole(port):
    master, t = port
    data = bytes(range(32, 127)) * 2000   # 190 KB: more than a pty holds at once
    got = bytearray()

    def drain():
        while len(got) < len(data):
            got.extend(os.read(master, 65536))

    reader = threading.Thread(target=drain)
    reader.start()
    t.write(data)
    reader.join(5)
    assert bytes(got) == data


def test_a_hung_up_host_ends_the_read_rather_than_spinning_for_ever():
    # A firmware whose emulator had gone read nothing from its readable pty, for ever,
    # at 100 % of a core, holding the pipes of the test that started it (CI waited on
    # one): the host's end closed, read() raises, and the link's task ends (felt.guard).
    master, slave = pty.openpty()
    tty.setraw(slave)
    t = StreamTransport(os.ttyname(slave), size=256)
    os.close(master)
    try:
        with pytest.raises(OSError) as raised:
            asyncio.run(asyncio.wait_for(t.read(), 2))
        assert not isinstance(raised.value, TimeoutError)     # at once, not after 2 s
    finally:
        os.close(slave)
