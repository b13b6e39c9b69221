"""felt-tech signs a technician's command as the board checks it
(host_tools/tech.py, felt.table.technician)."""

import pytest

from felt import image
from felt.table import technician
from host_tools import flash, tech


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """The technician's key pair, and a board's trust document naming it (its path)."""
    d = tmp_path_factory.mktemp("keys")
    owner, _ = flash.keygen(d / "felt")
    private, public = flash.keygen(d / "tech")
    return private, public, str(flash.write_trust(d, owner, tech=public))


def test_a_signed_command_is_the_one_the_board_accepts_and_no_other(keys):
    private, public, trust = keys
    key = flash.load_key(private)
    challenge = {"board": "pico-11", "nonce": "0123456789abcdef"}
    p = tech.signed(key, challenge, "deck", {"register": "B"})
    assert p["cmd"] == "deck" and p["body"] == {"register": "B"} and len(p["sig"]) == 128
    kid = technician.signer(trust, "pico-11", "0123456789abcdef", p)
    assert kid == image.key_id(bytes.fromhex(public.read_text().strip()))
    assert technician.signer(trust, "pico-11", "fedcba9876543210", p) is None
    assert technician.signer(trust, "pico-12", "0123456789abcdef", p) is None
    p["body"] = {"register": "A"}
    assert technician.signer(trust, "pico-11", "0123456789abcdef", p) is None
    # The owner's commands: never the technician's key.
    p = tech.signed(key, challenge, "service", {})
    assert technician.signer(trust, "pico-11", "0123456789abcdef", p) is None


def test_root_sends_the_document_felt_flash_root_made_with_its_signature(keys, tmp_path):
    private, public, trust = keys
    made = flash.write_trust(tmp_path, private.with_name("felt.key"), version=2)
    body = tech.body_of("root", str(made))
    assert body == {"doc": image.document(str(made)),
                    "sig": (tmp_path / "trust.sig").read_text().strip()}
    with pytest.raises(flash.Refused, match="no such file"):
        tech.body_of("root", str(tmp_path / "nope.json"))


def test_the_command_line_reads_its_argument(tmp_path):
    assert tech.body_of("clear", None) == {}
    assert tech.body_of("deck", "A") == {"register": "A"}
    assert tech.body_of("rules", '{"min_wager": 10}') == {"min_wager": 10}
    f = tmp_path / "table.json"
    f.write_text('{"seats": 2}')
    assert tech.body_of("cfg", str(f)) == {"seats": 2}
