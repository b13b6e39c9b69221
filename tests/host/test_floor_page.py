"""The floor's page (host_tools/floor/page.py): supervisors sign in; the page shows
every table live; a tilt on an emulated table appears on it within a second in a real
browser (Debian's chromium, driven by Playwright) and goes when cleared; the rounds as
CSV; nothing on the page changes a table.  And the page as an attacker on the floor's
network finds it: stored script shown as text, download headers built from nothing
stored, a CSRF token on every form, 40 guesses at once locking the name, a restart that
keeps supervisors signed in and their pages live, HTTPS from the floor's CA, and no
stored value that stops a table being drawn."""

import concurrent.futures
import contextlib
import csv
import datetime
import http.client
import io
import json
import os
import re
import shutil
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

import nss
from broker import Broker
from host_tools.emulator.session import Session
from host_tools.floor import shown
from host_tools.bench.floor import LiveClient, login_form, sign_in
from host_tools.floor.page import Page
from host_tools.floorlink.publisher import Publisher
from host_tools.floor.service import FloorService
from host_tools.floor.store import Store
from host_tools.floor.supervisors import set_password
from host_tools.floor.throttle import NAME_TRIES
from test_floor import wait_for

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PASSWORD = "felt-floor-test"
needs_chromium = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason="Debian's chromium is not installed (make test installs it)")


class Floor:
    """A broker, the floor service on SQLite and its page for alice (and bob), over
    HTTPS with `https`, the certificate of the floor's CA (as make floor serves it)."""

    def __init__(self, folder, https=False):
        self.broker = Broker(folder)
        self.users = os.path.join(folder, "users.json")
        set_password(self.users, "alice", PASSWORD)
        set_password(self.users, "bob", PASSWORD + "-bob")
        self.service = FloorService(self.broker.floor,
                                    Store("sqlite:///%s" % os.path.join(folder, "floor.db")),
                                    say=lambda line: None)
        self.store = self.service.store
        self.cafile = os.path.join(folder, "ca.pem") if https else None
        self.tls = self.broker.certificate() if https else None
        self.said = []
        self.service.start()
        self.open_page()
        wait_for(self.service.connected.is_set)

    def open_page(self, port=0):
        self.page = Page(("127.0.0.1", port), self.store, self.service, self.users,
                         say=self.said.append, tls=self.tls)
        self.page.start()
        self.url = self.page.url

    def restart_page(self):
        """The page stopped and a new one started on the same port, as a restart of the
        floor's service would."""
        port = self.page.address[1]
        self.page.stop()
        self.open_page(port)

    def connection(self, source="127.0.0.1"):
        """An HTTP(S) connection to the page from `source` (any 127.x address)."""
        host, port = self.page.address
        if self.cafile:
            return http.client.HTTPSConnection(
                host, port, source_address=(source, 0),
                context=ssl.create_default_context(cafile=self.cafile))
        return http.client.HTTPConnection(host, port, source_address=(source, 0))

    def close(self):
        self.page.stop()
        self.service.stop()
        self.broker.stop()


@pytest.fixture
def floor(tmp_path):
    f = Floor(str(tmp_path))
    yield f
    f.close()


class Table:
    """An emulated table on the floor, the moment each frame reached its publisher."""

    def __init__(self, floor, spool, name="t1"):
        self.session = Session(players=3, seed=5, stack=200)
        self.pub = Publisher(name, floor.broker.table(name), spool,
                             about={"game": "holdem", "seats": 3, "stakes": "fixed limit 2/4"},
                             leds=self.session.board["leds"], say=lambda line: None,
                             public=lambda k, start: self.session.ask(
                                 "public", {"round": k, "from": start}))
        self.heard = {}             # event kind: when the publisher last had it
        self.session.observers.append(self)
        self.session.open()

    def frame(self, kind, p):
        self.pub.frame(kind, p)
        if kind == "evt":
            self.heard[p["e"]] = time.monotonic()

    def close(self):
        self.pub.close()

    def pump(self, until, timeout=20):
        end = time.monotonic() + timeout
        while until not in self.heard:
            assert time.monotonic() < end, "no %s event" % until
            for kind, p in self.session.link.drain(0.1):
                self.session.take(kind, p)


def played(floor, tmp_path, rounds):
    """An emulated table that played `rounds` rounds, all of it stored."""
    table = Table(floor, str(tmp_path / "spool"))
    try:
        for _ in range(rounds):
            table.session.play_round()
    finally:
        table.session.close()
    wait_for(lambda: table.pub.pending() == 0)
    return table


def signed_in(floor, name="alice", password=PASSWORD):
    """An opener of the page's URLs with the supervisor's sign-in."""
    handlers = [urllib.request.HTTPSHandler(
        context=ssl.create_default_context(cafile=floor.cafile))] if floor.cafile else []
    opener = urllib.request.build_opener(*handlers)
    opener.addheaders = [("Cookie", sign_in(floor.url, name, password, floor.cafile))]
    return opener


def post(floor, path, fields, cookie=None, source="127.0.0.1"):
    """(status, headers, body) of a form posted to the page, redirects not followed."""
    conn = floor.connection(source)
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if cookie:
        headers["Cookie"] = cookie
    conn.request("POST", path, urllib.parse.urlencode(fields), headers)
    r = conn.getresponse()
    try:
        return r.status, r.headers, r.read().decode()
    finally:
        conn.close()


def form(floor, source="127.0.0.1"):
    """(cookie, CSRF token) of the sign-in form, as a browser at `source` gets it."""
    conn = floor.connection(source)
    try:
        return login_form(conn)
    finally:
        conn.close()


def guess(floor, name, password, source="127.0.0.1"):
    """The status of a sign-in tried from `source` with a form of its own."""
    cookie, token = form(floor, source)
    return post(floor, "/login", {"name": name, "password": password, "csrf": token},
                cookie, source)


@contextlib.contextmanager
def chromium(home=None):
    """A page of Debian's chromium (with `home` as its HOME: its NSS database)."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, env=dict(os.environ, HOME=home) if home else None,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"])
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 800})
        finally:
            browser.close()


def browse_signed_in(page, floor, name="alice", password=PASSWORD):
    page.goto(floor.url + "/")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button")
    page.wait_for_selector("#link:text('live')", timeout=10000)


def test_only_a_supervisor_signed_in_sees_the_floor(floor):
    plain = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    for path in ("/", "/live", "/tables.json", "/table/t1", "/report.csv", "/nowhere"):
        r = plain.open(floor.url + path)               # redirected to sign in
        assert r.url == floor.url + "/login" and b"Sign in" in r.read(), path
    status, _, body = guess(floor, "alice", "wrong-password")
    assert status == 401 and "Wrong name or password" in body
    assert signed_in(floor).open(floor.url + "/tables.json").read() == b"[]"
    # The page changes nothing on a table: no form but signing in and out.
    with pytest.raises(urllib.error.HTTPError) as none:
        signed_in(floor).open(floor.url + "/table/t1", b"b=deal")
    assert none.value.code == 405


def test_a_form_posted_without_its_csrf_token_is_refused(floor):
    cookie, token = form(floor)
    other_cookie, other_token = form(floor)
    for fields, with_cookie in (({"name": "alice", "password": PASSWORD}, cookie),
                                ({"name": "alice", "password": PASSWORD, "csrf": ""}, cookie),
                                ({"name": "alice", "password": PASSWORD,
                                  "csrf": other_token}, cookie),      # another session's
                                ({"name": "alice", "password": PASSWORD, "csrf": token},
                                 None)):                               # no session at all
        status, headers, body = post(floor, "/login", fields, with_cookie)
        assert status == 403 and "Set-Cookie" not in headers, (fields, body)
        assert "not from this page" in body
    alice = sign_in(floor.url, "alice", PASSWORD)
    status, _, _ = post(floor, "/logout", {}, alice)
    assert status == 403
    assert signed_in(floor).open(floor.url + "/tables.json").status == 200
    plain = urllib.request.build_opener()
    plain.addheaders = [("Cookie", alice)]
    assert plain.open(floor.url + "/tables.json").url == floor.url + "/tables.json"


def test_sign_out_ends_the_sign_in_and_so_does_a_new_password(floor):
    alice = sign_in(floor.url, "alice", PASSWORD)
    page = urllib.request.build_opener()
    page.addheaders = [("Cookie", alice)]
    token = re.search(r'name="csrf" value="([^"]+)"',
                      page.open(floor.url + "/").read().decode()).group(1)
    status, headers, _ = post(floor, "/logout", {"csrf": token}, alice)
    assert status == 303 and headers["Location"] == "/login"
    assert "expires=Thu, 01 Jan 1970" in headers["Set-Cookie"]
    # The cookie, kept by someone who copied it, is no sign-in now, nor after a restart.
    assert page.open(floor.url + "/tables.json").url == floor.url + "/login"
    floor.restart_page()
    assert page.open(floor.url + "/tables.json").url == floor.url + "/login"
    bob = urllib.request.build_opener()
    bob.addheaders = [("Cookie", sign_in(floor.url, "bob", PASSWORD + "-bob"))]
    assert bob.open(floor.url + "/tables.json").url == floor.url + "/tables.json"
    set_password(floor.users, "bob", "a-new-password")      # felt-floor user bob
    assert bob.open(floor.url + "/tables.json").url == floor.url + "/login"
    assert "alice signed out" in floor.said


def test_the_cookie_is_httponly_and_samesite_strict_and_not_secure_over_http(floor):
    conn = floor.connection()
    conn.request("GET", "/login")
    r = conn.getresponse()
    r.read()
    cookie = [c.strip().lower() for c in r.getheader("Set-Cookie").split(";")]
    assert cookie[0].startswith("felt-floor=")
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert "secure" not in cookie and "max-age=43200" in cookie        # a shift, 12 h


def test_forty_wrong_guesses_at_once_lock_the_name_and_leave_others_be(floor):
    with concurrent.futures.ThreadPoolExecutor(40) as pool:
        answers = list(pool.map(lambda k: guess(floor, "alice", "guess-%d" % k), range(40)))
    statuses = sorted(status for status, _, _ in answers)
    assert statuses == [401] * NAME_TRIES + [429] * (40 - NAME_TRIES), statuses
    locked = [a for a in answers if a[0] == 429]
    assert all(int(h["Retry-After"]) >= 1 and "Too many wrong passwords" in body
               for _, h, body in locked)
    # Locked: the right password too, from any address, answered at once.
    for source in ("127.0.0.1", "127.0.0.2"):
        started = time.monotonic()
        status, _, _ = guess(floor, "alice", PASSWORD, source)
        assert status == 429
        assert time.monotonic() - started < 1.0
    assert any("too many wrong passwords for 'alice'" in line for line in floor.said)
    status, headers, _ = guess(floor, "bob", PASSWORD + "-bob", "127.0.0.2")
    assert status == 303 and headers["Location"] == "/"


def test_sign_ins_past_the_password_pool_are_refused_at_once_not_queued(floor):
    tries = [("name-%d" % k, "127.0.0.%d" % (10 + k % 10)) for k in range(30)]
    with concurrent.futures.ThreadPoolExecutor(30) as pool:
        answers = list(pool.map(lambda t: guess(floor, t[0], "guess", t[1]), tries))
    statuses = [status for status, _, _ in answers]
    assert set(statuses) == {401, 503}, statuses
    busy = [(h, body) for status, h, body in answers if status == 503]
    assert all(h["Retry-After"] == "1" and "checking many passwords" in body
               for h, body in busy)


def test_a_shifts_rounds_as_csv(floor, tmp_path):
    played(floor, tmp_path, 3)
    today = datetime.date.today()
    query = "/report.csv?from=%s&to=%s" % (today, today + datetime.timedelta(days=1))
    r = signed_in(floor).open(floor.url + query)
    assert r.headers["Content-Disposition"] == "attachment; filename=felt-floor-%s-%s.csv" % (
        today, today + datetime.timedelta(days=1))
    rows = list(csv.DictReader(io.StringIO(r.read().decode())))
    assert [r["hand"] for r in rows] == ["1", "2", "3"] and {r["table"] for r in rows} == {"t1"}
    assert rows[0]["winners"] and rows[0]["rake"] == "0" and rows[0]["house"] == ""
    for bad in ("from=yesterday", "from=%s&to=%s%%0d%%0aSet-Cookie:%%20x=1" % (today, today),
                "from=%s&to=%s&table=t1%%0d%%0a" % (today, today)):
        with pytest.raises(urllib.error.HTTPError) as refused:
            signed_in(floor).open(floor.url + "/report.csv?" + bad)
        assert refused.value.code == 400 and "Set-Cookie" not in refused.value.headers


@needs_chromium
def test_a_tilt_shows_on_the_page_within_a_second_and_goes_when_cleared(floor, tmp_path):
    table = Table(floor, str(tmp_path / "spool"))
    try:
        table.session.play_round()
        with chromium() as page:
            browse_signed_in(page, floor)
            card = page.locator("#t-t1")
            card.wait_for(timeout=10000)
            page.wait_for_selector('#t-t1[data-status="idle"]', timeout=10000)
            assert "holdem, fixed limit 2/4" in card.inner_text()
            # The journal's path taken by a folder: the deal's journal write fails and
            # the table locks (journal_write_failed, docs/tilts.md).
            journal = table.session.fw.journal
            os.remove(journal)
            os.mkdir(journal)
            table.session.deal()
            table.pump("locked")
            page.wait_for_selector('#t-t1[data-status="tilted"]', timeout=5000)
            shown_after = time.monotonic() - table.heard["locked"]
            assert shown_after <= 1.0, "the tilt took %.2f s to reach the page" % shown_after
            said = card.inner_text()
            assert "tilted: journal_write_failed" in said and "a technician checks the flash" \
                in said, said
            assert table.session.link.send("clear", {}) is None
            table.pump("cleared")
            page.wait_for_selector('#t-t1[data-status="idle"]', timeout=5000)
            cleared = time.monotonic() - table.heard["cleared"]
            assert cleared <= 1.0, "the clearing took %.2f s to reach the page" % cleared
            assert "tilted" not in card.inner_text()
        os.rmdir(journal + ".cleared")
    finally:
        table.session.close()


@needs_chromium
def test_a_restart_of_the_page_keeps_a_signed_in_browser_live(floor, tmp_path):
    table = Table(floor, str(tmp_path / "spool"))
    try:
        table.session.play_round()
        with chromium() as page:
            browse_signed_in(page, floor)
            page.wait_for_selector('#t-t1:has-text("hand 1")', timeout=10000)
            floor.restart_page()            # a new Page: the same key file, nothing else
            table.session.play_round()
            page.wait_for_selector('#t-t1:has-text("hand 2")', timeout=15000)
            assert page.inner_text("#link") == "live"
            assert page.url == floor.url + "/"
    finally:
        table.session.close()


def crafted(floor, table, state, events=(), at=None):
    """What a table (or anyone on the broker, before the floor checked messages) had
    stored: its state and events, written as the floor service writes them."""
    now = time.time() if at is None else at
    floor.store.write([("online", table, True), ("state", table, state, now, None)] +
                      [("event", table, "r1", n, when, e) for n, when, e in events], now)
    floor.page.changed(table)


SCRIPT = "<script>window.ran = 1</script><img src=x onerror=\"window.ran = 2\">"


@needs_chromium
def test_script_stored_in_a_field_shows_as_text_and_runs_nothing(floor):
    now = time.time()
    locked = {"e": "locked", "code": "jam", "why": "<script>window.ran = 4</script>"}
    crafted(floor, "t1", {"status": "tilted", "game": SCRIPT, "stakes": "fixed limit 2/4",
                          "tilt": dict(locked, clears="<b>x</b>"), "stacks": [10, 20]},
            [(1, now, {"e": "hand", "hand": 1, "button": 0, "stacks": [10, 20]}),
             (2, now, locked),
             (3, now, {"e": "end", "hand": 1, "stacks": [10, 20], "rake": 0,
                       "winners": [{"<i>": 1}], "called_off": "<img src=x onerror=ran=3>"})])
    with chromium() as page:
        dialogs = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        browse_signed_in(page, floor)
        card = page.locator("#t-t1")
        card.wait_for(timeout=10000)
        assert SCRIPT[:39] in card.inner_text()         # as text, cut short
        assert "<script>window.ran = 4</script>" in card.inner_text()
        assert page.locator("#tables script, #tables img, #tables b").count() == 0
        page.goto(floor.url + "/table/t1")
        said = page.inner_text("body")
        assert SCRIPT[:39] in said and "<img src=x onerror=ran=3>" in said
        assert "<script>window.ran = 4</script>" in page.inner_text("#events")
        assert page.locator("#state img, #events script, #events img, td img, i, b").count() \
            == 0
        assert page.evaluate("window.ran") is None
        page.click("text=replay")
        page.wait_for_selector("#where:text('step 1 of 3')")
        page.keyboard.press("ArrowRight")
        assert "<script>window.ran = 4</script>" in page.inner_text("#line")
        assert page.locator("#line script").count() == 0
        assert page.evaluate("window.ran") is None and dialogs == []


def test_the_record_downloads_headers_are_built_from_nothing_stored(floor):
    now = time.time()
    end = {"e": "end", "hand": 3, "stacks": [1, 2], "rake": 0, "winners": [0],
           "called_off": None}
    crafted(floor, "t1", {"status": "idle"}, [
        (1, now, end),
        (2, now, {"e": "record", "hand": 3, "format": "phh\r\nSet-Cookie: felt-floor=x",
                  "text": "hand = 3\n"}),
        (3, now, dict(end, hand=4)),
        (4, now, {"e": "record", "hand": "4\r\nX-Evil: 1", "format": "banked", "text": 7})])
    cookie = sign_in(floor.url, "alice", PASSWORD)
    for n, disposition, body in ((1, "attachment; filename=t1-hand-3.txt", "hand = 3\n"),
                                 (3, "attachment; filename=t1-round-3.banked", "7")):
        conn = floor.connection()
        conn.request("GET", "/table/t1/record?run=r1&n=%d" % n, headers={"Cookie": cookie})
        r = conn.getresponse()
        assert r.status == 200 and r.read().decode() == body
        assert r.getheader("Content-Disposition") == disposition
        assert r.getheader("Content-Type") == "text/plain; charset=utf-8"
        assert r.getheader("Set-Cookie") is None and r.getheader("X-Evil") is None
        assert [k for k, _ in r.getheaders() if k.lower() == "set-cookie"] == []
        conn.close()


@needs_chromium
def test_a_state_of_wrong_types_does_not_stop_the_overview_nor_its_tables_page(floor):
    from test_floor_shown import WRONG
    crafted(floor, "a-bad", WRONG, [(1, 1e18, {"e": "end", "hand": "x", "stacks": "1",
                                               "winners": [{"a": 1}], "rake": 0,
                                               "called_off": None})])
    crafted(floor, "b-good", {"status": "idle", "game": "holdem", "stakes": "fixed limit 2/4",
                              "stacks": [200, 150], "button": 0})
    with chromium() as page:
        browse_signed_in(page, floor)
        page.wait_for_selector("#t-b-good", timeout=10000)
        assert "holdem, fixed limit 2/4" in page.inner_text("#t-b-good")
        assert "D 0: 200" in page.inner_text("#t-b-good")
        assert "x" * 39 + "…" in page.inner_text("#t-a-bad")
        page.goto(floor.url + "/table/a-bad")
        assert "not a time" in page.inner_text("#events")
        assert "hand x" not in page.inner_text("#state")
    opener = signed_in(floor)
    assert len(json.loads(opener.open(floor.url + "/tables.json").read())) == 2


@needs_chromium
def test_a_table_not_heard_from_shows_silent_since_whatever_online_says(floor):
    crafted(floor, "gone", {"status": "idle"}, at=time.time() - 300)
    crafted(floor, "fresh", {"status": "locked", "tilt": {"code": "program_check_failed",
                                                          "why": "a file changed",
                                                          "clears": "a technician"}})
    with chromium() as page:
        browse_signed_in(page, floor)
        page.wait_for_selector('#t-gone[data-status="silent"]', timeout=10000)
        assert "locked: program_check_failed: a file changed" in page.inner_text("#t-fresh")
        quiet = time.time() - shown.SILENT_S + 8        # silent in eight seconds
        crafted(floor, "quiet", {"status": "playing", "game": "holdem"}, at=quiet)
        page.wait_for_selector('#t-quiet[data-status="playing"]', timeout=8000)
        page.wait_for_selector('#t-quiet[data-status="silent"]', timeout=15000)
        assert "silent since %s" % shown.clock(quiet) in page.inner_text("#t-quiet")


def test_https_from_the_floors_ca_with_a_secure_cookie(tmp_path):
    floor = Floor(str(tmp_path), https=True)
    try:
        assert floor.url.startswith("https://127.0.0.1:")
        conn = floor.connection()
        conn.request("GET", "/login")
        r = conn.getresponse()
        r.read()
        cookie = [c.strip().lower() for c in r.getheader("Set-Cookie").split(";")]
        assert cookie[0].startswith("__host-felt-floor=") and "secure" in cookie
        assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
        assert signed_in(floor).open(floor.url + "/tables.json").read() == b"[]"
        host, port = floor.page.address
        with pytest.raises(ssl.SSLCertVerificationError):      # the CA not trusted
            http.client.HTTPSConnection(host, port, context=ssl.create_default_context()) \
                .request("GET", "/login")
        # felt-floor bench's client of the live stream, over HTTPS with the CA file.
        live = LiveClient(floor.url, sign_in(floor.url, "alice", PASSWORD, floor.cafile),
                          floor.cafile)
        live.start()

        def changed():
            crafted(floor, "t1", {"status": "idle", "game": "holdem", "at": time.time()})
            time.sleep(0.3)
            return live.delays
        wait_for(changed, 10, "a change on the live stream")
        if os.access(CHROMIUM, os.X_OK) and nss.CERTUTIL:
            home = nss.trusting_home(str(tmp_path / "home"), floor.cafile)
            with chromium(home) as page:         # trusting the floor's CA, nothing else
                browse_signed_in(page, floor)
                page.wait_for_selector('#t-t1[data-status="idle"]', timeout=10000)
            os.makedirs(tmp_path / "stranger")
            with chromium(str(tmp_path / "stranger")) as page:
                with pytest.raises(Exception, match="ERR_CERT_AUTHORITY_INVALID"):
                    page.goto(floor.url + "/login")
    finally:
        floor.close()


@pytest.mark.slow       # half a minute of six tables playing
def test_make_floor_shows_six_tables_playing_and_ctrl_c_stops_all_of_it():
    import signal
    import subprocess
    import sys
    from pathlib import Path
    felt_floor = Path(sys.executable).with_name("felt-floor")
    demo = subprocess.Popen([str(felt_floor), "demo", "--page", "127.0.0.1:0"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        first = demo.stdout.readline()
        m = re.search(r"page is at (https://\S+)/ \(its certificate from the floor's CA, "
                      r"(\S+); sign in as floor, password (\S+)\)", first)
        assert m, first
        url, cafile, password = m.groups()
        opener = urllib.request.build_opener(urllib.request.HTTPSHandler(
            context=ssl.create_default_context(cafile=cafile)))
        opener.addheaders = [("Cookie", sign_in(url, "floor", password, cafile))]

        def tables():
            return json.loads(opener.open(url + "/tables.json").read())
        wait_for(lambda: len([t for t in tables() if t["shift"]["hands"] >= 2]) == 6, 90,
                 "six tables to play two rounds each")
        games = {t["state"]["game"] for t in tables()}
        assert games == {"holdem", "stud7", "omaha-hilo8", "triple-draw-27",
                         "four-card-poker", "holdem-bonus"}
        for t in tables():                          # each round's record follows its end
            listing = opener.open(url + "/table/" + t["name"]).read().decode()
            assert "/record?run=" in listing, t["name"]
        os.killpg(demo.pid, signal.SIGINT)           # Ctrl-C, to the whole group
        assert demo.wait(60) == 0
        said = demo.stdout.read()
        assert said.rstrip().endswith("felt-floor: stopped"), said
        assert "no record for the floor" not in said, said
    finally:
        if demo.poll() is None:
            os.killpg(demo.pid, signal.SIGKILL)


def test_a_round_on_a_tables_page_is_a_replay_to_step_through(floor, tmp_path):
    played(floor, tmp_path, 2)
    opener = signed_in(floor)
    listing = opener.open(floor.url + "/table/t1").read().decode()
    links = re.findall(r'href="(/table/t1/replay\?run=[0-9a-f]+&amp;n=\d+)"', listing)
    assert len(links) == 2, listing
    page = opener.open(floor.url + links[-1].replace("&amp;", "&")).read().decode()
    steps = json.loads(re.search(
        r'<script type="application/json" id="steps">(.*)</script>', page).group(1))
    # The oldest round, from its hand event to its end, the felt after each step.
    assert steps[0]["line"].startswith("hand 1: button on seat ")
    assert steps[-1]["line"].startswith("hand 1 over: ")
    assert steps[0]["felt"]["status"] == "playing" and steps[-1]["felt"]["status"] == "idle"
    pots = [s["felt"]["pot"] for s in steps]
    assert max(pots) > 0 and pots[-1] == 0
    assert not [s for s in steps if s["line"].startswith("hand 2")]


def test_a_rounds_record_is_on_its_tables_page_with_no_card_nobody_saw(floor, tmp_path):
    import tomllib
    from felt.table.shown import UNKNOWN
    table = played(floor, tmp_path, 3)
    stored = {e["hand"]: e for _, _, e in floor.store.events_of("t1") if e["e"] == "record"}
    assert sorted(stored) == [1, 2, 3]
    opener = signed_in(floor)
    listing = opener.open(floor.url + "/table/t1").read().decode()
    links = re.findall(r'href="(/table/t1/record\?run=[0-9a-f]+&amp;n=\d+)"', listing)
    assert len(links) == 3, listing
    r = opener.open(floor.url + links[0].replace("&amp;", "&"))      # the newest round's
    assert r.headers["Content-Disposition"] == "attachment; filename=t1-hand-3.phh"
    text = r.read().decode()
    assert text == stored[3]["text"]
    doc = tomllib.loads(text)
    assert doc["hand"] == 3 and doc["variant"] == "FT" and "_burns" not in doc
    # The hole cards of a player who folded are nobody's business but theirs.
    folded = {a.split()[0] for a in doc["actions"] if a.endswith(" f")}
    assert folded, text
    for a in doc["actions"]:
        if a.startswith("d dh ") and a.split()[2] in folded:
            assert a.split()[3] == UNKNOWN * 2, text
    with pytest.raises(urllib.error.HTTPError) as none:
        opener.open(floor.url + "/table/t1/record?run=%s&n=1" % table.pub.run)
    assert none.value.code == 404


def test_a_users_file_spoilt_by_hand_lets_nobody_in_and_says_why(floor):
    alice = urllib.request.build_opener()
    alice.addheaders = [("Cookie", sign_in(floor.url, "alice", PASSWORD))]
    with open(floor.users, "w") as f:
        f.write('["alice"]')
    assert alice.open(floor.url + "/tables.json").url == floor.url + "/login"
    status, _, body = guess(floor, "alice", PASSWORD)
    assert status == 401 and "Wrong name or password" in body
    assert floor.said.count("nobody may sign in: %s: not a users file (felt-floor user "
                            "writes one)" % floor.users) == 1      # said once
