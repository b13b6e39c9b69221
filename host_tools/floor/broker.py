"""The floor's broker, Debian's mosquitto, set up so that it knows its tables: a folder
(`felt-floor init`) holding the floor's CA and the broker's certificate
(host_tools.floor.keys), mosquitto's `password_file` (hashed by mosquitto_passwd) and
`acl_file`, its configuration, and a credentials file for the floor service and for each
table (host_tools.floorlink.credentials).

    ca.pem ca.key             the floor's CA (the key stays here)
    server.pem server.key     the broker's and the page's certificate, for --host names
    passwords acl             mosquitto's; a table's user name is its table's name
    mosquitto.conf            a TLS listener, nobody anonymous
    floor.json                the floor service's credentials
    tables/NAME.json          each table's, to carry to the table's machine

What the broker enforces (`acl`): a table publishes only under felt/<its name>/ and
reads only its own `stored`; only the floor service (user FLOOR_USER, a name no table
can have) reads the tables and writes `stored`; a client's id is its user name, so no
one can knock another's session off by taking its id.
"""

import getpass
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time

from host_tools import cli
from host_tools.floor import keys
from host_tools.floorlink.credentials import Credentials
from host_tools.floorlink.wire import check_name

FLOOR_USER = "@floor"            # '@' is in no table's name (wire.NAME)
PASSWORD_BYTES = 24

ACL = """\
# The floor service reads every table and alone writes what it stored.
user %s
topic read felt/+/event
topic read felt/+/state
topic read felt/+/online
topic write felt/+/stored

# A table (its user name is its name) writes its own topics and reads its own stored.
pattern write felt/%%u/event
pattern write felt/%%u/state
pattern write felt/%%u/online
pattern read felt/%%u/stored
""" % FLOOR_USER


class BrokerError(Exception):
    """The floor's broker cannot be set up or started: what to do is in the text."""


def _path(folder, name):
    return os.path.join(folder, name)


def _tool(name):
    exe = shutil.which(name) or os.path.join("/usr/sbin" if name == "mosquitto"
                                             else "/usr/bin", name)
    if not os.access(exe, os.X_OK):
        raise BrokerError("the floor needs %s, Debian's mosquitto package (make floor-parts "
                          "installs it)" % name)
    return exe


def init(folder, broker, hosts=()):
    """The floor's folder for a broker that tables reach at `broker` (host, port), with
    a certificate for its host and each of `hosts`: made where missing (a CA already
    there is kept, so every table's credentials stay good); the floor's credentials."""
    os.makedirs(_path(folder, "tables"), exist_ok=True)
    ca_key, ca_pem = _path(folder, "ca.key"), _path(folder, "ca.pem")
    if not os.path.exists(ca_key):
        keys.make_ca(ca_key, ca_pem)
    names = list(dict.fromkeys([broker[0]] + list(hosts) + ["localhost", "127.0.0.1"]))
    keys.make_server(ca_key, ca_pem, names, _path(folder, "server.key"),
                     _path(folder, "server.pem"))
    with open(_path(folder, "acl"), "w") as f:
        f.write(ACL)
    write_conf(folder, broker[1])
    floor = Credentials(broker, FLOOR_USER, secrets.token_urlsafe(PASSWORD_BYTES), ca(folder))
    _set_passwords(folder, {floor.user: floor.password})
    floor.save(_path(folder, "floor.json"))
    return floor


def ca(folder):
    with open(_path(folder, "ca.pem")) as f:
        return f.read()


def write_conf(folder, port, bind=None, persist=False, user=None):
    """mosquitto.conf: one TLS listener on `port` (all addresses, or `bind`), the
    folder's passwords and acl, nobody anonymous; with `persist`, messages kept in the
    folder (saved each second) across a restart of the broker; `user`: whom mosquitto
    runs as when started by root (its default, `mosquitto`, must be able to read the
    folder's passwords and server.key)."""
    lines = ["per_listener_settings false",
             "allow_anonymous false",
             "password_file %s" % _path(folder, "passwords"),
             "acl_file %s" % _path(folder, "acl"),
             # The listener's settings follow it: before it, they open another on 1883.
             "listener %d%s" % (port, " " + bind if bind else ""),
             "use_username_as_clientid true",
             "cafile %s" % _path(folder, "ca.pem"),
             "certfile %s" % _path(folder, "server.pem"),
             "keyfile %s" % _path(folder, "server.key")]
    if user:
        lines.append("user %s" % user)
    if persist:
        lines += ["persistence true", "persistence_location %s/" % folder,
                  "autosave_interval 1"]
    with open(_path(folder, "mosquitto.conf"), "w") as f:
        f.write("# The floor's broker (felt-floor init): mosquitto -c this file\n")
        f.write("\n".join(lines) + "\n")


def add_tables(folder, names):
    """A password for each table named (a new one for a table that had one), in
    mosquitto's passwords and in folder/tables/NAME.json; {name: Credentials}.  A
    running broker reads its passwords again on SIGHUP."""
    with open(_path(folder, "floor.json")):     # FileNotFoundError: no floor here
        pass
    for name in names:
        if check_name(name) == FLOOR_USER:
            raise ValueError("%s is the floor's own user" % name)
    floor = Credentials.load(_path(folder, "floor.json"))
    made = {name: Credentials(floor.broker, name, secrets.token_urlsafe(PASSWORD_BYTES),
                              floor.ca) for name in names}
    _set_passwords(folder, {c.user: c.password for c in made.values()})
    for name, c in made.items():
        c.save(table_file(folder, name))
    return made


def table_file(folder, name):
    return _path(folder, os.path.join("tables", name + ".json"))


def _set_passwords(folder, passwords):
    """Each user's password set in mosquitto's password file, hashed by mosquitto_passwd
    (-U hashes a file of plain `user:password` lines in place)."""
    path = _path(folder, "passwords")
    plain = path + ".plain"
    cli.write_private(plain, "".join("%s:%s\n" % up for up in passwords.items()))
    try:
        done = subprocess.run([_tool("mosquitto_passwd"), "-U", plain],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise BrokerError("mosquitto_passwd: %s" % (done.stderr or done.stdout).strip())
        with open(plain) as f:
            hashed = f.read()
    finally:
        os.remove(plain)
    kept = []
    if os.path.exists(path):
        with open(path) as f:
            kept = [line for line in f if line.split(":", 1)[0] not in passwords]
    cli.write_private(path, "".join(kept) + hashed)


def logs_in(credentials, timeout=5):
    """Whether the broker takes these credentials (a connection made and closed)."""
    import paho.mqtt.client as mqtt
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    credentials.apply(client)
    try:
        client.connect(*credentials.broker)
    except OSError:
        return False
    end = time.monotonic() + timeout
    while not client.is_connected() and time.monotonic() < end:
        if client.loop(0.05) != mqtt.MQTT_ERR_SUCCESS:
            return False
    ok = client.is_connected()
    client.disconnect()
    return ok


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalBroker:
    """mosquitto on loopback for the floor of `folder` (made with init for
    127.0.0.1:`port`, or a free port, when the folder has none): for make floor, the
    bench and the tests; `floor` its service's credentials.  With `persist` it keeps its messages in the folder, so a
    broker killed and started again on the same port still holds them; its output goes
    to `log`."""

    def __init__(self, folder, port=None, persist=False, log=None, tables=()):
        """`tables`: the names of tables given credentials before it starts."""
        self.folder = folder
        if os.path.exists(_path(folder, "floor.json")):
            self.floor = Credentials.load(_path(folder, "floor.json"))
        else:
            self.floor = init(folder, ("127.0.0.1", port or free_port()))
        if tables:
            add_tables(folder, tables)
        self.address = self.floor.broker
        # Run as whoever runs it (root too: the folder is theirs alone).
        write_conf(folder, self.address[1], "127.0.0.1", persist, getpass.getuser())
        self.log = log
        self.proc = None
        self.start()

    def start(self):
        out = subprocess.DEVNULL if self.log is None else self.log
        # Its own session: a Ctrl-C for make floor leaves it up until the tables said
        # goodbye.
        self.proc = subprocess.Popen([_tool("mosquitto"), "-c",
                                      _path(self.folder, "mosquitto.conf")],
                                     stdout=out, stderr=out, start_new_session=True)
        for _ in range(200):
            try:
                socket.create_connection(self.address, 0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        self.proc.kill()
        raise BrokerError("mosquitto did not start on port %d" % self.address[1])

    def table(self, name):
        """A new table's credentials, taken by the broker when this returns."""
        made = add_tables(self.folder, [name])[name]
        self.proc.send_signal(signal.SIGHUP)        # mosquitto reads its passwords again
        for _ in range(100):
            if logs_in(made):
                return made
            time.sleep(0.05)
        raise BrokerError("mosquitto did not take the new password of %s" % name)

    def certificate(self):
        """(certificate, key) files of the broker's machine, from the floor's CA: the
        page's too."""
        return _path(self.folder, "server.pem"), _path(self.folder, "server.key")

    def kill(self):
        """The broker dies at once (SIGKILL): what it had not saved is lost."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
