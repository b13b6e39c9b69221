"""The keys felt-flash signs with and what they sign of a board's trust: key pairs
(Ed25519: `keygen`, `load_key`, public keys in hex), the trust document
(felt.image.TRUST) signed by an owner's key, with a board's first record, and the host's
copies of boards' own keys (felt.boardkey).  `Refused`: felt-flash stops, saying why."""

import json
import os
from pathlib import Path

from felt import boardkey, image as board_image
from host_tools import cli

KEYS = Path("keys") / "felt"        # keygen's default: keys/felt.key, keys/felt.pub
BOARD_KEYS = Path("keys") / "boards"   # the host's copies of boards' own keys (felt.boardkey)


class Refused(cli.UserError):
    """felt-flash stops: the message says why (exit status 1)."""

    def __init__(self, why):
        super().__init__(why, 1)


def keygen(prefix):
    """A new key pair: <prefix>.key (private, PEM, readable by its owner only) and
    <prefix>.pub (the public key in hex, as a trust document names it)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    private, public = Path(str(prefix) + ".key"), Path(str(prefix) + ".pub")
    for p in (private, public):
        if p.exists():
            raise Refused("%s exists: a key is never overwritten" % p)
    private.parent.mkdir(parents=True, exist_ok=True)
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    fd = os.open(str(private), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    public.write_text(public_hex(key) + "\n")
    return private, public


def load_key(path):
    """The private key in `path` (PEM, as keygen writes it)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    try:
        key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
    except (OSError, ValueError) as e:
        raise Refused("cannot read the private key %s: %s" % (path, e))
    if not isinstance(key, Ed25519PrivateKey):
        raise Refused("%s is not an Ed25519 private key" % path)
    return key


def board_key_file(board):
    """Where the host keeps its copy of the key of the board whose id is `board`."""
    return BOARD_KEYS / (board + boardkey.SUFFIX)


def board_key(path):
    """The board's own key (felt.boardkey) from the host's copy at `path`, made there
    first (random, readable by its owner only) where there is none yet: a board keeps
    its key across installs, since its journal and answers are MACed with it."""
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(str(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(os.urandom(boardkey.SIZE).hex() + "\n")
    return read_board_key(path)


def read_board_key(path):
    """The board's own key in the host's copy at `path` (hex, as the board keeps it
    beside its journal: felt.boardkey); Refused saying what is wrong."""
    try:
        key = bytes.fromhex(Path(path).read_text().strip())
    except OSError as e:
        raise Refused("--board-key %s: %s (felt-flash install and felt-flash pico keep "
                      "one)" % (path, e.strerror or e))
    except ValueError:
        key = b""
    if len(key) != boardkey.SIZE:
        raise Refused("--board-key %s: not a board's key: not %d bytes in hex, as "
                      "felt-flash install writes it" % (path, boardkey.SIZE))
    return key


def public_hex(key):
    from cryptography.hazmat.primitives import serialization
    return key.public_key().public_bytes(serialization.Encoding.Raw,
                                         serialization.PublicFormat.Raw).hex()


def public_keys(path, option):
    """The public keys (hex) in the file `path`, one a line (# comments), as keygen
    writes them; Refused naming `option` when it holds none or a line that is not one."""
    try:
        lines = Path(path).read_text().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise Refused("%s %s: %s" % (option, path, getattr(e, "strerror", None) or e))
    keys = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    for k in keys:
        try:
            if len(bytes.fromhex(k)) != 32 or k != k.lower():
                raise ValueError
        except ValueError:
            raise Refused("%s %s: a line that is not a 32-byte public key in lower-case hex"
                          % (option, path))
    if not keys:
        raise Refused("%s %s: no public key in the file" % (option, path))
    return keys


# ----- the trust document ----------------------------------------------------------------


def write_trust(out, key_path, owners=None, tech=None, version=None):
    """The trust document (felt.image.TRUST) and its signature by the owner's private key
    in `key_path`, written in folder `out`: the owners' keys in the file `owners` (else
    the signing key's), the technicians' in the file `tech` (else none); `version`, else
    the version of the document already in `out` + 1, else 1.  Refused, writing nothing,
    for a document a board would not take.  Returns the path of trust.json."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise Refused("--out %s is a file, not a folder" % out)
    key = load_key(key_path)
    if version is None:
        version = _held_version(out) + 1
    doc = {"version": version,
           board_image.OWNERS: public_keys(owners, "--owners") if owners else [public_hex(key)],
           board_image.TECHNICIANS: public_keys(tech, "--tech") if tech else []}
    why = board_image.trust_why(doc)
    if why is None and public_hex(key) not in doc[board_image.OWNERS]:
        why = "the signing key %s is not one of its owners (a board takes a new document " \
              "signed by a key that is an owner in it and in the one it holds)" % key_path
    if why is not None:
        raise Refused("trust document: %s" % why)
    from felt.protocol import dumps
    out.mkdir(parents=True, exist_ok=True)
    (out / board_image.TRUST_SIG).write_text(
        key.sign(board_image.ROOT + dumps(doc).encode()).hex() + "\n")
    (out / board_image.TRUST).write_text(dumps(doc))
    return out / board_image.TRUST


def _held_version(folder):
    """The version of the trust document in `folder`, 0 when there is none."""
    path = folder / board_image.TRUST
    if not path.exists():
        return 0
    doc = board_image.document(str(path))
    if isinstance(doc, tuple):
        raise Refused("%s: %s: give --version" % (path, doc[1]))
    return doc["version"]


def first_record(folder, trust_json, board):
    """The board's first record (felt.image.NEWEST) in `folder`, as provisioning writes
    it: the board named `board` takes the trust document in the file `trust_json`, and
    runs no image yet.  A board whose record is missing runs none."""
    doc = board_image.document(str(trust_json))
    path = Path(folder) / board_image.NEWEST
    path.write_text(json.dumps(board_image.first_record(board, doc)))
    return path


def trust_json(path):
    """The file trust.json `path` given by the user, refused unless it reads as a trust
    document with trust.sig beside it."""
    doc = board_image.document(str(path))
    if isinstance(doc, tuple):
        raise Refused("--trust %s: %s" % (path, "no such file" if not Path(path).is_file()
                                          else doc[1]))
    if not (Path(path).parent / board_image.TRUST_SIG).is_file():
        raise Refused("--trust %s: no %s beside it" % (path, board_image.TRUST_SIG))
    return Path(path)
