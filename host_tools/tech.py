"""felt-tech: a technician's signed command to a board (felt.table.technician).

    felt-tech --port /dev/ttyUSB0 --key keys/tech.key cfg table.json
    felt-tech --port /dev/ttyUSB0 --key keys/tech.key rules '{"min_wager": 10}'
    felt-tech --port /dev/ttyUSB0 --key keys/tech.key deck A
    felt-tech --port /dev/ttyUSB0 --key keys/tech.key clear
    felt-tech --port /dev/ttyUSB0 --key keys/felt.key service   # a Pico's USB REPL, one boot
    felt-tech --port /dev/ttyUSB0 --key keys/felt.key root keys/trust/trust.json

It asks the board for its challenge, signs the command for that board and challenge
with the technician's private key, and sends it; the board answers with an ack, or a
nak saying why (docs/protocol.md).  A board takes commands signed by the technicians'
keys its trust document names (felt-flash provision), and the owner's commands signed
by an owner's key, one that signs images: `service`, and `root`, a new trust document
(felt-flash root makes it, trust.sig beside it; a key it leaves out is revoked).  There
is no `revoke` of its own: a new document without the key is the one way.
"""

import json
import sys

from felt.table.technician import signed_bytes
from host_tools import cli
from felt.image import TRUST_SIG
from host_tools.flash import load_key, trust_json

COMMANDS = ("cfg", "rules", "deck", "clear", "root", "service")
PLAIN = ("clear", "service")    # the commands that take no argument


def signed(key, challenge, cmd, body):
    """The `tech` payload carrying `cmd` with `body`, signed with the private `key` for
    the board and nonce of `challenge` (the board's `challenge` answer)."""
    data = signed_bytes(challenge["board"], challenge["nonce"], cmd, body)
    return {"cmd": cmd, "body": body, "sig": key.sign(data).hex()}


def ask(link, key, kind, payload):
    """A technician's query (`recall`, `eventlog`) of a board that trusts keys: signed
    for its challenge; returns the board's answer."""
    challenge = link.request("challenge", {}, "challenge")
    return link.request("tech", signed(key, challenge, kind, payload), kind)


def send(link, key, cmd, body):
    """Ask the board behind `link` (a HostLink) for its challenge, then send the signed
    command; returns None, or the board's reason for refusing it."""
    challenge = link.request("challenge", {}, "challenge")
    return link.send("tech", signed(key, challenge, cmd, body))


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
    key = load_key(args.key)
    import serial
    from host_tools.emulator.link import HostLink, LinkError
    try:
        with cli.open_link(args.port, args.baud) as port:
            why = send(HostLink(port.fileno(), args.timeout), key, args.cmd, body)
    except (serial.SerialException, LinkError) as e:
        raise cli.UserError("the board on %s: %s" % (args.port, e), 1)
    print("%s: %s" % (args.cmd, "done" if why is None else "refused: " + why))
    return 0 if why is None else 1


if __name__ == "__main__":
    sys.exit(main())
