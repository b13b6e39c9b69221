"""The program check at boot: before the table starts, the board proves that every
program file is the one a trusted key signed (docs/tilts.md, `program_check_failed`).

An image (host_tools/flash.py builds it) is the board's program files plus
`manifest.json`, which lists each file's size and SHA-256 with the firmware's version,
and `manifest.sig`, an Ed25519 signature of the manifest's bytes in hex (felt.ed25519).
The board trusts the public keys in `felt.pub` (hex, one a line), put there when the
board was provisioned, not by an image: those sign images.  Keys have roles (issue 21,
item 5): a technician's keys, in `tech.pub` beside it, sign technicians' commands and
never an image (felt.table.technician); a key in `revoked.pub` beside them, written by
a command signed with an image key, is trusted for nothing (keys_for).  The check fails when the signature is not by
a trusted key, or any file listed is missing or differs, or a program file is there
that the manifest does not list: a program file is anything under `felt/` or `lib/`
(where MicroPython imports from), any `.py` or `.mpy`, and `board.json`.

On a Pico the felt package is frozen into the firmware (firmware/pico/) and nothing on
the filesystem is imported: the program is the firmware itself.  Its manifest then lists
the board's data files (board.json) and names the firmware (`"firmware": [size, SHA-256]`
of the bytes the UF2 writes from the start of flash), which the check hashes in place
(docs/board.md, "Flashing a Pico", says what each check promises).

Anti-rollback and board binding: the board keeps the board name and the version of the
newest signed image it has run (NEWEST, written at boot once an image passes); an image
signed for another board, or older than that, is refused like a changed file.

Only a boot needs this, so boot loads it and forgets it after (felt.lazy).
"""

import binascii
import hashlib
import json
import os

MANIFEST = "manifest.json"
SIGNATURE = "manifest.sig"
TRUST = "felt.pub"          # the keys that sign images
TECH_KEYS = "tech.pub"      # the technicians' keys: they sign commands, never an image
REVOKED = "revoked.pub"     # keys revoked by a signed command: trusted for nothing
IMAGES, TECHNICIANS = "images", "technicians"   # the roles of keys_for()
MAX_REVOKED = 32
PROGRAM_DIRS = ("felt", "lib")
CHUNK = 512         # bytes hashed at a time: the heap never holds a whole file
MAX_MANIFEST = 16 * 1024
MAX_KEYS = 8
FIRMWARE = "firmware"   # the manifest's entry naming a firmware with felt frozen in
NEWEST = "felt.newest"  # {"board", "version"} of the newest image the board has run
# Beside the keys, for one boot: an owner's signed `service` asked for the USB REPL
# (felt.table.technician); the boot that finds it removes it (opened_for_service).
SERVICE = "felt.service"
# What the board keeps beside its program, unlisted: the manifest and its signature, the
# keys, the newest image it ran (the journal's files too: unlisted()).
KEPT = (MANIFEST, SIGNATURE, TRUST, TECH_KEYS, REVOKED, NEWEST)
XIP = 0x10000000        # where the RP2040 maps its flash for reading
MAX_FIRMWARE = 0xA0000  # the rp2 port's filesystem starts there (RPI_PICO)


def frozen():
    """Whether felt runs frozen into the firmware with nothing on the filesystem
    importable (the Pico image's boot.py leaves only the frozen modules on sys.path):
    the program to check is then the firmware."""
    import sys
    return sys.path == [".frozen"]


def opened_for_service(trust):
    """Whether this boot is the one an owner's signed `service` command asked for
    (its flag beside the keys `trust`): the flag is removed, so the next boot plays."""
    try:
        os.remove(beside(trust, SERVICE))
        return True
    except OSError:
        return False


def flash(n):
    """The first n bytes of the board's flash, read in place (no copy in the heap)."""
    import uctypes
    return uctypes.bytearray_at(XIP, n)


def check(root, trust, firmware=None):
    """([(file, why), ...], summary): what is wrong with the image in folder `root` ("" for
    the current one, as on a board), signed by a key in the file `trust`; none when it
    is whole and signed.  Every listed file is hashed even when the signature fails, so
    the boot knows which of its own files it may still run to show the tilt.
    `firmware`: when felt is frozen into the firmware, a function giving its first n
    bytes (flash): the manifest must then name the firmware, and it is hashed too."""
    keys = keys_for(trust, IMAGES)
    if isinstance(keys, tuple):
        return [keys], "no trusted key"
    manifest, parsed = _manifest(root)
    if parsed is None:
        return [(MANIFEST, "the manifest is missing: the program was not installed as "
                           "a signed image" if manifest is None else
                 "not a manifest this firmware reads")], "no manifest"
    files = parsed["files"]
    names = sorted(files)
    named = parsed.get(FIRMWARE)
    if (named is None) != (firmware is None):
        # Either way part of what runs would go unchecked.
        return [(MANIFEST, "an image for a firmware with felt frozen in (felt-flash pico)"
                 if firmware is None else "an image of program files, and this firmware "
                 "has felt frozen in: flash the image felt-flash pico makes")], "wrong image"
    problems = []
    signer = _signer(root, keys, manifest)
    if signer is None:
        problems.append((MANIFEST, "not signed by a key this board trusts"))
    else:
        why = _rolled_back(root, parsed)
        if why is not None:
            problems.append((MANIFEST, why))
    if firmware is not None:
        why = _firmware_differs(firmware, named)
        if why is not None:
            problems.append((FIRMWARE, why))
    for name in names:
        why = _differs(_join(root, name), files[name])
        if why is not None:
            problems.append((name, why))
    for name in unlisted(root, files):
        problems.append((name, "a program file the manifest does not list" if is_program(name)
                         else "a file the manifest does not list (only the journal, the "
                              "event log and the keys may be added)"))
    return problems, "%d files%s, signed by key %s" % (
        len(names), "" if firmware is None else " and the firmware",
        signer or "unknown")


def remember(root):
    """The image in `root` passed the check: its board and version become the newest
    the board has run, unless it is older (it is not: check refused it then)."""
    parsed = manifest(root)
    newest = _newest(root)
    if newest is None or version(parsed.get("version")) > version(newest["version"]):
        with open(_join(root, NEWEST), "w") as f:
            f.write(json.dumps({"board": parsed.get("board"), "version": parsed["version"]}))


def _rolled_back(root, parsed):
    """Why the signed manifest may not run on this board, or None."""
    if version(parsed.get("version")) is None:
        return "its version is not written as felt a.b.c"
    newest = _newest(root)
    if newest is None:
        return None
    if parsed.get("board") != newest["board"]:
        return "an image for board %s: this board runs images for %s" % (
            parsed.get("board"), newest["board"])
    if version(parsed["version"]) < version(newest["version"]):
        return "version %s is older than %s, the newest this board has run" % (
            parsed["version"], newest["version"])
    return None


def _newest(root):
    """{"board", "version"} from NEWEST, or None (a board new to signed images, or the
    file unreadable: then any version may run once)."""
    try:
        newest = json.loads(_read(_join(root, NEWEST), 200))
        if version(newest["version"]) is not None:
            return newest
    except (ValueError, KeyError, TypeError):
        pass
    return None


def version(text):
    """(a, b, c) from "felt a.b.c" (felt.FIRMWARE), or None."""
    try:
        parts = tuple(int(p) for p in text.split()[-1].split("."))
    except (ValueError, AttributeError, IndexError):
        return None
    return parts if len(parts) == 3 and min(parts) >= 0 else None


def manifest(root):
    """The image's manifest in folder `root` as read ({"files": {name: [size, SHA-256]},
    "firmware": ...}), or None when there is none this firmware reads."""
    return _manifest(root)[1]


def _manifest(root):
    """(its bytes or None, the manifest read or None)."""
    raw = _read(_join(root, MANIFEST), MAX_MANIFEST)
    try:
        parsed = json.loads(raw)
        if isinstance(parsed, dict) and isinstance(parsed["files"], dict):
            return raw, parsed
    except (ValueError, KeyError, TypeError):
        pass
    return raw, None


def key_id(public_key):
    """A key's short name in logs: the first 8 hex digits of its SHA-256."""
    return binascii.hexlify(hashlib.sha256(public_key).digest()[:4]).decode()


def is_program(name):
    """Whether the file `name` (relative to the image's root, "/" between folders) is
    program: code MicroPython may run, or the board definition."""
    return name.split("/")[0] in PROGRAM_DIRS or name.endswith(".py") or \
        name.endswith(".mpy") or name == "board.json"


def program_files(root):
    """The names of the program files in folder `root`, relative to it."""
    out = []
    _walk(root, "", out)
    return [n for n in out if is_program(n)]


def unlisted(root, files):
    """The files in folder `root` that the manifest's `files` do not list, but for what
    the board keeps there itself (KEPT, and the journal's files, each named from the
    journal: journal.jsonl.1, journal.jsonl.events, ...).  Nothing else may be added:
    a planted file tilts the table, code or not (issue 21, item 2)."""
    journal = _journal_name(root)
    out = []
    _walk(root, "", out)
    return [n for n in out if n not in files and n not in KEPT and
            not (journal and n.startswith(journal))]


def _journal_name(root):
    """The journal's path relative to the board's root, from its board.json, or None."""
    try:
        board = json.loads(_read(_join(root, "board.json"), MAX_MANIFEST))
        path = board.get("journal", "/journal.jsonl" if board.get("runtime") ==
                         "micropython" else None)
        return path.lstrip("/") if isinstance(path, str) and path else None
    except (TypeError, ValueError, AttributeError):
        return None


def sha256_file(path):
    """(size, SHA-256 in hex) of the file at `path`, read CHUNK bytes at a time."""
    h = hashlib.sha256()
    size = 0
    buf = bytearray(CHUNK)
    view = memoryview(buf)
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(view[:n])
            size += n
    return size, binascii.hexlify(h.digest()).decode()


def _signer(root, keys, manifest):
    """The id of the trusted key that signed the manifest, or None."""
    sig = _read(_join(root, SIGNATURE), 200)
    sig = _unhex(sig.strip()) if sig is not None else None
    if sig is None or len(sig) != 64:
        return None
    from felt import ed25519
    for k in keys:
        if ed25519.verify(k, manifest, sig):
            return key_id(k)
    return None


def _differs(path, entry):
    try:
        size, digest = sha256_file(path)
    except OSError:
        return "listed in the manifest but missing"
    if not isinstance(entry, list) or len(entry) != 2 or [size, digest] != entry:
        return "its SHA-256 or size differs from the manifest's"
    return None


def _firmware_differs(firmware, entry):
    if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)
            and 0 < entry[0] <= MAX_FIRMWARE):
        return "the manifest does not name a firmware this board can hold"
    # Hashed where it lies: the flash is mapped, so the heap never holds it.
    digest = binascii.hexlify(hashlib.sha256(firmware(entry[0])).digest()).decode()
    if digest != entry[1]:
        return "the firmware is not the one the manifest names (its SHA-256 differs)"
    return None


def keys_for(trust, role):
    """The keys the board trusts for `role`, or (file, why not).  IMAGES: those of the
    file `trust` (felt.pub) that are neither a technician's nor revoked; TECHNICIANS:
    those of tech.pub beside it that are not revoked.  A key file that does not read
    trusts no key at all."""
    path = trust if role == IMAGES else beside(trust, TECH_KEYS)
    keys = trusted(path)
    if isinstance(keys, tuple):
        return keys
    barred = _keys(beside(trust, REVOKED), MAX_REVOKED) or []
    if role == IMAGES and isinstance(barred, list):
        tech = _keys(beside(trust, TECH_KEYS), MAX_KEYS) or []
        barred = tech if isinstance(tech, tuple) else barred + tech
    if isinstance(barred, tuple):
        return barred
    keys = [k for k in keys if k not in barred]
    return keys or (_name(path), "every key in it is revoked or a technician's")


def beside(trust, name):
    """The path of the file `name` in the folder of the file `trust`."""
    return trust[:trust.rfind("/") + 1] + name


def trusted(path):
    """The public keys (bytes) in the file at `path`, at least one, or (file, why not)."""
    keys = _keys(path, MAX_KEYS)
    if keys is None:
        return _name(path), "no trusted key: the board was not provisioned (felt-flash " \
                            "provision)"
    if not keys:
        return _name(path), "no trusted key in the file"
    return keys


def _keys(path, most):
    """The public keys in the file at `path` (hex, one a line, # comments), None when
    there is no such file, or (file, why not).  Read a line at a time: a technician's
    command reads them with the table's heap in pieces."""
    keys = []
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    key = _unhex(line)
                    if key is None or len(key) != 32:
                        return _name(path), "a line that is not a 32-byte public key in hex"
                    if len(keys) == most:
                        return _name(path), "more than %d keys" % most
                    keys.append(key)
    except OSError:
        return None
    return keys


def _name(path):
    return path[path.rfind("/") + 1:]


def _walk(root, rel, out):
    for name in os.listdir(_join(root, rel) or "."):
        sub = rel + "/" + name if rel else name
        if os.stat(_join(root, sub))[0] & 0x4000:    # a folder
            _walk(root, sub, out)
        else:
            out.append(sub)


def _read(path, most):
    """The file's bytes, or None when there is none or it is over `most` bytes.  Only
    as many bytes as it holds are asked of the heap: a `verify` on a playing table's
    fragmented heap found no free block of `most` (a MemoryError rebooted the board)."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, 2)
            if size > most:
                return None
            f.seek(0)
            return f.read(size)
    except OSError:
        return None


def _unhex(text):
    try:
        return binascii.unhexlify(text)
    except (ValueError, TypeError):
        return None


def _join(root, name):
    return root + "/" + name if root else name
