"""The dealer's display (felt.hal.display): only the lines whose text changed go over the
bus, each as its page; a display that stops answering is drawn whole when it answers."""

from felt.hal.display import TextDisplay


class Oled:
    """ssd1306.SSD1306_I2C's surface as TextDisplay uses it, recording the bus traffic."""

    def __init__(self, width=128, height=64):
        self.width = width
        self.buffer = bytearray(width * height // 8)
        self.cmds = []
        self.data = []
        self.texts = {}
        self.fail = False

    def fill_rect(self, x, y, w, h, c):
        self.texts.pop(y, None)

    def text(self, s, x, y, c):
        self.texts[y] = s
        for i in range(len(s)):          # a mark per character, in the line's page
            self.buffer[(y // 8) * self.width + 8 * i] = ord(s[i])

    def write_cmd(self, cmd):
        if self.fail:
            raise OSError(5)
        self.cmds.append(cmd)

    def write_data(self, buf):
        self.data.append(bytes(buf))


def test_only_the_changed_lines_are_sent_each_in_its_own_page():
    oled = Oled()
    d = TextDisplay(oled, 8)
    d.show(["a"] * 8)
    assert len(oled.data) == 8 and all(len(b) == 128 for b in oled.data)
    oled.cmds, oled.data = [], []
    d.show(["a", "b", "a", "a", "a", "c", "a", "a"])
    assert oled.cmds == [0x21, 0, 127, 0x22, 1, 1, 0x21, 0, 127, 0x22, 5, 5]
    assert oled.data[0][0] == ord("b") and oled.data[1][0] == ord("c")
    assert oled.texts[8] == "b" and oled.texts[40] == "c"


def test_a_narrow_display_is_drawn_in_its_centred_columns():
    oled = Oled(64, 32)
    d = TextDisplay(oled, 4)
    d.show(["x", "", "", ""])
    assert oled.cmds[:6] == [0x21, 32, 95, 0x22, 0, 0]


def test_a_display_that_stops_answering_is_drawn_whole_when_it_answers_again():
    oled = Oled()
    d = TextDisplay(oled, 8)
    d.show(["a"] * 8)
    oled.fail = True
    d.show(["b"] * 8)
    assert d.errors == 1
    oled.fail, oled.data = False, []
    d.show(["b"] * 8)
    assert len(oled.data) == 8
