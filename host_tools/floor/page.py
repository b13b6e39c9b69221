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

Starlette under uvicorn, in a thread of the floor's process; Jinja2 templates that
escape every value; sign-ins in signed cookies (host_tools.floor.sessions), a CSRF
token in every form that posts, sign-in tries throttled (host_tools.floor.throttle)
and passwords checked on a bounded pool (host_tools.floor.supervisors).  Every header
value is built from checked names, numbers and fixed words, never from stored text.
"""

import asyncio
import datetime
import hmac
import json
import secrets
import socket
import threading
import time
from pathlib import Path

import jinja2
import uvicorn
from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.responses import (JSONResponse, PlainTextResponse, RedirectResponse, Response,
                                 StreamingResponse)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from host_tools.floor import sessions, shown
from host_tools.floor.supervisors import PasswordChecker, Users
from host_tools.floor.throttle import LOCK_S, Throttle
from host_tools.floorlink.wire import check_name

HERE = Path(__file__).parent
SESSION_S = 12 * 3600       # a sign-in lasts a shift
SHIFT_S = 8 * 3600          # "this shift": the last eight hours
PUSH_S = 0.2                # a table's changes pushed at most this often
LOOK_S = 1.0                # how often the page looks for tables fallen silent
KEEPALIVE_S = 15            # a comment on a quiet live stream, so proxies keep it open
RETRY_MS = 1000             # a browser's live stream, broken, is opened again after this
LIVE_BEHIND = 2000          # a live client this many changes behind is dropped (it reconnects)
FORM_BYTES = 4096           # a form posted is at most this long
CONNECTIONS = 500           # connections at once; past that, 503
# The records' formats (host_tools.floorlink.records): a download's file extension.
RECORDS = {"phh": "phh", "banked": "banked"}
HEADERS = {
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # The page's own scripts and styles only: a script that got into a page would not run.
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self'; frame-ancestors 'none'; form-action 'self'; "
                               "base-uri 'none'; object-src 'none'",
}


class _Headers:
    """HEADERS on every answer."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        async def sending(message):
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)
        await self.app(scope, receive, sending)


class _SignedIn:
    """Every page but signing in (and the scripts and styles) for a supervisor signed
    in; anyone else is sent to sign in."""

    def __init__(self, app, page):
        self.app, self.page = app, page

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["path"] != "/login" and \
                not scope["path"].startswith("/static/") and \
                self.page.who(scope["session"]) is None:
            return await RedirectResponse("/login", 303)(scope, receive, send)
        await self.app(scope, receive, send)


def _event(name, data):
    """A server-sent event (JSON text holds no line break)."""
    return "event: %s\ndata: %s\n\n" % (name, json.dumps(data))


def _day(text):
    """A date given as YYYY-MM-DD, else HTTPException 400."""
    try:
        return datetime.datetime.strptime(text or "", "%Y-%m-%d").date()
    except ValueError:
        raise HTTPException(400, "give from=YYYY-MM-DD and to=YYYY-MM-DD (to excluded)")


def _midnight(day):
    return datetime.datetime.combine(day, datetime.time()).timestamp()


def _table_name(request):
    try:
        return check_name(request.path_params["name"])
    except ValueError:
        raise HTTPException(404, "no such table on this floor")


def _round_key(request):
    """(run, n) of a round's end, from the query, else HTTPException 400."""
    run, n = request.query_params.get("run"), request.query_params.get("n", "")
    if not run or not n.isdigit() or len(n) > 18:
        raise HTTPException(400, "give run= and n= (a round's end)")
    return run, int(n)


class Page:
    def __init__(self, address, store, service, users_file, say=print, tls=None):
        """The page at `address` (host, port; port 0: a free one), over HTTPS with `tls`,
        (certificate file, key file), else plain HTTP.  Its sign-ins are signed with a
        key kept beside `users_file` (sessions.paths), made when there is none."""
        self.store, self.service, self.say = store, service, say
        self.scheme = "https" if tls else "http"
        key_file, signed_out_file = sessions.paths(users_file)
        key = sessions.session_key(key_file)
        self.signed_out = sessions.SignedOut(signed_out_file)
        self.users = Users(users_file, say)
        self.checker = PasswordChecker()
        self.throttle = Throttle()
        self._pw_key = hmac.new(key.encode(), b"password", "sha256").digest()
        self._dirty = set()         # tables changed since the last push
        self._status = {}           # table: its status at the last look (silent or not)
        self._lock = threading.Lock()
        self._clients = set()       # each live client's queue (the server's loop only)
        self._loop = None
        self._thread = None
        self.templates = Jinja2Templates(env=jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True))
        # Under HTTPS the cookie's name also tells a browser to take it from this host,
        # over HTTPS, for every path only (the __Host- prefix).
        cookie = "__Host-felt-floor" if tls else "felt-floor"
        app = Starlette(routes=[
            Route("/login", self.login_form, methods=["GET"]),
            Route("/login", self.sign_in, methods=["POST"]),
            Route("/logout", self.sign_out, methods=["POST"]),
            Route("/", self.floor),
            Route("/tables.json", self.tables),
            Route("/live", self.live),
            Route("/table/{name}", self.table),
            Route("/table/{name}/replay", self.replay),
            Route("/table/{name}/record", self.record),
            Route("/report.csv", self.report),
            Mount("/static", StaticFiles(directory=HERE / "static"))],
            middleware=[Middleware(_Headers),
                        Middleware(SessionMiddleware, secret_key=key, session_cookie=cookie,
                                   max_age=SESSION_S, same_site="strict",
                                   https_only=bool(tls)),
                        Middleware(_SignedIn, page=self)],
            exception_handlers={SQLAlchemyError: self._database_away})
        self.sock = socket.create_server(tuple(address))    # taken: OSError here
        self.address = self.sock.getsockname()[:2]
        config = uvicorn.Config(
            app, log_config=None, access_log=False, lifespan="off", proxy_headers=False,
            server_header=False, limit_concurrency=CONNECTIONS, timeout_graceful_shutdown=3,
            ssl_certfile=tls[0] if tls else None, ssl_keyfile=tls[1] if tls else None,
            ssl_ciphers="ECDHE+AESGCM:ECDHE+CHACHA20")
        try:
            config.load()           # a certificate or key that cannot be read: OSError here
        except BaseException:
            self.sock.close()
            raise
        self.server = uvicorn.Server(config)
        service.listeners.append(self.changed)

    @property
    def url(self):
        return "%s://%s:%d" % ((self.scheme,) + tuple(self.address))

    def start(self):
        self._thread = threading.Thread(target=asyncio.run, args=(self._serve(),),
                                        name="felt-floor-page", daemon=True)
        self._thread.start()

    def stop(self):
        if self.changed in self.service.listeners:
            self.service.listeners.remove(self.changed)
        if self._thread is None:
            self.sock.close()
        else:
            loop = self._loop
            if loop is not None:        # the live streams end, so the server may
                loop.call_soon_threadsafe(self._end_streams)
            self.server.should_exit = True
            self._thread.join(15)
        self.checker.close()

    async def _serve(self):
        self._loop = asyncio.get_running_loop()
        pusher = asyncio.create_task(self._push())
        try:
            await self.server.serve(sockets=[self.sock])
        finally:
            self._loop = None
            pusher.cancel()

    # ----- who is signed in --------------------------------------------------------------

    def _fingerprint(self, stored):
        """A sign-in's mark of the password it was made with: changing the password
        ends it."""
        return hmac.new(self._pw_key, stored.encode(), "sha256").hexdigest()[:32]

    def who(self, session):
        """The supervisor signed in with this session, or None: it is theirs, within its
        shift, not signed out, and their password is the one it was made with."""
        user, sid, until = session.get("user"), session.get("sid"), session.get("until")
        if not isinstance(user, str) or not isinstance(sid, str) or \
                not isinstance(until, (int, float)) or until < time.time() or \
                sid in self.signed_out:
            return None
        stored = self.users.now().get(user)
        if not isinstance(stored, str) or not hmac.compare_digest(
                str(session.get("pw")), self._fingerprint(stored)):
            return None
        return user

    @staticmethod
    def _csrf(session):
        """The session's CSRF token, made when it has none."""
        if not isinstance(session.get("csrf"), str):
            session["csrf"] = secrets.token_urlsafe(32)
        return session["csrf"]

    async def _form(self, request):
        """The form posted, its CSRF token checked; HTTPException when it is too long or
        its token is not the session's."""
        length = request.headers.get("content-length", "")
        if not length.isdigit() or int(length) > FORM_BYTES:
            raise HTTPException(413, "a form is at most %d bytes, its length given" % FORM_BYTES)
        form = await request.form(max_files=0, max_fields=8)
        token = form.get("csrf")
        if not isinstance(token, str) or not hmac.compare_digest(
                token.encode(), str(request.session.get("csrf")).encode()):
            raise HTTPException(403, "this form is not from this page, or its page has "
                                     "expired: load the page again")
        return form

    def _login(self, request, message="", status=200, headers=None):
        return self.templates.TemplateResponse(
            request, "login.html", {"message": message, "csrf": self._csrf(request.session)},
            status_code=status, headers=headers)

    def login_form(self, request):
        return self._login(request)

    async def sign_in(self, request):
        form = await self._form(request)
        name, password = form.get("name"), form.get("password")
        if not isinstance(name, str) or not isinstance(password, str):
            return self._login(request, "Give a name and a password.", 400)
        address = request.client.host if request.client else "?"
        wait = self.throttle.begin(name, address)
        if wait is not None:
            minutes = -(-int(wait) // 60)
            return self._login(request, "Too many wrong passwords: try again in %d minute%s."
                               % (minutes, "" if minutes == 1 else "s"), 429,
                               {"Retry-After": str(int(wait))})
        users = self.users.now()
        checked = self.checker.submit(users, name, password)
        if checked is None:
            self.throttle.cancel(name, address)
            return self._login(request, "The floor is checking many passwords at once: try "
                                        "again in a moment.", 503, {"Retry-After": "1"})
        right = False
        try:
            right = await asyncio.wrap_future(checked)
        finally:                # a try given up by its client counts as wrong
            if self.throttle.end(name, address, right):
                self.say("sign-ins refused for %d minutes: too many wrong passwords for %r "
                         "or from %s" % (LOCK_S // 60, name, address))
        if not right:
            return self._login(request, "Wrong name or password.", 401)
        request.session.clear()         # a new session: nothing of the one before
        request.session.update(user=name, sid=secrets.token_urlsafe(16),
                               until=time.time() + SESSION_S, csrf=secrets.token_urlsafe(32),
                               pw=self._fingerprint(users[name]))
        self.say("%s signed in from %s" % (name, address))
        return RedirectResponse("/", 303)

    async def sign_out(self, request):
        await self._form(request)
        session = request.session
        await asyncio.to_thread(self.signed_out.add, session["sid"], session["until"])
        self.say("%s signed out" % session["user"])
        session.clear()
        return RedirectResponse("/login", 303)

    # ----- what the page shows -----------------------------------------------------------

    def views(self, names=None):
        """The tables (those named, else all) as the page draws them (shown.table_view)."""
        now = time.time()
        rows = self.store.table_rows()
        figures = self.store.shifts(now - SHIFT_S, now)
        return [shown.table_view(row, figures, now) for row in rows
                if names is None or row["name"] in names]

    def floor(self, request):
        return self.templates.TemplateResponse(request, "floor.html", {
            "user": request.session["user"], "csrf": self._csrf(request.session),
            "zone": time.strftime("%Z (UTC%z)")})

    def tables(self, request):
        return JSONResponse(self.views())

    def table(self, request):
        name = _table_name(request)
        found = self.views({name})
        if not found:
            raise HTTPException(404, "no such table on this floor")
        now = time.time()
        rounds = self.store.rounds_between(now - SHIFT_S, now + 1, name)[-20:]
        recorded = self.store.recorded(name, rounds[0]["at"]) if rounds else set()
        return self.templates.TemplateResponse(request, "table.html", {
            "view": found[0],
            "rounds": [dict(shown.round_row(r), recorded=(r["run"], r["n"]) in recorded)
                       for r in reversed(rounds)],
            "events": [shown.event_row(at, e)
                       for _, _, at, e in self.store.last_events(name, 200)]})

    def replay(self, request):
        """A round to step through: each event in words, and the felt after it."""
        name = _table_name(request)
        run, n = _round_key(request)
        steps = shown.replay_steps(name, self.store.round_events(name, run, n))
        if not steps:
            raise HTTPException(404, "no such round of that table")
        return self.templates.TemplateResponse(request, "replay.html",
                                               {"table": name, "steps": steps})

    def record(self, request):
        """A round's record, as the table sent it (host_tools.floorlink.records), to save:
        its file named from the checked table name, the hand (a number) and the
        format's own extension (a fixed word; .txt for a format the floor does not
        know)."""
        name = _table_name(request)
        run, n = _round_key(request)
        record = self.store.record_of(name, run, n)
        if not isinstance(record, dict):
            raise HTTPException(404, "no record of that round of that table")
        hand = shown.whole(record.get("hand"))
        text = record.get("text")
        return Response(text if isinstance(text, str) else json.dumps(text),
                        media_type="text/plain; charset=utf-8", headers={
                            "Content-Disposition": "attachment; filename=%s-%s.%s" % (
                                name, "hand-%d" % hand if hand is not None else "round-%d" % n,
                                RECORDS.get(record.get("format"), "txt"))})

    def report(self, request):
        start, end = _day(request.query_params.get("from")), _day(request.query_params.get("to"))
        table = request.query_params.get("table")
        if table is not None:
            try:
                check_name(table)
            except ValueError as e:
                raise HTTPException(400, "table=: %s" % e)
        return Response(shown.report(self.store.rounds_between(_midnight(start), _midnight(end),
                                                               table)),
                        media_type="text/csv; charset=utf-8", headers={
                            "Content-Disposition": "attachment; filename=felt-floor-%s-%s.csv"
                            % (start.isoformat(), end.isoformat())})

    def _database_away(self, request, e):
        self._say_database(e)
        return PlainTextResponse("the floor's database does not answer: try again in a "
                                 "moment", 503, {"Retry-After": "5"})

    def _say_database(self, e):
        self.say("the page cannot read the database: %s" % str(e).split("\n")[0])

    # ----- live ----------------------------------------------------------------------------

    def changed(self, table):
        """What the floor shows of `table` changed (FloorService's listener)."""
        with self._lock:
            self._dirty.add(table)

    async def live(self, request):
        session = request.session
        queue = asyncio.Queue(LIVE_BEHIND)
        self._clients.add(queue)

        async def events():
            try:
                yield "retry: %d\n\n" % RETRY_MS
                yield _event("tables", await asyncio.to_thread(self.views))
                while self.who(session) is not None:     # signed out: the stream ends
                    try:
                        said = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
                    except asyncio.TimeoutError:
                        yield ": still here\n\n"
                        continue
                    if said is None:
                        return
                    yield said
            except SQLAlchemyError as e:     # the browser opens the stream again later
                self._say_database(e)
            finally:
                self._clients.discard(queue)
        return StreamingResponse(events(), media_type="text/event-stream")

    def _end(self, queue):
        """A live client's stream ends (what it had not taken is dropped)."""
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(None)
        self._clients.discard(queue)

    def _end_streams(self):
        for queue in list(self._clients):
            self._end(queue)

    async def _push(self):
        """Each changed table to every live client, at most every PUSH_S; and, every
        LOOK_S, each table whose status changed on its own (fallen silent)."""
        looked = 0.0
        while True:
            await asyncio.sleep(PUSH_S)
            with self._lock:
                dirty, self._dirty = self._dirty, set()
            if not self._clients:
                continue
            look = time.monotonic() - looked >= LOOK_S
            if not dirty and not look:
                continue
            if look:
                looked = time.monotonic()
            try:
                views = await asyncio.to_thread(self._changed_views, dirty, look)
            except SQLAlchemyError as e:     # the database away: these tables again later
                self._say_database(e)
                with self._lock:
                    self._dirty.update(dirty)
                continue
            for view in views:
                said = _event("table", view)
                for queue in list(self._clients):
                    try:
                        queue.put_nowait(said)
                    except asyncio.QueueFull:
                        self._end(queue)

    def _changed_views(self, dirty, look):
        """The views of the tables in `dirty`, and (when `look`) of those whose status
        changed since the last look."""
        now = time.time()
        rows = self.store.table_rows()
        if look:
            for row in rows:
                status = shown.table_status(row, shown.clean_state(row.get("state")), now)[0]
                if self._status.get(row["name"], status) != status:
                    dirty.add(row["name"])
                self._status[row["name"]] = status
        if not dirty:
            return []
        figures = self.store.shifts(now - SHIFT_S, now)
        return [shown.table_view(row, figures, now) for row in rows if row["name"] in dirty]
