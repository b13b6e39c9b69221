"""felt-floor demo (make floor): a floor on this machine, with nothing to set up: a
broker (Debian's mosquitto, on a free port), the floor service with its page, and six
emulated tables of six games with random faults, each dealing a round every few
seconds.  It prints the page's address and a supervisor's name and password; Ctrl-C
stops all of it."""

import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from host_tools import cli
from host_tools.floor.page import Page, set_password
from host_tools.floor.service import FloorService
from host_tools.floor.store import Store

GAMES = (("holdem", 6), ("stud7", 6), ("omaha-hilo8", 6), ("triple-draw-27", 5),
         ("four-card-poker", 4), ("holdem-bonus", 4))
PAUSE_S = 3              # seconds between a table's rounds: a pace a person can follow


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def broker(folder, port=None, persist=False, log=None):
    """mosquitto on loopback, on `port` or a free one: (process, (host, port)).  With
    `persist`, it keeps its messages in `folder` (saved each second), so a broker killed
    and started again on the same port still holds them; its output goes to `log`."""
    exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not os.access(exe, os.X_OK):
        raise cli.UserError("the floor needs mosquitto: make floor-parts installs it", 1)
    address = ("127.0.0.1", port or free_port())
    conf = os.path.join(folder, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write("listener %d 127.0.0.1\nallow_anonymous true\n" % address[1])
        if persist:
            f.write("persistence true\npersistence_location %s/\nautosave_interval 1\n"
                    % folder)
    out = subprocess.DEVNULL if log is None else log
    # Its own session: a Ctrl-C for the demo leaves it up until the tables said goodbye.
    proc = subprocess.Popen([exe, "-c", conf], stdout=out, stderr=out,
                            start_new_session=True)
    for _ in range(200):
        try:
            socket.create_connection(address, 0.2).close()
            return proc, address
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    proc.kill()
    raise cli.UserError("mosquitto did not start on port %d" % address[1], 1)


def table(name, game, players, address, folder, seed):
    """One emulated table on the floor (felt-emulator --floor), a round every PAUSE_S s;
    its round lines in the demo's folder, what its publisher says on stderr."""
    emulator = os.path.join(os.path.dirname(sys.executable), "felt-emulator")
    with open(os.path.join(folder, name + ".log"), "w") as log:
        return subprocess.Popen(
            [emulator, "--game", game, "--players", str(players), "--stack", "500",
             "--seed", str(seed), "--faults", "random", "--hands", "1000000", "--pause",
             str(PAUSE_S), "--floor", "%s:%d" % address, "--table", name],
            stdin=subprocess.DEVNULL, stdout=log,
            env=dict(os.environ, XDG_STATE_HOME=folder))    # their spools, in the folder


@contextlib.contextmanager
def local_floor(folder, page_address, supervisor, password):
    """A floor on this machine, in `folder`: a broker, the floor service on SQLite
    (folder/floor.db) and its page (at `page_address`, else a free port) for one
    supervisor; (broker address, service, page), all stopped on the way out."""
    proc, address = broker(folder)
    service = page = None
    try:
        users = os.path.join(folder, "users.json")
        set_password(users, supervisor, password)
        service = FloorService(address, Store("sqlite:///%s/floor.db" % folder),
                               say=lambda line: None)
        try:
            page = Page(page_address, service.store, service, users, say=lambda line: None)
        except OSError:                 # the address is taken: any free port
            page = Page(("127.0.0.1", 0), service.store, service, users, say=lambda line: None)
        service.start()
        page.start()
        yield address, service, page
    finally:
        if page is not None:
            page.stop()
        if service is not None:
            service.stop()
        proc.terminate()
        proc.wait(10)


def run(page_address=("127.0.0.1", 8080)):
    folder = tempfile.mkdtemp(prefix="felt-floor-demo-")
    say = lambda line: print("felt-floor: " + line, flush=True)  # noqa: E731
    password = secrets.token_urlsafe(9)
    tables = []
    try:
        with local_floor(folder, page_address, "floor", password) as (address, _, page):
            try:
                tables = [table("%s-%d" % (game, k + 1), game, players, address, folder,
                                k + 1) for k, (game, players) in enumerate(GAMES)]
                say("six tables play on the broker at %s:%d; the floor's page is at "
                    "http://%s:%d/ (sign in as floor, password %s); Ctrl-C stops all of it"
                    % (address + page.address + (password,)))
                with cli.interruptible():
                    while any(t.poll() is None for t in tables):
                        time.sleep(0.5)
            except KeyboardInterrupt:
                say("stopping: each table says goodbye to the floor")
            finally:
                for t in tables:        # a Ctrl-C may have reached them too
                    if t.poll() is None:
                        t.terminate()
                for t in tables:
                    try:
                        t.wait(30)
                    except subprocess.TimeoutExpired:
                        t.kill()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    say("stopped")
    return 0
