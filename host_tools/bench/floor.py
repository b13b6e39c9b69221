"""felt-floor bench: the floor under many tables, measured on this machine.

It records a few rounds of an emulated table (every frame its board sent), then replays
them as N tables, each a publisher of its own with its own spool, each dealing a round
every --round-s seconds (its frames spread over the round), from other processes, to a
broker (Debian's mosquitto) and the floor service with its page in this one.  A client
of the page's live stream measures how long a table's change takes to reach it.  It
prints one JSON line:

    tables, minutes, events_published, events_stored, lost, events_per_s (stored, over
    the run), stored_p50_s / stored_p99_s (from a table's event to the floor's commit),
    page_p50_s / page_p99_s (from a table's change to the page's client), db_bytes,
    db_bytes_per_1000_rounds, rounds, records (rounds stored with their record), load
    (the 1-minute load average at the end), cores

The goal (docs/floor.md): 500 tables at a round a minute, p99 to the page within 1 s,
nothing lost.
"""

import heapq
import http.client
import json
import multiprocessing
import os
import random
import re
import shutil
import ssl
import tempfile
import threading
import time
import urllib.parse

from host_tools.floor.demo import local_floor

RECORDED_ROUNDS = 4
TABLES_A_PROCESS = 125
PASSWORD = "felt-floor-bench"


def record(rounds=RECORDED_ROUNDS, seed=1):
    """The frames an emulated 6-handed hold 'em table sent, round by round: [[(kind,
    payload)]], the frames between rounds with the round before them; and the board's
    answers to `public` for each round's record: [{from: answer}]."""
    from host_tools.emulator.session import Session
    from host_tools.floorlink import records

    class Recorder:
        def __init__(self):
            self.rounds = [[]]
            self.ended = None       # the last round's hand

        def frame(self, kind, p):
            self.rounds[-1].append((kind, p))
            if kind == "evt" and p.get("e") == "end":
                self.rounds.append([])
                self.ended = p["hand"]

        def close(self):
            pass

    recorder = Recorder()
    session = Session(players=6, seed=seed, stack=1000)
    session.observers.append(recorder)
    pages = []
    try:
        session.open()
        for _ in range(rounds):
            session.play_round()
            session.wait(0.3)
            said = {}

            def ask(k, start):
                said[start] = session.ask("public", {"round": k, "from": start})
                return said[start]
            records.of_round(ask, recorder.ended)
            pages.append(said)
    finally:
        session.close()
    rounds = recorder.rounds
    if len(rounds) > 1:                 # what came after the last end goes with it
        after = rounds.pop()
        rounds[-1] += after
    return rounds, pages


def replay(names, rounds, pages, folder, round_s, seconds, out):
    """In a process of its own: a publisher for each of `names` replaying `rounds` for
    `seconds`, a round every `round_s` each, the board's answers to `public` from
    `pages`; puts (events published, pending at the end) in `out`.  Each table logs in
    with its own credentials, from the floor's folder."""
    from host_tools.floor.broker import table_file
    from host_tools.floorlink.credentials import Credentials
    from host_tools.floorlink.publisher import Publisher
    rng = random.Random(names[0])
    playing = [0] * len(names)          # the round each table replays
    pubs = [Publisher(name, Credentials.load(table_file(folder, name)),
                      os.path.join(folder, "spools", name),
                      {"game": "holdem", "seats": 6, "stakes": "fixed limit 2/4"},
                      say=lambda line: None,
                      public=lambda k, start, t=t: pages[playing[t]][start])
            for t, name in enumerate(names)]
    due = []            # (when, table, round, frame index)
    start = time.monotonic()
    for k in range(len(pubs)):
        heapq.heappush(due, (start + rng.uniform(0, round_s), k, rng.randrange(len(rounds)), 0))
    end = start + seconds
    while due:
        when, k, r, i = heapq.heappop(due)
        if when >= end:
            break
        pause = when - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        frames = rounds[r]
        playing[k] = r
        pubs[k].frame(*frames[i])
        step = round_s / len(frames)
        if i + 1 < len(frames):
            heapq.heappush(due, (when + step, k, r, i + 1))
        else:
            heapq.heappush(due, (when + step, k, (r + 1) % len(rounds), 0))
    published = sum(p.numbered() for p in pubs)
    give_up = time.monotonic() + 120
    for p in pubs:                  # each says goodbye once the floor has its events
        p.close(wait_s=max(0.0, give_up - time.monotonic()))
    out.put((published, sum(p.pending() for p in pubs)))


class LiveClient(threading.Thread):
    """The page's live stream, read as a browser would: the delay of each table's change."""

    def __init__(self, url, cookie, cafile=None):
        super().__init__(daemon=True)
        self.url, self.cookie, self.cafile = url, cookie, cafile
        self.delays = []

    def run(self):
        conn = connection(self.url, self.cafile)
        conn.request("GET", "/live", headers={"Cookie": self.cookie})
        response = conn.getresponse()
        name = None
        last = {}               # table: the moment of the change last shown
        for line in response:
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: ") and name == "table":
                view = json.loads(line[6:])
                at = view["state"].get("at")
                if at is not None and at != last.get(view["name"]):   # a change, not figures
                    last[view["name"]] = at
                    self.delays.append(time.time() - at)


def connection(url, cafile=None):
    """An HTTP connection to the page at `url`; over HTTPS, its certificate checked
    against `cafile` (the system's CAs without one)."""
    u = urllib.parse.urlsplit(url)
    if u.scheme == "https":
        return http.client.HTTPSConnection(u.hostname, u.port,
                                           context=ssl.create_default_context(cafile=cafile))
    return http.client.HTTPConnection(u.hostname, u.port)


def login_form(conn):
    """(cookie, CSRF token) of the page's sign-in form, fetched on `conn`."""
    conn.request("GET", "/login")
    form = conn.getresponse()
    token = re.search(r'name="csrf" value="([^"]+)"', form.read().decode()).group(1)
    return form.getheader("Set-Cookie").split(";")[0], token


def sign_in(url, name="bench", password=PASSWORD, cafile=None):
    """The page's sign-in cookie ("name=value") for a supervisor, signed in as a
    browser does: the form fetched for its CSRF token, then posted."""
    conn = connection(url, cafile)
    try:
        cookie, token = login_form(conn)
        conn.request("POST", "/login", urllib.parse.urlencode(
            {"name": name, "password": password, "csrf": token}),
            {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
        signed = conn.getresponse()
        signed.read()
    finally:
        conn.close()
    if signed.status != 303:
        raise RuntimeError("the page refused to sign %s in: %d %s"
                           % (name, signed.status, signed.reason))
    return signed.getheader("Set-Cookie").split(";")[0]


def percentile(values, q):
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 3) if values else None


def _replayed(names, rounds, pages, folder, round_s, minutes):
    """The tables replayed from other processes: (published, pending, seconds)."""
    spawn = multiprocessing.get_context("spawn")
    out = spawn.Queue()
    # TABLES_A_PROCESS tables to a process: a process's MQTT clients wait in select(),
    # which takes no file descriptor past 1024 (a real floor's tables are machines).
    replayers = [spawn.Process(target=replay, args=(
        names[k:k + TABLES_A_PROCESS], rounds, pages, folder, round_s, minutes * 60, out))
        for k in range(0, len(names), TABLES_A_PROCESS)]
    started = time.time()
    for r in replayers:
        r.start()
    said = [out.get(timeout=minutes * 60 + 600) for _ in replayers]
    for r in replayers:
        r.join(60)
    return sum(p for p, _ in said), sum(p for _, p in said), time.time() - started


def run(tables=500, minutes=3.0, round_s=60.0, say=print):
    """The figures: the floor as make floor sets it up (TLS to the broker, a password
    each, the page over HTTPS), its certificates checked against the floor's CA."""
    folder = tempfile.mkdtemp(prefix="felt-floor-bench-")
    try:
        say("recording %d rounds of an emulated table" % RECORDED_ROUNDS)
        rounds, pages = record()
        names = ["bench-%03d" % k for k in range(tables)]
        with local_floor(folder, ("127.0.0.1", 0), "bench", PASSWORD, names) as (
                _, service, page):
            stored_delays = []
            service.on_stored = lambda stored, when: stored_delays.extend(
                when - at for _, _, _, at in stored)
            cafile = os.path.join(folder, "ca.pem")
            live = LiveClient(page.url, sign_in(page.url, cafile=cafile), cafile)
            live.start()
            say("replaying them as %d tables, a round every %g s each, for %g minutes"
                % (tables, round_s, minutes))
            published, pending, elapsed = _replayed(names, rounds, pages, folder, round_s,
                                                    minutes)
            counts = [service.store.counts(row["name"]) for row in service.store.table_rows()]
            count = sum(c["rounds"] for c in counts)
            with service.store.engine.connect() as c:     # the log folded into the file
                c.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            size = os.path.getsize(os.path.join(folder, "floor.db"))
            return {"tables": tables, "minutes": minutes, "round_s": round_s,
                    "events_published": published, "events_stored": service.stored,
                    "lost": published - service.stored, "left_in_spools": pending,
                    "events_per_s": round(service.stored / elapsed, 1),
                    "stored_p50_s": percentile(stored_delays, 0.5),
                    "stored_p99_s": percentile(stored_delays, 0.99),
                    "page_p50_s": percentile(live.delays, 0.5),
                    "page_p99_s": percentile(live.delays, 0.99),
                    "page_updates": len(live.delays), "rounds": count,
                    "records": sum(c["records"] for c in counts), "db_bytes": size,
                    "db_bytes_per_1000_rounds": round(size * 1000 / count) if count
                    else None,
                    "load": round(os.getloadavg()[0], 2), "cores": os.cpu_count()}
    finally:
        shutil.rmtree(folder, ignore_errors=True)

