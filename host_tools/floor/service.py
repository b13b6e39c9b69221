"""felt-floor serve: every table on the broker into the floor's database (store.Store).

It subscribes to every table's topics with QoS 1, stores each event once (a table
sends again what the floor has not said it stored), and tells each table, retained on
`felt/<table>/stored`, the n up to which its run is stored, so the table's spool may
forget them.  A message that is not what host_tools.floorlink.wire says is one line in the
log, and the others go on.  A second table sending events under a name another table
is using (another run, both sending) is said once; its events are kept apart by run.
"""

import queue
import threading
import time
import traceback

from sqlalchemy.exc import SQLAlchemyError

from host_tools.floorlink import wire
from host_tools.floorlink.connection import Connection
from host_tools.floor.store import CLOCK_SAID_S

CLAIM_WINDOW_S = 60.0    # two runs of one name sending within this: two tables
CLOCK_SAMPLES = 6        # a table's clock: the least delayed of its last so many states
BATCH = 2000             # messages stored in one transaction at most


class FloorService(Connection):
    AWAY = "the broker is away (%s): tables keep their events until it is back"

    def __init__(self, broker, store, say=None):
        """`broker`: the floor's Credentials (host_tools.floor.broker)."""
        self.store = store
        self._queue = queue.Queue()     # what the broker gave, for the writer
        self._upto = {}         # (table, run): n up to which all is stored
        self._early = {}        # (table, run): ns stored beyond a gap
        self._runs = {}         # table: {run: when it last sent}
        self._claimed = set()   # tables said to be claimed twice
        self.stored = 0         # events stored by this service
        self.listeners = []     # changed(table) after what the floor shows of it changed
        self.on_stored = None   # on_stored([(table, run, n, at)], when): for felt-floor bench
        # table: its clock against the floor's (seconds), from its state as heard live
        self._clocks = {r["name"]: r["clock_off"] or 0.0 for r in store.table_rows()}
        self._samples = {}      # table: its last CLOCK_SAMPLES measures of it
        self._clock_said = {name for name, off in self._clocks.items() if off}
        self._writer = threading.Thread(target=self._write, daemon=True)
        # A session the broker keeps (clean_session False): what comes while the floor is
        # away waits for it, as far as the broker lives.
        super().__init__(broker, say or (lambda line: print(
            "felt-floor: " + line, flush=True)), clean_session=False)

    def start(self):
        self._writer.start()
        self.client.loop_start()

    def stop(self):
        self.client.disconnect()
        self.client.loop_stop()
        self._queue.put(None)
        self._writer.join(30)

    def on_broker(self):
        self.client.subscribe([(wire.topic("+", what), 1)
                               for what in ("event", "state", "online")])
        self.say("on the broker: storing every table's events")

    def message(self, message):
        """A message from the broker, checked whole before it is queued: one that is
        not as host_tools.floorlink.wire says is one line, naming its table, topic and
        field, and the others go on."""
        try:
            table, what = wire.parse_topic(message.topic)
        except wire.Malformed as e:
            self.say(str(e))
            return
        now = time.time()
        live = not message.retain       # heard as sent, not kept by the broker from before
        try:
            if what == "event":
                run, n, at, body = wire.read_event(message.payload)
                item = ("event", table, run, n, self._floor_time(table, at, now), body)
            elif what == "state":
                # When the table said it, on the floor's clock: a state the broker kept
                # for the floor while it was away says when it was sent, not now.
                state = wire.read_state(message.payload)
                off = self._clock(table, state["at"] - now) if live else None
                item = ("state", table, state,
                        self._floor_time(table, state["at"], now) if live else None, off)
            elif what == "online":
                item = ("online", table, wire.read_online(message.payload))
            else:
                return          # `stored`: the floor's own word
        except wire.Malformed as e:
            self.say("%s: %s refused: %s" % (table, message.topic, e))
            return
        self._queue.put(item)

    def _clock(self, table, measured):
        """The table's clock measured against the floor's as its state is heard: the
        largest of its last measures, since a state delayed on its way (by the broker,
        for a floor that was away) only makes the table's clock look slow.  Said once
        when it is off by more than a minute, and once when it is right again."""
        samples = self._samples.setdefault(table, [])
        samples[:] = samples[-(CLOCK_SAMPLES - 1):] + [measured]
        off = self._clocks[table] = max(samples)
        if abs(off) > CLOCK_SAID_S and table not in self._clock_said:
            self._clock_said.add(table)
            self.say("%s: its clock is %+.0f s off the floor's: its events are stored at "
                     "the floor's time" % (table, off))
        elif abs(off) <= CLOCK_SAID_S and table in self._clock_said:
            self._clock_said.discard(table)
            self.say("%s: its clock agrees with the floor's again" % table)
        return off

    def _floor_time(self, table, at, now):
        """When the table said an event, on the floor's clock: its time less its clock's
        error where that is over CLOCK_SAID_S (within it, the time it takes a message to
        arrive is as large as the error: the table's time is taken), and never later
        than the floor heard it (a clock not measured yet)."""
        off = self._clocks.get(table, 0.0)
        return min(now, at - off if abs(off) > CLOCK_SAID_S else at)

    def _write(self):
        """Store what came, as much as has come at a time (one transaction: one wait for
        the disk for many events), then tell the tables and the page."""
        stopping = away = False
        while not stopping:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stopping = True     # what came before it is stored first
                    break
                batch.append(item)
            try:
                stored, refused = self.store.write(batch, time.time())
            except SQLAlchemyError as e:
                # Not stored, not acknowledged: the tables send it again.
                if not away:                # said once an outage
                    self.say("the database refused a write: %s; the tables keep their "
                             "events until it takes them" % str(e).splitlines()[0])
                away = True
                time.sleep(1)
                continue
            except Exception:   # noqa: BLE001 - a fault of the floor's own, not the input's
                traceback.print_exc()
                self.say("a fault of the floor's own while storing (above, on stderr): "
                         "the tables send again what is not stored")
                time.sleep(1)
                continue
            if away:
                self.say("the database takes writes again")
                away = False
            for item, why in refused:
                self.say("%s: %s refused by the database: %s" % (
                    item[1], wire.topic(item[1], item[0]) + (
                        " (run %s, n %d)" % item[2:4] if item[0] == "event" else ""), why))
            self.stored += len(stored)
            if self.on_stored is not None:
                self.on_stored(stored, time.time())
            lost = {id(item) for item, _ in refused}
            self._acknowledge([item for item in batch
                               if item[0] == "event" and id(item) not in lost])
            for table in {item[1] for item in batch}:
                for changed in self.listeners:
                    changed(table)

    def _acknowledge(self, events):
        """Tell each table of the batch the n up to which its run is stored."""
        touched = set()
        for _, table, run, n, at, body in events:
            self._claims(table, run)
            key = (table, run)
            if key not in self._upto:
                self._upto[key] = self.store.stored_upto(table, run)
                self._early[key] = set()
            upto, early = self._upto[key], self._early[key]
            if n > upto + 1:
                early.add(n)
            elif n == upto + 1:
                upto = n
                while upto + 1 in early:
                    upto += 1
                    early.discard(upto)
                self._upto[key] = upto
            touched.add(key)
        for table, run in touched:
            self.client.publish(wire.topic(table, "stored"), wire.encode(
                {"run": run, "n": self._upto[(table, run)]}), qos=1, retain=True)

    def _claims(self, table, run):
        """Say once when two runs send under one name at the same time."""
        now = time.monotonic()
        runs = self._runs.setdefault(table, {})
        runs[run] = now
        for other, when in list(runs.items()):
            if other != run and now - when > CLAIM_WINDOW_S:
                del runs[other]          # an earlier run of the same table, long quiet
        if len(runs) > 1 and table not in self._claimed:
            self._claimed.add(table)
            self.say("%s: a second table sends under this name (runs %s): its events are "
                     "kept apart by run; give each table a name of its own"
                     % (table, ", ".join(sorted(runs))))
