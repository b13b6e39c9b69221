"""felt-tech signs and MACs a technician's command as the board checks it, refuses a
board it was not told to expect before signing anything, and takes an answer only
where the board's own key vouches for it (host_tools/tech.py, felt.table.technician,
felt.vouch); `root` carries the trust document felt-flash root made."""

import pytest

from felt import image
from felt.table.controller import Controller
from felt.table.journal import Journal
from host_tools import cli, signing, tech
from table_fakes import BOARD, FakeHal


@pytest.fixture
def board(tmp_path):
    """A board named "test" whose trust document names a technician's key (its owner's
    key, felt.key, unused but for the owner's commands) and that keeps its own key:
    (controller, hal, Technician)."""
    owner, _ = signing.keygen(tmp_path / "felt")
    private, public = signing.keygen(tmp_path / "tech")
    trust = signing.write_trust(tmp_path, owner, tech=public)
    journal = str(tmp_path / "journal.jsonl")
    own = signing.board_key(journal + ".key")                     # as felt-flash install
    ctl = Controller(FakeHal(), BOARD, Journal(journal), str(trust))
    return ctl, ctl.hal, tech.Technician(signing.load_key(private), own, "test")


class Link:
    """A HostLink's request and send, answered by the controller `ctl` as the board would,
    each answer passed through `meddle` (a host in the middle)."""

    def __init__(self, ctl, meddle=lambda kind, p: p):
        self.ctl, self.meddle = ctl, meddle

    def request(self, kind, payload, answer):
        assert self.ctl.handle(kind, payload) is None
        got, p = self.ctl.hal.link.sent[-1]
        assert got == answer
        return self.meddle(answer, dict(p))

    def send(self, kind, payload):
        return self.ctl.handle(kind, payload)


def test_a_signed_command_is_the_one_the_board_accepts_and_no_other(board):
    ctl, hal, who = board
    link = Link(ctl)
    challenge = tech.challenge(link, who)
    p = tech.signed(who, challenge, "deck", {"register": "B"})
    assert sorted(p) == ["body", "cmd", "key", "mac", "nonce", "sig"]
    assert p["key"] == who.key_id and len(p["sig"]) == 128 and len(p["mac"]) == 64
    changed = dict(p, body={"register": "A"})
    assert link.send("tech", changed).startswith("deck refused: its MAC does not hold")
    assert link.send("tech", p) == "deck B is in service already"   # taken, signature held
    assert link.send("tech", p).startswith("deck refused: nonce ")  # spent: a replay
    # The owner's commands: never the technician's key, refused before its signature.
    p = tech.signed(who, tech.challenge(link, who), "service", {})
    assert link.send("tech", p) == "service refused: key %s is not trusted for service" \
        % who.key_id


def test_a_board_it_was_not_told_to_expect_gets_nothing_signed(board):
    ctl, hal, who = board
    other = tech.Technician(who.key, who.board_key, "e6614103e7")
    with pytest.raises(tech.Untrusted, match="says it is test, not e6614103e7"):
        tech.send(Link(ctl), other, "clear", {})
    assert [k for k, p in hal.link.sent] == ["hello", "challenge"]   # no tech was sent
    assert tech.send(Link(ctl), who, "clear", {}) == "nothing to clear: the table is not tilted"


def test_a_reading_is_taken_only_where_the_boards_key_vouches_for_it(board):
    ctl, hal, who = board
    assert tech.ask(Link(ctl), who, "eventlog", {})["records"] == []

    def forged(kind, p):
        if kind == "eventlog":
            p["records"] = [{"n": 1, "minute": 0, "hand": 0, "code": "technician",
                             "detail": "nothing to see"}]
        return p
    with pytest.raises(tech.Untrusted, match="eventlog answer is not vouched for"):
        tech.ask(Link(ctl, forged), who, "eventlog", {})
    replayed = {}

    def replay(kind, p):        # the answer to an earlier request, played back
        if kind == "eventlog":
            replayed.setdefault("answer", p)
            return replayed["answer"]
        return p
    tech.ask(Link(ctl, replay), who, "eventlog", {})
    with pytest.raises(tech.Untrusted):
        tech.ask(Link(ctl, replay), who, "eventlog", {})


def test_the_board_is_named_by_its_id_or_by_the_hosts_copy_of_its_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    class Args:
        board_id = board_key = None
    assert tech.board_named(Args) is None
    Args.board_key = "somewhere/e6614103e7.key"
    assert tech.board_named(Args) == ("e6614103e7", "somewhere/e6614103e7.key")
    Args.board_id, Args.board_key = "pico-11", None
    assert tech.board_named(Args) == ("pico-11", "keys/boards/pico-11.key")
    with pytest.raises(cli.UserError, match="keys/boards/pico-11.key: No such file"):
        tech.technician(str(signing.keygen(tmp_path / "tech")[0]), Args)
    made = signing.board_key("keys/boards/pico-11.key")
    assert (tmp_path / "keys/boards/pico-11.key").stat().st_mode & 0o777 == 0o600
    assert signing.board_key("keys/boards/pico-11.key") == made and len(made) == 32   # kept
    assert tech.technician(str(tmp_path / "tech.key"), Args).board == "pico-11"


def test_root_sends_the_document_felt_flash_root_made_with_its_signature(tmp_path):
    owner, _ = signing.keygen(tmp_path / "felt")
    made = signing.write_trust(tmp_path / "trust", owner, version=2)
    body = tech.body_of("root", str(made))
    assert body == {"doc": image.document(str(made)),
                    "sig": (tmp_path / "trust" / "trust.sig").read_text().strip()}
    with pytest.raises(signing.Refused, match="no such file"):
        tech.body_of("root", str(tmp_path / "nope.json"))


def test_the_command_line_reads_its_argument(tmp_path):
    assert tech.body_of("clear", None) == {}
    assert tech.body_of("deck", "A") == {"register": "A"}
    assert tech.body_of("rules", '{"min_wager": 10}') == {"min_wager": 10}
    f = tmp_path / "table.json"
    f.write_text('{"seats": 2}')
    assert tech.body_of("cfg", str(f)) == {"seats": 2}
