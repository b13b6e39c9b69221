"""The Pico's filesystem as MicroPython's rp2 port (RPI_PICO) lays it out: littlefs v2,
4096-byte blocks programmed 256 bytes at a time, 1408 KB at flash offset 0xA0000 (the
port's MICROPY_HW_FLASH_STORAGE_BYTES, the flash's last 1408 KB of 2 MB)."""

from pathlib import Path

from littlefs import LittleFS

OFFSET = 0xA0000
BLOCK = 4096
BLOCKS = 352
PROG = 256


def empty():
    return LittleFS(block_size=BLOCK, block_count=BLOCKS, prog_size=PROG)


def image(files):
    """The filesystem's bytes holding `files`, {path on the board: bytes}."""
    fs = empty()
    for path in sorted(files):
        parts = path.strip("/").split("/")
        for k in range(1, len(parts)):
            d = "/".join(parts[:k])
            try:
                fs.mkdir(d)
            except FileExistsError:
                pass
        with fs.open("/".join(parts), "wb") as f:
            f.write(files[path])
    return bytes(fs.context.buffer)


def write(board_path, out):
    """A developer's board (no keys: it takes commands unsigned): its definition alone."""
    Path(out).write_bytes(image({"board.json": Path(board_path).read_bytes()}))


def read(flash, path):
    """A file's bytes from a whole flash's (or the filesystem's own) bytes, or None."""
    data = flash[OFFSET:OFFSET + BLOCK * BLOCKS] if len(flash) > BLOCK * BLOCKS else flash
    fs = LittleFS(block_size=BLOCK, block_count=BLOCKS, prog_size=PROG, mount=False)
    fs.context.buffer = bytearray(data)
    fs.mount()
    try:
        with fs.open(path.strip("/"), "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None
