# The Pico image's frozen modules (`make pico` passes this file as FROZEN_MANIFEST to
# MicroPython's rp2 port): the port's own (asyncio, neopixel, the filesystem's mount),
# then Felt.  Frozen bytecode runs from flash, so the heap holds only the program's data,
# and the board's filesystem keeps only data (docs/board.md, "Flashing a Pico").
include("$(PORT_DIR)/boards/manifest.py")
# -O3 as felt-flash compiles the unix port's .mpy files: the same program on both.
package("felt", base_path="..", opt=3)
# The dealer's display (felt.hal.display): micropython-lib's SSD1306 driver, as released
# with this MicroPython (its lib/micropython-lib).
require("ssd1306", opt=3)
# The port runs a frozen main.py or boot.py in place of one on the filesystem
# (pyexec_file_if_exists), so freezing both leaves nothing there that the board runs.
# Both are the Pico's own (this folder): boot.py runs the table before USB starts.
module("main.py", opt=3)
module("boot.py", opt=3)
