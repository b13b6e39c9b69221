"""Signed images, checked at boot on the MicroPython runtime (felt.image, felt.tilted,
host_tools/flash.py): a board plays only an image whose every program file is the one
a key it trusts signed; anything else tilts it with play disabled and the file named
(docs/tilts.md, program_check_failed)."""

import json
import os
import shutil

import pytest

from felt.image import sha256_file
from felt.table import scenes
from host_tools import flash, tech
from host_tools.emulator import cli
from host_tools.emulator.link import FirmwareProcess, QueryRefused
from host_tools.emulator.session import Session, table_config
from host_tools.micropython import MicroPythonMissing, binary

try:
    binary()
except MicroPythonMissing as e:   # make test builds it; a bare pytest may lack it
    pytest.skip(str(e), allow_module_level=True)


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    d = tmp_path_factory.mktemp("keys")
    flash.keygen(d / "felt")
    flash.keygen(d / "tech")        # the technician's: tech.pub beside felt.pub
    flash.keygen(d / "other")
    return d


@pytest.fixture(scope="module")
def built(keys, tmp_path_factory):
    image = tmp_path_factory.mktemp("image") / "image"
    flash.build("pico-11", image, keys / "felt.key")
    return image


@pytest.fixture
def image(built, tmp_path):
    """A copy of the signed image, for a test to spoil."""
    out = tmp_path / "image"
    shutil.copytree(built, out)
    return out


def emulate(image, trust, capsys, hands=2):
    code = cli.main(["--runtime", "micropython", "--image", str(image), "--trust", str(trust),
                     "--tech-key", str(trust.parent / "tech.key"), "--hands", str(hands),
                     "--players", "3", "--seed", "4"])
    out = capsys.readouterr()
    return code, out.out, out.err


def flip(path, at=None):
    data = bytearray(path.read_bytes())
    data[len(data) // 2 if at is None else at] ^= 0x01
    path.write_bytes(bytes(data))


def test_a_signed_image_plays(image, keys, capsys):
    code, out, err = emulate(image, keys / "felt.pub", capsys)
    assert code == 0, err
    assert out.strip().splitlines()[-1] == "summary: hands=2 chips_start=3000 chips_end=3000 faults=0"


@pytest.mark.parametrize("spoil, named, why", [
    (lambda d: flip(d / "felt" / "poker" / "round.mpy"), "felt/poker/round.mpy", "differs"),
    (lambda d: (d / "main.py").write_text((d / "main.py").read_text() + "# changed\n"),
     "main.py", "differs"),
    (lambda d: (d / "felt" / "poker" / "low.mpy").unlink(), "felt/poker/low.mpy", "missing"),
    (lambda d: (d / "felt" / "poker" / "extra.py").write_text("x = 1\n"),
     "felt/poker/extra.py", "does not list"),
    (lambda d: ((d / "lib").mkdir(), (d / "lib" / "json.py").write_text("x = 1\n")),
     "lib/json.py", "does not list"),
    (lambda d: (d / "boot.py").write_text("x = 1\n"), "boot.py", "does not list"),
    # Issue 21, item 2: packages planted to shadow the built-in json, hashlib, asyncio
    # (they ran inside the check, which only looked in felt/ and lib/), and a data file.
    (lambda d: ((d / "json").mkdir(), (d / "json" / "__init__.py").write_text("x = 1\n")),
     "json/__init__.py", "does not list"),
    (lambda d: ((d / "asyncio").mkdir(), (d / "asyncio" / "core.mpy").write_bytes(b"M")),
     "asyncio/core.mpy", "does not list"),
    (lambda d: (d / "hashlib.py").write_text("x = 1\n"), "hashlib.py", "does not list"),
    (lambda d: (d / "notes.txt").write_text("x"), "notes.txt",
     "only the journal, the event log and the keys may be added"),
    # The tilt's own path spoiled: said on the console, the process exits all the same.
    (lambda d: flip(d / "felt" / "hal" / "link.mpy"), "felt/hal/link.mpy", "differs"),
    (lambda d: flip(d / "board.json", (d / "board.json").read_bytes().index(b'"poll_ms": ') + 11),
     "board.json", "differs"),
    # A board definition no longer JSON, or gone: the emulator plays the devices of the
    # board the manifest names, and the board's check tilts on the file.
    (lambda d: (d / "board.json").write_bytes((d / "board.json").read_bytes() + b"x"),
     "board.json", "differs"),
    (lambda d: (d / "board.json").unlink(), "board.json", "missing"),
])
def test_a_changed_missing_or_extra_file_tilts_at_boot_and_nothing_plays(
        image, keys, capsys, spoil, named, why):
    spoil(image)
    code, out, err = emulate(image, keys / "felt.pub", capsys)
    assert code == cli.TILTED
    assert "program_check_failed: %s: " % named in err and why in err
    assert "hand 1" not in out


def test_an_image_signed_with_another_key_is_refused_by_the_board_and_by_felt_flash(
        keys, tmp_path, capsys):
    other = tmp_path / "other"
    flash.build("pico-11", other, keys / "other.key")
    code, out, err = emulate(other, keys / "felt.pub", capsys)
    assert code == cli.TILTED
    assert "program_check_failed: manifest.json: not signed by a key this board trusts" in err
    with pytest.raises(flash.Refused, match="not signed by a key this board trusts"):
        flash.check_image(other, keys / "felt.pub")
    assert flash.main(["install", "--image", str(other), "--trust", str(keys / "felt.pub"),
                       "--dry-run"]) == 1
    assert "refused" in capsys.readouterr().err


def test_a_manifest_edited_to_match_a_changed_file_fails_its_signature(image, keys, capsys):
    target = image / "felt" / "poker" / "rake.mpy"
    flip(target)
    manifest = json.loads((image / "manifest.json").read_text())
    manifest["files"]["felt/poker/rake.mpy"] = list(
        flash.board_image.sha256_file(str(target)))
    (image / "manifest.json").write_text(json.dumps(manifest, sort_keys=True,
                                                    separators=(",", ":")))
    code, out, err = emulate(image, keys / "felt.pub", capsys)
    assert code == cli.TILTED
    assert "manifest.json: not signed by a key this board trusts" in err


def test_a_board_without_a_trusted_key_tilts(image, tmp_path, capsys):
    code, out, err = emulate(image, tmp_path / "felt.pub", capsys)   # no such file
    assert code == 2 and "no such key file" in err     # the emulator refuses to start it...
    fw = FirmwareProcess(image / "board.json", runtime="micropython", image=image,
                         trust=tmp_path / "felt.pub")
    try:                                    # ...and the board itself tilts
        kind, p = fw.link.recv()
        assert kind == "px"
        hello = fw.link.request("hello", {}, "hello")
        assert hello["tilt"]["file"] == "felt.pub" and "provision" in hello["tilt"]["why"]
    finally:
        fw.close()


def test_a_tilted_board_lights_its_centre_refuses_play_and_logs_it(image, keys, tmp_path):
    flip(image / "felt" / "table" / "controller.mpy")
    journal = tmp_path / "journal.jsonl"
    fw = FirmwareProcess(image / "board.json", journal=journal, runtime="micropython",
                         image=image, trust=keys / "felt.pub")
    try:
        kind, p = fw.link.recv()
        assert kind == "px"
        leds = json.loads((image / "board.json").read_text())["leds"]
        frame = [tuple(bytes.fromhex(p["rgb"])[i:i + 3]) for i in range(0, len(p["rgb"]) // 2, 3)]
        assert scenes.centre_status(frame, leds) == scenes.LOCKED
        assert all(scenes.seat_status(frame, leds, s) == scenes.EMPTY
                   for s in range(len(leds["seats"])))
        kind, tilt = fw.link.recv()
        assert kind == "tilt" and tilt["code"] == "program_check_failed"
        assert tilt["file"] == "felt/table/controller.mpy"
        why = fw.link.send("cfg", {"game": "holdem"})
        assert why.startswith("the table is tilted: program_check_failed: "
                              "felt/table/controller.mpy")
        assert fw.link.request("state", {}, "tilt") == tilt
    finally:
        fw.close()
    log = (tmp_path / "journal.jsonl.events.kept").read_text()   # a tilt: kept apart
    assert '"code":"program_check_failed"' in log and "felt/table/controller.mpy" in log
    assert not journal.exists()             # no table was started: nothing journaled


def test_verify_reads_the_boards_hashes_back_and_names_what_differs(image, capsys):
    assert flash.main(["verify", "--image", str(image), "--dir", str(image)]) == 0
    assert "as in the image" in capsys.readouterr().out
    flip(image / "felt" / "loop.mpy")
    (image / "felt" / "sneaky.mpy").write_bytes(b"M")
    assert flash.main(["verify", "--image", str(image), "--dir", str(image)]) == 1
    out = capsys.readouterr().out
    assert "felt/loop.mpy: differs from the image" in out
    assert "felt/sneaky.mpy: on the board, not in the image" in out


def test_technician_commands_over_the_link_signed_replayed_and_unsigned(built, keys, tmp_path):
    """On the MicroPython runtime, through the link: the table is configured only by a
    signed command; the same frame sent again, or a plain one, changes nothing; a
    foreign key's is refused before its signature is checked."""
    key = flash.load_key(keys / "tech.key")
    with Session(players=3, seed=2, runtime="micropython", image=built,
                 board=built / "board.json", trust=keys / "felt.pub", tech_key=key) as s:
        assert s.hello["signed"] is True
        before = s.state()
        assert before["config"] is not None          # open() configured it, signed
        link = s.link
        other = table_config(players=3, stack=5)
        assert link.send("cfg", other) == "cfg is a technician's command: send it signed (tech)"
        signed = tech.signed(s.technician, tech.challenge(link, s.technician), "cfg", other)
        assert link.send("tech", signed) is None
        assert s.state()["stacks"][:3] == [5, 5, 5]
        assert link.send("tech", signed) == "cfg refused: nonce %s is not a challenge of " \
            "this board's: ask for one" % signed["nonce"]
        foreign = tech.Technician(flash.load_key(keys / "other.key"), s.fw.board_key)
        assert tech.send(link, foreign, "deck", {"register": "A"}) == \
            "deck refused: key %s is not trusted for deck" % foreign.key_id
        assert s.state()["stacks"][:3] == [5, 5, 5]
        # The event log is a technician's to read (issue 21): plainly, it is refused.
        with pytest.raises(QueryRefused, match="eventlog is a technician's command"):
            link.request("eventlog", {}, "eventlog")
        records = s.ask("eventlog", {})["records"]
        # Refusals are counted: the first is written, the second waits for the tenth.
        assert [r["code"] for r in records][-2:] == ["technician", "technician_refused"]


def test_felt_flash_verify_asks_the_board_over_its_link_for_a_fresh_hmac(built, image, keys,
                                                                        capsys):
    """Program verification on demand (issue 21, item 3; felt.verify): the emulated board
    answers the HMAC of its program for a fresh seed; felt-flash computes the same from
    the released image.  One byte changed on the board, and the answers differ (the
    board is tilted then, and answers all the same)."""
    assert verified(built, image, keys, capsys) == (0, "the program is the image")
    flip(image / "felt" / "poker" / "round.mpy")
    assert verified(built, image, keys, capsys) == (1, "the program differs from the image")


def test_felt_flash_verify_takes_an_answer_only_where_the_boards_key_vouches_for_it(
        built, keys, tmp_path, capsys):
    """Issue 38, item 4: a host in the middle has the released image too, so it could
    answer a lab's seed itself; with the host's copy of the board's own key felt-flash
    takes only an answer that key vouches for, bound to the board and the seed."""
    from test_console import Served
    journal = tmp_path / "journal.jsonl"
    served = Served("--runtime", "micropython", "--image", built, "--trust", keys / "felt.pub",
                    "--journal", journal)
    (tmp_path / "other.key").write_text(os.urandom(32).hex() + "\n")
    try:
        asks = ["verify", "--image", str(built), "--port", served.url]
        assert flash.main(asks + ["--board", "pico-11", "--board-key", "%s.key" % journal]) == 0
        assert capsys.readouterr().out.strip().endswith(
            "(HMAC-SHA256 for a fresh seed, vouched for by board pico-11's key)")
        for wrong in (["--board", "pico-11", "--board-key", str(tmp_path / "other.key")],
                      ["--board", "pico-12", "--board-key", "%s.key" % journal]):
            assert flash.main(asks + wrong) == 1
            assert "the verify answer is not vouched for" in capsys.readouterr().err
    finally:
        served.stop()


def verified(released, image, keys, capsys):
    """(felt-flash verify's exit status, what it said after the port) for an emulated
    board running `image`, checked against the image `released`."""
    from test_console import Served
    served = Served("--runtime", "micropython", "--image", image, "--trust", keys / "felt.pub")
    try:
        code = flash.main(["verify", "--image", str(released), "--port", served.url])
    finally:
        served.stop()
    out = capsys.readouterr()
    said = out.out.strip()
    assert said, out.err        # felt-flash said why it could not ask
    return code, said.split(": ", 1)[1].split(" %s" % released)[0]


def test_an_older_image_or_one_for_another_board_is_refused_once_a_newer_one_ran(
        image, keys, tmp_path, capsys, monkeypatch):
    """Anti-rollback and board binding (issue 21, item 4): an image signed with the board's
    own key saying `felt 0.0.9`, or naming another board, was accepted.  The board keeps
    the newest image it has run (felt.newest) and refuses, with a tilt, what is older or
    for another board."""
    import felt
    from felt import image as board_image
    code, out, err = emulate(image, keys / "felt.pub", capsys)
    assert code == 0, err
    newest = json.loads((image / board_image.NEWEST).read_text())
    assert newest == {"board": "pico-11", "version": felt.FIRMWARE}
    monkeypatch.setattr(felt, "FIRMWARE", "felt 0.0.9")
    flash.build("pico-11", tmp_path / "older", keys / "felt.key")
    flash.build("feather-rp2040-cp", tmp_path / "another", keys / "felt.key")
    monkeypatch.undo()
    for name, why in (("older", "version felt 0.0.9 is older than %s, the newest this "
                                "board has run" % felt.FIRMWARE),
                      ("another", "an image for board feather-rp2040-cp: this board runs "
                                  "images for pico-11")):
        shutil.copy(image / board_image.NEWEST, tmp_path / name)   # the board's flash keeps it
        code, out, err = emulate(tmp_path / name, keys / "felt.pub", capsys)
        assert code == cli.TILTED
        assert "program_check_failed: manifest.json: %s" % why in err
    # A newer image runs, and becomes the newest.
    monkeypatch.setattr(felt, "FIRMWARE", "felt 9.0.0")
    flash.build("pico-11", tmp_path / "newer", keys / "felt.key")
    monkeypatch.undo()
    shutil.copy(image / board_image.NEWEST, tmp_path / "newer")
    code, out, err = emulate(tmp_path / "newer", keys / "felt.pub", capsys)
    assert code == 0, err
    assert json.loads((tmp_path / "newer" / board_image.NEWEST).read_text())["version"] == \
        "felt 9.0.0"


def test_a_technicians_key_cannot_sign_an_image_even_where_felt_pub_lists_it(keys, tmp_path,
                                                                             capsys):
    # Issue 21, item 5: with one key for everything a floor technician's key signed
    # firmware.  Here an installer put the technician's key in felt.pub as well.
    image = tmp_path / "image"
    flash.build("pico-11", image, keys / "tech.key")
    board = tmp_path / "board"
    board.mkdir()
    (board / "felt.pub").write_text((keys / "felt.pub").read_text() +
                                    (keys / "tech.pub").read_text())
    for name in ("tech.pub", "tech.key"):
        shutil.copy(keys / name, board / name)
    code, out, err = emulate(image, board / "felt.pub", capsys)
    assert code == cli.TILTED
    assert "manifest.json: not signed by a key this board trusts" in err


def test_with_the_signature_broken_no_file_runs_to_show_the_tilt(image, keys, capsys):
    # Issue 21, item 2, as the attack: the signature broken, a rewritten felt/tilted.py
    # listed anew in the (unsigned) manifest ran at boot to show the tilt.
    (image / "felt" / "tilted.py").write_text(
        "open(%r, 'w').write('ran')\n" % str(image / "ran"))
    manifest = json.loads((image / "manifest.json").read_text())
    manifest["files"]["felt/tilted.py"] = list(sha256_file(str(image / "felt" / "tilted.py")))
    (image / "manifest.json").write_text(json.dumps(manifest))
    code, out, err = emulate(image, keys / "felt.pub", capsys)
    assert code == cli.TILTED
    assert "program_check_failed: manifest.json: not signed by a key this board trusts" in err
    assert not (image / "ran").exists()
