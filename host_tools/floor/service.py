"""felt-floor serve: every table on the broker into the floor's database (store.Store).

It subscribes to every table's topics with QoS 1, stores each event once (a table
sends again what the floor has not said it stored), and tells each table, retained on
`felt/<table>/stored`, the n up to which its run is stored, so the table's spool may
forget them.  A message that is not what host_tools.floor.wire says is one line in the
log, and the others go on.  A second table sending events under a name another table
is using (another run, both sending) is said once; its events are kept apart by run.
"""

import threading
import time

from host_tools.floor import wire
from host_tools.floor.connection import Connection

CLAIM_WINDOW_S = 60.0    # two runs of one name sending within this: two tables


class FloorService(Connection):
    AWAY = "the broker is away (%s): tables keep their events until it is back"

    def __init__(self, broker, store, say=None, client_id="felt-floor"):
        self.store = store
        self._upto = {}         # (table, run): n up to which all is stored
        self._early = {}        # (table, run): ns stored beyond a gap
        self._runs = {}         # table: {run: when it last sent}
        self._claimed = set()   # tables said to be claimed twice
        self._lock = threading.Lock()
        self.stored = 0         # events stored by this service, for a bench
        self.listeners = []     # changed(table) after what the floor shows of it changed
        # A session the broker keeps (clean_session False): what comes while the floor is
        # away waits for it, as far as the broker lives.
        super().__init__(broker, client_id, say or (lambda line: print(
            "felt-floor: " + line, flush=True)), clean_session=False)

    def start(self):
        self.client.loop_start()

    def stop(self):
        self.client.disconnect()
        self.client.loop_stop()

    def on_broker(self):
        self.client.subscribe([(wire.topic("+", what), 1)
                               for what in ("event", "state", "online")])
        self.say("on the broker: storing every table's events")

    def message(self, message):
        try:
            table, what = wire.parse_topic(message.topic)
            if what == "event":
                self._event(table, *wire.read_event(message.payload))
            elif what == "state":
                self.store.seen(table, time.time(), state=wire.read_state(message.payload))
            elif what == "online":
                self.store.seen(table, time.time(), online=wire.read_online(message.payload))
        except wire.Malformed as e:
            self.say("%s: %s" % (message.topic, e))
            return
        for changed in self.listeners:
            changed(table)

    def _event(self, table, run, n, at, event):
        with self._lock:
            self._claims(table, run)
            key = (table, run)
            if key not in self._upto:
                self._upto[key] = self.store.stored_upto(table, run)
                self._early[key] = set()
            if self.store.add_event(table, run, n, at, event):
                self.stored += 1
            upto, early = self._upto[key], self._early[key]
            if n > upto + 1:
                early.add(n)
                return
            if n == upto + 1:
                upto = n
                while upto + 1 in early:
                    upto += 1
                    early.discard(upto)
                self._upto[key] = upto
            self.client.publish(wire.topic(table, "stored"),
                                wire.encode({"run": run, "n": upto}), qos=1, retain=True)

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
