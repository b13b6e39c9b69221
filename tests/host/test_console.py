"""felt-console (host_tools/console.py), a technician's console, against the emulated
firmware served over TCP by felt-emulator --serve (host_tools/emulator/serve.py): the
real firmware process under CPython (and MicroPython's unix port for a signed image),
the console as a technician runs it, over socket://."""

import os
import pty
import select
import signal
import socket
import subprocess
import sys
import time

import pytest

from felt import FIRMWARE
from host_tools import console as C
from host_tools.floor.broker import free_port
from served import BIN, ROOT, Served
HEADS_UP = '{"seats":2,"stacks":[100,100],"blinds":[1,2],"small_bet":2,"big_bet":4}'


@pytest.fixture
def served():
    s = Served()
    yield s
    s.stop()


def felt_console(*args, stdin=None, timeout=60):
    return subprocess.run([str(BIN / "felt-console"), *map(str, args)], input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL,
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout)


def script(*lines):
    return "".join(line + "\n" for line in lines)


def test_a_session_of_queries_on_a_round_played_through_the_console(served):
    r = felt_console("--port", served.url, stdin=script(
        "sign", "cfg " + HEADS_UP, "state", "sign", "heap", "challenge",
        # A round heads-up, the technician playing every device: the small blind
        # acts first and folds.
        'send dealer {"b":"deal"}', 'send shuf {"state":"done"}',
        'send dealer {"b":"cut_done"}', *['send card {"code":"%s"}' % c for c in
                                          ("As", "Kd", "7h", "2c")],
        'send btn {"seat":0,"b":"fold"}', "recall", "recall 1", "log", "state --json"))
    out = r.stdout.splitlines()
    assert out[0] == "hello: board pico-11, firmware %s, 11 seats, technician's " \
                     "commands unsigned (it trusts no key)" % FIRMWARE
    # A query the board refuses says so at once (no sign before a configuration).
    assert out[1] == "refused: no table configuration: send cfg first"
    assert "leds: centre idle; seats 0-1 waiting, 2-10 empty" in out
    i = out.index("table: idle, hand 0; deck A in play, none retired")
    assert out[i + 1:i + 5] == [
        "game: holdem, fixed limit 2/4, 2 seats, rake none",
        "stacks: 0:100 1:100",
        "button: none; to act: nobody; board: -; pot 0; rake taken 0",
        "shuffler fitted; dealing shoe ok"]
    assert out[i + 5] == "sign:" and out[i + 6] == "  Hold 'em - fixed limit"
    assert "heap: not measured (a runtime without a fixed heap: CPython)" in out
    assert any(line.startswith("challenge: board pico-11, nonce ") for line in out)
    # The round's events and LED frames in words, as they came.
    for line in ("event: button to seat 1 (dealer right)", "the board starts the shuffler",
                 "event: waiting for the cut (deck A)", "event: seat 0 posts blind 1",
                 "the board asks the shoe for a hole card for seat 0",
                 "event: seat 0 hole card As", "event: seat 0 to act: fold, call or raise",
                 "event: seat 0 folds", "event: seat 1 wins 2 from the main pot",
                 "event: hand 1 over: winners 1, stacks 99 101",
                 "leds: centre cut; button seat 1; seats 0-1 waiting, 2-10 empty"):
        assert line in out, line
    # recall: the round as felt-recall tells it; no round before it.
    i = out.index("hand 1: holdem, fixed limit 2/4, button seat 1")
    assert out[i + 1] == "  stacks: 0:100 1:100"
    assert "  seat 0 hole card As" in out and "  seat 0 folds" in out
    assert "  stacks after: 0:99 1:101" in out
    assert "refused: no round 1: the board holds 1 complete round (0 the newest)" in out
    # The board logs each answer that gave a round, every card of it (a table that
    # trusts no key takes recall unsigned).
    i = [line.startswith("event log: ") for line in out].index(True)
    assert out[i + 1] == "  #1 minute 0 hand 1 recall unsigned: round 0 from record 0"
    assert {line.split(": ", 1)[0] for line in out[i + 1:-1]} == \
        {"  #%d minute 0 hand 1 recall unsigned" % n for n in range(1, len(out) - i - 1)}
    assert out[-1].startswith('{"board":"","button":0,') and '"stacks":[99,101]' in out[-1]
    assert r.stderr == ""
    assert r.returncode == 1        # a command was refused


def test_a_retired_deck_is_registered_again(served):
    r = felt_console("--port", served.url, stdin=script(
        "cfg " + HEADS_UP, 'send dealer {"b":"deal"}',
        # The shuffler's deck check finds a card missing: deck A is retired.
        'send shuf {"state":"done","count":51,"missing":["As"]}', "state", "deck A",
        "deck A", "state", "log"))
    assert r.stderr == "" and r.returncode == 1, r.stderr
    out = r.stdout.splitlines()
    # On the link the card missing is not named (the cards the table did not show stay
    # off it); the technician's event log names it.
    assert "event: irregularity, deck retired: deck A sealed and reported (deck check: 51 " \
           "cards, missing ??); deck B to the table (13:47-20.38(h))" in out
    assert "table: shuffling, hand 0; deck B in play, retired: A" in out
    i = out.index("event: deck A registered; deck B in play")
    assert out[i + 1] == "done"
    # Registered twice: the board says why, once.
    assert out[i + 2] == "refused: deck A is in service already"
    assert out[i + 3] == "table: shuffling, hand 0; deck B in play, none retired"
    assert out[-3:] == ["event log: 2 records",
                        "  #1 minute 0 hand 0 deck retired: deck A: deck check: 51 cards, "
                        "missing As",
                        "  #2 minute 0 hand 0 deck registered: deck A"]


def test_commands_on_the_command_line_and_a_bad_one_that_the_console_goes_past(served):
    r = felt_console("--port", served.url, "heap", "bogus", "deck", "C", "send", "shuf",
                     '{"present": false}', "recall", "x", "rules", "{nope",
                     "cfg", '{"seats": 2, "game": "%s"}' % ("x" * 1000), "challenge")
    assert r.stderr.splitlines() == [
        "felt-console: unknown command 'bogus': help lists them",
        "felt-console: deck takes A or B",
        "felt-console: recall takes a round: 0 the newest complete one, 1 the one before...",
        "felt-console: rules: not JSON: Expecting property name enclosed in double quotes: "
        "line 1 column 2 (char 1)",
        "felt-console: cfg: no frame can carry it (frame too long)"]
    out = r.stdout.splitlines()
    assert out[1] == "heap: not measured (a runtime without a fixed heap: CPython)"
    assert "event: shuffler removed from the table" in out and "done" in out
    assert out[-1].startswith("challenge: board pico-11, nonce ")
    assert r.returncode == 1


def test_output_closed_early_ends_quietly_as_the_other_tools_do(served):
    # Issue 22: `felt-console ... state 'recall 1' log heap | head -3` said
    # "felt-console: BrokenPipeError: [Errno 32] Broken pipe" and exited 1.
    r = subprocess.run("%s --port %s state 'recall 1' log heap | head -3; "
                       "echo status ${PIPESTATUS[0]}" % (BIN / "felt-console", served.url),
                       shell=True, executable="/bin/bash", capture_output=True, text=True,
                       cwd=ROOT, timeout=60)
    assert r.stderr == "" and r.stdout.splitlines()[-1] == "status 141", (r.stdout, r.stderr)


def test_the_command_lines_words(served):
    assert C.command_lines(["state", "--json", "deck", "A", "recall", "sign", "send", "state",
                            "{}", "rules", '{"min_wager": 4}', "deck A", "log"]) == [
        "state --json", "deck A", "recall", "sign", "send state {}",
        'rules {"min_wager": 4}', "deck A", "log"]
    r = felt_console("--port", served.url, "help", "send", "state", "{}", "quit", "state")
    out = r.stdout.splitlines()
    assert "  state [--json]  the table's state in a few lines (--json: as the board sends it)" \
        in out
    assert out[-1].startswith('state {"board":""')     # a raw query's answer, then quit
    assert r.returncode == 0 and r.stderr == ""


def test_one_client_at_a_time_and_ctrl_c_stops_the_server_and_the_firmware(served):
    first = socket.create_connection((served.host, int(served.port)))
    line = served.line()
    assert line.startswith("felt-emulator: client 127.0.0.1:") and line.endswith("connected\n")
    second = socket.create_connection((served.host, int(served.port)))
    assert "turned away: one client at a time" in served.line()
    second.settimeout(5)
    assert second.recv(100) == b""         # closed at once
    first.close()
    assert served.line().endswith("client left\n")
    r = felt_console("--port", served.url, "heap")     # a new client after it
    assert r.returncode == 0 and "heap: " in r.stdout, r.stdout + r.stderr
    firmware = subprocess.run(["pgrep", "-P", str(served.proc.pid)], capture_output=True,
                              text=True).stdout.split()
    assert len(firmware) == 1, firmware
    served.stop()
    assert served.proc.returncode == 0, served.said
    assert served.said[-1] == "felt-emulator: stopped\n", served.said
    deadline = time.monotonic() + 10          # the firmware stopped with it
    while os.path.exists("/proc/%s" % firmware[0]):
        assert time.monotonic() < deadline, open("/proc/%s/status" % firmware[0]).read()
        time.sleep(0.1)


def test_the_served_board_boots_on_the_journal_it_is_given(tmp_path):
    journal = tmp_path / "journal.jsonl"
    for commands in (["cfg", HEADS_UP], ["state"]):
        served = Served("--journal", journal)
        try:
            r = felt_console("--port", served.url, *commands)
        finally:
            served.stop()
        assert r.returncode == 0, r.stdout + r.stderr
    assert "stacks: 0:100 1:100" in r.stdout.splitlines()   # as the board's flash kept it
    assert journal.exists()


def test_an_unreachable_port_is_one_line_and_a_failure(tmp_path):
    free = free_port()        # nothing listens there once closed
    none = tmp_path / "ttyNONE"
    for port, said in (("socket://127.0.0.1:%d" % free, "cannot open socket://127.0.0.1:%d: "
                        % free),
                       (none, "%s: no such port: is the board plugged in?" % none)):
        r = felt_console("--port", port, "state")
        assert r.returncode != 0 and r.stdout == ""
        assert len(r.stderr.splitlines()) == 1
        assert r.stderr.startswith("felt-console: " + said)


def test_version_and_bad_options():
    r = felt_console("--version")
    assert r.returncode == 0 and r.stdout.startswith("felt-console ")
    for args, words in (
            (["state"], "--port"),
            (["--port", "socket://127.0.0.1:1", "--key", "/nonexistent.key", "state"],
             "cannot read the private key /nonexistent.key"),
            (["--port", "socket://127.0.0.1:1", "--baud", "0"], "--baud"),
            (["--port", "socket://127.0.0.1:1", "--board", "no-such-board"],
             "no board 'no-such-board'")):
        r = felt_console(*args)
        assert r.returncode != 0 and r.stdout == "", args
        assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("felt-console: ")
        assert words in r.stderr and "Traceback" not in r.stderr


def test_serve_refuses_what_it_cannot_do_in_a_line():
    for args, words in ((["nonsense"], "'nonsense': give HOST:PORT"),
                        (["127.0.0.1:99999"], "give HOST:PORT"),
                        (["127.0.0.1:0", "--hands", "3", "--faults", "random"],
                         "no device plays: leave out --faults, --hands"),
                        (["127.0.0.1:0", "--tech-key", "keys/felt.key"],
                         "leave out --tech-key"),
                        (["192.0.2.1:7000"], "cannot listen on 192.0.2.1:7000: ")):
        r = subprocess.run([str(BIN / "felt-emulator"), "--serve", *args], capture_output=True,
                           text=True, stdin=subprocess.DEVNULL, cwd=ROOT, timeout=60)
        assert r.returncode == 2 and r.stdout == "", args
        assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("felt-emulator: ")
        assert words in r.stderr, r.stderr


class Terminal:
    """felt-console at a prompt: its stdin, stdout and stderr a pty's slave end."""

    def __init__(self, url):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([str(BIN / "felt-console"), "--port", url], stdin=slave,
                                     stdout=slave, stderr=slave, cwd=ROOT)
        os.close(slave)
        self.seen = b""

    def type(self, text):
        os.write(self.master, text.encode())

    def until(self, text, timeout=20):
        """Wait until the screen has shown `text`."""
        deadline = time.monotonic() + timeout
        while text.encode() not in self.seen:
            assert time.monotonic() < deadline, self.seen.decode(errors="replace")
            if select.select([self.master], [], [], 0.1)[0]:
                self.seen += os.read(self.master, 4096)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


def test_commands_at_a_prompt(served):
    t = Terminal(served.url)
    try:
        t.until(C.PROMPT)
        t.type("cfg " + HEADS_UP + "\n")
        t.until("leds: centre idle; seats 0-1 waiting, 2-10 empty\r\ndone\r\n" + C.PROMPT)
        t.type("state\n")
        t.until("stacks: 0:100 1:100")
        t.type("nonsense\n")
        t.until("felt-console: unknown command 'nonsense': help lists them\r\n" + C.PROMPT)
        t.type("quit\n")
        assert t.proc.wait(10) == 0
    finally:
        t.close()


def test_at_a_prompt_what_the_board_says_unasked_shows_above_what_is_being_typed():
    """A board of the test's own on a socket says something unasked while the technician
    types: the line goes above the prompt, drawn again with what was typed."""
    from felt import protocol as P
    listener = socket.create_server(("127.0.0.1", 0))
    t = Terminal("socket://127.0.0.1:%d" % listener.getsockname()[1])
    board, _ = listener.accept()
    decoder = P.Decoder()

    def heard(kind):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for seq, k, p in decoder:
                if k == kind:
                    return p
            decoder.feed(board.recv(4096))
        raise AssertionError("no %s from the console" % kind)
    try:
        assert heard("hello")["session"].startswith("console-")
        board.sendall(P.encode(0, "hello", {"board": "pico-11", "fw": "felt 0.1", "seats": 11,
                                            "signed": False}))
        t.until(C.PROMPT)
        t.type("hea")
        time.sleep(0.2)
        board.sendall(P.encode(1, "evt", {"e": "shuffler", "present": False}))
        t.until("\r\x1b[Kevent: shuffler removed from the table\r\n" + C.PROMPT + "hea")
        t.type("p\n")
        heard("heap")
        board.sendall(P.encode(2, "heap", {"used": 1000, "free": 2000}))
        t.until("heap: 1000 bytes used, 2000 free\r\n" + C.PROMPT)
        board.close()                        # the board goes away
        t.until("felt-console: the board's link closed")
        assert t.proc.wait(10) == 1
    finally:
        t.close()
        listener.close()


def image_key_id(public_file):
    from felt.image import key_id
    return key_id(bytes.fromhex(public_file.read_text().strip()))


@pytest.fixture(scope="module")
def signed_image(tmp_path_factory):
    """A signed image (felt-flash build) and the keys: felt.key signs images, tech.key commands, other.key nothing."""
    from host_tools import images, signing
    from host_tools.micropython import MicroPythonMissing, binary
    try:
        binary()
    except MicroPythonMissing as e:
        pytest.skip(str(e))
    keys = tmp_path_factory.mktemp("keys")
    signing.keygen(keys / "felt")
    signing.keygen(keys / "tech")        # the technician's
    signing.keygen(keys / "other")
    image = tmp_path_factory.mktemp("image") / "image"
    images.build("pico-11", image, keys / "felt.key")
    trust = signing.write_trust(keys, keys / "felt.key", tech=keys / "tech.pub")
    signing.first_record(image, trust, "pico-11")   # the board provisioned: its keys, its record
    return image, keys


# A known bug, found the day this test first ran on a clean clone: now and then (on a
# loaded machine, every time in a row, then not again) a signed image at the board's heap
# (185 KB) runs out of memory in its link task as a deck check retires a deck (`shuf
# done` with a missing card), reboots, and the technician's challenge is drawn anew. The
# same retirement plays on CPython and on MicroPython without an image. To be found.
def test_a_board_that_trusts_keys_takes_the_technicians_commands_signed_only(signed_image,
                                                                             tmp_path):
    image, keys = signed_image
    # No --tech-key: the emulator plays no technician, the console signs, with the
    # board's own key that the emulator made beside its journal (as felt-flash install).
    journal = tmp_path / "journal.jsonl"
    served = Served("--runtime", "micropython", "--image", image, "--trust", keys / "trust.json",
                    "--journal", journal, cwd=keys)
    board = ("--board-id", "pico-11", "--board-key", "%s.key" % journal)
    try:
        unsigned = felt_console("--port", served.url, "deck", "A", "send", "deck",
                                '{"register":"A"}', "heap")
        assert unsigned.stdout.splitlines()[0] == "hello: board pico-11, firmware %s, " % FIRMWARE + \
            "11 seats, technician's commands signed"
        assert unsigned.stderr == "felt-console: deck: this board takes a technician's " \
            "commands signed only: start felt-console with --key KEYFILE --board-id ID\n"
        assert "refused: deck is a technician's command: send it signed (tech)" in \
            unsigned.stdout
        assert "heap: " in unsigned.stdout and " bytes used, " in unsigned.stdout
        signed = felt_console("--port", served.url, "--key", keys / "tech.key", *board,
                              stdin=script(
            "cfg " + HEADS_UP, 'send dealer {"b":"deal"}',
            'send shuf {"state":"done","count":51,"missing":["As"]}', "deck A", "state"))
        assert signed.returncode == 0 and signed.stderr == "", signed.stdout + signed.stderr
        out = signed.stdout.splitlines()
        i = out.index("event: deck A registered; deck B in play")
        assert out[i + 1:i + 3] == ["done", "table: shuffling, hand 0; deck B in play, "
                                            "none retired"]
        foreign = felt_console("--port", served.url, "--key", keys / "other.key", *board,
                               "clear")
        other_id = image_key_id(keys / "other.pub")
        assert "refused: clear refused: key %s is not trusted for clear" % other_id in \
            foreign.stdout.splitlines()
        # Told to expect another board, it signs nothing (issue 38, item 4).
        elsewhere = felt_console("--port", served.url, "--key", keys / "tech.key",
                                 "--board-id", "pico-12", "--board-key", "%s.key" % journal,
                                 "clear")
        assert "failed: the board on the link says it is pico-11, not pico-12: nothing was " \
               "signed for it" in elsewhere.stdout.splitlines()
        # The event log is a technician's to read (issue 21).
        plain = felt_console("--port", served.url, "log")
        assert plain.stderr == "felt-console: eventlog: this board answers a technician " \
            "only: start felt-console with --key KEYFILE --board-id ID\n"
        out = felt_console("--port", served.url, "--key", keys / "tech.key", *board,
                           "log").stdout.splitlines()
        assert [line.split(" hand ")[1].split(":")[0].split(" ", 1)[1] for line in out[-5:]] \
            == ["technician", "deck retired", "deck registered", "technician",
                "technician refused"]
    finally:
        served.stop()


def test_a_tilted_board_says_so_and_refuses_every_question(signed_image, tmp_path):
    import shutil
    image, keys = signed_image
    spoilt = tmp_path / "image"
    shutil.copytree(image, spoilt)
    target = spoilt / "felt" / "poker" / "round.mpy"
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 1
    target.write_bytes(bytes(data))
    journal = tmp_path / "journal.jsonl"
    served = Served("--runtime", "micropython", "--image", spoilt, "--trust",
                    keys / "trust.json", "--journal", journal)
    try:
        r = felt_console("--port", served.url, "--key", keys / "tech.key", "--board-key",
                         "%s.key" % journal, "state", "log", "deck", "A")
    finally:
        served.stop()
    out = r.stdout.splitlines()
    tilt = "program_check_failed: felt/poker/round.mpy: "
    assert out[0].startswith("hello: board pico-11, 11 seats, tilted: " + tilt), out[0]
    assert out[1].startswith("refused: the table is tilted: " + tilt)
    assert out[2].startswith("refused: the table is tilted: " + tilt)
    assert out[3].startswith("refused: the table is tilted: " + tilt)
    assert len(out) == 4 and r.returncode == 1


class FakeFirmware:
    """What the bridge uses of a FirmwareProcess: its pty, its process, reboot().  Each
    boot writes a hello naming it; a process ends when the test closes its stdin, with
    `codes` (75: reboot me, felt.guard.REBOOT_EXIT)."""

    def __init__(self, codes):
        self.codes = list(codes)
        self.boots = 0
        self._boot()

    def _boot(self):
        import tty
        from felt import protocol as P
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        os.write(self.slave, P.encode(0, "hello", {"boot": self.boots}))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.stdin.read(); sys.exit(%d)"
             % self.codes.pop(0)], stdin=subprocess.PIPE)
        self.boots += 1

    def end(self):
        self.proc.stdin.close()

    def reboot(self):
        from host_tools.link import LinkError
        code = self.proc.wait()
        if code != 75:
            raise LinkError("the firmware exited with %d" % code)
        self.close()
        self._boot()
        return self.master

    def close(self):
        for fd in (self.master, self.slave):
            os.close(fd)


def test_the_bridge_boots_a_firmware_that_asks_again_and_its_client_stays(tmp_path):
    import threading
    from felt import protocol as P
    from host_tools.link import LinkError
    from host_tools.emulator.serve import Bridge
    fw = FakeFirmware([75, 1])
    said = []
    listener = socket.create_server(("127.0.0.1", 0))
    bridge = Bridge(fw, listener, said.append)
    bridge.wait_for_boot()                  # its boot hello, with no client: dropped
    failed = []

    def run():
        try:
            bridge.run()
        except LinkError as e:
            failed.append(str(e))
    t = threading.Thread(target=run, daemon=True)
    t.start()
    client = socket.create_connection(listener.getsockname())
    client.settimeout(5)
    client.sendall(b"one")
    assert os.read(fw.slave, 10) == b"one"
    fw.end()                                # the firmware asks to be rebooted
    d = P.Decoder()
    d.feed(client.recv(100))
    assert list(d) == [(0, "hello", {"boot": 1})]   # the client is still connected
    client.sendall(b"two")
    assert os.read(fw.slave, 10) == b"two"  # to the firmware booted again
    assert said[-1].startswith("reboot: the firmware asked to be rebooted")
    fw.end()                                # it exits otherwise: the server stops
    t.join(5)
    assert failed == ["the firmware exited with 1"]
    client.close()
    listener.close()
    fw.close()


def test_a_firmware_that_reboots_over_and_over_stops_the_server():
    from host_tools.link import MAX_REBOOTS_IN_A_ROW, LinkError
    from host_tools.emulator.serve import Bridge
    fw = FakeFirmware([75] * (MAX_REBOOTS_IN_A_ROW + 2))
    bridge = Bridge(fw, None, lambda line: None)
    with pytest.raises(LinkError, match="rebooted 4 times in a row, each within 10 s"):
        for _ in range(MAX_REBOOTS_IN_A_ROW + 1):
            fw.end()
            bridge._rebooted()
    assert fw.boots == MAX_REBOOTS_IN_A_ROW + 1
    fw.end()
    fw.proc.wait()
    fw.close()


def test_ctrl_c_stops_a_server_started_with_sigint_ignored():
    # A script's `cmd &` without job control starts it with SIGINT ignored: CI's served
    # boards were killed after 10 s, not stopped, and the firmware with them.
    s = Served(preexec=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    s.stop()
    assert s.proc.returncode == 0 and s.said[-1] == "felt-emulator: stopped\n", s.said
