"""UF2 files, the format an RP2040 in BOOTSEL mode takes on its RPI-RP2 drive: 512-byte
blocks, each carrying 256 bytes for one flash address (github.com/microsoft/uf2).

    read(path)                      (address, bytes): the image one UF2 file writes
    write(path, address, data)      a UF2 file writing `data` at `address`
"""

import struct
from pathlib import Path

BLOCK = 512
PAYLOAD = 256
MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
FAMILY = 0x2000            # the flag saying the header carries a family id
RP2040 = 0xE48BFF56        # the RP2040's family id: the bootrom ignores any other
HEADER = struct.Struct("<8I")


class BadUF2(ValueError):
    """The file is not a whole UF2 for an RP2040: the message says why."""


def read(path):
    """(address, data) of the UF2 file at `path`: one contiguous image for an RP2040,
    whole (every block its count announces), as a picotool build writes it."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise BadUF2("cannot read it: %s" % (e.strerror or e))
    if not raw:
        raise BadUF2("it is empty")
    if len(raw) % BLOCK:
        raise BadUF2("truncated: %d bytes, not a whole number of %d-byte blocks"
                     % (len(raw), BLOCK))
    count = len(raw) // BLOCK
    start = data = None
    for n in range(count):
        block = raw[n * BLOCK:(n + 1) * BLOCK]
        m0, m1, flags, address, size, number, total, family = HEADER.unpack_from(block)
        if (m0, m1) != MAGIC[:2] or struct.unpack_from("<I", block, BLOCK - 4)[0] != MAGIC[2]:
            raise BadUF2("block %d is not a UF2 block (its magic numbers are wrong)" % n)
        if not flags & FAMILY or family != RP2040:
            raise BadUF2("block %d is not for an RP2040 (family %#x)" % (n, family))
        if size != PAYLOAD or number != n or total != count:
            raise BadUF2("truncated or reordered: block %d says it is %d of %d, the file "
                         "has %d" % (n, number, total, count))
        if start is None:
            start, data = address, bytearray()
        if address != start + len(data):
            raise BadUF2("block %d writes %#x, not the next address %#x"
                         % (n, address, start + len(data)))
        data += block[32:32 + PAYLOAD]
    return start, bytes(data)


def write(path, address, data):
    """Write `data` (a whole number of 256-byte pages) to the UF2 file `path`, for
    flash `address` on an RP2040."""
    if len(data) % PAYLOAD:
        raise ValueError("a UF2 carries whole %d-byte pages" % PAYLOAD)
    total = len(data) // PAYLOAD
    out = bytearray()
    for n in range(total):
        out += HEADER.pack(MAGIC[0], MAGIC[1], FAMILY, address + n * PAYLOAD, PAYLOAD, n,
                           total, RP2040)
        out += data[n * PAYLOAD:(n + 1) * PAYLOAD].ljust(476, b"\0")
        out += struct.pack("<I", MAGIC[2])
    Path(path).write_bytes(bytes(out))
