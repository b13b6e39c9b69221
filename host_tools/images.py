"""Signed images, as felt-flash builds and checks them: a board's program files with
their manifest signed by an owner's key (`build`), a Pico's firmware and filesystem
(`pico`), the board's own check run here first (`check_image`), and the answer a board
running an image gives `verify` (`expected_mac`).  The build number each image carries
grows with every image a key signs (`next_build`)."""

import hashlib
import hmac
import json
import os
import shutil
import time
from pathlib import Path

from felt import boardkey, image as board_image
from felt.board import load as load_board
from host_tools import cli, micropython, uf2
from host_tools.signing import Refused, board_key, board_key_file, first_record, load_key, \
    write_trust

FIRMWARE = cli.REPO / "firmware"


def build(board, out, key_path, force=False, chip=None):
    """The signed image of `board` (a name from hardware/boards/ or a definition file)
    in folder `out`, for the chip `chip` only when given; returns the manifest.  A folder
    `out` holding anything is refused, unless `force` and it holds an image
    (manifest.json): then the new image replaces it, once it is whole."""
    out = Path(out)
    _may_replace(out, force, board_image.MANIFEST)
    board_file = cli.board_file(str(board))   # refuses a malformed definition with its reason
    board = load_board(str(board_file))
    key = load_key(key_path)
    number = next_build(key_path)
    made = _into(out, lambda folder: _build(board, board_file, folder, key,
                                            _stamp(number, chip)))
    _note_build(key_path, number)
    return made


# A build number: whole minutes since this moment (2025-01-01 00:00 UTC), or one more than
# the last the key signed, whichever is higher.
BUILD_EPOCH = 1735689600


def build_minutes():
    return (int(time.time()) - BUILD_EPOCH) // 60


def next_build(key_path):
    """The build number of the next image the key in `key_path` signs: one more than the
    last (kept in `<key file>.build`), at least the minutes since BUILD_EPOCH, so that
    it only grows even where that file is lost."""
    last = _last_build(key_path)
    number = max(last + 1, build_minutes())
    if number > board_image.MAX_BUILD:
        raise Refused("build number %d is past the most a board reads (%d)"
                      % (number, board_image.MAX_BUILD))
    return number


def _last_build(key_path):
    path = Path(str(key_path) + ".build")
    try:
        return int(path.read_text())
    except FileNotFoundError:
        return 0
    except (OSError, ValueError) as e:
        raise Refused("%s: not a build number (%s): it keeps the last build the key "
                      "signed" % (path, getattr(e, "strerror", None) or e))


def _note_build(key_path, number):
    Path(str(key_path) + ".build").write_text("%d\n" % number)


def chip_hex(text):
    """`text` if it reads as a chip's unique id; ValueError saying what it must be."""
    if not text or len(text) % 2 or [c for c in text if c not in "0123456789abcdef"]:
        raise ValueError("%s: a chip's unique id is in lower-case hex, as the board's "
                         "challenge names it" % text)
    return text


def _stamp(number, chip):
    """The manifest's entries the tool sets: the build number, and the chip it is for."""
    if chip is None:
        return {"build": number}
    try:
        return {"build": number, "chip": chip_hex(chip)}
    except ValueError as e:
        raise Refused("--chip %s" % e)


def _may_replace(out, force, mark):
    """Refused unless folder `out` is missing or empty, or `force` and it holds `mark`
    (what this command made there before)."""
    if out.exists():
        if not out.is_dir():
            raise Refused("--out %s is a file, not a folder" % out)
        if any(out.iterdir()):
            if not force:
                raise Refused("--out %s is not empty: give --force to replace the image "
                              "there, or another folder" % out)
            if not (out / mark).is_file():
                raise Refused("--out %s holds no image (no %s): its files are left alone, "
                              "even with --force" % (out, mark))


def _into(out, make):
    """make(folder) in a folder beside `out`, moved into its place once it is whole;
    returns what make returns."""
    out.parent.mkdir(parents=True, exist_ok=True)
    folder = out.with_name(".%s.building-%d" % (out.name, os.getpid()))
    folder.mkdir()
    try:
        made = make(folder)
        if out.exists():
            shutil.rmtree(out)
        os.replace(str(folder), str(out))
    finally:
        if folder.exists():
            shutil.rmtree(folder)
    return made


def _build(board, board_file, out, key, stamp):
    # CircuitPython's .mpy format follows its own releases, so its boards get source.
    bytecode = board["runtime"] != "circuitpython"
    if bytecode:
        micropython.board_tree()    # the same .mpy, compiled again only where the source changed
    for src in sorted((FIRMWARE / "felt").rglob("*.py")):
        rel = src.relative_to(FIRMWARE)
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        if bytecode:
            mpy = rel.with_suffix(".mpy")
            shutil.copyfile(micropython.TREE / mpy, out / mpy)
        else:
            (out / rel).write_bytes(src.read_bytes())
    (out / "main.py").write_bytes((FIRMWARE / "main.py").read_bytes())
    (out / "board.json").write_bytes(board_file.read_bytes())
    from felt import FIRMWARE as VERSION
    files = {}
    for name in board_image.program_files(str(out)):
        size, digest = board_image.sha256_file(str(out / name))
        files[name] = [size, digest]
    manifest = dict(stamp, board=board["name"], files=files, version=VERSION)
    _sign(out, manifest, key)
    return manifest


# ----- a Pico with felt frozen in ------------------------------------------------------

PICO_UF2 = cli.REPO / "build" / "pico" / "firmware.uf2"     # make pico builds it
PICO_FILES = ("firmware.uf2", "filesystem.uf2", "filesystem.img", "board.json")


def pico(board, out, key_path, firmware=PICO_UF2, owners=None, force=False, tech=None,
         chip=None, board_key_path=None):
    """The files that flash a Pico, in folder `out`: the firmware (a UF2 `make pico`
    built, felt frozen in) and the board's filesystem as a UF2 and as a raw littlefs
    image.  The filesystem holds board.json, the trust document (version 1, signed by
    the key: the owners' keys in file `owners`, else the signing key's; the
    technicians' in file `tech`, if given), the board's first record (felt.newest:
    provisioning writes it), the board's own key beside its journal (the host's copy at
    `board_key_path`, made if missing; default keys/boards/<the chip `chip`, else the
    board's name>.key) and the manifest, signed, naming board.json and the firmware
    (and the chip `chip`, when given).  Returns the manifest."""
    from host_tools.pico import filesystem
    out = Path(out)
    _may_replace(out, force, "filesystem.img")
    try:
        address, code = uf2.read(firmware)
    except uf2.BadUF2 as e:
        hint = " (make pico builds it)" if not Path(firmware).exists() else ""
        raise Refused("--uf2 %s: %s%s" % (firmware, e, hint))
    if address != board_image.XIP or len(code) > board_image.MAX_FIRMWARE:
        raise Refused("--uf2 %s: not a Pico firmware: it writes %d bytes at %#x, not at most "
                      "%d at %#x" % (firmware, len(code), address, board_image.MAX_FIRMWARE,
                                     board_image.XIP))
    board_file = cli.board_file(str(board))
    board = load_board(str(board_file))
    key = load_key(key_path)
    number = next_build(key_path)
    stamp = _stamp(number, chip)
    own_key = board_key(board_key_path or board_key_file(stamp.get("chip", board["name"]))) \
        if board["journal"] else None

    def make(folder):
        data = folder / "filesystem"
        first_record(data, write_trust(data, key_path, owners, tech, 1), board["name"])
        (data / "board.json").write_bytes(board_file.read_bytes())
        if own_key is not None:
            (data / boardkey.path(board["journal"].lstrip("/"))).write_text(own_key.hex() + "\n")
        from felt import FIRMWARE as VERSION
        manifest = dict(stamp, board=board["name"], version=VERSION, files={
            "board.json": list(board_image.sha256_file(str(data / "board.json")))})
        manifest[board_image.FIRMWARE] = [len(code), hashlib.sha256(code).hexdigest()]
        _sign(data, manifest, key)
        # The board's own check, with the firmware as the board will read it.
        problems, _ = board_image.check(str(data), str(data / board_image.TRUST),
                                        lambda n: code[:n], record=False)
        if problems:
            raise Refused("the filesystem would be refused: %s"
                          % "; ".join("%s: %s" % p for p in problems))
        image = filesystem.littlefs_image(data)
        shutil.rmtree(data)
        shutil.copyfile(firmware, folder / "firmware.uf2")
        (folder / "filesystem.img").write_bytes(image)
        uf2.write(folder / "filesystem.uf2", filesystem.FS_ADDRESS, image)
        # The board the files are for, as on the filesystem: felt-emulator --image reads it.
        (folder / "board.json").write_bytes(board_file.read_bytes())
        return manifest
    made = _into(out, make)
    _note_build(key_path, number)
    return made


def _sign(folder, manifest, key):
    data = json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode()
    (folder / board_image.MANIFEST).write_bytes(data)
    (folder / board_image.SIGNATURE).write_text(key.sign(data).hex() + "\n")


def check_image(folder, trust_json):
    """Refused unless the image in `folder` is whole and signed by an owner's key of the
    trust document in the file `trust_json`: the board's own check (felt.image), run
    here first."""
    problems, summary = board_image.check(str(folder), str(trust_json), record=False)
    if problems:
        raise Refused("image %s refused: %s" % (
            folder, "; ".join("%s: %s" % p for p in problems)))
    return summary


def expected_mac(folder, seed):
    """The HMAC a board running the image in `folder` answers `verify` with for `seed`
    (bytes), computed here with Python's hmac from the image's files (felt.verify says
    how the parts are laid out): an image of program files (felt-flash build), or a
    Pico's (felt-flash pico: the firmware from firmware.uf2, the files from
    filesystem.img)."""
    folder = Path(folder)
    read = _image_reader(folder)
    manifest = json.loads(read(board_image.MANIFEST))
    mac = hmac.new(seed, digestmod=hashlib.sha256)
    named = manifest.get(board_image.FIRMWARE)
    if named is not None:
        try:
            _, code = uf2.read(folder / "firmware.uf2")
        except uf2.BadUF2 as e:
            raise Refused("--image %s: firmware.uf2: %s" % (folder, e))
        n = min(named[0], board_image.MAX_FIRMWARE)
        mac.update(b"%s\n%d\n" % (board_image.FIRMWARE.encode(), n) + code[:n])
    for name in sorted(manifest["files"]) + [board_image.MANIFEST, board_image.SIGNATURE]:
        data = read(name)
        mac.update(b"%s\n%d\n" % (name.encode(), len(data)) + data)
    return mac.hexdigest()


def _image_reader(folder):
    """read(name) -> bytes of a file of the image in `folder` (for a Pico's, from its
    filesystem.img); Refused naming a file it cannot read."""
    fs_image = folder / "filesystem.img"
    if fs_image.is_file():
        from host_tools.pico import filesystem
        data = fs_image.read_bytes()

        def read(name):
            got = filesystem.read(data, name)
            if got is None:
                raise Refused("--image %s: %s is not in filesystem.img" % (folder, name))
            return got
        return read
    read_manifest(folder)           # says what is wrong with a folder of no image

    def read(name):
        try:
            return (folder / name).read_bytes()
        except OSError as e:
            raise Refused("--image %s: %s: %s" % (folder, name, e.strerror or e))
    return read


def read_manifest(folder):
    """The manifest of the image in `folder`; Refused when there is none to read."""
    try:
        return json.loads((Path(folder) / board_image.MANIFEST).read_text())
    except (OSError, ValueError) as e:
        raise Refused("--image %s: no image there (%s: %s); felt-flash build makes one"
                      % (folder, board_image.MANIFEST, getattr(e, "strerror", None) or e))
