"""Files read back from a Pico's flash: its littlefs filesystem as felt-flash pico lays
it out (host_tools.flash: FS_ADDRESS, FS_BLOCK, FS_BLOCKS, FS_PROG)."""

from littlefs import LittleFS

from felt import image as board_image
from host_tools import flash


def _mounted(data):
    fs = LittleFS(block_size=flash.FS_BLOCK, block_count=flash.FS_BLOCKS,
                  prog_size=flash.FS_PROG, mount=False)
    fs.context.buffer = bytearray(data)
    fs.mount()
    return fs


def add(image, files):
    """`files` ({name: bytes}, folders made as needed; {name: None}, the file removed)
    written into the filesystem image in the file `image`, as whoever reaches the USB
    REPL could put them on a board."""
    with open(image, "rb") as f:
        fs = _mounted(f.read())
    for name, content in sorted(files.items()):
        if content is None:
            try:
                fs.remove(name)
            except FileNotFoundError:
                pass
            continue
        parts = name.split("/")
        for i in range(1, len(parts)):
            try:
                fs.mkdir("/".join(parts[:i]))
            except FileExistsError:
                pass
        with fs.open(name, "wb") as f:
            f.write(content)
    fs.unmount()
    with open(image, "wb") as f:
        f.write(bytes(fs.context.buffer))


def read(data, path):
    """A file's bytes from a whole flash's bytes (or the filesystem's own), or None."""
    size = flash.FS_BLOCK * flash.FS_BLOCKS
    if len(data) > size:
        offset = flash.FS_ADDRESS - board_image.XIP
        data = data[offset:offset + size]
    fs = _mounted(data)
    try:
        with fs.open(path.strip("/"), "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None
