"""Signed images, checked at boot on the MicroPython runtime (felt.image, felt.tilted,
host_tools/images.py): a board plays only an image whose every program file is the one
a key it trusts signed; anything else tilts it with play disabled and the file named
(docs/tilts.md, program_check_failed)."""

import json
import os
import shutil

import pytest

from felt.image import sha256_file
from felt.table import scenes
from host_tools import flash, images, signing, tech
from host_tools.emulator import cli
from host_tools.link import QueryRefused, Tilted
from host_tools.process import FirmwareProcess
from host_tools.emulator.session import Session, table_config
from host_tools.micropython import MicroPythonMissing, binary

try:
    binary()
except MicroPythonMissing as e:   # make test builds it; a bare pytest may lack it
    pytest.skip(str(e), allow_module_level=True)


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    d = tmp_path_factory.mktemp("keys")
    signing.keygen(d / "felt")
    signing.keygen(d / "tech")        # the technician's
    signing.keygen(d / "other")
    # The board's trust document: the owner's key signs images, the technician's commands.
    signing.write_trust(d, d / "felt.key", tech=d / "tech.pub")
    return d


@pytest.fixture(scope="module")
def built(keys, tmp_path_factory):
    image = tmp_path_factory.mktemp("image") / "image"
    images.build("pico-11", image, keys / "felt.key")
    signing.first_record(image, keys / "trust.json", "pico-11")    # provisioned
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
    code, out, err = emulate(image, keys / "trust.json", capsys)
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
    code, out, err = emulate(image, keys / "trust.json", capsys)
    assert code == cli.TILTED
    assert "program_check_failed: %s: " % named in err and why in err
    assert "hand 1" not in out


def test_an_image_signed_with_another_key_is_refused_by_the_board_and_by_felt_flash(
        keys, tmp_path, capsys):
    other = tmp_path / "other"
    images.build("pico-11", other, keys / "other.key")
    code, out, err = emulate(other, keys / "trust.json", capsys)
    assert code == cli.TILTED
    assert "program_check_failed: manifest.json: not signed by a key this board trusts" in err
    with pytest.raises(signing.Refused, match="not signed by a key this board trusts"):
        images.check_image(other, keys / "trust.json")
    assert flash.main(["install", "--image", str(other), "--trust", str(keys / "trust.json"),
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
    code, out, err = emulate(image, keys / "trust.json", capsys)
    assert code == cli.TILTED
    assert "manifest.json: not signed by a key this board trusts" in err


def test_a_board_without_a_trusted_key_tilts(image, tmp_path, capsys):
    code, out, err = emulate(image, tmp_path / "trust.json", capsys)   # no such file
    assert code == 2 and "no such trust document" in err   # the emulator refuses to start it...
    fw = FirmwareProcess(image / "board.json", runtime="micropython", image=image,
                         trust=tmp_path / "trust.json")
    try:                                    # ...and the board itself tilts, on its console
        # only: with no trust document nothing was checked, so none of its files runs.
        with pytest.raises(Tilted, match="program_check_failed: trust.json: no trust "
                                         "document: the board was not provisioned"):
            fw.link.request("hello", {}, "hello")
    finally:
        fw.close()


def test_a_tilted_board_lights_its_centre_refuses_play_and_logs_it(image, keys, tmp_path):
    flip(image / "felt" / "table" / "controller.mpy")
    journal = tmp_path / "journal.jsonl"
    fw = FirmwareProcess(image / "board.json", journal=journal, runtime="micropython",
                         image=image, trust=keys / "trust.json")
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
    key = signing.load_key(keys / "tech.key")
    with Session(players=3, seed=2, runtime="micropython", image=built,
                 board=built / "board.json", trust=keys / "trust.json", tech_key=key) as s:
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
        foreign = tech.Technician(signing.load_key(keys / "other.key"), s.fw.board_key)
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
    served = Served("--runtime", "micropython", "--image", built, "--trust", keys / "trust.json",
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
    served = Served("--runtime", "micropython", "--image", image, "--trust", keys / "trust.json")
    try:
        code = flash.main(["verify", "--image", str(released), "--port", served.url])
    finally:
        served.stop()
    out = capsys.readouterr()
    said = out.out.strip()
    assert said, out.err        # felt-flash said why it could not ask
    return code, said.split(": ", 1)[1].split(" %s" % released)[0]


def test_a_lower_build_or_another_image_of_the_same_build_is_refused_once_one_ran(
        image, keys, tmp_path, capsys, monkeypatch):
    """Anti-rollback and board binding (issue 21, item 4; issue 38, item 2): every build
    was signed `felt 0.1.0`, so any other build of that version ran.  Each image carries
    a build number felt-flash sets; the board keeps the highest it has run with its
    manifest's SHA-256 (felt.newest) and refuses, with a tilt, a lower build, another
    image of the same build, and an image for another board."""
    from felt import image as board_image
    older = tmp_path / "older"
    images.build("pico-11", older, keys / "felt.key")
    images.build("pico-11", tmp_path / "newer", keys / "felt.key")
    images.build("feather-rp2040-cp", tmp_path / "another", keys / "felt.key")
    newer = json.loads((tmp_path / "newer" / "manifest.json").read_text())["build"]
    # The same number again for another program, as a key file's count wound back within
    # the minute would give.
    import felt
    (keys / "felt.key.build").write_text("%d\n" % (newer - 1))
    monkeypatch.setattr(images, "build_minutes", lambda: 0)
    monkeypatch.setattr(felt, "FIRMWARE", "felt 0.0.9")
    images.build("pico-11", tmp_path / "twin", keys / "felt.key")
    monkeypatch.undo()
    twin = json.loads((tmp_path / "twin" / "manifest.json").read_text())
    assert twin["build"] == newer
    for name in ("older", "newer", "another", "twin"):
        signing.first_record(tmp_path / name, keys / "trust.json", "pico-11")
    code, out, err = emulate(tmp_path / "newer", keys / "trust.json", capsys)
    assert code == 0, err
    record = json.loads((tmp_path / "newer" / board_image.NEWEST).read_text())
    assert record["build"] == newer and record["board"] == "pico-11"
    built = json.loads((older / "manifest.json").read_text())["build"]
    for name, why in (("older", "build %d is older than build %d, the newest this board "
                                "has run" % (built, newer)),
                      ("twin", "another image than the build %d this board has run" % newer),
                      ("another", "an image for board feather-rp2040-cp: this board runs "
                                  "images for pico-11")):
        # The board's flash keeps its record across an install.
        shutil.copy(tmp_path / "newer" / board_image.NEWEST, tmp_path / name)
        code, out, err = emulate(tmp_path / name, keys / "trust.json", capsys)
        assert code == cli.TILTED, name
        assert "program_check_failed: manifest.json: %s" % why in err
    # The newest runs again, as it did.
    code, out, err = emulate(tmp_path / "newer", keys / "trust.json", capsys)
    assert code == 0, err


def test_builds_only_grow_and_are_set_by_the_tool(keys, tmp_path, monkeypatch):
    key = tmp_path / "felt.key"
    shutil.copy(keys / "felt.key", key)
    monkeypatch.setattr(images, "build_minutes", lambda: 1000)
    assert images.build("pico-11", tmp_path / "a", key)["build"] == 1000
    assert (tmp_path / "felt.key.build").read_text() == "1000\n"
    assert images.build("pico-11", tmp_path / "b", key)["build"] == 1001    # within the minute
    monkeypatch.setattr(images, "build_minutes", lambda: 5000)
    assert images.build("pico-11", tmp_path / "c", key)["build"] == 5000
    (tmp_path / "felt.key.build").unlink()            # the count lost: the clock still grows
    monkeypatch.setattr(images, "build_minutes", lambda: 5001)
    assert images.build("pico-11", tmp_path / "d", key)["build"] == 5001
    (tmp_path / "felt.key.build").write_text("soon")
    with pytest.raises(signing.Refused, match="not a build number"):
        images.build("pico-11", tmp_path / "e", key)
    assert not (tmp_path / "e").exists()


def test_a_board_whose_record_is_missing_or_damaged_runs_no_image(image, keys, capsys):
    """Issue 38, item 2: a damaged felt.newest let an older image run.  A provisioned
    board whose record is missing or does not read tilts instead."""
    from felt import image as board_image
    for damage in (lambda p: p.unlink(), lambda p: p.write_text('{"board": "pico-11"'),
                   lambda p: p.write_text('{"build": 1}')):
        signing.first_record(image, keys / "trust.json", "pico-11")
        damage(image / board_image.NEWEST)
        code, out, err = emulate(image, keys / "trust.json", capsys)
        assert code == cli.TILTED
        assert "program_check_failed: felt.newest: the board's record of the newest image " \
               "it ran is missing or does not read" in err


def test_an_image_for_a_chip_runs_on_that_chip_only(keys, tmp_path):
    """Issue 38, item 2: an image signed for pico-11 ran on every pico-11.  Built with
    --chip, it names the chip (its unique id, as the board's challenge gives it) and
    another chip tilts on it.  The unix port has no unique id: the emulator gives the
    board one (FirmwareProcess's chip, felt.runtime.chip_id)."""
    image = tmp_path / "image"
    assert flash.main(["build", "--board", "pico-11", "--key", str(keys / "felt.key"),
                       "--out", str(image), "--chip", "e66038b7134f4d2f"]) == 0
    for chip, tilt in (("e66038b7134f4d2f", None),
                       ("e66038b7134f4d30", "an image for chip e66038b7134f4d2f: this "
                                            "board's chip is e66038b7134f4d30"),
                       (None, "an image for chip e66038b7134f4d2f: this board's chip is "
                              "None")):
        signing.first_record(image, keys / "trust.json", "pico-11")
        fw = FirmwareProcess(image / "board.json", runtime="micropython", image=image,
                             trust=keys / "trust.json", chip=chip)
        try:
            if tilt is None:
                assert "tilt" not in fw.link.request("hello", {}, "hello")
                assert fw.link.request("challenge", {}, "challenge")["board"] == chip
            else:
                with pytest.raises(Tilted, match="program_check_failed: manifest.json: %s"
                                   % tilt):
                    fw.link.request("hello", {}, "hello")
        finally:
            fw.close()
    with pytest.raises(signing.Refused, match="lower-case hex"):
        images.build("pico-11", tmp_path / "bad", keys / "felt.key", chip="E66038B7")
    # felt-emulator gives its board the chip id it is told.
    signing.first_record(image, keys / "trust.json", "pico-11")
    assert cli.main(["--runtime", "micropython", "--image", str(image), "--trust",
                     str(keys / "trust.json"), "--tech-key", str(keys / "tech.key"),
                     "--chip", "e66038b7134f4d2f", "--hands", "1", "--players", "3"]) == 0
    signing.first_record(image, keys / "trust.json", "pico-11")
    assert cli.main(["--runtime", "micropython", "--image", str(image), "--trust",
                     str(keys / "trust.json"), "--tech-key", str(keys / "tech.key"),
                     "--hands", "1", "--players", "3"]) == cli.TILTED


def test_a_technicians_key_cannot_sign_an_image_nor_be_an_owner_too(keys, tmp_path, capsys):
    # Issue 21, item 5: with one key for everything a floor technician's key signed
    # firmware.  A trust document gives a key one role: an image the technician's key
    # signed is refused, and a document naming it an owner as well is never written.
    image = tmp_path / "image"
    images.build("pico-11", image, keys / "tech.key")
    code, out, err = emulate(image, keys / "trust.json", capsys)
    assert code == cli.TILTED
    assert "manifest.json: not signed by a key this board trusts" in err
    both = tmp_path / "both.pub"
    both.write_text((keys / "felt.pub").read_text() + (keys / "tech.pub").read_text())
    with pytest.raises(signing.Refused, match="a key named twice"):
        signing.write_trust(tmp_path / "trust", keys / "felt.key", owners=both,
                            tech=keys / "tech.pub")
    assert not (tmp_path / "trust").exists()


def test_with_the_signature_broken_no_file_runs_to_show_the_tilt(image, keys, capsys):
    # Issue 21, item 2, as the attack: the signature broken, a rewritten felt/tilted.py
    # listed anew in the (unsigned) manifest ran at boot to show the tilt.
    (image / "felt" / "tilted.py").write_text(
        "open(%r, 'w').write('ran')\n" % str(image / "ran"))
    manifest = json.loads((image / "manifest.json").read_text())
    manifest["files"]["felt/tilted.py"] = list(sha256_file(str(image / "felt" / "tilted.py")))
    (image / "manifest.json").write_text(json.dumps(manifest))
    code, out, err = emulate(image, keys / "trust.json", capsys)
    assert code == cli.TILTED
    assert "program_check_failed: manifest.json: not signed by a key this board trusts" in err
    assert not (image / "ran").exists()


# What a planted felt/verify.py would answer the lab, and leave behind if it ran.
PLANTED_VERIFY = """
def answer(root, seed):
    open(%r, 'w').write('ran')
    return {'seed': seed, 'mac': '00' * 32}
"""


@pytest.mark.parametrize("spoil, named", [
    (lambda d: (d / "felt" / "verify.py").write_text(PLANTED_VERIFY % str(d / "ran")),
     "felt/verify.py"),
    (lambda d: flip(d / "felt" / "verify.mpy"), "felt/verify.mpy"),
    (lambda d: flip(d / "felt" / "image.mpy", at=-2), "felt/image.mpy"),
])
def test_a_tilted_board_answers_verify_with_no_code_its_check_found_changed(image, keys,
                                                                           spoil, named):
    """Issue 38, item 6: on a .mpy board a planted felt/verify.py tilted the board, and a
    `verify` then imported it and it answered the lab.  The board answers `verify` only
    with code its check found intact, imported before the tilt; else it says why."""
    spoil(image)
    fw = FirmwareProcess(image / "board.json", runtime="micropython", image=image,
                         trust=keys / "trust.json")
    try:
        seed = "ab" * 32
        answer = fw.link.request("verify", {"seed": seed}, "verify")
        assert answer["seed"] == seed and answer["mac"] is None
        assert answer["why"].startswith("%s failed the program check: " % named)
    finally:
        fw.close()
    assert not (image / "ran").exists()


def signed_trust(folder, key, doc):
    """The trust document `doc` written in `folder` with its signature by the private
    `key`, as whoever can write the board's flash could (felt-flash root refuses a
    document its key is not an owner of)."""
    from felt.protocol import dumps
    from felt.image import ROOT
    (folder / "trust.json").write_text(dumps(doc))
    (folder / "trust.sig").write_text(key.sign(ROOT + dumps(doc).encode()).hex())


def test_a_trust_document_rewritten_on_the_flash_tilts_at_boot(image, keys, tmp_path, capsys):
    """Issue 38, item 1, as the attack: from the REPL a technician's key was made an
    owner's.  The board takes its trust document only signed by one of its own owners,
    at a version not below the one it took, and at that version only the one it took."""
    board = tmp_path / "board"
    board.mkdir()
    for name in ("trust.json", "trust.sig", "tech.key"):
        shutil.copy(keys / name, board / name)
    code, out, err = emulate(image, board / "trust.json", capsys)
    assert code == 0, err                    # the board took version 1 and noted it
    technician = signing.load_key(keys / "tech.key")
    owner_hex = signing.public_hex(signing.load_key(keys / "felt.key"))
    tech_hex = signing.public_hex(technician)
    for doc, why in (
            ({"version": 1, "owners": [owner_hex, tech_hex], "technicians": []},
             "not the document of version 1 this board took"),
            ({"version": 2, "owners": [owner_hex], "technicians": [tech_hex]},
             "not signed by one of its owners' keys (trust.sig)")):
        signed_trust(board, technician, doc)
        code, out, err = emulate(image, board / "trust.json", capsys)
        assert code == cli.TILTED
        assert "program_check_failed: trust.json: %s" % why in err
        assert "hand 1" not in out


def test_a_new_trust_document_comes_only_from_the_owner_and_never_goes_back(
        built, keys, tmp_path):
    """Over the link on the MicroPython runtime: `felt-tech root` with a document
    felt-flash root made, version 2 leaving the technician's key out.  Signed by the
    technician it is refused; by the owner it is taken, and the technician's commands
    are refused from then on.  Version 1 put back on the flash tilts the next boot."""
    board = tmp_path / "board"
    shutil.copytree(built, board)
    trust = tmp_path / "trust"
    trust.mkdir()
    for name in ("trust.json", "trust.sig"):
        shutil.copy(keys / name, trust / name)
    new = signing.write_trust(tmp_path / "v2", keys / "felt.key", version=2)
    body = tech.body_of("root", str(new))
    with Session(players=3, seed=2, runtime="micropython", image=board,
                 board=board / "board.json", trust=trust / "trust.json",
                 tech_key=signing.load_key(keys / "tech.key")) as s:
        link, technician = s.link, s.technician
        owner = tech.Technician(signing.load_key(keys / "felt.key"), s.fw.board_key)
        assert tech.send(link, technician, "root", body) == \
            "root refused: key %s is not trusted for root" % technician.key_id
        assert tech.send(link, owner, "root", body) is None
        assert tech.send(link, technician, "rules", {"min_wager": 4}) == \
            "rules refused: key %s is not trusted for rules" % technician.key_id
    assert (trust / "trust.json").read_text() == new.read_text()
    assert json.loads((board / "felt.newest").read_text())["root"] == 2
    for name in ("trust.json", "trust.sig"):
        shutil.copy(keys / name, trust / name)
    fw = FirmwareProcess(board / "board.json", runtime="micropython", image=board,
                         trust=trust / "trust.json")
    try:
        with pytest.raises(Tilted, match="program_check_failed: trust.json: version 1 is "
                                         "older than 2, the newest this board took"):
            fw.link.request("hello", {}, "hello")
    finally:
        fw.close()
