"""The floor (host_tools/floor, issue 23): emulated tables published on a real MQTT
broker (mosquitto), the floor service storing their events in SQLite.  Every event a
table says is stored exactly once, through a broker killed and restarted, a table's
tool that dies mid-round and starts again on its spool, and a power cut of the board,
on SQLite and, where it is installed, PostgreSQL;
what leaves a table never holds a card a player keeps face down; bad messages are a
line in the log and the rest goes on."""

import json
import time

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

import postgres as pg
from broker import Broker
from host_tools.emulator.session import Session, table_config
from host_tools.floor import wire
from host_tools.floor.publisher import Publisher
from host_tools.floor.service import FloorService
from host_tools.floor.store import Store, metadata, upgrade


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


def test_bad_messages_are_a_line_each_and_the_rest_goes_on(broker, floor, tmp_path):
    import paho.mqtt.client as mqtt
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    broker.table("t9").apply(c)
    c.connect(*broker.address)
    c.loop_start()
    for topic, payload in (("felt/t9/event", b"not json"),
                           ("felt/t9/event", b'{"run":"r","n":0,"at":1,"event":{"e":"x"}}'),
                           ("felt/t9/online", b'"maybe"')):
        c.publish(topic, payload, qos=1).wait_for_publish(5)
    c.publish("felt/t9/event", wire.event_message("r", 1, 1.0, {"e": "hand", "hand": 1,
                                                                   "stacks": [1]}),
              qos=1).wait_for_publish(5)
    wait_for(lambda: floor.store.stored_upto("t9", "r") == 1, 10)
    c.loop_stop()
    said = [line for line in floor.lines if line.startswith("felt/t9/")]
    assert len(said) == 3, floor.lines
    assert "not JSON" in said[0] and "n: a whole number from 1" in said[1]
    assert "true or false" in said[2]


def test_a_second_table_under_the_same_name_is_said_once(broker, floor, tmp_path):
    twin = broker.table("twin")
    one = Publisher("twin", twin, str(tmp_path / "a"), say=lambda line: None)
    two = Publisher("twin", twin, str(tmp_path / "b"), say=lambda line: None)
    for pub in (one, two):
        wait_for(pub.connected.is_set)
    for k in range(3):
        one.frame("evt", {"e": "hand", "hand": k + 1, "stacks": [1, 1]})
        two.frame("evt", {"e": "hand", "hand": k + 1, "stacks": [1, 1]})
    wait_for(lambda: one.pending() == 0 and two.pending() == 0)
    claims = [line for line in floor.lines if "a second table sends under this name" in line]
    assert len(claims) == 1 and claims[0].startswith("twin: ")
    assert floor.store.stored_upto("twin", one.run) == 3 == \
        floor.store.stored_upto("twin", two.run)
    one.close()
    two.close()


def test_an_unreachable_broker_is_said_once_and_the_events_wait(tmp_path):
    from host_tools.floor.broker import free_port, init
    lines = []
    nowhere = init(str(tmp_path / "floor"), ("127.0.0.1", free_port()))
    nowhere.user = "t1"
    pub = Publisher("t1", nowhere, str(tmp_path / "spool"), say=lines.append)
    pub.frame("evt", {"e": "hand", "hand": 1, "stacks": [1, 1]})
    wait_for(lambda: lines, 10)
    time.sleep(2.5)                      # tried again meanwhile: said once all the same
    assert len(lines) == 1 and "no broker answers at 127.0.0.1:" in lines[0], lines
    assert pub.pending() == 1
    pub.client.loop_stop()


def test_a_shifts_figures_count_a_round_of_the_last_hour_outside_the_shift(tmp_path):
    # The page asks for the shift's figures, then the last hour's, in two queries: a
    # table whose first round was stored between them (here: a shift begun since) has
    # the last hour's pace and none of the shift's hands.  It killed the page's pusher.
    store = Store("sqlite:///%s" % (tmp_path / "floor.db"))
    now = time.time()
    end = {"e": "end", "hand": 1, "rake": 1, "winners": [0]}
    assert store.write([("event", "t1", "r", 1, now - 100, end)], now)
    figures = store.shifts(now - 10, now)
    assert figures["t1"]["hands_per_hour"] == 1 and figures["t1"]["hands"] == 0


def test_the_migrations_make_the_schema_the_store_declares(database):
    engine = create_engine(database)
    upgrade(engine)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    upgrade(engine)                      # at its head already: nothing to do


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
        broker.table("b1")
        table = subprocess.Popen(
            [str(BIN / "felt-floor"), "table", "--port", board.url, "--credentials",
             table_file(broker.folder, "b1"), "--spool", str(tmp_path / "spool")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

        def row():
            rows = [t for t in floor.store.table_rows() if t["name"] == "b1"]
            return rows[0] if rows else None
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
