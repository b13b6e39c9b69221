"""Files read back from a Pico's flash: its littlefs filesystem as felt-flash pico lays
it out (host_tools.flash: FS_ADDRESS, FS_BLOCK, FS_BLOCKS, FS_PROG)."""

from littlefs import LittleFS

from felt import image as board_image
from host_tools import flash


def read(data, path):
    """A file's bytes from a whole flash's bytes (or the filesystem's own), or None."""
    size = flash.FS_BLOCK * flash.FS_BLOCKS
    if len(data) > size:
        offset = flash.FS_ADDRESS - board_image.XIP
        data = data[offset:offset + size]
    fs = LittleFS(block_size=flash.FS_BLOCK, block_count=flash.FS_BLOCKS,
                  prog_size=flash.FS_PROG, mount=False)
    fs.context.buffer = bytearray(data)
    fs.mount()
    try:
        with fs.open(path.strip("/"), "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None
