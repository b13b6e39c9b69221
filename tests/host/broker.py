"""A real MQTT broker for the floor's tests: Debian's mosquitto on a free loopback port,
its messages persisted in a folder of the test's, so that it can be killed and started
again on the same port."""

import os
import shutil
import signal
import socket
import subprocess
import time

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    def __init__(self, folder):
        if not os.access(MOSQUITTO, os.X_OK):
            pytest.fail("mosquitto is not installed: make test installs it (apt-get "
                        "install mosquitto)")
        self.folder = folder
        self.port = free_port()
        self.address = ("127.0.0.1", self.port)
        conf = os.path.join(folder, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence true\n"
                    "persistence_location %s/\nautosave_interval 1\n" % (self.port, folder))
        self.conf = conf
        self.proc = None
        self.start()

    def start(self):
        self.log = open(os.path.join(self.folder, "mosquitto.log"), "ab")
        self.proc = subprocess.Popen([MOSQUITTO, "-c", self.conf], stdout=self.log,
                                     stderr=subprocess.STDOUT)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                socket.create_connection(self.address, 0.2).close()
                return
            except OSError:
                assert self.proc.poll() is None, open(self.log.name).read()
                time.sleep(0.05)
        raise AssertionError("mosquitto did not listen on %d" % self.port)

    def kill(self):
        """The broker dies at once (SIGKILL): what it had not saved is lost."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.log.close()

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
            self.log.close()
