"""One table on the broker: the frames its board sends, as the floor's topics
(host_tools.floorlink.wire), through a spool on disk, so that nothing the table said is lost
or stored twice, whether the broker, the floor or this tool restarts.

Each event is numbered (its run's n), written to the spool, then published with QoS 1.
The spool forgets an event only once the floor says it is stored (`stored`, retained):
a broker that acknowledged it and then died before passing it on loses nothing.  On
every connection the events the floor has not stored are published again; the floor
keeps each (table, run, n) once.  While the broker is away the events wait in the spool
(at most MAX_SPOOL, the oldest dropped first, each drop said).

The table's state (TableState) is published retained whenever what the floor shows
changes, and every HEARTBEAT_S all the same, so that the floor hears the table and can
tell when it falls silent (and measure its clock against its own); `online` true; the
broker publishes `online` false, the last will, when the connection drops without a
goodbye.

One spool, one process: the spool is locked (fcntl) while a Publisher has it open, and
a second one on it refuses to start (SpoolBusy).

Given the board's `public` query, each round's record is the event right after its
end, `{"e": "record", "hand", "format", "text"}`: its hand history (PHH) or
house-banked record, which the board builds from its journal with only the cards the
table showed (felt.table.public; host_tools.floorlink.records puts its pages together).
"""

import fcntl
import json
import os
import sys
import threading
import time
import uuid

from host_tools.floorlink import wire
from host_tools.floorlink.connection import Connection
from host_tools.floorlink.table_state import TableState

MAX_SPOOL = 200_000      # events kept while the floor has not stored them
KEEPALIVE_S = 5          # the broker gives the last will after 1.5 times this unheard
RESEND_S = 3.0           # events the floor has not stored within this are sent again,
RESEND_BATCH = 5000      # the oldest so many at a time; while the floor stores nothing
RESEND_MAX_S = 60.0      # more, the wait doubles up to this: a floor that lags behind
                         # is not buried under every table's spool at once
HEARTBEAT_S = 10.0       # the state published again at least this often


def spool_for(table):
    """Where a table's spool is kept unless told: $XDG_STATE_HOME/felt/floor/<table>."""
    state = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    return os.path.join(state, "felt", "floor", table)


def waiting_spools(spool):
    """[(folder, events)]: the spools beside `spool` (a table of another name, or one
    renamed) whose events the floor has not all said it stored, and how many lines
    their events file holds (the most that may be waiting)."""
    root = os.path.dirname(os.path.abspath(spool))
    found = []
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return found
    for name in names:
        folder = os.path.join(root, name)
        if folder == os.path.abspath(spool) or \
                not os.path.exists(os.path.join(folder, "run.json")):
            continue
        try:
            with open(os.path.join(folder, "events.jsonl"), "rb") as f:
                lines = sum(1 for _ in f)
        except OSError:
            continue
        if lines:
            found.append((folder, lines))
    return found


def say_waiting(spool):
    """Each other spool beside this one whose events the floor has not all stored (a
    table renamed after a crash): where, and how to deliver them."""
    for folder, count in waiting_spools(spool):
        print("felt-floor: the spool %s holds up to %d events the floor has not said it "
              "stored: felt-floor table --deliver --credentials %s.json --spool %s (that "
              "table's credentials) delivers them" % (folder, count, os.path.basename(folder),
                                                        folder),
              file=sys.stderr, flush=True)


class SpoolBusy(RuntimeError):
    """Another process has the spool open: two tools on one spool lose events."""


class Publisher(Connection):
    AWAY = "the broker is away (%s): events wait in the spool"

    def __init__(self, table, broker, spool, about=None, leds=None, say=None, public=None,
                 shown=True):
        """`broker`: the table's Credentials (its user is the table's name); `spool`: a
        folder of this table's own, kept across runs of the tool (its run and its
        unstored events); `public`: ask(k, start), the board's answer to `public`, for
        the rounds' records; `shown`: False to deliver the spool's events alone (no
        state, no online)."""
        self.table = wire.check_name(table)
        if broker.user != table:
            raise ValueError("these credentials are table %s's, not %s's" % (broker.user,
                                                                             table))
        say = say or (lambda line: print("felt-floor: " + line, file=sys.stderr, flush=True))
        self.state = TableState(table, about, leds)
        self._shown = shown
        self._lock = threading.Lock()
        self._spool = spool
        os.makedirs(spool, exist_ok=True)
        self._held = self._hold(spool)
        self.run, self._next, self._pending = self._open_spool()
        # Open for the table's whole run: each event is one line written and flushed.
        self._events = open(self._events_file(), "a")
        self.stored = 0          # the floor's last word: events up to this n are stored
        self._ended = None       # the hand of the last round's end, said once
        self._public = public
        self._owed = None        # the hand of a round whose record is still to fetch
        self._progress = time.monotonic()   # when the floor last stored more
        self._resend_s = RESEND_S           # the wait before sending again
        self._beat = time.monotonic()       # when the state was last published
        self._closed = threading.Event()
        super().__init__(broker, lambda line: say("%s: %s" % (table, line)),
                         keepalive=KEEPALIVE_S,
                         will=(wire.topic(table, "online"), "false") if shown else None)
        self.client.loop_start()
        threading.Thread(target=self._resend, daemon=True).start()

    # ----- the spool ----------------------------------------------------------------

    @staticmethod
    def _hold(spool):
        """The spool's lock, held while this Publisher lives; SpoolBusy if another has
        it (flock: another process, or another Publisher of this one)."""
        f = open(os.path.join(spool, "lock"), "a+")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            holder = f.read().strip() or "another process"
            f.close()
            raise SpoolBusy("the spool %s is in use (%s): one spool, one table's tool; "
                            "give this one --spool of its own" % (spool, holder)) from None
        f.truncate(0)
        f.write("process %d" % os.getpid())
        f.flush()
        return f

    def _open_spool(self):
        """(run, next n, {n: message}) from the spool: a new run if it has none."""
        meta = os.path.join(self._spool, "run.json")
        try:
            with open(meta) as f:
                m = json.load(f)
            run, next_n = m["run"], m["next"]
        except (OSError, ValueError, KeyError, TypeError):
            run, next_n = uuid.uuid4().hex, 1
            self._write_meta(run, next_n)
        pending = {}
        try:
            with open(self._events_file()) as f:
                for line in f:
                    try:
                        e = json.loads(line)
                        pending[e["n"]] = wire.event_message(run, e["n"], e["at"], e["event"])
                    except (ValueError, KeyError, TypeError):
                        continue        # a line cut short by a crash: never sent whole
        except FileNotFoundError:
            pass
        return run, max([next_n] + [n + 1 for n in pending]), pending

    def _events_file(self):
        return os.path.join(self._spool, "events.jsonl")

    def _write_meta(self, run, next_n):
        meta = os.path.join(self._spool, "run.json")
        with open(meta + ".new", "w") as f:
            json.dump({"run": run, "next": next_n}, f)
        os.replace(meta + ".new", meta)

    def _forget_stored(self):
        """Drop what the floor has stored; when nothing is left, start the file anew."""
        for n in [n for n in self._pending if n <= self.stored]:
            del self._pending[n]
        if not self._pending:
            self._write_meta(self.run, self._next)
            self._events.truncate(0)

    # ----- frames from the board ---------------------------------------------------

    def opened(self, hello, state):
        """The board's answers to `hello` and `state` as the tool connected (state None
        when it answers no questions: its program check failed): the table is shown as
        they say, tilted or locked included, from the start."""
        with self._lock:
            self.state.begin(hello, state)
            if self.connected.is_set():
                self._publish_state()

    def frame(self, kind, p):
        """A frame the board sent (kind, payload)."""
        ended = None
        with self._lock:
            if kind == "evt" and p.get("e") == "end":
                if p.get("hand") == self._ended:
                    # A board that rebooted before its journal kept a round's end says
                    # that end again as it resumes (docs/protocol.md, `resumed`).
                    return
                self._ended = ended = p.get("hand")
            elif kind == "evt" and p.get("e") == "hand":
                self._ended = None
            changed = self.state.frame(kind, p)
            if kind == "evt":
                self._event(p)
            if changed:
                self._publish_state()
        if ended is not None and self._public is not None:
            # Outside the lock (the board is asked over its link), and numbered next:
            # no frame is taken meanwhile (Store.record_of finds it after the end).
            # Owed until it is had: a tool stopped meanwhile (Ctrl-C) fetches it on close.
            self._owed = ended
            self._record(ended)

    def _record(self, hand):
        """The record of the round that just ended, as the floor keeps it, as an event."""
        from host_tools.floorlink import records
        try:
            form, text = records.of_round(self._public, hand)
        except (RuntimeError, ValueError) as e:   # the link's, records'
            self._owed = None
            self.say("hand %s: no record for the floor: %s" % (hand, e))
            return
        with self._lock:
            if self._owed == hand:
                self._event({"e": "record", "hand": hand, "format": form, "text": text})
            self._owed = None

    def _event(self, e):
        n, at = self._next, round(time.time(), 3)
        self._next += 1
        event = wire.redacted(e)
        self._events.write(json.dumps({"n": n, "at": at, "event": event}) + "\n")
        self._events.flush()
        message = wire.event_message(self.run, n, at, event)
        self._pending[n] = message
        if len(self._pending) > MAX_SPOOL:
            oldest = min(self._pending)
            del self._pending[oldest]
            self.say("the spool is full (%d events the floor has not stored): event %d "
                     "dropped" % (MAX_SPOOL, oldest))
        if self.connected.is_set():
            self.client.publish(wire.topic(self.table, "event"), message, qos=1)

    def _publish_state(self):
        if self._shown:
            self._beat = time.monotonic()
            self.client.publish(wire.topic(self.table, "state"),
                                wire.encode(self.state.snapshot()), qos=1, retain=True)

    # ----- the broker --------------------------------------------------------------

    def on_broker(self):
        with self._lock:
            self.client.subscribe(wire.topic(self.table, "stored"), qos=1)
            if self._shown:
                self.client.publish(wire.topic(self.table, "online"), "true", qos=1,
                                    retain=True)
            self._publish_state()
            self._publish_pending()
            self._resend_s = RESEND_S
        self.say("on the broker, %d events to the floor" % len(self._pending))

    def _publish_pending(self, most=None):
        for n in sorted(self._pending)[:most]:
            self.client.publish(wire.topic(self.table, "event"), self._pending[n], qos=1)
        self._progress = time.monotonic()

    def _resend(self):
        """What the floor has not stored a while after it was sent goes again: the
        broker may have had no floor to give it to (one that restarted, or a broker that
        lost the floor's session).  The heartbeat: the state again when it has not
        changed for HEARTBEAT_S."""
        while not self._closed.wait(RESEND_S / 3):
            with self._lock:
                if not self.connected.is_set():
                    continue
                if self._pending and time.monotonic() - self._progress > self._resend_s:
                    self._publish_pending(RESEND_BATCH)
                    self._resend_s = min(2 * self._resend_s, RESEND_MAX_S)
                if time.monotonic() - self._beat >= HEARTBEAT_S:
                    self._publish_state()

    def message(self, message):
        try:
            run, n = wire.read_stored(message.payload)
        except wire.Malformed as e:
            self.say("%s: %s" % (message.topic, e))
            return
        if run != self.run:
            return               # an earlier run's, or another table's of the same name
        if n >= self._next:
            self.say("%s: stored up to %d of a run that has numbered %d: not the floor's "
                     "word, ignored" % (message.topic, n, self._next - 1))
            return
        with self._lock:
            if n > self.stored:
                self.stored = n
                self._progress = time.monotonic()
                self._resend_s = RESEND_S
                self._forget_stored()

    def numbered(self):
        """Events numbered in this run so far."""
        with self._lock:
            return self._next - 1

    def pending(self):
        with self._lock:
            return len(self._pending)

    def close(self, wait_s=5.0):
        """Say goodbye (`online` false), after the record of a round that ended just
        before is had and the floor has stored what it can within `wait_s`; the rest
        stays in the spool for the next run, said."""
        if self._owed is not None and self._public is not None:
            self._record(self._owed)     # its fetching was cut short (Ctrl-C)
        end = time.monotonic() + wait_s
        while self.pending() and self.connected.is_set() and time.monotonic() < end:
            time.sleep(0.05)
        if self.connected.is_set() and self._shown:
            self.client.publish(wire.topic(self.table, "online"), "false", qos=1,
                                retain=True).wait_for_publish(2)
        self._closed.set()
        self.client.disconnect()
        self.client.loop_stop()
        with self._lock:
            self._events.close()
        left = self.pending()
        if left:
            self.say("%d events wait in the spool %s: the floor has them when the table's "
                     "tool next runs on it (felt-floor table --table %s --spool %s "
                     "--broker HOST:PORT --deliver)" % (left, self._spool, self.table,
                                                        self._spool))
        self._held.close()               # the spool's lock let go
