"""felt-tech: a technician's signed command to a board (felt.table.technician).

    felt-tech --port /dev/ttyUSB0 --key keys/tech.key --board ID cfg table.json
    felt-tech --port /dev/ttyUSB0 --key keys/tech.key --board ID rules '{"min_wager": 10}'
    felt-tech --port /dev/ttyUSB0 --key keys/tech.key --board ID deck A
    felt-tech --port /dev/ttyUSB0 --key keys/tech.key --board ID clear
    felt-tech --port /dev/ttyUSB0 --key keys/felt.key --board ID service   # USB REPL, one boot
    felt-tech --port /dev/ttyUSB0 --key keys/felt.key --board ID root keys/trust/trust.json

It asks the board for a challenge and refuses a board that is not the one named
(--board ID, or the name of --board-key FILE: the host's copy of the board's own key,
which felt-flash install keeps as keys/boards/ID.key); it signs the command for that
board and challenge with the technician's private key, MACs it with the board's key,
and sends it; the board answers with an ack, or a nak saying why (docs/protocol.md).
A board takes commands signed by the technicians' keys its trust document names
(felt-flash provision), and the owner's commands signed by an owner's key, one that
signs images: `service`, and `root`, a new trust document (felt-flash root makes it,
trust.sig beside it; a key it leaves out is revoked).  There is no `revoke` of its own:
a new document without the key is the one way.
"""

import hashlib
import hmac
import json
import sys
from pathlib import Path

from felt import image, protocol
from felt.table.technician import signed_bytes
from host_tools import cli
from felt.image import TRUST_SIG
from host_tools.signing import board_key_file, load_key, public_hex, read_board_key, trust_json

COMMANDS = ("cfg", "rules", "deck", "clear", "root", "service")
PLAIN = ("clear", "service")    # the commands that take no argument


class Untrusted(cli.UserError):
    """A board that is not the one expected, or an answer its key does not vouch for:
    nothing is signed for it, nothing it said is taken (exit status 1)."""

    def __init__(self, why):
        super().__init__(why, 1)


class Technician:
    """What a technician's host holds for one board: `key`, the private key that signs
    (signing.load_key); `board_key`, the host's copy of the board's own key (bytes,
    felt.boardkey), which MACs each command and checks each answer; `board`, the id the
    board must give (None: whichever board the emulator runs for its session)."""

    def __init__(self, key, board_key, board=None):
        self.key = key
        self.key_id = image.key_id(bytes.fromhex(public_hex(key)))
        self.board_key = board_key
        self.board = board


def mac(board_key, data):
    """The MAC by the board's own key of the bytes `data` (felt.boardkey.sign), in hex."""
    return hmac.new(board_key, data, hashlib.sha256).hexdigest()


def challenge(link, who):
    """A challenge the board behind `link` draws for this request; Untrusted, before
    anything is signed, when it is not the board `who` expects."""
    got = link.request("challenge", {}, "challenge")
    if who.board is not None and got.get("board") != who.board:
        raise Untrusted("the board on the link says it is %s, not %s: nothing was signed "
                        "for it" % (got.get("board"), who.board))
    return got


def signed(who, challenge, cmd, body):
    """The `tech` payload carrying `cmd` with `body` for the board and nonce of
    `challenge` (the board's `challenge` answer): signed with the technician's key,
    MACed with the board's."""
    data = signed_bytes(challenge["board"], challenge["nonce"], who.key_id, cmd, body)
    return {"cmd": cmd, "body": body, "key": who.key_id, "nonce": challenge["nonce"],
            "mac": mac(who.board_key, data), "sig": who.key.sign(data).hex()}


def vouched(board_key, board, nonce, kind, answer, field="mac"):
    """`answer`, the board's answer of `kind` to a request for `nonce`, if its `field`
    is the MAC the board's key gives it (felt.vouch: the canonical JSON of the answer
    without it, the board's id and the nonce); else Untrusted."""
    rest = dict((k, v) for k, v in answer.items() if k != field)
    data = protocol.dumps({"answer": rest, "board": board, "kind": kind, "nonce": nonce})
    if not hmac.compare_digest(str(answer.get(field)), mac(board_key, data.encode())):
        raise Untrusted("the %s answer is not vouched for by board %s's key: not taken "
                        "(a host in the middle, or another board)" % (kind, board))
    return answer


def ask(link, who, kind, payload):
    """A technician's query (`recall`, `eventlog`) of a board that trusts keys: signed
    for a challenge of its own; returns the board's answer, once its key vouched for it."""
    got = challenge(link, who)
    answer = link.request("tech", signed(who, got, kind, payload), kind)
    return vouched(who.board_key, got["board"], got["nonce"], kind, answer)


def send(link, who, cmd, body):
    """Ask the board behind `link` (a HostLink) for a challenge, then send the signed
    command; returns None, or the board's reason for refusing it."""
    return link.send("tech", signed(who, challenge(link, who), cmd, body))


def board_options(ap, prefix="", board="--board"):
    """`board` (--board) and --board-key: which board a technician's host expects, and
    its copy of that board's key."""
    ap.add_argument(board, metavar="ID", dest="board_id",
                    help=prefix + "the id of the board expected (default: the name of the "
                                  "--board-key file)")
    ap.add_argument("--board-key", metavar="FILE",
                    help=prefix + "the host's copy of the board's own key (felt-flash "
                                  "install keeps it; default keys/boards/ID.key)")


def board_named(args):
    """(board id, key file) from the options of board_options, each the default of the
    other; None when neither was given."""
    if args.board_id is None and args.board_key is None:
        return None
    if args.board_id is None:
        return Path(args.board_key).stem, args.board_key
    return args.board_id, args.board_key or str(board_key_file(args.board_id))


def technician(key_file, args):
    """The Technician of the private key in `key_file` for the board the command line
    names (board_options); UserError when it names none."""
    key = load_key(key_file)
    named = board_named(args)
    if named is None:
        raise cli.UserError("a technician's key signs for one board: name it with --board "
                            "ID or --board-key FILE (felt-flash install keeps "
                            "keys/boards/ID.key)")
    return Technician(key, read_board_key(named[1]), named[0])


def body_of(cmd, arg):
    """The command's body from its argument; UserError for one that cannot be read."""
    if cmd in PLAIN:
        return {}
    if cmd == "deck":
        return {"register": arg}
    if cmd == "root":
        path = trust_json(arg)
        return {"doc": json.loads(path.read_text()),
                "sig": (path.parent / TRUST_SIG).read_text().strip()}
    try:
        text = open(arg).read() if arg and not arg.lstrip().startswith("{") else arg
        body = json.loads(text)
    except OSError as e:
        raise cli.UserError("%s %s: %s" % (cmd, arg, e.strerror or e))
    except ValueError as e:
        raise cli.UserError("%s: not JSON: %s" % (cmd, e))
    if not isinstance(body, dict):
        raise cli.UserError("%s: give a JSON object, not %s" % (cmd, text.strip()[:40]))
    return body


@cli.command("felt-tech")
def main(argv=None):
    ap = cli.parser("felt-tech", __doc__)
    cli.link_options(ap)
    ap.add_argument("--key", required=True, help="the technician's private key (root, "
                                                 "service: an owner's, which signs images)")
    board_options(ap)
    ap.add_argument("cmd", choices=COMMANDS)
    ap.add_argument("arg", nargs="?", help="cfg/rules: JSON or a JSON file; deck: A or B; "
                                           "root: a trust.json (felt-flash root)")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if args.cmd in PLAIN and args.arg is not None:
        ap.error("%s takes no argument" % args.cmd)
    if args.cmd not in PLAIN and not args.arg:
        ap.error("%s needs its argument" % args.cmd)
    if args.cmd == "deck" and args.arg not in ("A", "B"):
        ap.error("deck takes A or B, not %s" % args.arg)
    body = body_of(args.cmd, args.arg)
    who = technician(args.key, args)
    import serial
    from host_tools.link import HostLink, LinkError
    try:
        with cli.open_link(args.port, args.baud) as port:
            why = send(HostLink(port.fileno(), args.timeout), who, args.cmd, body)
    except (serial.SerialException, LinkError) as e:
        raise cli.UserError("the board on %s: %s" % (args.port, e), 1)
    print("%s on board %s: %s" % (args.cmd, who.board, "done" if why is None
                                  else "refused: " + why))
    return 0 if why is None else 1


if __name__ == "__main__":
    sys.exit(main())
