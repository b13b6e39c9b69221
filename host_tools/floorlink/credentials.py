"""What a table's tool or the floor service needs to reach the floor's broker: its
address, a user name and password of its own, and the floor's CA, in one file that
`felt-floor add-table` (or `init`, for the floor) writes:

    {"broker": "HOST:PORT", "user": NAME, "password": ..., "ca": "-----BEGIN CERTIFICATE..."}

A table's user name is the table's name: the broker lets it publish under that name
only (host_tools.floor.broker).  The connection is TLS, and the broker must show a
certificate of the floor's CA for the name or address in `broker`."""

import json
import ssl

from host_tools.cli import address, write_private


class Credentials:
    def __init__(self, broker, user, password, ca):
        """`broker`: (host, port); `ca`: the floor CA's certificate, PEM text."""
        self.broker, self.user, self.password, self.ca = broker, user, password, ca

    @classmethod
    def load(cls, path):
        """The credentials in the file; ValueError saying what is wrong with it."""
        try:
            with open(path) as f:
                d = json.load(f)
        except OSError as e:
            raise ValueError("%s: %s" % (path, e.strerror))
        except ValueError:
            raise ValueError("%s: not a credentials file (felt-floor add-table writes one)"
                             % path)
        if not isinstance(d, dict) or not all(isinstance(d.get(k), str) for k in
                                              ("broker", "user", "password", "ca")):
            raise ValueError("%s: a credentials file holds broker, user, password and ca "
                             "(felt-floor add-table writes one)" % path)
        try:
            broker = address(d["broker"])
            ssl.create_default_context(cadata=d["ca"])
        except ValueError as e:
            raise ValueError("%s: %s" % (path, e))
        except ssl.SSLError:
            raise ValueError("%s: its ca is not a certificate" % path)
        return cls(broker, d["user"], d["password"], d["ca"])

    def save(self, path):
        """Written readable by its owner only: it holds a password."""
        write_private(path, json.dumps({"broker": "%s:%d" % self.broker, "user": self.user,
                                        "password": self.password, "ca": self.ca},
                                       indent=1) + "\n")

    def apply(self, client):
        """A paho client set to log in with these over TLS, trusting the floor's CA only."""
        client.username_pw_set(self.user, self.password)
        client.tls_set_context(ssl.create_default_context(cadata=self.ca))
