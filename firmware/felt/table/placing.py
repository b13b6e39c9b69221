"""Placing the button by the high card (19:47-14.10(c)2ii): one card to each seat with
chips, from the dealer's left; the highest takes the button.  Done once a session at
most, so loaded for each of its cards and forgotten after (felt.lazy), as the
controller's `cold`.
"""

from felt.poker import cards as C
from felt.poker.button import by_high_card, next_seat


def _next(ctl):
    return next_seat(ctl.placing[-1][0] if ctl.placing else -1, ctl.seated())


def want(ctl, p=None):
    """Ask the shoe for the next seat's card."""
    ctl.hal.card_reader.want("button", _next(ctl))


def card(ctl, code):
    """A card read for the button: the next seat's; the button once every seat has one."""
    try:
        c = C.parse(code)
    except C.CardError as e:
        return str(e)
    if c in [x for _, x in ctl.placing]:
        return "card %s already seen" % code
    seat = _next(ctl)
    ctl.placing.append((seat, c))
    ctl.evt({"e": "dealt", "what": "button", "seat": seat, "card": C.code(c)})
    if len(ctl.placing) < sum(ctl.seated()):
        want(ctl)
        return None
    ctl.place_button(by_high_card(ctl.placing), "high_card")
    ctl.start_shuffle()  # the placing cards go back into the deck
    return None
