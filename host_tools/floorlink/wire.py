"""What a table and the floor say to each other on the MQTT broker (docs/floor.md): the
topics, the messages' shapes, and what of a table's events leaves it.

    felt/<table>/online   retained; "true", or "false" (the table's last will: it dropped)
    felt/<table>/state    retained; the table as the floor shows it (TableState.snapshot)
    felt/<table>/event    QoS 1; {"run", "n", "at", "event"}: the table's n-th event of
                          its run, n from 1 without a gap
    felt/<table>/stored   retained, from the floor; {"run", "n"}: every event of that run
                          up to n is stored, so the table may forget them

A run is one spool's life (host_tools.floorlink.publisher): the table names it once and
numbers its events on, across restarts of the table's tool and of the broker, so the
floor stores each event once, whatever is sent twice.

A table's hole cards are not the floor's business until they are shown: a card dealt
face down, burnt, thrown away or put back into the stub leaves the table without its
face (`redacted`).
"""

import json
import re

from host_tools.floorlink import kinds

ROOT = "felt"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# Events whose cards are face down at the table: sent without them.
HIDDEN_DEALS = ("hole", "burn", "dealer")


class Malformed(ValueError):
    """A message on a felt topic that is not what this module says it is."""


def check_name(name):
    """A table's name as a topic level: letters, digits, `_`, `.`, `-`, up to 64."""
    if not NAME.match(name or ""):
        raise ValueError("%r: a table's name is letters, digits, _ . or -, up to 64, "
                         "starting with a letter or digit" % (name,))
    return name


def topic(table, what):
    return "%s/%s/%s" % (ROOT, table, what)


def parse_topic(text):
    """(table, what) of a felt topic; Malformed if it is not one."""
    parts = text.split("/")
    if len(parts) != 3 or parts[0] != ROOT or not NAME.match(parts[1]) or \
            parts[2] not in ("online", "state", "event", "stored"):
        raise Malformed("%s: not a felt topic (felt/<table>/online|state|event|stored)"
                        % text)
    return parts[1], parts[2]


def redacted(e):
    """The event as it may leave the table: without the faces of cards it keeps down."""
    k = e.get("e")
    if k in ("dealt", "held") and e.get("what", "hole") in HIDDEN_DEALS and "card" in e:
        return {f: v for f, v in e.items() if f != "card"}
    if k == "discarded" and e.get("seat", -1) >= 0 and e.get("cards"):
        return dict(e, cards=len(e["cards"].split()))
    if k == "reshuffle" and "cards" in e:
        return {"e": k, "count": len(e["cards"].split())}
    return e


def encode(payload):
    return json.dumps(payload, sort_keys=True, separators=(",", ":"))


def event_message(run, n, at, event):
    return encode({"run": run, "n": n, "at": at, "event": event})


def read_event(data):
    """(run, n, at, event) of an event message, every field checked
    (host_tools.floorlink.kinds); Malformed naming the field that is wrong."""
    m = _json(data)
    if not isinstance(m, dict):
        raise Malformed("an event message is {run, n, at, event}")
    try:
        kinds.check_event_message(m)
    except kinds.Unfit as e:
        raise Malformed(str(e)) from None
    return m["run"], m["n"], float(m["at"]), m["event"]


def read_stored(data):
    """(run, n) of a stored message; Malformed otherwise."""
    m = _json(data)
    if not isinstance(m, dict) or not isinstance(m.get("run"), str) or \
            type(m.get("n")) is not int or m["n"] < 0:
        raise Malformed("a stored message is {run, n}")
    return m["run"], m["n"]


def read_state(data):
    """The table's state (TableState.snapshot), every field checked."""
    m = _json(data)
    if not isinstance(m, dict):
        raise Malformed("a state message is an object")
    try:
        kinds.check_state(m)
    except kinds.Unfit as e:
        raise Malformed(str(e)) from None
    return m


def read_online(data):
    m = _json(data)
    if type(m) is not bool:
        raise Malformed("an online message is true or false")
    return m


def _json(data):
    """JSON, where NaN and Infinity (which Python's json takes, and the standard does
    not) are NOT_A_NUMBER: a value no field takes, so the check names its field."""
    try:
        return json.loads(data.decode() if isinstance(data, bytes) else data,
                          parse_constant=lambda word: NOT_A_NUMBER)
    except (UnicodeDecodeError, ValueError) as e:
        raise Malformed("not JSON: %s" % e)
    except RecursionError:
        raise Malformed("not JSON: nested too deep") from None


class _NotANumber:
    def __repr__(self):
        return "NaN"


NOT_A_NUMBER = _NotANumber()
