"""Checks of what comes from outside (link frames, the configuration, board files), the
same on every runtime.

Two things differ between CPython and MicroPython and must never reach a verdict: a
bool is an int on CPython but not on MicroPython, so `is_whole` refuses booleans on
both; and exception texts (a KeyError's, a TypeError's) are worded differently, so a
refusal is always a `Refused` carrying a sentence of ours, never an exception's text.
Values are shown as the link writes them (sorted keys), never by repr.
"""

from felt import protocol

# The most chips one amount may be: eleven stacks together stay small ints (2**30) on
# a 32-bit board, so no sum of chips allocates.
MAX_CHIPS = 10000000


class Refused(ValueError):
    """An input refused; str() is the reason, a sentence."""


class ConfigError(Refused):
    """A table setting the rules or the hardware cannot honour."""


def is_whole(v):
    return isinstance(v, int) and v is not True and v is not False


def whole(v, what, lo=0, hi=MAX_CHIPS):
    """`v` if it is a whole number lo..hi; Refused naming `what` otherwise."""
    if not is_whole(v):
        raise Refused("%s must be a whole number, not %s" % (what, shown(v)))
    if not lo <= v <= hi:
        raise Refused("%s must be %d to %d, not %d" % (what, lo, hi, v))
    return v


def flag(v, what):
    if v is not True and v is not False:
        raise Refused("%s must be true or false, not %s" % (what, shown(v)))
    return v


def given(d):
    """The object `d` without its null fields: null stands for a field left out (its
    default) in every optional field of a message and of the configuration; a required
    field null is refused as missing, naming it.  `d` itself when it holds no null."""
    for k in d:
        if d[k] is None:
            return dict([(k, v) for k, v in d.items() if v is not None])
    return d


def field(p, key, what):
    """p[key], or Refused: `what` lacks it."""
    if key not in p:
        raise Refused("%s lacks '%s'" % (what, key))
    return p[key]


def shown(v):
    """`v` as the link writes it: the same text on every runtime."""
    try:
        text = protocol.dumps(v)
    except ValueError:
        return "a value of the wrong type"
    return text if len(text) <= 40 else text[:37] + "..."
