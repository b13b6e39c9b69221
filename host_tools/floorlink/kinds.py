"""What the floor takes from a table, field by field: every kind of event a board says
(docs/protocol.md, "Events"; host_tools.words puts them in words) and the one the table's
tool adds (`record`), the event message around them, and the table's state, as JSON
Schema checked by jsonschema before anything is stored.

One table, KINDS: each kind's fields and what each may hold, a name ending in `?` for a
field the board leaves out at times.  The bounds are the columns' (whole numbers within
PostgreSQL's `integer`, strings within their `varchar`) and the page's (a time within
sane years, text of a bounded length), so that a message that passes is stored as it is
and can always be shown.  A field no kind names is refused too: every field is checked.
"""

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import relevance

INT_MAX = 2**31 - 1              # PostgreSQL's integer; a MicroPython board's ints fit


def _whole(low=-INT_MAX - 1, high=INT_MAX):
    return {"type": "integer", "minimum": low, "maximum": high,
            "description": "a whole number from %d to %d" % (low, high)}


def _text(most, what="text"):
    return {"type": "string", "maxLength": most,
            "description": "%s of up to %d characters" % (what, most)}


def _one_of(*words):
    return {"enum": list(words), "description": "one of " + ", ".join(
        "null" if w is None else w for w in words)}


def _list(item, most=64):
    return {"type": "array", "items": item, "maxItems": most,
            "description": "a list of up to %d, each %s" % (most, item["description"])}


def _or_null(schema):
    return {"anyOf": [{"type": "null"}, schema],
            "description": schema["description"] + ", or null"}


WHOLE = _whole()
COUNT = _whole(0)
SEAT = _whole(-1, 99)            # -1: none, or the dealer at a house-banked table
FLAG = {"type": "boolean", "description": "true or false"}
CODE = {"type": "string", "pattern": "^[a-z0-9_]{1,32}$",
        "description": "a code of up to 32 letters, digits or _"}
WORDS = _text(200, "words")      # a street's or a hand's name, a section
TEXT = _text(2000)               # why, a detail
CARDS = {"type": "string", "maxLength": 400,
         "pattern": "^([2-9TJQKA][cdhs]( [2-9TJQKA][cdhs])*)?$",
         "description": "card codes (As Td ...) separated by spaces"}
DECK = _one_of("A", "B")
PAIRS = _list({"type": "array", "prefixItems": [WHOLE, WHOLE], "items": False,
               "minItems": 2, "description": "a pair of whole numbers"})
# A time in seconds since 1970, within sane years (to 2100): a page draws it.
TIME = {"type": "number", "minimum": 0, "maximum": 4102444800,
        "description": "seconds since 1970, before 2100"}
# A rule change's settings: cfg's (docs/protocol.md 6.1), nested a little.
SETTING = {"$ref": "#/$defs/setting"}
SETTINGS = {"type": "object", "maxProperties": 32, "additionalProperties": SETTING,
            "description": "settings of a table's configuration"}
SETTING_DEFS = {"setting": {"anyOf": [
    {"type": "null"}, FLAG, WHOLE, WORDS,
    {"type": "array", "maxItems": 64, "items": SETTING},
    {"type": "object", "maxProperties": 32, "additionalProperties": SETTING}],
    "description": "a setting's value"}}

RECORD_MOST = 200_000            # characters of a round's record (a PHH file or so)

KINDS = {
    "button": {"seat": SEAT, "how": CODE},
    "hand": {"hand": COUNT, "button": SEAT, "stacks": _list(WHOLE), "wagers?": PAIRS},
    "post": {"seat": SEAT, "kind": CODE, "amount": WHOLE, "all_in": FLAG},
    "dealt": {"what": CODE, "seat": SEAT, "card?": CARDS},
    "reshuffle": {"cards?": CARDS, "count?": COUNT},
    "discarded": {"seat": SEAT, "cards?": {"anyOf": [CARDS, COUNT],
                                           "description": "card codes, or how many"},
                  "count?": COUNT, "section?": WORDS},
    "rake": {"amount": WHOLE},
    "time_charge": {"charges": _list(WHOLE)},
    "street": {"name": WORDS},
    "runout": {"n": COUNT, "of": COUNT, "board": CARDS},
    "to_act": {"seat": SEAT, "legal": _list(CODE), "min?": WHOLE, "max?": WHOLE},
    "action": {"seat": SEAT, "a": CODE, "amount": WHOLE, "all_in": FLAG},
    "return": {"seat": SEAT, "amount": WHOLE, "kind?": CODE, "section?": WORDS},
    "show": {"seat": SEAT, "cards": CARDS, "high?": WHOLE, "low?": WHOLE, "hand?": WORDS,
             "low_hand?": WORDS, "value?": WHOLE},
    "award": {"pot": COUNT, "seat": SEAT, "amount": WHOLE, "share": CODE},
    "end": {"hand": COUNT, "button": SEAT, "stacks": _list(WHOLE), "winners": _list(SEAT),
            "board": CARDS, "rake": COUNT, "called_off": _one_of(None, "void", "dead",
                                                                  "misdeal"),
            "deck?": DECK, "house?": WHOLE, "house_round?": WHOLE, "results?": PAIRS},
    "refused": {"what": CODE, "why": TEXT},
    "waiting": {"for": CODE, "deck": DECK},
    "shuffled": {"how": CODE, "deck": DECK},
    "irregularity": {"kind": CODE, "section": WORDS, "detail": TEXT},
    "refund": {"seat": SEAT, "amount": WHOLE, "kind?": CODE, "section?": WORDS},
    "dead_hand": {"seat": SEAT},
    "exposed": {"seat": SEAT, "card": CARDS},
    "shuffler": {"present": FLAG},
    "shoe": {"present": FLAG},
    "deck": {"registered": DECK, "in_play": DECK},
    "link": {"lost": FLAG},
    "cleared": {"kept": TEXT},
    "rules": {"state": CODE, "changes": SETTINGS, "at?": WHOLE, "why?": TEXT},
    "locked": {"code": CODE, "why": TEXT},
    "resumed": {"hand": COUNT, "state": CODE, "events": COUNT},
    # A house-banked table's own (docs/protocol.md 6.4); return, refund, discarded,
    # show and end above take its fields too.
    "wagers": {"seat": SEAT, "ante": WHOLE, "side": WHOLE},
    "wager": {"seat": SEAT, "kind": CODE, "amount": WHOLE},
    "decide": {"name": CODE, "seats": _list(SEAT), "legal": _list(_list(CODE))},
    "fold": {"seat": SEAT},
    "check": {"seat": SEAT},
    "held": {"card?": CARDS, "section": WORDS},
    "collect": {"seat": SEAT, "kind": CODE, "amount": WHOLE, "section": WORDS},
    "pay": {"seat": SEAT, "kind": CODE, "amount": WHOLE, "section": WORDS},
    "muck": {"seat": SEAT},
    # The table's tool's: a round's record, the event after its end (publisher).
    "record": {"hand": COUNT, "format": _one_of("phh", "banked"),
               "text": _text(RECORD_MOST)},
}

# The message an event comes in (host_tools.floorlink.wire); its kind checked first.
ENVELOPE = {"run": _text(64, "a name"), "n": _whole(1), "at": TIME,
            "event": {"type": "object", "required": ["e"],
                      "properties": {"e": {"type": "string", "maxLength": 32,
                                           "description": "a kind of event"}},
                      "description": "an object with its kind in e"}}

# The table as its tool shows it (host_tools.floorlink.table_state), retained.
STATE = {"table": _text(64, "a name"), "game?": _or_null(_text(32, "a game's name")),
         "seats?": _or_null(COUNT), "stakes?": _or_null(WORDS),
         "status": _one_of("playing", "idle", "tilted"), "hand": _or_null(COUNT),
         "button": _or_null(SEAT), "stacks": _list(WHOLE), "pot": WHOLE,
         "to_act": _or_null(SEAT),
         "tilt": _or_null({"type": "object", "additionalProperties": False,
                           "required": ["code", "why", "clears"],
                           "properties": {"code": CODE, "why": TEXT, "clears": TEXT},
                           "description": "a tilt: its code, why and what clears it"}),
         "hands": COUNT, "rake": WHOLE, "house": _or_null(WHOLE), "board": CARDS,
         "centre": _or_null(WORDS), "at": TIME}


def _object(fields, kind=None):
    """The schema of an object of these fields (`name?`: may be left out), no other."""
    properties = {f.rstrip("?"): schema for f, schema in fields.items()}
    if kind is not None:
        properties["e"] = {"const": kind}
    return {"type": "object", "properties": properties, "additionalProperties": False,
            "required": [f for f in properties if f + "?" not in fields],
            "$defs": SETTING_DEFS}


# JSON's whole numbers only: 1.0 is a number, not a count (jsonschema takes it for one).
_Checker = validators.extend(Draft202012Validator, type_checker=Draft202012Validator
                             .TYPE_CHECKER.redefine("integer",
                                                    lambda _, v: type(v) is int))
_EVENTS = {kind: _Checker(_object(fields, kind)) for kind, fields in KINDS.items()}
_ENVELOPE = _Checker(_object(ENVELOPE))
_STATE = _Checker(_object(STATE))


class Unfit(ValueError):
    """A message that is not as KINDS says: `field` (a dotted path) and what it takes."""

    def __init__(self, field, why):
        super().__init__("%s: %s" % (field, why))
        self.field = field


def check_event_message(m):
    """Raise Unfit unless `m` is an event message whose event is of a known kind with
    every field as KINDS says."""
    _check(_ENVELOPE, m, "")
    kind = m["event"]["e"]
    if kind not in _EVENTS:
        raise Unfit("event.e", "%r is not a kind of event the floor knows" % kind[:32])
    _check(_EVENTS[kind], m["event"], "event.")


def check_state(m):
    _check(_STATE, m, "state.")


def _check(validator, instance, prefix):
    # The most telling error, not one of an anyOf's branches: its description says all.
    error = max(validator.iter_errors(instance), key=relevance, default=None)
    if error is None:
        return
    path = [str(p) for p in error.absolute_path]
    if error.validator == "required":
        missing = [f for f in error.validator_value if f not in error.instance]
        raise Unfit(prefix + ".".join(path + missing[:1]), "missing")
    if error.validator == "additionalProperties":
        known = error.schema.get("properties", {})
        extra = sorted(str(f) for f in error.instance if f not in known)[0]
        raise Unfit(prefix + ".".join(path + [extra[:32]]), "not a field of this message")
    raise Unfit(prefix + ".".join(path) if path else prefix.rstrip(".") or "message",
                error.schema.get("description") or error.message[:200])
