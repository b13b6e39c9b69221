"""The floor (host_tools/floor, issue 23): emulated tables published on a real MQTT
broker (mosquitto), the floor service storing their events in SQLite.  Every event a
table says is stored exactly once, through a broker killed and restarted, a table's
tool that dies mid-round and starts again on its spool, and a power cut of the board,
on SQLite and, where it is installed, PostgreSQL;
what leaves a table never holds a card a player keeps face down; bad messages are a
line in the log and the rest goes on."""

import json
import os
import time

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

import postgres as pg
from broker import Broker
from host_tools.emulator.session import Session, table_config
from host_tools.floorlink import wire
from host_tools.floorlink.publisher import Publisher
from host_tools.floor.service import FloorService
from host_tools.floor.store import Store, metadata, upgrade
from host_tools.floorlink.table_state import TableState


def wait_for(test, timeout=30, what="it"):
    end = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < end, "waited %d s for %s" % (timeout, what)
        time.sleep(0.05)


@pytest.fixture
def broker(tmp_path):
    b = Broker(str(tmp_path))
    yield b
    b.stop()


@pytest.fixture(scope="session")
def postgres():
    if not pg.installed():
        pytest.skip("PostgreSQL is not installed here: the floor is tested on SQLite only")
    server = pg.Postgres()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """The floor's database: SQLite always, PostgreSQL where it is installed."""
    if request.param == "sqlite":
        return "sqlite:///%s" % (tmp_path / "floor.db")
    return request.getfixturevalue("postgres").database()


@pytest.fixture
def floor(broker, database):
    lines = []
    service = FloorService(broker.floor, Store(database), say=lines.append)
    service.lines = lines
    service.start()
    wait_for(service.connected.is_set, what="the floor on the broker")
    yield service
    service.stop()


class Table:
    """An emulated table and its tool on the floor; `said`: every event as it left."""

    def __init__(self, broker, spool, name="t1", seed=3, inject="random", game="holdem"):
        self.session = Session(players=4, seed=seed, stack=100, inject=inject,
                               config=table_config(game, 4, 100))
        self.name, self.spool, self.broker = name, spool, broker
        self.credentials = broker.table(name)
        self.lines = []
        self.said = []
        self.session.observers.append(self)
        self.connect()

    def connect(self):
        self.pub = Publisher(self.name, self.credentials, self.spool,
                             about={"game": "holdem"}, leds=self.session.board["leds"],
                             say=self.lines.append)

    def frame(self, kind, p):
        if self.pub is None:
            return                       # the tool is down: the board's frames go unheard
        before = self.pub.numbered()
        self.pub.frame(kind, p)
        if self.pub.numbered() > before:
            self.said.append(wire.redacted(p))

    def close(self):
        pass                             # the test says goodbye itself

    def crash(self):
        """The tool dies without a goodbye: its connection just ends."""
        self.pub.connected.clear()
        self.pub.client.loop_stop()
        sock = self.pub.client.socket()
        if sock is not None:
            sock.close()
        self.pub._held.close()           # the lock a dead process held is let go
        self.pub = None


def test_every_event_is_stored_once_through_broker_and_table_restarts(broker, floor,
                                                                       tmp_path):
    table = Table(broker, str(tmp_path / "spool"))
    s = table.session
    s.open()
    try:
        wait_for(table.pub.connected.is_set, what="the table on the broker")
        for _ in range(3):
            s.play_round()
        broker.kill()                    # mid-stream: what it took and had not passed on
        for _ in range(2):
            s.play_round()               # the broker away: the events wait in the spool
        assert table.pub.pending() > 0
        broker.start()
        wait_for(table.pub.connected.is_set, what="the table back on the broker")
        s.play_round()
        table.crash()                    # the table's tool dies mid-round...
        s.play_round()                   # (these frames never reach the dead tool)
        table.connect()                  # ...and starts again on its spool
        for _ in range(3):
            s.play_round()
    finally:
        s.close()
    run = table.pub.run
    sent = table.pub.numbered()
    wait_for(lambda: floor.store.stored_upto("t1", run) == sent, 60,
             "the floor to store all %d events" % sent)
    wait_for(lambda: table.pub.pending() == 0, 30, "the table's spool to empty")
    stored = sorted(floor.store.events_of("t1"), key=lambda stored: stored[1])
    assert [(r, n) for r, n, _ in stored] == [(run, n) for n in range(1, sent + 1)]
    assert [e for _, _, e in stored] == table.said
    rounds = floor.store.counts("t1")["rounds"]
    assert rounds == sum(1 for e in table.said if e["e"] == "end")
    assert any("events wait in the spool" in line for line in table.lines), table.lines
    table.pub.close()


def test_a_players_face_down_cards_never_leave_the_table(broker, floor, tmp_path):
    # Draw poker: hole cards, burns, and the cards players throw away.
    table = Table(broker, str(tmp_path / "spool"), inject=None, game="draw5")
    s = table.session
    s.open()
    try:
        for _ in range(3):
            s.play_round()
    finally:
        s.close()
    wait_for(lambda: floor.store.stored_upto("t1", table.pub.run) == table.pub.numbered(), 30)
    stored = [e for _, _, e in floor.store.events_of("t1")]
    down = [e for e in stored if e["e"] == "dealt" and e["what"] in ("hole", "burn")]
    thrown = [e for e in stored if e["e"] == "discarded" and e["seat"] >= 0]
    assert down and thrown and not [e for e in down if "card" in e]
    assert all(type(e["cards"]) is int for e in thrown)         # how many, not which
    # What a spectator sees goes as it is: the hands shown at the showdown.
    shown = [e for e in stored if e["e"] == "show"]
    assert shown and all(len(e["cards"].split()) == 5 for e in shown)
    held = {c for cards in s.hole for c in cards}
    for e in down + thrown:
        assert not held & set(json.dumps(e).replace('"', " ").split())
    table.pub.close()


END = {"e": "end", "hand": 1, "button": 0, "stacks": [90, 110], "winners": [1],
       "board": "As Kd 7h 7c 2s", "rake": 1, "called_off": None, "deck": "A"}
STATE = {"table": "t9", "game": "holdem", "seats": 2, "stakes": "fixed limit 2/4",
         "status": "idle", "hand": None, "button": None, "stacks": [100, 100], "pot": 0,
         "to_act": None, "tilt": None, "hands": 0, "rake": 0, "house": None, "board": "",
         "centre": None, "at": 1.0}
# The well-formed but wrong messages that made the floor drop a whole batch (issue 37):
# each (payload, the field its one line names); the last is a state.
BAD = (
    (wire.event_message("r", 1, 1.0, dict(END, rake="999999")), "event.rake"),
    (wire.event_message("r", 2, 1.0, dict(END, house_round={"x": 1})), "event.house_round"),
    (wire.event_message("r", 2**31, 1.0, END), "n"),
    (wire.event_message("r", 2**63, 1.0, END), "n"),
    (wire.event_message("r", 3, 1.0, END).replace('"at":1.0', '"at":NaN'), "at"),
    (wire.event_message("r", 4, 1e18, END), "at"),
    (wire.event_message("r", 5, 1.0, {"e": "x" * 33}), "event.e"),
    (wire.event_message("r", 6, 1.0, {"e": "end"}), "event.hand"),
    (wire.event_message("r", 7, 1.0, dict(END, winners="<script>")), "event.winners"),
    (wire.event_message("r", 8, 1.0, dict(END, spare=1)), "event.spare"),
    (wire.encode(dict(STATE, stacks="100 100")), "state.stacks"),
)


def where(field):
    return "felt/t9/state" if field.startswith("state.") else "felt/t9/event"


def publisher_client(broker, credentials=None):
    """A bare client of table t9's (or of `credentials`)."""
    import paho.mqtt.client as mqtt
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    (credentials or broker.table("t9")).apply(c)
    c.connect(*broker.address)
    c.loop_start()
    return c


def test_bad_messages_are_a_line_each_and_the_rest_goes_on(broker, floor, tmp_path):
    c = publisher_client(broker)
    for topic, payload in (("felt/t9/event", b"not json"),
                           ("felt/t9/event", b'{"run":"r","n":0,"at":1,"event":{"e":"x"}}'),
                           ("felt/t9/online", b'"maybe"')):
        c.publish(topic, payload, qos=1).wait_for_publish(5)
    c.publish("felt/t9/event", wire.event_message("r", 1, 1.0, {"e": "hand", "hand": 1,
                                                                   "button": 0,
                                                                   "stacks": [1, 1]}),
              qos=1).wait_for_publish(5)
    wait_for(lambda: floor.store.stored_upto("t9", "r") == 1, 10)
    c.loop_stop()
    said = [line for line in floor.lines if line.startswith("t9: felt/t9/")]
    assert len(said) == 3, floor.lines
    assert "not JSON" in said[0] and "n: a whole number from 1" in said[1]
    assert "true or false" in said[2]


def test_each_bad_message_is_refused_alone_and_the_others_are_stored(broker, floor):
    # Each bad message comes between two good ones of another table: they are stored,
    # it is one line naming its table, topic and field, and nothing of it is stored.
    c = publisher_client(broker)                         # t9's, and t1's: each its own
    good = publisher_client(broker, broker.table("t1"))
    c.publish("felt/t9/state", wire.encode(dict(STATE, at=time.time())),
              qos=1).wait_for_publish(5)
    n = 0
    for payload, field in BAD:
        for topic, message in (("felt/t1/event", None), (where(field), payload),
                               ("felt/t1/event", None)):
            if message is None:
                n += 1
                message = wire.event_message("g", n, 1.0, dict(END, hand=n))
            (good if topic.startswith("felt/t1/") else c).publish(
                topic, message, qos=1).wait_for_publish(5)
    wait_for(lambda: floor.store.stored_upto("t1", "g") == n, 20, "the good events")
    c.loop_stop()
    good.loop_stop()
    said = [line for line in floor.lines if line.startswith("t9: ")]
    assert len(said) == len(BAD), floor.lines
    for line, (_, field) in zip(said, BAD):
        assert line.startswith("t9: %s refused: %s: " % (where(field), field)), line
        assert len(line) < 200
    assert floor.store.counts("t1")["rounds"] == n
    assert floor.store.counts("t9") == {"events": 0, "rounds": 0, "records": 0, "tilts": 0}
    row = [r for r in floor.store.table_rows() if r["name"] == "t9"][0]
    assert row["state"]["stacks"] == [100, 100]         # the good state stays


def test_what_the_database_refuses_costs_no_other_message_its_place(database):
    # A value the checks let by and the database refuses (here, made past them: a number
    # past 64 bits): the batch is written one message at a time and that one is refused
    # alone, said with why; the other table's event and state of the batch are stored.
    store = Store(database)
    now = time.time()
    good = ("event", "t1", "g", 1, now, END)
    bad = ("event", "t2", "r", 2**70, now, END)
    state = ("state", "t3", dict(STATE, table="t3"), now, 0.0)
    stored, refused = store.write([good, bad, state], now)
    assert stored == [("t1", "g", 1, now)]
    assert [item for item, _ in refused] == [bad] and refused[0][1]
    assert store.counts("t1")["rounds"] == 1 and store.counts("t2")["events"] == 0
    assert [r["state"]["table"] for r in store.table_rows() if r["name"] == "t3"] == ["t3"]


def test_a_second_table_under_the_same_name_is_said_once(broker, floor, tmp_path):
    twin = broker.table("twin")
    one = Publisher("twin", twin, str(tmp_path / "a"), say=lambda line: None)
    two = Publisher("twin", twin, str(tmp_path / "b"), say=lambda line: None)
    for pub in (one, two):
        wait_for(pub.connected.is_set)
    for k in range(3):
        one.frame("evt", {"e": "hand", "hand": k + 1, "button": 0, "stacks": [1, 1]})
        two.frame("evt", {"e": "hand", "hand": k + 1, "button": 0, "stacks": [1, 1]})
    wait_for(lambda: one.pending() == 0 and two.pending() == 0)
    claims = [line for line in floor.lines if "a second table sends under this name" in line]
    assert len(claims) == 1 and claims[0].startswith("twin: ")
    assert floor.store.stored_upto("twin", one.run) == 3 == \
        floor.store.stored_upto("twin", two.run)
    one.close()
    two.close()


def test_an_unreachable_broker_is_said_once_and_the_events_wait(tmp_path):
    lines = []
    pub = Publisher("t1", nowhere(tmp_path / "floor", "t1")[0], str(tmp_path / "spool"),
                    say=lines.append)
    pub.frame("evt", {"e": "hand", "hand": 1, "button": 0, "stacks": [1, 1]})
    wait_for(lambda: lines, 10)
    time.sleep(2.5)                      # tried again meanwhile: said once all the same
    assert len(lines) == 1 and "no broker answers at 127.0.0.1:" in lines[0], lines
    assert pub.pending() == 1
    pub.client.loop_stop()


class Judged:
    """Every event and state as the table's tool would publish them, read back as the
    floor reads them (host_tools.floorlink.kinds): what it would refuse, by game."""

    def __init__(self, game, leds):
        self.game = game
        self.state = TableState(game, {"game": game, "seats": 6, "stakes": "x"}, leds)
        self.kinds = set()
        self.refused = []

    def frame(self, kind, p):
        if self.state.frame(kind, p):
            self.judge(wire.read_state, wire.encode(self.state.snapshot()))
        if kind == "evt":
            self.kinds.add(p["e"])
            self.judge(wire.read_event, wire.event_message("r", 1, time.time(),
                                                           wire.redacted(p)))

    def judge(self, read, message):
        try:
            read(message)
        except wire.Malformed as e:
            self.refused.append((self.game, str(e), message))

    def close(self):
        pass


def test_the_floor_refuses_no_event_any_game_sends():
    # Every game, random faults (power cuts, journal failures, irregularities), rake,
    # runouts and time charges: the checks refuse nothing a table really says.
    from felt.poker import variants
    from host_tools.emulator.session import BANKED
    games = [v.name for v in variants.every()] + list(BANKED)
    assert len(games) == 16
    seen, refused = set(), []
    for k, game in enumerate(games):
        banked = game in BANKED
        config = table_config(game, 4 if banked else 6, 100,
                              structure=("fixed", "no", "pot", "spread")[k % 4],
                              rake=("percent", "incremental", "time", "none")[k % 4],
                              run_it=3 if game in ("holdem", "omaha") else 1)
        s = Session(players=4 if banked else 6, seed=k, stack=100, inject="random",
                    config=config)
        judged = Judged(game, s.board["leds"])
        s.observers.append(judged)
        s.open()
        try:
            for _ in range(5):
                s.play_round()
                for _ in range(4):          # 8 minutes a round: time charges at 30
                    s.pass_time()
        finally:
            s.close()
        seen |= judged.kinds
        refused += judged.refused
    # A rule change posted, a tilt (the journal's path taken by a folder) and its clearing.
    s = Session(players=6, seed=1, stack=100, config=table_config("holdem", 6, 100))
    judged = Judged("holdem", s.board["leds"])
    s.observers.append(judged)
    s.open()
    try:
        s.play_round()
        assert s.link.send("rules", {"small_bet": 4, "big_bet": 8, "blinds": [2, 4]}) is None
        journal = s.fw.journal
        os.remove(journal)
        os.mkdir(journal)
        s.deal()
        s.wait(0.5)
        assert s.link.send("clear", {}) is None
        s.wait(0.5)
        os.rmdir(journal + ".cleared")
    finally:
        s.close()
    seen |= judged.kinds
    refused += judged.refused
    assert not refused, refused[:5]
    assert {"hand", "dealt", "action", "show", "award", "end", "irregularity", "refund",
            "decide", "pay", "time_charge", "rules", "locked", "cleared", "resumed"} <= seen, \
        seen


def test_a_shifts_figures_count_a_round_of_the_last_hour_outside_the_shift(tmp_path):
    # The page asks for the shift's figures, then the last hour's, in two queries: a
    # table whose first round was stored between them (here: a shift begun since) has
    # the last hour's pace and none of the shift's hands.  It killed the page's pusher.
    store = Store("sqlite:///%s" % (tmp_path / "floor.db"))
    now = time.time()
    assert store.write([("event", "t1", "r", 1, now - 100, END)], now)[0]
    figures = store.shifts(now - 10, now)
    assert figures["t1"]["hands_per_hour"] == 1 and figures["t1"]["hands"] == 0


def test_the_migrations_make_the_schema_the_store_declares(database):
    engine = create_engine(database)
    upgrade(engine)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    upgrade(engine)                      # at its head already: nothing to do


def felt_floor_table(board, broker, spool):
    """felt-floor table as the host of a served board, table b1."""
    import subprocess
    from served import BIN
    return subprocess.Popen(
        [str(BIN / "felt-floor"), "table", "--port", board.url, "--credentials",
         credentials_file(broker, "b1"), "--spool", str(spool)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def credentials_file(broker, name):
    """A table's credentials file, the broker told of it."""
    from host_tools.floor.broker import table_file
    broker.table(name)
    return table_file(broker.folder, name)


def nowhere(folder, name):
    """A table's credentials for a broker that is not there: (credentials, its file)."""
    from host_tools.floor.broker import add_tables, free_port, init, table_file
    init(str(folder), ("127.0.0.1", free_port()))
    return add_tables(str(folder), [name])[name], table_file(str(folder), name)


def row_of(floor, name):
    rows = [t for t in floor.store.table_rows() if t["name"] == name]
    return rows[0] if rows else None


def test_felt_floor_table_publishes_a_board_on_its_link_and_says_goodbye(broker, floor,
                                                                        tmp_path):
    # A developer's board served on a TCP port (felt-emulator --serve), configured over
    # its link; felt-floor table, its host, puts it on the floor: online, with the game
    # and stakes of its configuration; Ctrl-C, and it says goodbye (offline).
    import signal
    import subprocess
    from served import BIN, Served
    from host_tools.floor.broker import table_file
    board = Served()
    try:
        r = subprocess.run([str(BIN / "felt-console"), "--port", board.url, "cfg",
                            '{"game":"stud7","seats":3,"stacks":[100,100,100],'
                            '"small_bet":2,"big_bet":4,"ante":1,"bring_in":1}'],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stdout + r.stderr
        table = felt_floor_table(board, broker, tmp_path / "spool")

        def row():
            return row_of(floor, "b1")
        wait_for(lambda: row() and row()["online"] and row()["state"], 30, "b1 online")
        state = row()["state"]
        assert (state["game"], state["seats"], state["stakes"]) == \
            ("stud7", 3, "fixed limit 2/4") and state["status"] == "idle"
        table.send_signal(signal.SIGINT)
        assert table.wait(30) == 0, table.stdout.read()
        assert "felt-floor: b1 (board pico-11) on " in table.stdout.read()
        wait_for(lambda: not row()["online"], 10, "b1 offline")
    finally:
        board.stop()


def test_a_database_that_goes_away_is_said_and_nothing_is_lost(broker, tmp_path):
    # PostgreSQL stops under the floor mid-play: the writes it refuses are said in the
    # log, nothing is acknowledged, and once it is back every event is stored once.
    if not pg.installed():
        pytest.skip("PostgreSQL is not installed here")
    server = pg.Postgres()
    lines = []
    service = FloorService(broker.floor, Store(server.database()), say=lines.append)
    service.start()
    table = Table(broker, str(tmp_path / "spool"), inject=None)
    s = table.session
    s.open()
    try:
        wait_for(service.connected.is_set)
        s.play_round()
        wait_for(lambda: table.pub.pending() == 0, 30, "the first round stored")
        server.halt()
        s.play_round()
        wait_for(lambda: [line for line in lines if "the database refused a write" in line],
                 30, "the refusal said")
        assert table.pub.pending() > 0
        server.start()
        s.play_round()
        sent = table.pub.numbered()
        wait_for(lambda: table.pub.pending() == 0, 60, "every event stored")
        assert service.store.stored_upto("t1", table.pub.run) == sent
        assert len(service.store.events_of("t1")) == sent
        said = [line for line in lines if "database" in line]
        assert len(said) == 2 and "takes writes again" in said[1], said     # once each
    finally:
        s.close()
        table.pub.close()
        service.stop()
        server.stop()


# ----- acknowledgements from the database; one spool, one process ------------------------

def refuse_event(store, table, n):
    """The database itself refuses one event (a constraint of the test's): what a value
    the checks let by and the database takes not would do."""
    from sqlalchemy import text
    with store.engine.begin() as db:
        if store.engine.dialect.name == "sqlite":
            db.execute(text("CREATE TRIGGER refuse BEFORE INSERT ON events WHEN "
                            "NEW.table_name = '%s' AND NEW.n = %d BEGIN "
                            "SELECT RAISE(ABORT, 'refused by the test'); END" % (table, n)))
        else:
            db.execute(text("ALTER TABLE events ADD CONSTRAINT refuse CHECK "
                            "(NOT (table_name = '%s' AND n = %d))" % (table, n)))


def hand(k):
    return {"e": "hand", "hand": k, "button": 0, "stacks": [1, 1]}


def test_stored_says_no_more_than_the_database_holds(broker, floor, tmp_path):
    # Event 3 refused by the database: 1, 2, 4 and 5 are stored, the table is told 2,
    # and its spool keeps 3 to 5 (sent again until the floor takes them).
    refuse_event(floor.store, "t1", 3)
    pub = Publisher("t1", broker.table("t1"), str(tmp_path / "spool"), say=lambda line: None)
    wait_for(pub.connected.is_set)
    for k in range(1, 6):
        pub.frame("evt", hand(k))
    wait_for(lambda: len(floor.store.events_of("t1")) == 4, 20, "four events stored")
    wait_for(lambda: pub.stored == 2, 10, "the floor's word")
    time.sleep(0.5)
    assert pub.stored == 2 and pub.pending() == 3
    assert floor.store.stored_upto("t1", pub.run) == 2
    said = [line for line in floor.lines if "refused by the database" in line]
    assert said and said[0].startswith("t1: felt/t1/event (run %s, n 3) refused by the "
                                       "database: " % pub.run), floor.lines
    pub.close(wait_s=0)


def test_a_stored_beyond_what_the_table_numbered_is_not_believed(broker, tmp_path):
    lines = []
    # Only the floor may write stored (the broker's rules): a floor's credentials that
    # say too much are not believed either.
    pub = Publisher("t1", broker.table("t1"), str(tmp_path / "spool"), say=lines.append)
    wait_for(pub.connected.is_set)
    pub.frame("evt", hand(1))
    c = publisher_client(broker, broker.floor)
    c.publish("felt/t1/stored", wire.encode({"run": pub.run, "n": 1000}), qos=1,
              retain=True).wait_for_publish(5)
    wait_for(lambda: [line for line in lines if "not the floor's word" in line], 10)
    assert pub.pending() == 1 and pub.stored == 0
    c.loop_stop()
    pub.close(wait_s=0)


def test_one_spool_one_process(tmp_path):
    import subprocess
    import sys
    from host_tools.floorlink.publisher import SpoolBusy
    t1, t1_file = nowhere(tmp_path / "floor", "t1")
    spool = str(tmp_path / "spool")
    one = Publisher("t1", t1, spool, say=lambda line: None)
    with pytest.raises(SpoolBusy, match="the spool %s is in use \\(process %d\\)"
                       % (spool, os.getpid())):
        Publisher("t1", t1, spool, say=lambda line: None)
    r = subprocess.run([sys.executable, "-c", "import sys; from host_tools.floorlink.publisher "
                        "import Publisher; from host_tools.floorlink.credentials import "
                        "Credentials; Publisher('t1', Credentials.load(sys.argv[1]), "
                        "sys.argv[2])", t1_file, spool],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "SpoolBusy: the spool %s is in use" % spool in r.stderr
    one.close()
    Publisher("t1", t1, spool, say=lambda line: None).close()   # let go: free again


def test_a_spool_left_behind_is_said_and_delivered(broker, floor, tmp_path):
    # A table's tool stopped with events undelivered (no broker): it says how many wait
    # where.  The table comes back under another name: its tool names the old spool and
    # how to deliver it, and --deliver gets them stored.
    import subprocess
    from served import BIN
    lines = []
    old = str(tmp_path / "floor" / "old")
    pub = Publisher("old", nowhere(tmp_path / "away", "old")[0], old, say=lines.append)
    for k in range(1, 4):
        pub.frame("evt", hand(k))
    run = pub.run
    pub.close(wait_s=0)
    assert lines[-1].startswith("old: 3 events wait in the spool %s: " % old), lines
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"))
    os.makedirs(str(tmp_path / "state" / "felt"))
    os.rename(str(tmp_path / "floor"), str(tmp_path / "state" / "felt" / "floor"))
    old = str(tmp_path / "state" / "felt" / "floor" / "old")
    r = subprocess.run([str(BIN / "felt-emulator"), "--floor",
                        nowhere(tmp_path / "away", "new")[1], "--hands", "1", "--seed", "2"],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert "the spool %s holds up to 3 events the floor has not said it stored: felt-floor " \
        "table --deliver --credentials old.json --spool %s" % (old, old) in r.stderr, r.stderr
    assert " events wait in the spool %s/new: " % os.path.dirname(old) in r.stderr
    r = subprocess.run([str(BIN / "felt-floor"), "table", "--deliver", "--credentials",
                        credentials_file(broker, "old"), "--spool", old],
                       capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert floor.store.stored_upto("old", run) == 3
    assert "delivering 3 events of old" in r.stdout


# ----- the floor tells the truth about a table ---------------------------------------------

def test_a_table_heard_is_seen_and_a_dead_one_is_silent(broker, database, tmp_path,
                                                         monkeypatch):
    # The heartbeat keeps last_seen fresh; a table killed while the broker is down keeps
    # its retained online true, but a floor started afterwards does not take what the
    # broker kept for the table heard: last_seen stays when it was.
    from host_tools.floorlink import publisher
    monkeypatch.setattr(publisher, "HEARTBEAT_S", 1.0)
    store = Store(database)
    service = FloorService(broker.floor, store, say=lambda line: None)
    service.start()
    table = Table(broker, str(tmp_path / "spool"), inject=None)

    def row():
        return [r for r in store.table_rows() if r["name"] == "t1"][0]
    wait_for(lambda: [r for r in store.table_rows() if r["name"] == "t1"], 20)
    first = row()["last_seen"]
    wait_for(lambda: row()["last_seen"] >= first + 2, 10, "heartbeats")
    service.stop()
    broker.kill()
    table.crash()                        # while the broker is down: no last will
    died = time.time()
    broker.start()
    time.sleep(1)
    # The floor's session was kept by the broker: the states the table sent while no
    # floor was on wait for the next one, and say when they were sent.
    again = FloorService(broker.floor, store, say=lambda line: None)
    again.start()
    wait_for(again.connected.is_set)
    time.sleep(2)
    again.stop()
    assert row()["online"] is True and row()["last_seen"] <= died
    table.session.fw.close()


def test_a_tables_clock_is_measured_and_its_events_stored_at_the_floors_time(broker,
                                                                             floor):
    c = publisher_client(broker)
    slow = 2 * 86400                     # two days slow
    c.publish("felt/t9/state", wire.encode(dict(STATE, at=time.time() - slow)),
              qos=1).wait_for_publish(5)
    c.publish("felt/t9/event", wire.event_message("r", 1, time.time() - slow, END),
              qos=1).wait_for_publish(5)
    wait_for(lambda: floor.store.stored_upto("t9", "r") == 1, 10)
    now = time.time()
    row = [r for r in floor.store.table_rows() if r["name"] == "t9"][0]
    assert abs(row["clock_off"] + slow) < 5
    assert floor.store.shifts(now - 8 * 3600, now)["t9"]["hands"] == 1
    said = [line for line in floor.lines if "t9: its clock is" in line]
    assert len(said) == 1 and "-1728" in said[0], floor.lines
    c.loop_stop()


def test_a_state_delayed_on_its_way_is_not_a_clock_off(broker, floor):
    # A state that waited two minutes (in the broker, for a floor that was away) says
    # when it was sent: the table's clock is measured from its least delayed states.
    c = publisher_client(broker)
    c.publish("felt/t9/state", wire.encode(dict(STATE, at=time.time())),
              qos=1).wait_for_publish(5)
    c.publish("felt/t9/state", wire.encode(dict(STATE, at=time.time() - 120, hands=1)),
              qos=1).wait_for_publish(5)
    wait_for(lambda: (row_of(floor, "t9") or {}).get("state", {}).get("hands") == 1, 10)
    c.loop_stop()
    assert row_of(floor, "t9")["clock_off"] is None
    assert not [line for line in floor.lines if "its clock is" in line], floor.lines


def test_a_locked_board_is_shown_locked_from_the_start(broker, floor, tmp_path):
    # A board that booted locked (its journal lost: an archive without the journal):
    # felt-floor table shows it tilted, with why, before any event.
    import signal
    import subprocess
    from served import BIN, Served
    journal = tmp_path / "journal.jsonl"
    (tmp_path / "journal.jsonl.1").write_text("{}\n")
    board = Served("--journal", str(journal))
    try:
        table = felt_floor_table(board, broker, tmp_path / "spool")

        def state():
            row = row_of(floor, "b1")
            return row and row["state"]
        wait_for(lambda: state() and state()["status"] == "tilted", 30, "b1 tilted")
        assert "journal.jsonl is missing but " in state()["tilt"]["why"]
        table.send_signal(signal.SIGINT)
        assert table.wait(30) == 0, table.stdout.read()
    finally:
        board.stop()


def test_a_round_ended_as_the_tool_stops_is_stored_with_its_record(broker, floor, tmp_path):
    # Ctrl-C while the round's record is fetched: close fetches it before goodbye.
    table = Table(broker, str(tmp_path / "spool"), inject=None)
    s = table.session
    asked = []

    def public(k, start):
        asked.append(k)
        if len(asked) == 1:
            raise KeyboardInterrupt
        return s.ask("public", {"round": k, "from": start})
    table.pub._public = public
    s.open()
    try:
        with pytest.raises(KeyboardInterrupt):
            s.play_round()
        table.pub.close()
    finally:
        s.fw.close()
    wait_for(lambda: floor.store.counts("t1")["records"] == 1, 10, "the record stored")
    assert floor.store.counts("t1")["rounds"] == 1


def test_a_spool_sends_again_less_often_while_the_floor_stores_nothing(broker, tmp_path,
                                                                       monkeypatch):
    # No floor: each sending again of the spool waits twice as long as the one before
    # (up to RESEND_MAX_S), so a floor that lags is not buried by every table at once.
    import paho.mqtt.client as mqtt
    from host_tools.floorlink import publisher
    monkeypatch.setattr(publisher, "RESEND_S", 0.3)
    monkeypatch.setattr(publisher, "RESEND_MAX_S", 1.2)
    heard = []
    spy = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    broker.floor.apply(spy)
    spy.on_message = lambda c, u, m: heard.append(time.monotonic())
    spy.on_connect = lambda c, u, f, r, p: c.subscribe("felt/t1/event", qos=1)
    spy.connect(*broker.address)
    spy.loop_start()
    wait_for(spy.is_connected)
    pub = Publisher("t1", broker.table("t1"), str(tmp_path / "spool"), say=lambda line: None)
    wait_for(pub.connected.is_set)
    pub.frame("evt", hand(1))
    time.sleep(4.5)
    pub.close(wait_s=0)
    spy.loop_stop()
    # Sent at once, then again after 0.3, 0.6, 1.2, 1.2 ... s: about five in all
    # (every 0.3 s, it would be fifteen).
    assert 2 <= len(heard) <= 7, heard
