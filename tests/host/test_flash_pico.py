"""felt-flash pico: the firmware `make pico` builds (felt frozen in) and the board's
filesystem, as UF2 files for a Pico's RPI-RP2 drive and a littlefs image, and the check
a board with felt frozen in makes of them (felt.image with its flash).  A made-up
firmware stands in for the build: `make pico` exercises the real one."""

import hashlib
import json
import os

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from littlefs import LittleFS

from felt import image
from host_tools import flash, images, signing, uf2

CODE = os.urandom(3 * 256 + 40)     # a firmware that does not end on a page


@pytest.fixture(scope="module")
def key(tmp_path_factory):
    return signing.keygen(tmp_path_factory.mktemp("keys") / "felt")[0]


@pytest.fixture(autouse=True)
def host(tmp_path, monkeypatch):
    """A host's folder of its own: felt-flash pico keeps the board's key in its
    keys/boards/."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def firmware(tmp_path):
    path = tmp_path / "firmware.uf2"
    uf2.write(path, image.XIP, CODE.ljust(4 * 256, b"\0"))
    return path


def mount(data):
    fs = LittleFS(block_size=4096, block_count=352, prog_size=256, mount=False)
    fs.context.buffer[:] = data
    fs.mount()
    return {name: fs.open(name, "rb").read() for name in fs.listdir("/")}


def test_a_uf2_is_512_byte_blocks_of_256_bytes_for_an_rp2040_and_reads_back(tmp_path):
    data = os.urandom(5 * 256)
    uf2.write(tmp_path / "x.uf2", 0x100A0000, data)
    raw = (tmp_path / "x.uf2").read_bytes()
    assert len(raw) == 5 * 512
    assert raw[:4] == b"UF2\n" and raw[28:32] == (0xE48BFF56).to_bytes(4, "little")
    assert int.from_bytes(raw[512 + 12:512 + 16], "little") == 0x100A0100   # block 1's address
    assert uf2.read(tmp_path / "x.uf2") == (0x100A0000, data)


def test_pico_writes_the_firmware_and_a_filesystem_holding_only_the_boards_data(tmp_path, key, firmware):
    out = tmp_path / "flash"
    manifest = images.pico("pico-11", out, key, firmware)
    assert sorted(p.name for p in out.iterdir()) == sorted(images.PICO_FILES)
    assert (out / "firmware.uf2").read_bytes() == firmware.read_bytes()
    raw = (out / "filesystem.img").read_bytes()
    assert len(raw) == 352 * 4096     # the rp2 port's RPI_PICO filesystem, 0xA0000 on
    assert uf2.read(out / "filesystem.uf2") == (0x100A0000, raw)
    files = mount(raw)
    assert sorted(files) == ["board.json", "felt.newest", "journal.jsonl.key", "manifest.json",
                             "manifest.sig", "trust.json", "trust.sig"]
    assert json.loads(files["board.json"])["name"] == "pico-11"
    owner = key.with_suffix(".pub").read_text().strip()
    doc = {"version": 1, "owners": [owner], "technicians": []}
    assert json.loads(files["trust.json"]) == doc
    # Provisioned: the board's first record, no image run yet.
    assert json.loads(files["felt.newest"]) == image.first_record("pico-11", doc)
    assert manifest["build"] >= 1 and "chip" not in manifest
    # The board's own key beside its journal (felt.boardkey), the host's copy kept for
    # its owner only; a board flashed again keeps it.
    kept = tmp_path / "keys" / "boards" / "pico-11.key"
    assert files["journal.jsonl.key"].decode() == kept.read_text()
    assert len(bytes.fromhex(kept.read_text())) == 32 and kept.stat().st_mode & 0o777 == 0o600
    images.pico("pico-11", tmp_path / "again", key, firmware)
    assert mount((tmp_path / "again" / "filesystem.img").read_bytes())["journal.jsonl.key"] \
        == files["journal.jsonl.key"]
    # Built for a chip, the host's copy is named by the chip's id, as its challenge says.
    images.pico("pico-11", tmp_path / "chip", key, firmware, chip="e6613850432a112c")
    by_chip = tmp_path / "keys" / "boards" / "e6613850432a112c.key"
    assert mount((tmp_path / "chip" / "filesystem.img").read_bytes())["journal.jsonl.key"] \
        == by_chip.read_bytes() != files["journal.jsonl.key"]
    # Signed; it names board.json and the firmware as the UF2 writes it (whole pages).
    assert json.loads(files["manifest.json"]) == manifest
    written = CODE.ljust(4 * 256, b"\0")
    assert manifest["firmware"] == [len(written), hashlib.sha256(written).hexdigest()]
    assert list(manifest["files"]) == ["board.json"]
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(owner)).verify(
        bytes.fromhex(files["manifest.sig"].decode()), files["manifest.json"])
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(owner)).verify(
        bytes.fromhex(files["trust.sig"].decode()), image.ROOT + files["trust.json"])


def test_the_board_checks_the_firmware_it_runs_against_the_manifest(tmp_path, key, firmware):
    images.pico("pico-11", tmp_path / "flash", key, firmware)
    root = tmp_path / "fs"
    root.mkdir()
    for name, data in mount((tmp_path / "flash" / "filesystem.img").read_bytes()).items():
        (root / name).write_bytes(data)
    trust = str(root / "trust.json")
    good = CODE.ljust(4 * 256, b"\0")
    problems, summary = image.check(str(root), trust, lambda n: good[:n])
    assert problems == [] and summary.startswith("1 files and the firmware")
    bad = bytes([good[0] ^ 1]) + good[1:]
    assert [p[0] for p in image.check(str(root), trust, lambda n: bad[:n])[0]] == ["firmware"]
    # A filesystem for a frozen firmware is refused by one that loads program files,
    # and the other way round: either way part of what runs would go unchecked.
    assert "frozen in" in image.check(str(root), trust)[0][0][1]
    (root / "felt").mkdir()
    (root / "felt" / "x.mpy").write_bytes(b"M")
    assert ("felt/x.mpy", "a program file the manifest does not list") in \
        image.check(str(root), trust, lambda n: good[:n])[0]


def test_an_image_of_program_files_is_refused_by_a_frozen_firmware(tmp_path, key):
    images.build("pico-11", tmp_path / "image", key)
    trust = signing.write_trust(tmp_path / "trust", key)
    problems, _ = image.check(str(tmp_path / "image"), str(trust), lambda n: b"")
    assert problems[0][0] == "manifest.json" and "felt-flash pico" in problems[0][1]


def test_owners_and_tech_put_the_given_keys_in_the_boards_trust_document(tmp_path, key,
                                                                          firmware):
    other = signing.keygen(tmp_path / "other")[1]
    tech = signing.keygen(tmp_path / "tech")[1]
    keys = tmp_path / "keys.pub"
    keys.write_text(key.with_suffix(".pub").read_text() + other.read_text())
    images.pico("pico-11", tmp_path / "flash", key, firmware, owners=keys, tech=tech)
    doc = json.loads(mount((tmp_path / "flash" / "filesystem.img").read_bytes())["trust.json"])
    assert doc == {"version": 1, "owners": keys.read_text().split(),
                   "technicians": [tech.read_text().strip()]}


@pytest.mark.parametrize("damage, said", [
    (lambda raw: None, "cannot read it: No such file"),
    (lambda raw: raw[:-100], "truncated: 924 bytes"),
    (lambda raw: raw[:-512], "truncated or reordered: block 0 says it is 0 of 2"),
    (lambda raw: b"\0" * 1024, "block 0 is not a UF2 block"),
    (lambda raw: b"", "it is empty"),
])
def test_a_missing_or_damaged_uf2_is_one_line_and_status_1(tmp_path, key, firmware, capsys, damage, said):
    uf2.write(firmware, image.XIP, CODE[:512])
    raw = firmware.read_bytes()
    got = damage(raw)
    if got is None:
        firmware.unlink()
    else:
        firmware.write_bytes(got)
    out = tmp_path / "flash"
    status = flash.main(["pico", "--board", "pico-11", "--key", str(key), "--uf2",
                         str(firmware), "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 1 and len(err.strip().splitlines()) == 1 and said in err, err
    assert not out.exists()


def test_a_uf2_for_elsewhere_than_the_flash_start_is_no_firmware(tmp_path, key, capsys):
    uf2.write(tmp_path / "fs.uf2", 0x100A0000, b"\xff" * 256)
    assert flash.main(["pico", "--board", "pico-11", "--key", str(key), "--uf2",
                       str(tmp_path / "fs.uf2"), "--out", str(tmp_path / "o")]) == 1
    assert "not a Pico firmware" in capsys.readouterr().err


def test_the_command_says_what_to_copy_and_replaces_only_its_own_folder(tmp_path, key, firmware, capsys):
    out = tmp_path / "flash"
    args = ["pico", "--board", "pico-11", "--key", str(key), "--uf2", str(firmware),
            "--out", str(out)]
    assert flash.main(args) == 0
    assert "copy filesystem.uf2, then firmware.uf2" in capsys.readouterr().out
    assert flash.main(args) == 1 and "not empty" in capsys.readouterr().err
    assert flash.main(args + ["--force"]) == 0
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    assert flash.main(args[:-1] + [str(other), "--force"]) == 1
    assert (other / "notes.txt").read_text() == "mine"


def test_verify_computes_a_picos_answer_from_its_firmware_uf2_and_filesystem_img(
        tmp_path, key, firmware):
    # Issue 21, item 3: the answer a Pico gives `verify` (felt.verify, the board's own
    # code over its flash and its files) is what felt-flash computes from the released
    # firmware.uf2 and filesystem.img with Python's hmac.
    from felt import verify
    from host_tools.pico import filesystem
    images.pico("pico-11", tmp_path / "flash", key, firmware)
    fs = (tmp_path / "flash" / "filesystem.img").read_bytes()
    board = tmp_path / "board"
    board.mkdir()
    for name in ("board.json", "trust.json", "manifest.json", "manifest.sig"):
        (board / name).write_bytes(filesystem.read(fs, name))
    _, code = uf2.read(firmware)
    seed = os.urandom(32)
    want = images.expected_mac(tmp_path / "flash", seed)
    assert verify.program_mac(str(board), seed, lambda n: code[:n]).hex() == want
    changed = code[:5] + bytes([code[5] ^ 1]) + code[6:]
    assert verify.program_mac(str(board), seed, lambda n: changed[:n]).hex() != want
