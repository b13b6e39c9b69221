"""A connection to the floor's MQTT broker (paho-mqtt), as the table's publisher and the
floor service both keep one: it logs in with its credentials over TLS
(host_tools.floorlink.credentials), connects in the background and again whenever the
broker comes back, and says once what happened to it (refused, unreachable, away)."""

import threading

import paho.mqtt.client as mqtt


class Connection:
    AWAY = "the broker is away (%s)"       # what a subclass adds: what waits meanwhile

    def __init__(self, credentials, say, clean_session=True, keepalive=10, will=None):
        """`credentials`: a Credentials (the broker's address, a user, the floor's CA;
        the broker takes the user's name as the client's id); `will`: (topic, payload)
        the broker publishes, retained, should the connection drop without a goodbye."""
        self.broker = credentials.broker
        self.say = say
        self.connected = threading.Event()
        self._unreachable = False
        self._refused = None
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=credentials.user, clean_session=clean_session)
        credentials.apply(self.client)
        if will is not None:
            self.client.will_set(will[0], will[1], qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_message = lambda client, userdata, message: self.message(message)
        self.client.reconnect_delay_set(min_delay=1, max_delay=5)
        self.client.connect_async(*self.broker, keepalive=keepalive)

    def on_broker(self):
        """Connected (again): subscribe and publish what the connection starts with."""

    def message(self, message):
        """A message on a topic subscribed to."""

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            if self._refused != str(reason):        # said once, until it changes
                self._refused = str(reason)
                self.say("the broker at %s:%d refused the connection: %s" % (
                    self.broker + (reason,)))
            return
        self._unreachable = False
        self._refused = None
        self.on_broker()
        self.connected.set()

    def _on_disconnect(self, client, userdata, flags, reason, properties):
        if self.connected.is_set() and reason.is_failure:   # not our own goodbye
            self.say(self.AWAY % reason)
        self.connected.clear()

    def _on_connect_fail(self, client, userdata):
        if not self._unreachable:           # said once, until it is reached
            self._unreachable = True
            self.say("no broker answers at %s:%d (or not with the floor's certificate): "
                     "tried again every few seconds" % self.broker)
