"""A real MQTT broker for the floor's tests: Debian's mosquitto on a free loopback port
(host_tools.floor.demo.broker), its messages persisted in a folder of the test's, so
that it can be killed and started again on the same port."""

import os
import signal

from host_tools.floor.demo import broker, free_port


class Broker:
    def __init__(self, folder):
        self.folder = folder
        self.port = free_port()
        self.address = ("127.0.0.1", self.port)
        self.proc = None
        self.start()

    def start(self):
        self.log = open(os.path.join(self.folder, "mosquitto.log"), "ab")
        self.proc, _ = broker(self.folder, self.port, persist=True, log=self.log)

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
