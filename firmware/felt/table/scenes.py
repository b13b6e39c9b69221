"""LED scenes: what the NeoPixel chain shows for the table's state.

Each seat has a segment of the chain and the centre has one (hardware/boards/*.json).
A seat's segment shows its status in one colour; the first LED of the button seat's
segment is white, the dealer button.  The centre shows what the table waits for.
The emulator reads frames back with `seat_status` and `button_seat`, so these colours
are the one definition both sides use.
"""

OFF = (0, 0, 0)
BUTTON = (255, 255, 255)
# Seat statuses, in the order of SEAT_COLOURS.
EMPTY = 0       # no chips, or not dealt in
WAITING = 1     # in the round, not their turn
ACTION = 2      # the action is on this seat
FOLDED = 3
ALL_IN = 4
WINNER = 5
SEAT_COLOURS = ((0, 0, 0), (24, 24, 24), (255, 150, 0), (40, 0, 0), (0, 0, 255), (0, 255, 0))
SEAT_NAMES = ("empty", "waiting", "action", "folded", "all-in", "winner")
# Centre statuses: what the table waits for, at a glance.
IDLE = 0        # between rounds: press deal
SHUFFLING = 1
DEALING = 2     # waiting for a card from the shoe
BETTING = 3
HAND_SHUFFLE = 4  # the shuffler failed: remove it and shuffle by hand (20.38(o), (p))
CUT = 5         # waiting for the cut
CALLED_OFF = 6  # the last round was void, dead or a misdeal: money returned
SHOE_OUT = 7    # the dealing shoe failed: remove it (19:47-27.12(g))
NO_DECK = 8     # both decks retired: a technician registers one (20.38(h))
NOTICE = 9      # a card irregularity was just handled: see the log
LOCKED = 10     # play stopped: the table cannot vouch for its state (see the log)
CENTRE_COLOURS = ((0, 24, 0), (120, 0, 120), (0, 120, 120), (0, 0, 0),
                  (255, 80, 0), (200, 200, 0), (255, 0, 0), (255, 0, 120),
                  (60, 60, 255), (255, 255, 255), (120, 0, 0))
CENTRE_NAMES = ("idle", "shuffling", "dealing", "betting", "hand shuffle", "cut",
                "called off", "remove the shoe", "no deck", "irregularity", "locked")


def render(pixels, leds, seats, button, centre):
    """Write one frame: `seats` lists a status per seat, `button` is a seat or -1."""
    segments = leds["seats"]
    for seat in range(len(segments)):
        start, count = segments[seat]
        status = seats[seat] if seat < len(seats) else EMPTY
        colour = SEAT_COLOURS[status]
        for i in range(start, start + count):
            pixels[i] = colour
        if seat == button:
            pixels[start] = BUTTON
    start, count = leds["centre"]
    colour = CENTRE_COLOURS[centre]
    for i in range(start, start + count):
        pixels[i] = colour
    pixels.write()


def seat_status(frame, leds, seat):
    """The status a frame (a list of (r, g, b)) shows for a seat, or -1 if unknown."""
    start, count = leds["seats"][seat]
    colour = tuple(frame[start + count - 1])
    for status in range(len(SEAT_COLOURS)):
        if SEAT_COLOURS[status] == colour:
            return status
    return -1


def centre_status(frame, leds):
    """The centre status a frame shows, or -1 if unknown."""
    colour = tuple(frame[leds["centre"][0]])
    for status in range(len(CENTRE_COLOURS)):
        if CENTRE_COLOURS[status] == colour:
            return status
    return -1


def button_seat(frame, leds):
    for seat in range(len(leds["seats"])):
        if tuple(frame[leds["seats"][seat][0]]) == BUTTON:
            return seat
    return -1
