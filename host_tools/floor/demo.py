"""felt-floor demo (make floor): a floor on this machine, with nothing to set up: a
broker (Debian's mosquitto, on a free port), the floor service with its page, and six
emulated tables of six games with random faults, each dealing a round every few
seconds.  It prints the page's address and a supervisor's name and password; Ctrl-C
stops all of it."""

import contextlib
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time

from host_tools import cli
from host_tools.floor.broker import BrokerError, LocalBroker, table_file
from host_tools.floor.page import Page
from host_tools.floor.supervisors import set_password
from host_tools.floor.service import FloorService
from host_tools.floor.store import Store

GAMES = (("holdem", 6), ("stud7", 6), ("omaha-hilo8", 6), ("triple-draw-27", 5),
         ("four-card-poker", 4), ("holdem-bonus", 4))
PAUSE_S = 3              # seconds between a table's rounds: a pace a person can follow


def table(name, game, players, folder, seed):
    """One emulated table on the floor (felt-emulator --floor with its credentials from
    the floor's folder), a round every PAUSE_S s; its round lines in the folder, what
    its publisher says on stderr."""
    emulator = os.path.join(os.path.dirname(sys.executable), "felt-emulator")
    with open(os.path.join(folder, name + ".log"), "w") as log:
        return subprocess.Popen(
            [emulator, "--game", game, "--players", str(players), "--stack", "500",
             "--seed", str(seed), "--faults", "random", "--hands", "1000000", "--pause",
             str(PAUSE_S), "--floor", table_file(folder, name)],
            stdin=subprocess.DEVNULL, stdout=log,
            env=dict(os.environ, XDG_STATE_HOME=folder))    # their spools, in the folder


@contextlib.contextmanager
def local_floor(folder, page_address, supervisor, password, tables=()):
    """A floor on this machine, in `folder`: a broker that knows the `tables` named, the
    floor service on SQLite (folder/floor.db) and its page over HTTPS with the floor's
    certificate (at `page_address`, else a free port) for one supervisor; (broker,
    service, page), all stopped on the way out."""
    try:
        broker = LocalBroker(folder, tables=tables)
    except BrokerError as e:
        raise cli.UserError(str(e), 1)
    tls = broker.certificate()
    service = page = None
    try:
        users = os.path.join(folder, "users.json")
        set_password(users, supervisor, password)
        service = FloorService(broker.floor, Store("sqlite:///%s/floor.db" % folder),
                               say=lambda line: None)
        try:
            page = Page(page_address, service.store, service, users, say=lambda line: None,
                        tls=tls)
        except OSError:                 # the address is taken: any free port
            page = Page(("127.0.0.1", 0), service.store, service, users,
                        say=lambda line: None, tls=tls)
        service.start()
        page.start()
        yield broker, service, page
    finally:
        if page is not None:
            page.stop()
        if service is not None:
            service.stop()
        broker.stop()


def run(page_address=("127.0.0.1", 8080)):
    folder = tempfile.mkdtemp(prefix="felt-floor-demo-")
    say = lambda line: print("felt-floor: " + line, flush=True)  # noqa: E731
    password = secrets.token_urlsafe(9)
    tables = []
    try:
        names = ["%s-%d" % (game, k + 1) for k, (game, _) in enumerate(GAMES)]
        with local_floor(folder, page_address, "floor", password, names) as (
                broker, _, page):
            try:
                tables = [table(name, game, players, folder, k + 1)
                          for k, (name, (game, players)) in enumerate(zip(names, GAMES))]
                say("six tables play on the broker at %s:%d (TLS, each table with a "
                    "password of its own, nobody anonymous); the floor's page is at %s/ "
                    "(its certificate from the floor's CA, %s; sign in as floor, password "
                    "%s); Ctrl-C stops all of it"
                    % (broker.address + (page.url, os.path.join(folder, "ca.pem"),
                                         password)))
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
