"""The board's LED strip as the host reads it from the firmware's `px` frames: the
emulator's table, felt-console and the floor's view of a table (TableState) show it."""

from felt.table import scenes


class LedStrip:
    """The last frame the firmware wrote, decoded to (r, g, b) per LED."""

    def __init__(self, leds):
        self.leds = leds
        self.frame = []

    def capture(self, rgb_hex):
        raw = bytes.fromhex(rgb_hex)
        self.frame = [tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)]

    def seat_status(self, seat):
        return scenes.seat_status(self.frame, self.leds, seat)

    def button_seat(self):
        return scenes.button_seat(self.frame, self.leds)
