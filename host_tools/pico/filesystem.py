"""A Pico's filesystem, as felt-flash pico lays it out and the rp2 port mounts it: its
place and shape in the flash (FS_*), an image of it made from a folder
(`littlefs_image`), files written into an image (`add`) and read back from a flash
(`read`)."""

from littlefs import LittleFS

from felt import image as board_image

# The rp2 port's filesystem on a Pico (RPI_PICO: MICROPY_HW_FLASH_STORAGE_BYTES, the
# last 1408 KB of the 2 MB flash), as its _boot.py mounts it: littlefs, 4 KB blocks,
# written 256 bytes at a time.
FS_ADDRESS = board_image.XIP + board_image.MAX_FIRMWARE
FS_BLOCK, FS_BLOCKS, FS_PROG = 4096, 352, 256


def littlefs_image(folder):
    """The bytes of a Pico's filesystem holding the files in `folder` at its root."""
    fs = LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, prog_size=FS_PROG)
    for path in sorted(folder.iterdir()):
        with fs.open(path.name, "wb") as f:
            f.write(path.read_bytes())
    return bytes(fs.context.buffer)


def _mounted(data):
    fs = LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, prog_size=FS_PROG,
                  mount=False)
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
    size = FS_BLOCK * FS_BLOCKS
    if len(data) > size:
        offset = FS_ADDRESS - board_image.XIP
        data = data[offset:offset + size]
    fs = _mounted(data)
    try:
        with fs.open(path.strip("/"), "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None
