"""Program verification on demand (felt.verify, docs/security.md): the `verify` query's
HMAC-SHA256 of the image for a fresh seed, on CPython and inside MicroPython.  Its HMAC
(felt.mac) is checked against RFC 4231's vectors in test_mac.py;
tests/host/test_verify_link.py checks it against Python's hmac module and felt-flash
verify over the link."""

import binascii

from felt import mac, verify
from felt.table.controller import Controller
from felt.table.journal import Journal

from table_fakes import BOARD, FakeHal, scratch_dir

SEED = "00112233445566778899aabbccddeeff"


def hmac(key, data):
    return binascii.hexlify(mac.digest(key, data)).decode()


def image_folder(name):
    """A small image: two listed files, a manifest and a signature (not checked here)."""
    root = scratch_dir("verify-" + name)
    for path, data in (("board.json", b'{"name": "test"}'), ("main.py", b"print(1)\n")):
        with open(root + "/" + path, "wb") as f:
            f.write(data)
    with open(root + "/manifest.json", "w") as f:
        f.write('{"files": {"board.json": [16, "x"], "main.py": [9, "y"]}}')
    with open(root + "/manifest.sig", "w") as f:
        f.write("ab" * 64)
    return root


def asked(root, seed=SEED):
    hal = FakeHal()
    ctl = Controller(hal, BOARD, Journal(), image=root)
    why = ctl.handle("verify", {"seed": seed})
    answers = [p for k, p in hal.link.sent if k == "verify"]
    return why, answers[-1] if answers else None


def test_verify_answers_the_images_hmac_for_the_seed():
    root = image_folder("answer")
    why, answer = asked(root)
    assert why is None and answer["seed"] == SEED and len(answer["mac"]) == 64
    # What the host computes: each part named and sized, in the manifest's order.
    parts = b"board.json\n16\n" + b'{"name": "test"}' + b"main.py\n9\nprint(1)\n" + \
        b'manifest.json\n57\n{"files": {"board.json": [16, "x"], "main.py": [9, "y"]}}' + \
        b"manifest.sig\n128\n" + b"ab" * 64
    assert answer["mac"] == hmac(binascii.unhexlify(SEED), parts)
    # Another seed, another answer: a recorded one cannot be played back.
    assert asked(root, "ff" * 16)[1]["mac"] != answer["mac"]


def test_one_byte_changed_or_a_file_missing_changes_the_answer():
    root = image_folder("changed")
    _, before = asked(root)
    with open(root + "/main.py", "wb") as f:
        f.write(b"print(2)\n")
    _, after = asked(root)
    assert after["mac"] != before["mac"]
    import os
    os.remove(root + "/main.py")
    assert asked(root)[1]["mac"] not in (before["mac"], after["mac"])


def test_a_table_without_an_image_says_so_and_a_bad_seed_is_refused():
    why, answer = asked(None)
    assert answer == {"seed": SEED, "mac": None, "why": "this table runs no signed image"}
    for seed in ("00" * 15, "0" * 33, "GG" * 16, 7):
        why, answer = asked(image_folder("bad-seed"), seed)
        assert why == "verify seed must be 16 to 64 bytes in lower-case hex" and answer is None
