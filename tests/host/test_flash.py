"""felt-flash: keys, signed images (bytecode for MicroPython, source for CircuitPython,
main.py, the checked board definition, a signed manifest) and the commands that
install them.  The board's side of the check is tests/host/test_signed_image.py."""

import json
import os

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from host_tools import cli, flash, images, signing


@pytest.fixture(scope="module")
def key(tmp_path_factory):
    private, public = signing.keygen(tmp_path_factory.mktemp("keys") / "felt")
    return private


def test_keygen_writes_a_private_key_only_its_owner_reads_and_never_overwrites(tmp_path):
    private, public = signing.keygen(tmp_path / "k")
    assert os.stat(private).st_mode & 0o777 == 0o600
    assert len(bytes.fromhex(public.read_text().strip())) == 32
    with pytest.raises(signing.Refused, match="never overwritten"):
        signing.keygen(tmp_path / "k")


def test_micropython_image_gets_bytecode_main_board_json_and_a_signed_manifest(tmp_path, key):
    out = tmp_path / "image"
    manifest = images.build("pico-11", out, key)
    sources = sorted(p.relative_to(images.FIRMWARE).with_suffix(".mpy")
                     for p in (images.FIRMWARE / "felt").rglob("*.py"))
    built = sorted(p.relative_to(out) for p in out.rglob("*.mpy"))
    assert built == sources
    assert all((out / p).read_bytes()[:1] == b"M" for p in built)   # the .mpy header
    assert (out / "main.py").read_text() == (images.FIRMWARE / "main.py").read_text()
    assert json.loads((out / "board.json").read_text())["name"] == "pico-11"
    # Every program file, by size and SHA-256; the signature covers the manifest's bytes.
    assert sorted(manifest["files"]) == sorted(
        [p.as_posix() for p in built] + ["board.json", "main.py"])
    assert manifest["files"]["main.py"] == list(flash.board_image.sha256_file(str(out / "main.py")))
    public = Ed25519PublicKey.from_public_bytes(
        bytes.fromhex(key.with_suffix(".pub").read_text().strip()))
    data = (out / "manifest.json").read_bytes()
    public.verify(bytes.fromhex((out / "manifest.sig").read_text().strip()), data)
    assert json.loads(data) == manifest
    trust = signing.write_trust(tmp_path / "trust", key)
    assert images.check_image(out, trust).startswith("%d files" % len(manifest["files"]))
    # The host checks the image as the board would, but for the board's record, which is
    # on the board (an emulated board's folder holds one: it is not the host's to judge).
    (out / "felt.newest").write_text('{"board": "another", "root": 5, "trust": "00"}')
    assert images.check_image(out, trust).startswith("%d files" % len(manifest["files"]))


def test_circuitpython_image_gets_source(tmp_path, key):
    out = tmp_path / "image"
    images.build("feather-rp2040-cp", out, key)
    assert not list(out.rglob("*.mpy"))
    assert (out / "felt" / "poker" / "round.py").exists()


def test_unknown_board_is_refused_with_the_known_names(tmp_path, key):
    with pytest.raises(cli.UserError, match="one of .*pico-11"):
        images.build("no-such-board", tmp_path / "fs", key)


def test_a_board_is_named_or_given_as_a_file(tmp_path, key):
    manifest = images.build(str(cli.BOARDS / "feather-rp2040-cp.json"), tmp_path / "fs", key)
    assert manifest["board"] == "feather-rp2040-cp"


def test_build_replaces_nothing_without_force_and_only_an_image_with_it(tmp_path, key, capsys):
    out = tmp_path / "image"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    argv = ["build", "--board", "pico-11", "--key", str(key), "--out", str(out)]
    assert flash.main(argv) == 1
    assert flash.main(argv + ["--force"]) == 1          # not an image: left alone
    err = capsys.readouterr().err.splitlines()
    assert "not empty: give --force" in err[0] and "holds no image" in err[1]
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    (out / "notes.txt").unlink()
    assert flash.main(argv) == 0                        # an empty folder is fine
    assert flash.main(argv) == 1                        # an image there: --force
    (out / "stale.mpy").write_bytes(b"M")
    assert flash.main(argv + ["--force"]) == 0
    assert (out / "manifest.json").is_file() and not (out / "stale.mpy").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["image"]   # nothing left beside it


def test_install_removes_the_old_program_copies_the_image_then_soft_resets(tmp_path, key):
    out = tmp_path / "image"
    images.build("pico-11", out, key)
    (cmd,) = flash.install_commands("/dev/ttyACM0", out)
    assert cmd[1:3] == ["connect", "/dev/ttyACM0"] and cmd[-2:] == ["+", "soft-reset"]
    code = cmd[cmd.index("exec") + 1]
    assert cmd.index("exec") < cmd.index("cp")
    # Run here in a board's root: the old program and anything planted go (issue 21,
    # item 2: install left planted folders in place); the keys and the journal stay.
    board = tmp_path / "board"
    for name in ("felt/poker/round.mpy", "main.py", "json/__init__.py", "hashlib.py",
                 "notes.txt", "trust.json", "trust.sig", "felt.newest",
                 "journal.jsonl", "journal.jsonl.1", "journal.jsonl.events.kept"):
        (board / name).parent.mkdir(parents=True, exist_ok=True)
        (board / name).write_text("x")
    here = os.getcwd()
    os.chdir(board)
    try:
        exec(compile(code, "install", "exec"), {})
    finally:
        os.chdir(here)
    assert sorted(p.name for p in board.iterdir()) == [
        "felt.newest", "journal.jsonl", "journal.jsonl.1",
        "journal.jsonl.events.kept", "trust.json", "trust.sig"]
    assert str(out / "main.py") in cmd and str(out / "manifest.sig") in cmd


def test_a_new_table_removes_the_journal_too(tmp_path, key, capsys):
    # The journal makes a board resume after a power cut or a re-flash
    # (felt.table.journal); --new-table forgets it.
    out = tmp_path / "image"
    images.build("pico-11", out, key)
    (cmd,) = flash.install_commands("/dev/ttyACM0", out, "/journal.jsonl")
    code = cmd[cmd.index("exec") + 1]
    removed = code[code.index("for p in"):]
    assert "'journal.jsonl.1', 'journal.jsonl']" in removed
    # Its archives too, the oldest first, the journal last (docs/journal.md).
    assert removed.index("'journal.jsonl.10'") < removed.index("'journal.jsonl.1'") < \
        removed.index("'journal.jsonl'")
    trust = signing.write_trust(tmp_path / "trust", key)
    assert flash.main(["install", "--image", str(out), "--trust", str(trust),
                       "--dry-run", "--new-table"]) == 0
    assert "'journal.jsonl.1', 'journal.jsonl']" in capsys.readouterr().out


def test_install_dry_run_needs_the_boards_key(tmp_path, key, capsys):
    out = tmp_path / "image"
    images.build("pico-11", out, key)
    assert flash.main(["install", "--image", str(out), "--dry-run"]) == 2
    assert "needs --trust" in capsys.readouterr().err


def test_install_puts_the_boards_own_key_beside_its_journal_and_keeps_the_hosts_copy(
        tmp_path, key, capsys, monkeypatch):
    # Issue 38, item 4: the board's key MACs what it answers a technician; the host
    # that installs it keeps a copy, for the board's owner only, named by the board.
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "image"
    images.build("pico-11", out, key)
    (cmd,) = flash.install_commands("/dev/ttyACM0", out, key_file="keys/boards/b1.key")
    assert cmd[-7:] == ["+", "fs", "cp", "keys/boards/b1.key", ":/journal.jsonl.key",
                        "+", "soft-reset"]
    trust = signing.write_trust(tmp_path / "trust", key)
    assert flash.main(["install", "--image", str(out), "--trust", str(trust), "--dry-run"]) == 0
    said = capsys.readouterr().out
    assert "fs cp keys/boards/pico-11.key :/journal.jsonl.key + soft-reset" in said
    # An image built for a chip names the host's copy by the chip's id, as its
    # challenge says it.
    images.build("pico-11", out, key, force=True, chip="e6613850432a112c")
    assert flash.main(["install", "--image", str(out), "--trust", str(trust), "--dry-run"]) == 0
    said = capsys.readouterr().out
    assert "fs cp keys/boards/e6613850432a112c.key :/journal.jsonl.key + soft-reset" in said
    assert not (tmp_path / "keys").exists()            # a dry run makes nothing
