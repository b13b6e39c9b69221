"""felt-flash: make signing keys, build signed images, provision, install and verify boards.

    felt-flash keygen                                   # keys/felt.key and keys/felt.pub
    felt-flash root --key keys/felt.key --tech keys/tech.pub --out keys/trust
    felt-flash build --board pico-11 --key keys/felt.key --out build/image [--chip ID]
    felt-flash provision --board pico-11 --key keys/felt.key --tech keys/tech.pub --port /dev/ttyACM0
    felt-flash install --image build/image --port /dev/ttyACM0 [--new-table] [--dry-run]
    felt-flash verify --image build/image --port /dev/ttyUSB0      # over the board's link
    felt-flash verify --image build/image --usb /dev/ttyACM0       # its files, by USB
    felt-flash pico --board pico-11 --key keys/felt.key --out build/pico/flash

An image is the board's filesystem as it is flashed (the felt package as `.mpy`
bytecode, main.py as source, the board definition as board.json; a CircuitPython board
gets source), with `manifest.json` (every file's size and SHA-256, the board, the
firmware's version) and `manifest.sig`, the manifest's Ed25519 signature.  A board runs
only an image signed by an owner's key of its trust document (`trust.json` and
`trust.sig`, provisioned): it checks at every boot (felt.image), and `install` refuses an
image the board would refuse.

`root` writes a trust document (trust.json: the owners' keys, which sign images, new
documents and the owner's commands, and the technicians' keys, which sign their
commands) and its signature (trust.sig) by the owner's key, in folder --out: version 1,
or the version of the document already there + 1 (--version to say it).  `felt-tech
--key <owner's key> root <folder>/trust.json` sends it to a board, which takes it only
when its version is above the one it holds and the key that signed it is an owner in
both; a key left out is revoked.  `provision` and `pico` write version 1, and the board's
first record (felt.newest): a board whose record is missing runs no image.

Each image carries a build number (`"build"`) the tool sets: one more than the last the
key signed (kept in `<key file>.build`), at least the whole minutes since 2025-01-01
UTC.  A board runs no build lower than the highest it has run, nor another image of
that same build.  `--chip ID` (the chip's unique id, as the board's `challenge` names
it) makes an image that runs on that board only.

`verify --port` asks the board over its link, as a regulator's lab does: a fresh random
seed, answered with HMAC-SHA256(seed, the board's program: every file the manifest
lists, the manifest and its signature; felt.verify), which it computes from the image
with Python's own hmac and compares.  `verify --usb` hashes every file on the board
with code it sends through the USB REPL (not the board's own) and names what differs.

`build` refuses to replace a folder that holds anything unless given --force, and even
then only an image it built (its manifest.json there): it builds beside it and moves the
image into place, so a build that fails leaves the folder as it was.

`pico` is for a Pico running the firmware `make pico` builds, with felt frozen into it:
it writes that firmware as `firmware.uf2` and the board's filesystem (board.json,
the trust document, and a signed manifest naming board.json and the firmware's SHA-256) as
`filesystem.uf2`, for the Pico's RPI-RP2 drive, and as `filesystem.img` (littlefs),
with a copy of board.json beside them (`felt-emulator --runtime pico --image` plays the
devices it names).

Installing keeps the board's journal (the board definition's `journal`), so the table
resumes where it was; `--new-table` removes it (and its archives, docs/journal.md), and the board starts
unconfigured.

`install` and `pico` put the board's own key (felt.boardkey: it MACs the board's journal,
its answers and each technician's command) beside its journal, the host keeping a copy
as `keys/boards/<id>.key` (`--board-key` names another), made the first time: the id is
the chip's, where the image is built `--chip ID` or `install` reads it from the board,
else the board definition's name.
"""
# This module is felt-flash's command line and its steps on a board; the keys and the
# trust document are host_tools.keys, building and checking images host_tools.images.

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from felt import boardkey, image as board_image
from felt.board import load as load_board
from felt.table import recall
from host_tools import cli, micropython
from host_tools.images import PICO_UF2, build, check_image, chip_hex, expected_mac, \
    pico, read_manifest
from host_tools.signing import KEYS, Refused, board_key, board_key_file, first_record, keygen, \
    read_board_key, trust_json, write_trust


# ----- boards ----------------------------------------------------------------------------


def mpremote(port, *args):
    return [str(Path(sys.executable).with_name("mpremote")), "connect", port] + list(args)


def _run(cmd, dry_run):
    if not dry_run:
        _port_there(cmd)
    print(" ".join(cmd))
    if not dry_run:
        sys.stdout.flush()
        on_board(cmd, "the board on %s" % cmd[2], capture=False)


def _port_there(cmd):
    """Refused when an mpremote command's port is a path that is not there: mpremote
    would say it "may be in use by another program" (issue 22)."""
    if cmd[1:2] == ["connect"] and cmd[2].startswith("/") and not os.path.exists(cmd[2]):
        raise Refused("%s: no such port: is the board plugged in? (`mpremote devs` lists "
                      "the boards attached)" % cmd[2])


def on_board(cmd, what, capture=True, cwd=None):
    """Run a command (mpremote's, or the unix port's for an emulated board); its output
    when `capture`.  Refused, with the command's last words (no board on the port, a
    port in use...), when it fails."""
    _port_there(cmd)
    try:
        got = subprocess.run(cmd, stdout=subprocess.PIPE if capture else None,
                             stderr=subprocess.PIPE, cwd=cwd)
    except OSError as e:
        raise Refused("%s: cannot run %s: %s" % (what, cmd[0], e.strerror or e))
    if got.returncode != 0:
        said = got.stderr.decode(errors="replace").strip().splitlines()
        raise Refused("%s: %s" % (what, said[-1] if said else "%s exited with %d"
                                  % (Path(cmd[0]).name, got.returncode)))
    return got.stdout


def board_trust(port):
    """The board's trust document read back, with its signature: the path of trust.json
    in a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="felt-trust-"))
    for name in (board_image.TRUST, board_image.TRUST_SIG):
        data = on_board(mpremote(port, "fs", "cat", ":" + name),
                        "reading %s from the board on %s (felt-flash provision puts it "
                        "there)" % (name, port))
        (folder / name).write_bytes(data)
    return folder / board_image.TRUST


def install_commands(port, folder, journal=None, key_file=None):
    """The mpremote commands installing the image in `folder`: everything on the board
    removed but what it keeps beside its program (its keys, felt.newest, the journal's
    files: felt.image.KEPT), since any file the new manifest does not list would tilt it
    at boot (a folder planted to shadow a built-in module, a stale program file); the
    image copied in one session, and the board's own key (the host's copy `key_file`)
    beside its journal; then a soft reset so that main.py starts.  `journal`: a
    journal to remove too (felt.table.journal), the table then starting unconfigured."""
    code = ("import os\n"
            "def rm(p):\n"
            "    try:\n"
            "        if os.stat(p)[0] & 0x4000:\n"
            "            for n in os.listdir(p):\n"
            "                rm(p + '/' + n)\n"
            "            os.rmdir(p)\n"
            "        else:\n"
            "            os.remove(p)\n"
            "    except OSError:\n"
            "        pass\n"
            "for n in os.listdir():\n"
            "    if n not in %r and not n.startswith(%r):\n"
            "        rm(n)\n"
            "for p in %r:\n"
            "    rm(p)\n")
    kept = [n for n in board_image.KEPT if n not in (board_image.MANIFEST,
                                                      board_image.SIGNATURE)]
    # The journal's files are named from it, at the root or in a folder of the root.
    path = load_board(str(folder / "board.json"))["journal"]
    journal_top = path.lstrip("/").split("/")[0] if path else "/"   # "/": none to keep
    old = []
    if journal:
        # The journal last: a cut before it leaves the table resuming, not locked
        # (docs/journal.md: a journal lost beside its archive locks the table).
        old = [p.lstrip("/") for p in recall.files(journal)[::-1]]
    cmd = mpremote(port, "exec", code % (kept, journal_top, old), "+", "fs", "cp", "-r")
    cmd += sorted(str(p) for p in folder.iterdir()) + [":"]
    if key_file is not None and path:
        cmd += ["+", "fs", "cp", str(key_file), ":" + boardkey.path(path)]
    return [cmd + ["+", "soft-reset"]]


# The board's id as felt.vouch.board_id gives it, asked through the USB REPL: its chip's
# unique id, or nothing where it has none (the board's name is its id then).
BOARD_ID = """try:
    import machine, binascii
    print('=', binascii.hexlify(machine.unique_id()).decode())
except (ImportError, AttributeError):
    pass
"""


def board_id_on(port, name):
    """The id of the board on `port` (the chip's, read through its REPL), else `name`."""
    said = on_board(mpremote(port, "exec", BOARD_ID), "reading the board's id on %s" % port)
    ids = [line[2:].strip() for line in said.decode(errors="replace").splitlines()
           if line.startswith("= ")]
    return ids[0] if ids else name


# What `verify` runs on the board: its own code could lie about itself.
HASH_ALL = """import os, hashlib, binascii
def walk(d):
    for n in (os.listdir(d) if d else os.listdir()):
        p = d + '/' + n if d else n
        if os.stat(p)[0] & 0x4000:
            walk(p)
            continue
        h, size = hashlib.sha256(), 0
        with open(p, 'rb') as f:
            while True:
                b = f.read(512)
                if not b:
                    break
                h.update(b)
                size += len(b)
        print('=', size, binascii.hexlify(h.digest()).decode(), p)
walk('')
"""


def board_hashes(port=None, folder=None):
    """{name: [size, sha256 hex]} of every file on the board on `port`, or, for an
    emulated board, in `folder` (hashed by the MicroPython unix port)."""
    what = "could not read the board's files"
    if folder is not None:
        if not Path(folder).is_dir():
            raise Refused("--dir %s: no such folder" % folder)
        try:
            binary = micropython.binary()
        except micropython.MicroPythonMissing as e:
            raise Refused(str(e))
        with tempfile.TemporaryDirectory() as d:
            script = Path(d) / "hash_all.py"
            script.write_text(HASH_ALL)
            got = on_board([str(binary), str(script)], what, cwd=str(folder))
    else:
        got = on_board(mpremote(port, "exec", HASH_ALL), what)
    out = {}
    for line in got.decode(errors="replace").splitlines():
        if line.startswith("= "):
            _, size, digest, name = line.split(" ", 3)
            out[name.lstrip("/")] = [int(size), digest]
    return out


def compare(manifest, found):
    """[(file, what)] where the board's files (`found`) differ from the image's: a
    program file changed, missing or not in the image, or another manifest."""
    files = manifest["files"]
    out = []
    for name in sorted(set(files) | set(n for n in found if board_image.is_program(n))):
        if name not in found:
            out.append((name, "missing on the board"))
        elif name not in files:
            out.append((name, "on the board, not in the image"))
        elif found[name] != files[name]:
            out.append((name, "differs from the image"))
    return out


VERIFY_S = 60   # seconds a board may take to answer `verify`


def verify_link(port, folder, baud=115200, board_key=None, board=None):
    """(matches, what to print) for the board on the link `port` (a serial port, or
    socket://HOST:PORT for felt-emulator --serve) and the image in `folder`; with
    `board_key` (the host's copy of the board's own key) and its id `board`, the answer
    is taken only where the board's key vouches for it (host_tools.tech.vouched)."""
    import serial
    from host_tools.link import HostLink, LinkError
    seed = os.urandom(32)
    want = expected_mac(folder, seed)
    try:
        with cli.open_link(port, baud) as link:
            # A board hashes its whole program to answer: give it time (a Pico's flash).
            answer = HostLink(link.fileno(), VERIFY_S).request(
                "verify", {"seed": seed.hex()}, "verify")
    except (serial.SerialException, OSError, LinkError) as e:
        raise Refused("the board on %s: %s" % (port, e))
    if answer.get("seed") != seed.hex():
        return False, "%s: answered another seed than the one asked" % port
    vouched = ""
    if board_key is not None:
        from host_tools import tech
        tech.vouched(board_key, board, seed.hex(), "verify", answer, "board_mac")
        vouched = ", vouched for by board %s's key" % board
    if answer.get("mac") is None:
        return False, "%s: %s" % (port, answer.get("why", "no answer to verify"))
    if answer["mac"] != want:
        return False, "%s: the program differs from the image %s" % (port, folder)
    return True, "%s: the program is the image %s (HMAC-SHA256 for a fresh seed%s)" % (
        port, folder, vouched)


# ----- the command line ------------------------------------------------------------------


OWNERS_HELP = ("the owners' public keys (they sign images, trust documents and the owner's "
               "commands): a file in hex, one a line (default: --key's)")
TECH_HELP = ("the technicians' public keys (their commands; never an image): a file in hex, "
             "one a line; without them the board takes no technician's command")


@cli.command("felt-flash")
def main(argv=None):
    ap = cli.parser("felt-flash", __doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("keygen", help="a new signing key pair")
    p.add_argument("--out", default=str(KEYS), help="writes OUT.key and OUT.pub")
    p = sub.add_parser("root", help="a trust document signed by the owner's key")
    p.add_argument("--key", required=True, help="the owner's private key that signs it")
    p.add_argument("--owners", help=OWNERS_HELP)
    p.add_argument("--tech", help=TECH_HELP)
    p.add_argument("--version", type=cli.count(1), help="its version (default: the version "
                                                        "of the document in --out + 1, or 1)")
    p.add_argument("--out", default=str(Path("keys") / "trust"),
                   help="the folder for trust.json and trust.sig")
    p = sub.add_parser("build", help="build and sign an image")
    p.add_argument("--board", required=True,
                   help="the board: a name from hardware/boards/ or a definition file")
    p.add_argument("--key", required=True, help="the private key that signs it")
    p.add_argument("--out", default=str(cli.REPO / "build" / "image"),
                   help="the image's folder: empty, missing, or (with --force) an image")
    p.add_argument("--chip", type=cli.checked(chip_hex),
                   help="the chip's unique id in hex (the board's challenge names it): the "
                        "image runs on that board only")
    p.add_argument("--force", action="store_true",
                   help="replace the image already in --out")
    p = sub.add_parser("pico", help="a Pico's firmware and filesystem, to copy in BOOTSEL mode")
    p.add_argument("--board", required=True,
                   help="the board: a name from hardware/boards/ or a definition file")
    p.add_argument("--key", required=True, help="the owner's private key that signs it")
    p.add_argument("--owners", help=OWNERS_HELP)
    p.add_argument("--tech", help=TECH_HELP)
    p.add_argument("--uf2", default=str(PICO_UF2), help="the firmware (make pico builds it)")
    p.add_argument("--chip", type=cli.checked(chip_hex),
                   help="the chip's unique id in hex (the board's challenge names it): the "
                        "image runs on that board only")
    p.add_argument("--out", default=str(cli.REPO / "build" / "pico" / "flash"),
                   help="the folder for firmware.uf2, filesystem.uf2 and filesystem.img")
    p.add_argument("--force", action="store_true", help="replace what is already in --out")
    p.add_argument("--board-key", help="the host's copy of the board's own key, made if "
                                       "missing (default keys/boards/<--chip, else the "
                                       "board's name>.key)")
    p = sub.add_parser("provision", help="give the board its trust document, version 1, "
                                         "and its first record")
    p.add_argument("--board", required=True, help="the board's name: it runs images for it "
                                                  "only")
    p.add_argument("--key", required=True, help="the owner's private key that signs it")
    p.add_argument("--owners", help=OWNERS_HELP)
    p.add_argument("--tech", help=TECH_HELP)
    p.add_argument("--port", default="auto", help="the board's serial port (mpremote)")
    p.add_argument("--dir", help="an emulated board's flash, a folder (felt-emulator --image), "
                                 "in place of --port")
    p.add_argument("--dry-run", action="store_true", help="print, change nothing")
    p = sub.add_parser("install", help="install a signed image on a board")
    p.add_argument("--image", required=True, help="a folder felt-flash build made")
    p.add_argument("--port", default="auto", help="the board's serial port (mpremote)")
    p.add_argument("--trust", help="the board's trust.json, trust.sig beside it (default: "
                                   "read them back)")
    p.add_argument("--new-table", action="store_true",
                   help="remove the board's journal: the table starts unconfigured instead "
                        "of resuming")
    p.add_argument("--board-key", help="the host's copy of the board's own key, made if "
                                       "missing (default keys/boards/<the image's --chip, "
                                       "else the board's id>.key)")
    p.add_argument("--dry-run", action="store_true", help="check and print, change nothing")
    p = sub.add_parser("verify", help="check a board's program against an image's")
    p.add_argument("--image", required=True, help="the image the board should hold")
    p.add_argument("--port", help="the board's link: a serial port or socket://HOST:PORT "
                                  "(the board answers an HMAC of its program)")
    p.add_argument("--baud", type=cli.count(1), default=115200, help="the link's baud rate")
    p.add_argument("--usb", help="the board's USB port: its files hashed through the REPL "
                                 "(mpremote; 'auto' finds it)")
    p.add_argument("--dir", help="an emulated board's flash: a folder, its files hashed")
    from host_tools import tech
    tech.board_options(p, "with --port: ")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if args.cmd == "keygen":
        private, public = keygen(args.out)
        print("wrote %s (keep it secret) and %s (provision boards with it)" % (private, public))
    elif args.cmd == "root":
        path = write_trust(args.out, args.key, args.owners, args.tech, args.version)
        print("wrote %s (version %d) and %s, signed with %s" % (
            path, board_image.document(str(path))["version"], board_image.TRUST_SIG, args.key))
    elif args.cmd == "build":
        manifest = build(args.board, Path(args.out), args.key, args.force, args.chip)
        print("built %s: %d files, build %d (%s) for %s, signed with %s" % (
            args.out, len(manifest["files"]), manifest["build"], manifest["version"],
            manifest["board"], args.key))
    elif args.cmd == "pico":
        manifest = pico(args.board, args.out, args.key, args.uf2, args.owners, args.force,
                        args.tech, args.chip, args.board_key)
        print("wrote %s: firmware.uf2 (%s, %d bytes) and filesystem.uf2 for %s, build %d, "
              "signed with %s; copy filesystem.uf2, then firmware.uf2, onto the Pico's "
              "RPI-RP2 drive" % (args.out, manifest["version"], manifest[board_image.FIRMWARE][0],
                                 manifest["board"], manifest["build"], args.key))
    elif args.cmd == "provision":
        if args.dir is not None:
            if not Path(args.dir).is_dir():
                raise Refused("--dir %s: no such folder" % args.dir)
            first_record(args.dir, write_trust(args.dir, args.key, args.owners, args.tech, 1),
                         args.board)
            print("provisioned %s: %s, %s and %s" % (args.dir, board_image.TRUST,
                                                     board_image.TRUST_SIG, board_image.NEWEST))
            return 0
        with tempfile.TemporaryDirectory() as d:
            first_record(d, write_trust(d, args.key, args.owners, args.tech, 1), args.board)
            for name in (board_image.TRUST_SIG, board_image.TRUST, board_image.NEWEST):
                _run(mpremote(args.port, "fs", "cp", str(Path(d) / name), ":" + name),
                     args.dry_run)
    elif args.cmd == "install":
        folder = Path(args.image)
        if args.dry_run and args.trust is None:
            ap.error("install --dry-run needs --trust: the board is not read")
        read_manifest(folder)
        trust = trust_json(args.trust) if args.trust else board_trust(args.port)
        print("image %s: %s" % (folder, check_image(folder, trust)))
        chip = read_manifest(folder).get("chip")      # checked: a manifest as built
        board = load_board(str(folder / "board.json"))
        journal = board["journal"] if args.new_table else None
        key_file = args.board_key
        if key_file is None and board["journal"]:
            # The board's id names the host's copy: the chip an image built --chip runs
            # on; else asked of the board (a dry run asks it nothing).
            key_file = board_key_file(chip or (board["name"] if args.dry_run
                                               else board_id_on(args.port, board["name"])))
        if key_file is not None and not args.dry_run:
            board_key(key_file)
        for cmd in install_commands(args.port, folder, journal, key_file):
            _run(cmd, args.dry_run)
    else:
        if sum(x is not None for x in (args.port, args.usb, args.dir)) != 1:
            ap.error("verify reads one board: on its link (--port), by USB (--usb) or an "
                     "emulated board's folder (--dir)")
        if args.port:
            who = tech.board_named(args)
            matches, said = verify_link(args.port, args.image, args.baud,
                                        who and read_board_key(who[1]), who and who[0])
            print(said)
            return 0 if matches else 1
        manifest = read_manifest(args.image)
        found = board_hashes(args.usb, args.dir)
        problems = compare(manifest, found)
        for name, what in problems:
            print("%s: %s" % (name, what))
        print("%s: %d program files, %s" % (
            args.dir or args.usb, len([n for n in found if board_image.is_program(n)]),
            "as in the image" if not problems else "%d differ" % len(problems)))
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
