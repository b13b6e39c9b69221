"""The floor's page, served by felt-floor serve (--page HOST:PORT): every table live, a
table's own page with its last rounds and events, and CSV reports.  Supervisors sign
in (`felt-floor user NAME` sets a password); the page changes nothing on a table: its
only forms sign in and out.

    /                   every table: the felt as the floor may see it, its state, this
                        shift's hands, hands an hour, rake or the house's result, tilts
    /live               the same as server-sent events: every table at once, then each
                        table again whenever what the floor shows of it changes
    /table/NAME         one table: its state, its last rounds, its last events in words
    /table/NAME/replay?run=RUN&n=N     a round to step through (N: its end's event)
    /table/NAME/record?run=RUN&n=N     its record: PHH, or a house-banked round's
    /report.csv?from=YYYY-MM-DD&to=YYYY-MM-DD[&table=NAME]
                        every round of the dates (from included, to excluded), one a line
"""

import csv
import datetime
import hashlib
import hmac
import html
import io
import json
import os
import queue
import re
import secrets
import threading
import time
from http import cookies
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

from sqlalchemy.exc import SQLAlchemyError

from host_tools.floor.store import NO_FIGURES
from host_tools.floor.table_state import TableState
from host_tools.words import event_line

PAGE = Path(__file__).with_name("page.html")
REPLAY = Path(__file__).with_name("replay.html")
TABLE = Path(__file__).with_name("table.html")
SESSION_S = 12 * 3600       # a sign-in lasts a shift
SHIFT_S = 8 * 3600          # "this shift": the last eight hours
PUSH_S = 0.2                # a table's changes pushed at most this often
COOKIE = "felt-floor"


# ----- supervisors -----------------------------------------------------------------------

def password_hash(password, salt=None):
    """scrypt of the password, as stored in the users file: "scrypt$salt$hash"."""
    salt = salt or secrets.token_hex(16)
    digest = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=2 ** 14, r=8, p=1)
    return "scrypt$%s$%s" % (salt, digest.hex())


def set_password(users_file, name, password):
    """Add the supervisor `name`, or change their password, in the users file."""
    users = read_users(users_file)
    users[name] = password_hash(password)
    tmp = "%s.new" % users_file
    with open(tmp, "w") as f:
        os.chmod(tmp, 0o600)
        json.dump(users, f, indent=1, sort_keys=True)
    os.replace(tmp, users_file)


def read_users(users_file):
    try:
        with open(users_file) as f:
            users = json.load(f)
    except FileNotFoundError:
        return {}
    if not isinstance(users, dict):
        raise ValueError("%s: not a users file (felt-floor user writes one)" % users_file)
    return users


def check_password(users, name, password):
    stored = users.get(name)
    if not isinstance(stored, str) or stored.count("$") != 2:
        password_hash(password)          # the same time whether the name is known or not
        return False
    _, salt, _ = stored.split("$")
    return hmac.compare_digest(stored, password_hash(password, salt))


# ----- what the page shows ---------------------------------------------------------------

def table_view(row, figures):
    """A table as the page draws it: its row, its retained state, this shift's figures
    (store.shifts)."""
    return {"name": row["name"], "online": row["online"], "since": row["since"],
            "state": row["state"] or {}, "shift": figures.get(row["name"], NO_FIGURES)}


def replay_steps(table, stored):
    """A stored round as steps: each event in words, with the felt as the floor saw it
    then (TableState over the round's events)."""
    state = TableState(table)
    steps = []
    for _, at, e in stored:
        state.event(e)
        view = state.snapshot()
        steps.append({"at": _when(at)[11:], "line": event_line(e),
                      "felt": {k: view[k] for k in ("status", "hand", "button", "stacks",
                                                    "pot", "to_act", "board")}})
    return steps


def report(store, start, end, table=None):
    """The rounds of [start, end) as CSV text."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["table", "ended", "hand", "winners", "rake", "house", "called_off"])
    for r in store.rounds_between(start, end, table):
        w.writerow([r["table_name"], _when(r["at"]), r["hand"],
                    " ".join(map(str, r["winners"])), r["rake"],
                    "" if r["house"] is None else r["house"], r["called_off"] or ""])
    return out.getvalue()


def _when(at):
    return datetime.datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M:%S")


def _day(text):
    return datetime.datetime.strptime(text, "%Y-%m-%d").timestamp()


# ----- the server ------------------------------------------------------------------------

class Page:
    def __init__(self, address, store, service, users_file, say=print):
        self.store = store
        self.users_file = users_file
        self.say = say
        self.sessions = {}          # token: (name, until)
        self.clients = []           # one queue of (event, data) per /live client
        self._dirty = set()         # tables changed since the last push
        self._lock = threading.Lock()
        self._stop = threading.Event()
        service.listeners.append(self.changed)
        page = self

        class Handler(_Handler):
            floor = page
        self.server = ThreadingHTTPServer(address, Handler)
        self.server.daemon_threads = True
        self.address = self.server.server_address[:2]

    def start(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        threading.Thread(target=self._pusher, daemon=True).start()

    def stop(self):
        self._stop.set()
        self.server.shutdown()
        self.server.server_close()

    def listen(self):
        """A queue that gets ("table", view) whenever a table changes."""
        q = queue.Queue()
        with self._lock:
            self.clients.append(q)
        return q

    def unlisten(self, q):
        with self._lock:
            self.clients.remove(q)

    def changed(self, table):
        self.changed_all((table,))

    def changed_all(self, tables):
        with self._lock:
            self._dirty.update(tables)

    def _pusher(self):
        """Each changed table to every /live client, at most every PUSH_S."""
        while not self._stop.wait(PUSH_S):
            with self._lock:
                dirty, self._dirty = self._dirty, set()
                clients = list(self.clients)
            if not dirty or not clients:
                continue
            try:
                views = self.views(dirty)
            except SQLAlchemyError as e:     # the database away: these tables again later
                self.say("the page cannot read the database: %s" % str(e).split("\n")[0])
                self.changed_all(dirty)
                continue
            for view in views:
                for q in clients:
                    q.put(("table", json.dumps(view)))

    def views(self, names=None):
        """The tables (those named, else all) as the page draws them."""
        now = time.time()
        figures = self.store.shifts(now - SHIFT_S, now)
        return [table_view(row, figures) for row in self.store.table_rows()
                if names is None or row["name"] in names]

    def sign_in(self, name, password):
        if not check_password(read_users(self.users_file), name, password):
            time.sleep(1)           # a guess a second
            return None
        token = secrets.token_urlsafe(32)
        self.sessions[token] = (name, time.time() + SESSION_S)
        self.say("%s signed in" % name)
        return token

    def who(self, token):
        name, until = self.sessions.get(token, (None, 0))
        return name if until > time.time() else None


class _Handler(BaseHTTPRequestHandler):
    floor = None
    server_version = "felt-floor"

    def log_message(self, fmt, *args):
        pass                            # the floor's log says what matters

    def _token(self):
        jar = cookies.SimpleCookie(self.headers.get("Cookie", ""))
        return jar[COOKIE].value if COOKIE in jar else None

    def _send(self, status, body, kind="text/html; charset=utf-8", headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Frame-Options", "DENY")
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/login":
            return self._send(200, _login_form(""))
        user = self.floor.who(self._token())
        if user is None:
            return self._send(303, "", headers=[("Location", "/login")])
        if url.path == "/":
            return self._send(200, fill(PAGE, user=html.escape(user)))
        if url.path == "/tables.json":
            return self._send(200, json.dumps(self.floor.views()), "application/json")
        if url.path == "/live":
            return self._live()
        if url.path.startswith("/table/") and url.path.endswith("/replay"):
            return self._replay(unquote(url.path[len("/table/"):-len("/replay")]),
                                parse_qs(url.query))
        if url.path.startswith("/table/") and url.path.endswith("/record"):
            return self._record(unquote(url.path[len("/table/"):-len("/record")]),
                                parse_qs(url.query))
        if url.path.startswith("/table/"):
            return self._table(unquote(url.path[len("/table/"):]))
        if url.path == "/report.csv":
            return self._report(parse_qs(url.query))
        return self._send(404, "no such page")

    def do_POST(self):
        length = min(int(self.headers.get("Content-Length") or 0), 4096)
        form = parse_qs(self.rfile.read(length).decode(errors="replace"))
        if self.path == "/login":
            token = self.floor.sign_in(form.get("name", [""])[0], form.get("password", [""])[0])
            if token is None:
                return self._send(401, _login_form("Wrong name or password."))
            return self._send(303, "", headers=[
                ("Location", "/"),
                ("Set-Cookie", "%s=%s; HttpOnly; SameSite=Strict; Path=/; Max-Age=%d"
                 % (COOKIE, token, SESSION_S))])
        if self.path == "/logout":
            self.floor.sessions.pop(self._token(), None)
            return self._send(303, "", headers=[("Location", "/login"),
                                                ("Set-Cookie", "%s=; Max-Age=0; Path=/" % COOKIE)])
        return self._send(404, "no such form")

    def _live(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        q = self.floor.listen()
        try:
            self._event("tables", json.dumps(self.floor.views()))
            while True:
                try:
                    self._event(*q.get(timeout=15))
                except queue.Empty:
                    self.wfile.write(b": still here\n\n")     # keeps proxies from closing
                    self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self.floor.unlisten(q)

    def _event(self, name, data):
        self.wfile.write(("event: %s\ndata: %s\n\n" % (name, data)).encode())
        self.wfile.flush()

    def _table(self, name):
        store = self.floor.store
        if not [r for r in store.table_rows() if r["name"] == name]:
            return self._send(404, "no table %s on this floor" % html.escape(name))
        now = time.time()
        (view,) = self.floor.views({name})
        rounds = store.rounds_between(now - SHIFT_S, now + 1, name)[-20:]
        recorded = store.recorded(name, rounds[0]["at"]) if rounds else set()
        events = store.last_events(name, 200)
        rows = []
        for r in reversed(rounds):
            where = "?run=%s&n=%d" % (r["run"], r["n"])
            rows.append("<tr><td>%s<td>%d<td>%s<td>%d<td>%s<td>%s<td><a href=\"%s\">replay"
                        "</a>%s</tr>" % (
                            _when(r["at"]), r["hand"], " ".join(map(str, r["winners"])),
                            r["rake"], "" if r["house"] is None else r["house"],
                            html.escape(r["called_off"] or ""), html.escape(
                                "/table/%s/replay%s" % (quote(name), where)),
                            " <a href=\"%s\">record</a>" % html.escape(
                                "/table/%s/record%s" % (quote(name), where))
                            if (r["run"], r["n"]) in recorded else ""))
        lines = ["<li>%s %s</li>" % (_when(at)[11:], html.escape(event_line(e)))
                 for _, _, at, e in events]
        return self._send(200, fill(TABLE, table=html.escape(name), rounds="\n".join(rows),
                                     state=html.escape(json.dumps(view, indent=1)),
                                     events="\n".join(lines)))

    def _replay(self, name, query):
        """A round to step through: each event in words, and the felt after it."""
        try:
            run, n = query["run"][0], int(query["n"][0])
        except (KeyError, ValueError):
            return self._send(400, "give run= and n= (a round's end)", "text/plain; charset=utf-8")
        steps = replay_steps(name, self.floor.store.round_events(name, run, n))
        if not steps:
            return self._send(404, "no such round of %s" % html.escape(name))
        return self._send(200, fill(REPLAY, table=html.escape(name),
                                     steps=json.dumps(steps).replace("</", "<\\/")))

    def _record(self, name, query):
        """A round's record, as the table sent it (host_tools.floor.records), to save."""
        try:
            run, n = query["run"][0], int(query["n"][0])
        except (KeyError, ValueError):
            return self._send(400, "give run= and n= (a round's end)", "text/plain; charset=utf-8")
        record = self.floor.store.record_of(name, run, n)
        if record is None:
            return self._send(404, "no record of that round of %s" % html.escape(name))
        return self._send(200, record["text"], "text/plain; charset=utf-8", [
            ("Content-Disposition", "attachment; filename=%s-hand-%d.%s" % (
                name, record["hand"], record["format"]))])

    def _report(self, query):
        try:
            start = _day(query["from"][0])
            end = _day(query["to"][0])
        except (KeyError, ValueError):
            return self._send(400, "give from=YYYY-MM-DD and to=YYYY-MM-DD (to excluded)",
                              "text/plain; charset=utf-8")
        table = query.get("table", [None])[0]
        return self._send(200, report(self.floor.store, start, end, table),
                          "text/csv; charset=utf-8",
                          [("Content-Disposition", "attachment; filename=felt-floor-%s-%s.csv"
                            % (query["from"][0], query["to"][0]))])


def fill(template, **values):
    """The template's text with each {{name}} replaced by values[name], in one pass: a
    value that holds "{{...}}" itself stays as it is."""
    return re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], template.read_text())


def _login_form(message):
    return ("<!doctype html><meta charset=utf-8><title>felt floor: sign in</title>"
            "<h1>Felt floor</h1><p>%s</p><form method=post action=/login>"
            "<label>Name <input name=name autocomplete=username></label> "
            "<label>Password <input name=password type=password "
            "autocomplete=current-password></label> <button>Sign in</button></form>"
            % html.escape(message))
