"""What each message may hold (docs/protocol.md, section 6.1), checked whole before a
handler changes anything: no unknown key, none missing, every value of its type and
range, card codes and deck names valid.  A message that passes can still be refused
by the rules (out of turn, no card due); one that fails changes nothing.

`cfg` is checked by felt.table.config, which builds a new configuration and leaves the
table's as it was until it is whole.

Null is the same in every field of every message: the field left out, so an optional
field takes its default and a required one is missing (check.given).  In `rules`, a
setting null goes back to its default (leaving it out keeps it as it is).
"""

from felt import check
from felt.poker import cards as C

MAX_SEAT = 10            # seats 0..10: 11 at most (13:69F-14.10(b))
MAX_TEXT = 40            # a free-text field (a dead round's reason, a session name)
MAX_MINUTES = 100000000  # table time: about 190 years of minutes
DECKS = ("A", "B")
SEAT_BUTTONS = ("fold", "call", "raise")
PANEL = ("deal", "cut_done", "hand_shuffle_done", "shuffler_removed", "misdeal",
         "exposed", "off_table", "ineligible", "dead_round", "player_away", "foul",
         "miscount", "dealer_exposed")
SHUFFLER_STATES = ("idle", "shuffling", "done", "jammed")
SHOE_STATES = ("ok", "jam", "stop", "incomplete")


def _seat(v, what):
    check.whole(v, what, 0, MAX_SEAT)


def _chips(v, what):
    check.whole(v, what, 0, check.MAX_CHIPS)


def _chip(v, what):
    check.whole(v, what, 1, check.MAX_CHIPS)


def _minutes(v, what):
    check.whole(v, what, 0, MAX_MINUTES)


def _deck_count(v, what):
    check.whole(v, what, 0, 2 * C.DECK_SIZE)


def _card(v, what):
    C.parse(v)


def _cards(v, what):
    """A string of codes separated by spaces ("" for none), each a card, none twice."""
    if not isinstance(v, str) or len(v) > 3 * C.DECK_SIZE:
        raise check.Refused("%s must be a string of card codes such as 'As Kd'" % what)
    _distinct(v.split(), what)


def _card_list(v, what):
    if not isinstance(v, list) or len(v) > C.DECK_SIZE:
        raise check.Refused("%s must be a list of at most %d card codes" % (what, C.DECK_SIZE))
    _distinct(v, what)


def _distinct(codes, what):
    seen = bytearray(C.DECK_SIZE)
    for code in codes:
        card = C.parse(code)
        if seen[card]:
            raise check.Refused("%s names %s twice" % (what, code))
        seen[card] = 1


def _text(v, what):
    if not isinstance(v, str) or not 0 < len(v) <= MAX_TEXT:
        raise check.Refused("%s must be a text of 1 to %d characters" % (what, MAX_TEXT))


def _object(v, what):
    if not isinstance(v, dict):
        raise check.Refused("%s must be an object" % what)


def _hex(least, most, said):
    """Bytes in lower-case hex, `least` to `most` of them: a signature, a key, a seed."""
    def checker(v, what):
        if not isinstance(v, str) or not 2 * least <= len(v) <= 2 * most or len(v) % 2 or \
                [c for c in v if c not in "0123456789abcdef"]:
            raise check.Refused("%s must be %s in lower-case hex" % (what, said))
    return checker


def _one_of(choices):
    def checker(v, what):
        if v not in choices or not isinstance(v, str):
            raise check.Refused("%s must be one of %s, not %s"
                                % (what, ", ".join(choices), check.shown(v)))
    return checker


# kind: {key: (required, checker)}
SPECS = {
    "hello": {"session": (False, _text)},
    "state": {},
    "sign": {},
    "heap": {},
    "eventlog": {"from": (False, check.whole)},
    "challenge": {},
    "verify": {"seed": (True, _hex(16, 64, "16 to 64 bytes"))},
    "clear": {},
    "root": {"doc": (True, _object), "sig": (True, _hex(64, 64, "64 bytes"))},
    "service": {},
    "tech": {"cmd": (True, _one_of(("cfg", "rules", "deck", "clear", "recall", "eventlog",
                                    "root", "service"))),
             "body": (True, _object),
             "key": (True, _hex(4, 4, "the signing key's id: 4 bytes")),
             "nonce": (True, _hex(8, 8, "a challenge of this board's: 8 bytes")),
             "mac": (True, _hex(32, 32, "32 bytes")),
             "sig": (True, _hex(64, 64, "64 bytes"))},
    "recall": {"round": (False, check.whole), "from": (False, check.whole)},
    "public": {"round": (False, check.whole), "from": (False, check.whole)},
    "btn": {"seat": (True, _seat), "b": (True, _one_of(SEAT_BUTTONS)), "to": (False, _chips)},
    "wager": {"seat": (True, _seat), "ante": (False, _chips), "side": (False, _chips)},
    "discard": {"seat": (True, _seat), "cards": (True, _cards)},
    "chip": {"seat": (True, _seat), "amount": (True, _chip), "announced": (False, check.flag)},
    "clock": {"minutes": (True, _minutes)},
    "dealer": {"b": (True, _one_of(PANEL)), "why": (False, _text), "card": (False, _card),
               "seat": (False, _seat)},
    "card": {"code": (True, _card), "deck": (False, _one_of(DECKS)),
             "face_up": (False, check.flag)},
    "shoe": {"state": (False, _one_of(SHOE_STATES)), "present": (False, check.flag)},
    "deck": {"register": (True, _one_of(DECKS))},
    "shuf": {"state": (False, _one_of(SHUFFLER_STATES)), "present": (False, check.flag),
             "count": (False, _deck_count), "missing": (False, _card_list),
             "extra": (False, _card_list)},
}


def why_not(kind, payload):
    """None if the message is well formed, else why not (a sentence); `cfg` and kinds
    without a spec are left to their handlers.  A null field is one left out
    (check.given): a required one is missing, an optional one takes its default."""
    spec = SPECS.get(kind)
    if spec is None:
        return None
    try:
        for key in sorted(payload):    # the first bad key by name, on every runtime
            if key not in spec:
                raise check.Refused("%s takes no %s" % (kind, check.shown(key)))
            if payload[key] is not None:     # null: left out (check.given)
                spec[key][1](payload[key], "%s %s" % (kind, key))
        for key in sorted(spec):
            if spec[key][0] and payload.get(key) is None:
                raise check.Refused("%s lacks %s" % (kind, key))
    except check.Refused as e:
        return str(e)
    return None


def taken(kind, payload):
    """The payload as its handler takes it, once why_not() passed it: without its null
    fields (check.given).  `cfg` and `rules` as sent: felt.table.config reads their nulls
    (in `rules`, a setting back to its default)."""
    return check.given(payload) if kind in SPECS else payload
