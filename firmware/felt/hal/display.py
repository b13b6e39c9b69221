"""The dealer's display: lines of text on an SSD1306 OLED (micropython-lib's driver,
frozen into the Pico image), 8 pixels a line in framebuf's 8x8 font.  Only the lines
whose text changed go over the bus, each as its page of the display's memory: a whole
frame is 1 KB, 23 ms of a 400 kHz bus, a line 128 bytes."""


class TextDisplay:
    """`rows` lines of text on `oled`, an ssd1306.SSD1306_I2C (a framebuf.FrameBuffer
    with `write_cmd` and `write_data`); `show(lines)` draws what changed."""

    def __init__(self, oled, rows):
        self.oled = oled
        self.rows = rows
        self.shown = [None] * rows
        self.errors = 0
        self._page = memoryview(oled.buffer)
        self._x0 = (128 - oled.width) // 2   # a narrow display's columns are centred

    def show(self, lines):
        """Draw the lines that changed.  A display that stops answering (unplugged) is
        counted in `errors` and drawn whole again when it answers: never a fault of the
        table's."""
        oled = self.oled
        w = oled.width
        for i in range(self.rows):
            text = lines[i]
            if text == self.shown[i]:
                continue
            y = 8 * i
            oled.fill_rect(0, y, w, 8, 0)
            oled.text(text, 0, y, 1)
            try:
                # The page's window (COLUMN_ADDR, PAGE_ADDR), then its bytes.
                for cmd in (0x21, self._x0, self._x0 + w - 1, 0x22, i, i):
                    oled.write_cmd(cmd)
                oled.write_data(self._page[w * i:w * (i + 1)])
            except OSError:
                self.errors += 1
                self.shown = [None] * self.rows
                return
            self.shown[i] = text
