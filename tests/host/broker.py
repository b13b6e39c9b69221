"""A real MQTT broker for the floor's tests: Debian's mosquitto on a free loopback port,
set up as `felt-floor init` sets up a floor's (host_tools.floor.broker: TLS, a password
each, nobody anonymous, each table under its own name only), its messages persisted in a
folder of the test's, so that it can be killed and started again on the same port.
`floor` is the floor service's credentials; `table(name)` gives a table its own."""

import os

from host_tools.floor.broker import LocalBroker


class Broker(LocalBroker):
    def __init__(self, folder):
        super().__init__(folder, persist=True,
                         log=open(os.path.join(folder, "mosquitto.log"), "ab"))

    def stop(self):
        super().stop()
        self.log.close()
