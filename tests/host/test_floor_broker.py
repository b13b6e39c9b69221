"""The floor's broker knows its tables (host_tools/floor/broker.py, credentials.py,
keys.py; docs/security.md, "The floor"): over TLS with the floor's own CA, a password
for each table and for the floor service, nobody anonymous; a table publishes only
under its own name and reads only its own `stored`; only the floor writes `stored`; no
one takes another's session by its client id."""

import json
import ssl
import threading
import time

import paho.mqtt.client as mqtt
import pytest

from host_tools.floorlink import wire
from host_tools.floor.broker import FLOOR_USER, LocalBroker, add_tables, init, logs_in
from host_tools.floorlink.credentials import Credentials
from host_tools.floorlink.publisher import Publisher
from test_floor import broker, database, floor, postgres, wait_for   # noqa: F401 (fixtures)


class Client:
    """A bare MQTT client of the broker's, as anyone on the network may run: what it
    is refused, and what it receives."""

    def __init__(self, broker, credentials=None, tls=True, client_id=""):
        self.got = []
        self.refused = None
        self.connected = threading.Event()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id)
        if credentials is not None:
            credentials.apply(self.c)
        elif tls:
            self.c.tls_set_context(ssl.create_default_context(cadata=broker.floor.ca))
        self.c.on_connect = self._on_connect
        self.c.on_message = lambda c, u, m: self.got.append((m.topic, m.payload))
        self.c.connect(*broker.address)
        self.c.loop_start()

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            self.refused = str(reason)
        else:
            self.connected.set()

    def answered(self):
        return self.connected.is_set() or self.refused is not None

    def publish(self, topic, payload, retain=False):
        self.c.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def close(self):
        self.c.disconnect()
        self.c.loop_stop()


def test_an_anonymous_client_is_refused(broker):
    anonymous = Client(broker)
    wait_for(anonymous.answered)
    assert not anonymous.connected.is_set() and anonymous.refused == "Not authorized"
    anonymous.close()


def test_a_wrong_password_is_refused_and_the_right_one_taken(broker):
    t1 = broker.table("t1")
    assert logs_in(t1)
    assert not logs_in(Credentials(t1.broker, "t1", "guessed", t1.ca))
    assert not logs_in(Credentials(t1.broker, FLOOR_USER, t1.password, t1.ca))


def test_a_client_without_tls_gets_no_mqtt_answer(broker):
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    c.username_pw_set("t1", "x")
    c.connect(*broker.address)
    end = time.monotonic() + 3
    while time.monotonic() < end and not c.is_connected():
        if c.loop(0.1) != mqtt.MQTT_ERR_SUCCESS:
            break
    assert not c.is_connected()


def test_a_broker_with_another_cas_certificate_is_not_trusted(broker, tmp_path):
    # A machine on the network posing as the broker shows a certificate the floor's CA
    # did not sign: a table's tool does not log in to it (its password stays unsaid).
    other = LocalBroker(str(tmp_path / "impostor"))
    try:
        t1 = broker.table("t1")
        assert not logs_in(Credentials(other.address, "t1", t1.password, t1.ca), timeout=2)
    finally:
        other.stop()


def test_a_table_publishes_only_under_its_own_name(broker, floor):
    t1, t2 = broker.table("t1"), broker.table("t2")
    forger = Client(broker, t1)
    wait_for(forger.connected.is_set)
    forged_end = {"e": "end", "hand": 1, "rake": 999999, "winners": [0], "stacks": [1]}
    forger.publish(wire.topic("t2", "event"), wire.event_message("r", 1, time.time(),
                                                                  forged_end))
    forger.publish(wire.topic("t2", "online"), "true", retain=True)
    forger.publish(wire.topic("t2", "state"), wire.encode({"status": "tilted"}),
                   retain=True)
    forger.publish(wire.topic("t1", "event"), wire.event_message(
        "r", 1, time.time(), {"e": "hand", "hand": 1, "button": 0, "stacks": [1]}))
    wait_for(lambda: floor.store.stored_upto("t1", "r") == 1, what="t1's own event")
    time.sleep(0.5)
    assert [r["name"] for r in floor.store.table_rows()] == ["t1"]
    assert floor.store.events_of("t2") == [] and floor.store.rounds_between(0, 2e9) == []
    forger.close()
    del t2


def test_only_the_floor_writes_stored_and_a_forged_one_is_never_heard(broker, tmp_path):
    # No floor runs: a table's spool must keep its events.  Its own credentials (or
    # another table's) cannot write its `stored`, so a forged "all stored" never
    # reaches the tool, and the events wait for the floor.
    t1 = broker.table("t1")
    pub = Publisher("t1", t1, str(tmp_path / "spool"), say=lambda line: None)
    wait_for(pub.connected.is_set)
    for k in range(3):
        pub.frame("evt", {"e": "hand", "hand": k + 1, "button": 0, "stacks": [1, 1]})
    for name in ("t1", "t2"):
        forger = Client(broker, broker.table(name) if name == "t2" else t1,
                        client_id="forger")
        wait_for(forger.connected.is_set)
        forger.publish(wire.topic("t1", "stored"), wire.encode({"run": pub.run, "n": 99}),
                       retain=True)
        forger.close()
    time.sleep(1)
    assert pub.stored == 0 and pub.pending() == 3
    pub.close(wait_s=0)


def test_a_table_reads_no_other_tables_messages(broker, floor, tmp_path):
    spy = Client(broker, broker.table("spy"))
    wait_for(spy.connected.is_set)
    spy.c.subscribe([("felt/#", 1)])
    pub = Publisher("t1", broker.table("t1"), str(tmp_path / "spool"), say=lambda line: None)
    pub.frame("evt", {"e": "hand", "hand": 1, "button": 0, "stacks": [1, 1]})
    wait_for(lambda: pub.pending() == 0, what="t1's event stored and acknowledged")
    time.sleep(0.5)
    assert [t for t, _ in spy.got if not t.startswith("felt/spy/")] == []
    spy.close()
    pub.close()


def test_no_one_takes_the_floors_session_by_its_id(broker, floor):
    # mosquitto names each client by its user (use_username_as_clientid): a table that
    # connects with the floor's id has its own, and the floor stays on.
    taker = Client(broker, broker.table("t1"), client_id=FLOOR_USER)
    wait_for(taker.connected.is_set)
    time.sleep(1)
    assert floor.connected.is_set()
    assert not [line for line in floor.lines if "away" in line]
    taker.close()


def test_init_again_keeps_the_ca_and_every_tables_credentials(tmp_path):
    folder = str(tmp_path / "floor")
    init(folder, ("127.0.0.1", 18883))
    t1 = add_tables(folder, ["t1"])["t1"]
    with open(tmp_path / "floor" / "ca.pem") as f:
        ca = f.read()
    init(folder, ("127.0.0.1", 18883), ["floor.lan"])
    with open(tmp_path / "floor" / "ca.pem") as f:
        assert f.read() == ca
    b = LocalBroker(folder)
    try:
        assert logs_in(t1)
        assert logs_in(Credentials.load(str(tmp_path / "floor" / "floor.json")))
    finally:
        b.stop()


def test_the_folders_secrets_are_its_owners_alone(tmp_path):
    folder = tmp_path / "floor"
    init(str(folder), ("127.0.0.1", 18883))
    add_tables(str(folder), ["t1"])
    for name in ("ca.key", "server.key", "passwords", "floor.json", "tables/t1.json"):
        assert (folder / name).stat().st_mode & 0o077 == 0, name
    assert "t1:$" in (folder / "passwords").read_text()        # hashed, not plain
    assert json.loads((folder / "tables" / "t1.json").read_text())["user"] == "t1"


@pytest.mark.parametrize("text, said", [
    ("not json", "not a credentials file"),
    ('{"broker": "h:1", "user": "t1", "password": "p"}', "holds broker, user, password"),
    ('{"broker": "h", "user": "t1", "password": "p", "ca": ""}', "HOST:PORT"),
    ('{"broker": "h:1", "user": "t1", "password": "p", "ca": "x"}', "not a certificate"),
])
def test_a_bad_credentials_file_is_said(tmp_path, text, said):
    path = tmp_path / "c.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=said):
        Credentials.load(str(path))


def test_felt_floor_init_names_every_host_in_the_brokers_certificate(tmp_path):
    import ipaddress
    import subprocess
    import sys
    from pathlib import Path
    from cryptography import x509
    felt_floor = Path(sys.executable).with_name("felt-floor")
    r = subprocess.run([str(felt_floor), "init", "--home", str(tmp_path / "floor"),
                        "--broker", "floor.lan:8883", "--host", "pit.lan", "10.0.0.5"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    cert = x509.load_pem_x509_certificate((tmp_path / "floor" / "server.pem").read_bytes())
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert set(names.get_values_for_type(x509.DNSName)) == {"floor.lan", "pit.lan",
                                                            "localhost"}
    assert set(names.get_values_for_type(x509.IPAddress)) == {
        ipaddress.ip_address("10.0.0.5"), ipaddress.ip_address("127.0.0.1")}
    assert "listener 8883\n" in (tmp_path / "floor" / "mosquitto.conf").read_text()
