"""Program verification on demand, as a regulator's lab does it (docs/security.md): the
`verify` query carries a fresh random seed, and the board answers with
HMAC-SHA256(seed, its program), which `felt-flash verify` computes from the released
image on the host.  A fresh seed each time means an answer cannot be recorded and
played back; the program hashed is every part the signed manifest names, as it is on
the board now:

    the firmware (where felt is frozen into it: the manifest's size of it, from flash),
    then each file the manifest lists, by name, then manifest.json and manifest.sig;
    each part as its name, "\\n", its size in decimal, "\\n", then its bytes
    (a part that is missing: its name, "\\n-\\n").

Loaded for a `verify` query and forgotten after (felt.lazy), on a playing table and on a
tilted one alike.
"""

import binascii
import json

from felt import image, mac


def answer(root, seed):
    """The `verify` answer for the image in folder `root` (None: the table runs none)
    and the seed in hex: {"seed", "mac"}, the mac null where there is no image."""
    try:
        key = binascii.unhexlify(seed)
    except (ValueError, TypeError):
        key = b""
    if not 16 <= len(key) <= 64:      # a tilted board asks no other module to check it
        return {"seed": None, "mac": None, "why": "a seed is 16 to 64 bytes in hex"}
    digest = None
    if root is not None:
        digest = program_mac(root, key, image.flash if image.frozen() else None)
    if digest is None:
        return {"seed": seed, "mac": None, "why": "this table runs no signed image"}
    return {"seed": seed, "mac": binascii.hexlify(digest).decode()}


def program_mac(root, seed, firmware=None):
    """HMAC-SHA256 keyed by `seed` of the program in `root` (and the firmware, a
    function giving its first n bytes, where felt is frozen); None without a manifest
    this firmware reads."""
    manifest = image.manifest(root)
    if manifest is None:
        return None
    inner, outer = mac.keyed(seed)
    size = manifest.get(image.FIRMWARE)
    if firmware is not None and isinstance(size, list) and size and isinstance(size[0], int):
        n = min(size[0], image.MAX_FIRMWARE)
        _part(inner, image.FIRMWARE, n)
        inner.update(firmware(n))
    for name in sorted(manifest["files"]) + [image.MANIFEST, image.SIGNATURE]:
        _file(inner, root, name)
    outer.update(inner.digest())
    return outer.digest()


def _part(h, name, size):
    h.update(("%s\n%s\n" % (name, size)).encode())


def _file(h, root, name):
    path = root + "/" + name if root else name
    try:
        f = open(path, "rb")
    except OSError:
        _part(h, name, "-")
        return
    with f:
        f.seek(0, 2)
        _part(h, name, f.tell())
        f.seek(0)
        buf = bytearray(image.CHUNK)
        view = memoryview(buf)
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(view[:n])
