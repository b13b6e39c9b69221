"""felt-emulator --serve HOST:PORT: the emulated firmware as a board on a bench, its
link served on a TCP port for a technician's console.

    felt-emulator --serve localhost:7000                 # then, in another terminal:
    felt-console --port socket://localhost:7000

The firmware boots as FirmwareProcess starts it (--board, --runtime, --heap, --image and
--trust, --journal) with no emulated device playing: nothing shuffles, deals or presses
a button unless the client sends it.  Its serial port (a pty) is bridged to the socket
byte for byte:

- One client at a time.  Another that connects meanwhile is closed at once (a line on
  the server's output says so); once the client leaves, a new one may connect.
- What the firmware writes while no client is connected is dropped, as a UART with
  nothing on its other end drops it; frames it wants acked go unanswered.
- The journal named by --journal is kept, as a board's flash keeps it: the firmware
  boots on it (it resumes, or locks, as a board would).  Without --journal the table is
  new, its journal in a temporary folder removed at the end.
- A firmware that asks to be rebooted (felt.guard.REBOOT_EXIT: a task died) is booted
  again on its journal, on a fresh pty, and the client stays connected: it sees the
  board's boot frames (its hello, `log rebooted: ...`) as it would on a board's UART.
  More than MAX_REBOOTS_IN_A_ROW reboots in a row, each within REBOOT_WINDOW_S of its
  boot, stop the server, as does a firmware that exits otherwise (a tilt that could not be
  said on the link: status 3).
- Ctrl-C (or SIGTERM) stops the server and the firmware; the status is then 0.
"""

import os
import select
import socket
import sys
import tempfile
import time

from host_tools import cli
from host_tools.link import MAX_REBOOTS_IN_A_ROW, LinkError, Tilted
from host_tools.process import TILT_EXIT
from host_tools.process import start as start_firmware
from host_tools.emulator.session import forget_board

BOOT_S = 60.0          # the firmware's first frame comes within this (MicroPython, an image)
REBOOT_WINDOW_S = 10.0
SEND_TIMEOUT_S = 5.0   # a client that takes nothing for this long is let go
# The options (dests) that go with --serve: what boots the firmware (no device, no player,
# no technician: the console signs).
OPTIONS = {"serve", "board", "journal", "runtime", "heap", "image", "trust", "chip",
           "board_key"}


class Bridge:
    """The firmware's pty on one side, a listening socket and its one client on the
    other; `say(line)` reports what happens."""

    def __init__(self, fw, listener, say):
        self.fw = fw
        self.listener = listener
        self.say = say
        self.client = None
        self.booted = time.monotonic()
        self.in_a_row = 0

    def wait_for_boot(self):
        """Until the firmware's first bytes (its boot LED frame): bytes sent to its port
        before it opens it would be lost."""
        deadline = time.monotonic() + BOOT_S
        while not select.select([self.fw.master], [], [], 0.1)[0]:
            if self.fw.proc.poll() is not None:
                self._rebooted()
            elif time.monotonic() > deadline:
                raise LinkError("the firmware said nothing within %d s of starting" % BOOT_S)
        self._from_board()

    def run(self):
        while True:
            fds = [self.fw.master, self.listener] + ([self.client] if self.client else [])
            ready = select.select(fds, [], [], 0.2)[0]
            if self.fw.master in ready:
                self._from_board()
            if self.listener in ready:
                self._accept()
            if self.client is not None and self.client in ready:
                self._from_client()
            if self.fw.proc.poll() is not None:
                while select.select([self.fw.master], [], [], 0)[0] and self._from_board():
                    pass     # what it said as it went down ("rebooting: ...")
                self._rebooted()

    def _from_board(self):
        try:
            data = os.read(self.fw.master, 65536)
        except OSError:
            return False
        if self.client is not None and data:
            try:
                self.client.sendall(data)
            except OSError:
                self._drop("left (the connection broke)")
        return bool(data)

    def _from_client(self):
        try:
            data = self.client.recv(4096)
        except OSError:
            data = b""
        if not data:
            self._drop("left")
            return
        os.write(self.fw.master, data)

    def _accept(self):
        conn, peer = self.listener.accept()
        if self.client is not None:
            conn.close()
            self.say("client %s turned away: one client at a time" % _name(peer))
            return
        conn.settimeout(SEND_TIMEOUT_S)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.client = conn
        self.say("client %s connected" % _name(peer))

    def _drop(self, why):
        self.say("client %s" % why)
        self.client.close()
        self.client = None

    def _rebooted(self):
        """The firmware ended: boot it again if it asked to be (FirmwareProcess.reboot
        raises Tilted or LinkError otherwise)."""
        quick = time.monotonic() - self.booted < REBOOT_WINDOW_S
        self.in_a_row = self.in_a_row + 1 if quick else 1
        if self.in_a_row > MAX_REBOOTS_IN_A_ROW:
            raise LinkError("the firmware rebooted %d times in a row, each within %d s of "
                            "booting: getting nowhere" % (self.in_a_row, REBOOT_WINDOW_S))
        self.fw.reboot()
        self.booted = time.monotonic()
        self.say("reboot: the firmware asked to be rebooted (felt.guard): booted again "
                 "on its journal")


def _name(peer):
    return "%s:%d" % peer[:2]


def serve(args, out=None):
    """felt-emulator --serve (args.serve: (host, port)): returns the exit status, or
    cli.UserError saying why it stopped."""
    out = out or sys.stdout

    def say(line):
        print("felt-emulator: %s" % line, file=out, flush=True)

    try:
        listener = socket.create_server(args.serve)
    except OSError as e:
        raise cli.UserError("cannot listen on %s:%d: %s" % (args.serve + (e.strerror or e,)))
    own = args.journal is None
    journal = args.journal or os.path.join(tempfile.mkdtemp(prefix="felt-journal-"),
                                           "journal.jsonl")
    fw = None
    try:
        with cli.interruptible():
            fw = start_firmware(args.board, journal, runtime=args.runtime, heap=args.heap,
                                image=args.image, trust=args.trust, chip=args.chip,
                                board_key=args.board_key)
            bridge = Bridge(fw, listener, say)
            bridge.wait_for_boot()
            host, port = listener.getsockname()[:2]
            url = "socket://%s:%d" % ("[%s]" % host if ":" in host else host, port)
            say("the board's link is at %s (felt-console --port %s); Ctrl-C stops it"
                % (url, url))
            key = getattr(fw, "tech_key_file", None)    # an emulated Pico's, of this run
            if key is not None:
                say("its image is signed with a key of this run's, and it runs slower "
                    "than real time: felt-console --key %s --board-key %s --board-id ID "
                    "--timeout 30 (ID: the board's, as `challenge` says it)"
                    % (key, fw.board_key_file))
            elif fw.board_key is not None:
                say("its own key is %s (felt-console --board-key)" % fw.board_key_file)
            bridge.run()
    except KeyboardInterrupt:
        say("stopped")
        return 0
    except Tilted as e:
        raise cli.UserError("the table is tilted: %s" % e, TILT_EXIT)
    except LinkError as e:
        raise cli.UserError(str(e), 1)
    finally:
        listener.close()
        if fw is not None:
            fw.close()
        if own:
            forget_board(journal)
