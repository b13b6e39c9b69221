"""The program check at boot: before the table starts, the board proves that every
program file is the one a trusted key signed (docs/tilts.md, `program_check_failed`).

An image (host_tools/flash.py builds it) is the board's program files plus
`manifest.json`, which lists each file's size and SHA-256 with the firmware's version,
and `manifest.sig`, an Ed25519 signature of the manifest's bytes in hex (felt.ed25519).
The board trusts the keys of one document, `trust.json` (issue 38, item 1):
{"version": N, "owners": [hex], "technicians": [hex]}, with `trust.sig` beside it, an
owner's Ed25519 signature of ROOT and its canonical JSON (felt.protocol.dumps), put
there when the board was provisioned, not by an image.  Owners' keys sign images, new
trust documents and the owner's commands; technicians' keys sign technicians' commands
only (felt.table.technician).  A key is revoked by a newer version that leaves it out
(replace_trust, the owner's `root` command): versions only grow, so an older document
is never taken again (taken).  The check fails when the trust document is not taken,
or the signature is not by an owner's key, or any file listed is missing or differs, or
a program file is there that the manifest does not list: a program file is anything
under `felt/` or `lib/` (where MicroPython imports from), any `.py` or `.mpy`, and
`board.json`.

On a Pico the felt package is frozen into the firmware (firmware/pico/) and nothing on
the filesystem is imported: the program is the firmware itself.  Its manifest then lists
the board's data files (board.json) and names the firmware (`"firmware": [size, SHA-256]`
of the bytes the UF2 writes from the start of flash), which the check hashes in place
(docs/board.md, "Flashing a Pico", says what each check promises).

Anti-rollback and board binding (issue 38, item 2): each image carries a build number
that only grows (`"build"`, set by felt-flash build), and may name the chip it is for
(`"chip"`, the chip's unique id in hex: felt.runtime.chip_id).  The board keeps a record, NEWEST:
its board name, the highest build it has run and the SHA-256 of that build's manifest
(written at boot once an image passes), with the trust document's version and SHA-256
(taken).  An image for another board or chip, of a lower build, or of the same build with
another manifest, is refused like a changed file; so is any image where the record is
missing or does not read (provisioning writes the first: first_record).  The firmware's
version (`"version"`, felt a.b.c) is information only.

Only a boot needs this, so boot loads it and forgets it after (felt.lazy).
"""

import binascii
import hashlib
import json
import os

from felt.runtime import chip_id

MANIFEST = "manifest.json"
SIGNATURE = "manifest.sig"
TRUST = "trust.json"        # the board's keys, one document an owner signed
TRUST_SIG = "trust.sig"     # its signature, in hex
ROOT = b"felt-root "        # what an owner's key signs: ROOT + the document's canonical JSON
OWNERS, TECHNICIANS = "owners", "technicians"   # the roles of keys_for()
MAX_VERSION = (1 << 30) - 1     # a trust document's version: a small int on a board
MAX_TRUST = 1024
PROGRAM_DIRS = ("felt", "lib")
CHUNK = 512         # bytes hashed at a time: the heap never holds a whole file
MAX_MANIFEST = 16 * 1024
MAX_KEYS = 8        # owners and technicians in all: a `root` command carries them in one frame
FIRMWARE = "firmware"   # the manifest's entry naming a firmware with felt frozen in
# The board's record: {"board", "build", "manifest"} of the newest image it has run (the
# manifest's SHA-256) and {"root", "trust"}, the version and SHA-256 of the newest trust
# document it took.
NEWEST = "felt.newest"
MAX_BUILD = (1 << 30) - 1       # a build number: a small int on a board
# Beside the keys, for one boot: an owner's signed `service` asked for the USB REPL
# (felt.table.technician); the boot that finds it removes it (opened_for_service).
SERVICE = "felt.service"
# What the board keeps beside its program, unlisted: the manifest and its signature, the
# keys, the newest image it ran (the journal's files too: unlisted()).
KEPT = (MANIFEST, SIGNATURE, TRUST, TRUST_SIG, NEWEST)
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


def check(root, trust, firmware=None, record=True):
    """([(file, why), ...], summary): what is wrong with the image in folder `root` ("" for
    the current one, as on a board), signed by a key in the file `trust`; none when it
    is whole and signed.  Every listed file is hashed even when the signature fails, so
    the boot knows which of its own files it may still run to show the tilt.
    `firmware`: when felt is frozen into the firmware, a function giving its first n
    bytes (flash): the manifest must then name the firmware, and it is hashed too.
    `record`: whether the board's record (NEWEST in `root`) is held against it; a host
    checking an image before it is flashed (felt-flash) has none."""
    doc = taken(trust, root if record else None)
    if isinstance(doc, tuple):
        return [doc], "no trusted key"
    keys = _unhexed(doc[OWNERS])
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
        why = _rolled_back(root, parsed, manifest) if record else None
        if why is not None:
            problems.append(why)
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


def remember(root, trust):
    """The image in `root` passed the check, with the trust document in file `trust`:
    its board, build and manifest become the newest the board has run, unless its build
    is the one recorded (a lower one, check refused), and the document the newest it
    took."""
    raw, parsed = _manifest(root)
    newest = _newest(root) or {}
    if parsed["build"] != newest.get("build"):
        newest = dict(newest, board=parsed["board"], build=parsed["build"],
                      manifest=_digest(raw))
    _record_trust(root, newest, document(trust))


def first_record(board, doc):
    """The record provisioning writes as NEWEST for a board named `board` that takes the
    trust document `doc`: no image run yet, so the first build it is given may run."""
    return {"board": board, "root": doc["version"], "trust": trust_digest(doc)}


def _record_trust(root, newest, doc):
    """NEWEST in folder `root`: `newest` with the version and SHA-256 of the trust
    document `doc` (taken), written only when that changes what it holds (the flash
    is not worn by a write at every boot)."""
    newest = dict(newest, root=doc["version"], trust=trust_digest(doc))
    if newest != _newest(root):
        with open(_join(root, NEWEST), "w") as f:
            f.write(json.dumps(newest))


def _rolled_back(root, parsed, raw):
    """(file, why) the signed manifest `parsed` (its bytes `raw`) may not run on this
    board, or None."""
    newest = _newest(root)
    if newest is None:
        return NEWEST, "the board's record of the newest image it ran is missing or does " \
                       "not read: provision the board again (felt-flash provision)"
    build = parsed.get("build")
    if type(build) is not int or not 1 <= build <= MAX_BUILD:
        return MANIFEST, "it has no build number (felt-flash build sets it)"
    if parsed.get("board") != newest["board"]:
        return MANIFEST, "an image for board %s: this board runs images for %s" % (
            parsed.get("board"), newest["board"])
    chip = parsed.get("chip")
    if chip is not None and chip != chip_id():
        return MANIFEST, "an image for chip %s: this board's chip is %s" % (chip, chip_id())
    held = newest.get("build")
    if held is not None and build < held:
        return MANIFEST, "build %d is older than build %d, the newest this board has " \
                         "run" % (build, held)
    if build == held and _digest(raw) != newest.get("manifest"):
        return MANIFEST, "another image than the build %d this board has run" % build
    return None


def _newest(root):
    """The board's record (NEWEST) as read, or None when there is none or it does not
    read."""
    try:
        newest = json.loads(_read(_join(root, NEWEST), 300))
    except (ValueError, TypeError):
        return None
    if not isinstance(newest, dict) or not isinstance(newest.get("board"), str) or \
            not isinstance(newest.get("root"), int):
        return None
    return newest


def _digest(data):
    return binascii.hexlify(hashlib.sha256(data).digest()).decode()


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
    """The keys of the trust document in the file `trust` for `role` (OWNERS: they sign
    images, trust documents and the owner's commands; TECHNICIANS: technicians'
    commands), at least one, or (file, why not).  The document is the one boot took
    (taken): it is read here, not checked again."""
    doc = document(trust)
    if isinstance(doc, tuple):
        return doc
    return _unhexed(doc[role]) or (_name(trust), "it names no key for the %s" % role)


def taken(trust, root):
    """The trust document in the file `trust` as the boot takes it, or (file, why not):
    its version not below the newest this board took (NEWEST in folder `root`; None: no
    record to hold it against); at that version the very document taken then (its
    SHA-256: its signature was checked when it was taken, or it was provisioned), above
    it one signed by one of its own owners' keys (TRUST_SIG beside it: a power cut
    before a `root` recorded it)."""
    doc = document(trust)
    if isinstance(doc, tuple):
        return doc
    newest = (_newest(root) if root is not None else None) or {}
    held = newest.get("root")
    if isinstance(held, int) and doc["version"] < held:
        return _name(trust), "version %d is older than %d, the newest this board took" % (
            doc["version"], held)
    if held == doc["version"]:
        if newest.get("trust") != trust_digest(doc):
            return _name(trust), "not the document of version %d this board took" % held
        return doc
    sig = _read(beside(trust, TRUST_SIG), 200)
    if trust_signer(doc, sig, _unhexed(doc[OWNERS])) is None:
        return _name(trust), "not signed by one of its owners' keys (%s)" % TRUST_SIG
    return doc


def trust_digest(doc):
    """The SHA-256 of the trust document `doc` (its canonical JSON), in hex."""
    from felt.protocol import dumps
    return binascii.hexlify(hashlib.sha256(dumps(doc).encode()).digest()).decode()


def trust_signer(doc, sig, keys):
    """The id of the key of `keys` that signed the trust document `doc` (`sig`: the
    signature in hex, bytes or str), or None."""
    from felt.protocol import dumps
    sig = _unhex(sig.strip()) if sig is not None else None
    if sig is None or len(sig) != 64:
        return None
    from felt import ed25519
    data = ROOT + dumps(doc).encode()
    for k in keys:
        if ed25519.verify(k, data, sig):
            return key_id(k)
    return None


def replace_trust(trust, root, doc, sig):
    """The owner's `root` command: the trust document in file `trust` replaced by `doc`,
    signed (`sig`, hex) by a key that is an owner in the document the board holds and in
    `doc` (an owner hands over by a version naming both), its version above the one held;
    recorded in NEWEST in folder `root` (None: the board keeps no record).  Returns None,
    or why not, changing nothing."""
    why = trust_why(doc)
    if why is not None:
        return "root doc: %s" % why
    held = document(trust)
    if isinstance(held, tuple):
        return "%s: %s" % held
    if doc["version"] <= held["version"]:
        return "root doc: version %d is not above %d, the version this board holds" % (
            doc["version"], held["version"])
    both = [k for k in _unhexed(held[OWNERS]) if k in _unhexed(doc[OWNERS])]
    if trust_signer(doc, sig, both) is None:
        return "root sig: not by a key that is an owner in the document this board holds " \
               "and in the new one"
    from felt.protocol import dumps
    # Each file whole under .new, then renamed over the old (as the journal's are).
    for name, data in ((TRUST_SIG, sig + "\n"), (TRUST, dumps(doc))):
        path = beside(trust, name)
        with open(path + ".new", "w") as f:
            f.write(data)
        _rename(path + ".new", path)
    if root is not None:
        _record_trust(root, _newest(root) or {}, doc)
    return None


def document(path):
    """The trust document in the file at `path` as read, or (file, why not)."""
    raw = _read(path, MAX_TRUST)
    if raw is None:
        return _name(path), "no trust document: the board was not provisioned " \
                            "(felt-flash provision)"
    try:
        doc = json.loads(raw)
    except ValueError:
        return _name(path), "not JSON"
    why = trust_why(doc)
    return doc if why is None else (_name(path), why)


def trust_why(doc):
    """Why `doc` is not a trust document, or None: {"version": 1 to MAX_VERSION,
    "owners": [at least one key], "technicians": [keys]}, each key 32 bytes in
    lower-case hex, none twice, MAX_KEYS in all."""
    if not isinstance(doc, dict) or sorted(doc) != [OWNERS, TECHNICIANS, "version"]:
        return 'not a trust document: {"version", "owners", "technicians"}'
    if type(doc["version"]) is not int or not 1 <= doc["version"] <= MAX_VERSION:
        return "its version must be a whole number 1 to %d" % MAX_VERSION
    keys = []
    for role in (OWNERS, TECHNICIANS):
        if not isinstance(doc[role], list):
            return "its %s must be a list of public keys" % role
        for k in doc[role]:
            if not (isinstance(k, str) and len(k) == 64 and _unhex(k) is not None and
                    k == k.lower()):
                return "its %s must be 32-byte public keys in lower-case hex" % role
            keys.append(k)
    if not doc[OWNERS]:
        return "it names no owner's key"
    if len(keys) > MAX_KEYS:
        return "more than %d keys" % MAX_KEYS
    if len(set(keys)) != len(keys):
        return "a key named twice (a key has one role)"
    return None


def beside(trust, name):
    """The path of the file `name` in the folder of the file `trust`."""
    return trust[:trust.rfind("/") + 1] + name


def _unhexed(keys):
    return [binascii.unhexlify(k) for k in keys]


def _rename(old, new):
    try:
        os.rename(old, new)
    except OSError:
        os.remove(new)       # a filesystem that will not rename onto a file
        os.rename(old, new)


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
