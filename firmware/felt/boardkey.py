"""The board's own key (issue 38): 32 random bytes made when the board is installed
(felt-flash install, felt-flash pico), kept beside the journal as `<journal>.key` in hex
and never sent on the link; the installer's host keeps a copy (keys/boards/<board>.key).
With it the board MACs its answers to a technician and its journal's records, and a
`tech` frame carries a MAC by it that the board checks before any signature.  What it
does not promise: whoever reads the board's flash (BOOTSEL, a USB REPL) reads the key."""

import binascii

from felt import mac

SUFFIX = ".key"
SIZE = 32


def path(journal):
    """Where the key of the board whose journal is at `journal` is kept."""
    return journal + SUFFIX


def load(journal):
    """The board's key (bytes), or None where it keeps none (no journal on a file, or
    a board installed before it had one); a file that does not read as one is None."""
    if journal is None:
        return None
    try:
        with open(path(journal)) as f:
            text = f.read(2 * SIZE + 2)
        key = binascii.unhexlify(text.strip())
    except (OSError, ValueError):
        return None
    return key if len(key) == SIZE else None


def sign(key, data):
    """The MAC of the bytes `data` by the board's key, in hex."""
    return binascii.hexlify(mac.digest(key, data)).decode()
