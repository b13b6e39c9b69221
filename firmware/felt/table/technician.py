"""The technician's authority: configuring the table, changing its rules, registering a
deck, clearing a tilt, reading past rounds (`recall`, hole cards and all) and the event
log are done only by a command signed with a technician's key the board trusts (the
`technicians` of its trust.json, felt.image.keys_for), never by whoever is on the link.
A new trust document (`root`, which revokes a key by leaving it out) and opening the USB
REPL (`service`, from which the board's files could be rewritten) take an owner's key,
one that signs images: the higher role (issue 38).  Seat buttons and the dealer's panel
stay as they are.

A signed command is `tech {"cmd": kind, "body": {...}, "sig": hex}`: an Ed25519
signature (felt.ed25519) of `felt-tech ` followed by the canonical JSON
(felt.protocol.dumps) of {"board", "body", "cmd", "nonce"}, where `board` is this
board's id and `nonce` the challenge it gives (the `challenge` query).  The board draws
a new challenge when first asked, after every command a trusted key signed for it
(carried out or not) and when it is CHALLENGE_MS old, so a recorded command is never
accepted again: a counter that needs no keeping, which a new table or a re-flash cannot
wind back.  A command that is not signed for it leaves the challenge as it is: nobody on
the link can spend the technician's (its refusals are counted, felt.table.eventlog),
and after a refused signature none is checked for RETRY_MS.
Loaded only for a technician's command (felt.lazy).
"""

import binascii
import os

from felt import lazy, protocol
from felt.protocol import QUERIES, ticks_diff
from felt.table import messages

PREFIX = b"felt-tech "
CHALLENGE_MS = 5 * 60 * 1000    # a challenge older than this is never taken: ask again
RETRY_MS = 1000                 # after a refused signature, none is checked this long
OWNERS_ONLY = ("root", "service")     # signed by an owner's key, never a technician's


def challenge(ctl, p):
    """Answer the `challenge` query: this board's id and its current challenge."""
    if current(ctl) is None:
        draw(ctl)
    ctl.hal.link.send("challenge", {"board": board_id(ctl.board), "nonce": ctl.challenge})


def command(ctl, p):
    """Carry out a signed `tech` command, or say why not; a command signed for the
    challenge spends it, carried out or not."""
    if ctl.trust is None:
        return "this table trusts no key: send technician commands plainly"
    kind, body = p["cmd"], p["body"]
    now = ctl.hal.ticks_ms()
    if ctl.refused_ms is not None and ticks_diff(now, ctl.refused_ms) < RETRY_MS:
        # A signature takes a board long to check: a flood of them must not stall it.
        ctl.record("technician_refused", kind)
        return "%s refused: a command was refused less than a second ago" % kind
    key = None
    if current(ctl) is not None:
        key = signer(ctl.trust, board_id(ctl.board), ctl.challenge, p)
    if key is None:
        ctl.refused_ms = now
        ctl.record("technician_refused", kind)
        return "%s refused: not signed by a trusted key for this board's challenge" % kind
    ctl.refused_ms = None
    draw(ctl)
    if ctl.locked is not None and kind != "clear" and kind not in QUERIES:
        return "the table is locked: %s" % ctl.locked
    reason = messages.why_not(kind, body)
    if reason is None:
        ctl.authorised = key
        try:
            reason = getattr(ctl, "_on_" + kind)(messages.taken(kind, body))
        finally:
            ctl.authorised = False
    if reason is None and kind not in QUERIES:    # a reading changes nothing: not logged
        ctl.record("technician", "%s, signed by key %s" % (kind, key))
    return reason


def clear(ctl, p):
    """A tilted table cleared (docs/tilts.md): its journal kept as found, set aside as
    `<journal>.cleared`, and the table started anew, unconfigured.  The chips it held
    are in the journal set aside, for the floor to settle; none carry over."""
    if ctl.locked is None:
        return "nothing to clear: the table is not tilted"
    why = ctl.locked
    try:
        kept = _set_aside(ctl.journal)
    except OSError as e:
        from felt.table.journal import why as said
        return "the journal could not be set aside: %s" % said(e)
    finally:
        lazy.forget("felt.table.recall")    # loaded for its list of the journal's files
        lazy.forget("felt.table.records")
    ctl.reset()
    ctl.record("tilt_cleared", "%s; the journal as found is %s" % (why, kept))
    ctl.evt({"e": "cleared", "kept": kept})
    return None


def root(ctl, p):
    """`root`: the board's trust document replaced by a newer version an owner signed
    (felt.image.replace_trust); a key it leaves out is trusted for nothing from then on,
    and the older versions are never taken again."""
    image = lazy.load("felt.image")
    try:
        why = image.replace_trust(ctl.trust, ctl.image, p["doc"], p["sig"])
    finally:
        lazy.forget("felt.ed25519")
        lazy.forget("felt.image")
    if why is None:
        ctl.record("trust_replaced", "version %d" % p["doc"]["version"])
    return why


def service(ctl, p):
    """`service`: the board reboots into service mode, where its USB REPL answers until
    it is reset (felt.boot.main): on the Pico image, whose REPL is shut while the table
    plays (issue 21, item 2).  A round in play resumes from the journal at the boot
    after, as after a power cut."""
    if ctl.trust is None or ctl.service is None:
        return "this board's USB REPL is never shut (felt is not frozen into its " \
               "firmware): there is no service mode to open"
    image = lazy.load("felt.image")
    try:
        with open(image.beside(ctl.trust, image.SERVICE), "w") as f:
            f.write("service\n")
    finally:
        lazy.forget("felt.image")
    ctl.service("service mode, as an owner's signed command asked")
    return None


def current(ctl):
    """The challenge a command may answer now: None before one is drawn or once it is
    CHALLENGE_MS old."""
    if ctl.challenge is not None and \
            ticks_diff(ctl.hal.ticks_ms(), ctl.challenge_ms) >= CHALLENGE_MS:
        ctl.challenge = None
    return ctl.challenge


def draw(ctl):
    ctl.challenge = nonce()
    ctl.challenge_ms = ctl.hal.ticks_ms()


def board_id(board):
    """The board's own id where the chip has one (felt.runtime.chip_id), else its name."""
    from felt.runtime import chip_id
    return chip_id() or board["name"]


def nonce():
    """A fresh challenge: 64 random bits in hex."""
    try:
        return binascii.hexlify(os.urandom(8)).decode()
    except (AttributeError, NotImplementedError):
        import random
        return "%08x%08x" % (random.getrandbits(32), random.getrandbits(32))


def signed_bytes(board, nonce, cmd, body):
    """What a technician's key signs (host_tools/tech.py signs the same bytes)."""
    return PREFIX + protocol.dumps({"board": board, "body": body, "cmd": cmd,
                                    "nonce": nonce}).encode()


def signer(trust, board, challenge, p):
    """The id of the key that signed the command `p` for this board and challenge, of
    those the board trusts for it (a technician's; an owner's for OWNERS_ONLY), or None."""
    sig = binascii.unhexlify(p["sig"])
    data = signed_bytes(board, challenge, p["cmd"], p["body"])
    image = lazy.load("felt.image")
    keys = image.keys_for(trust, image.OWNERS if p["cmd"] in OWNERS_ONLY else image.TECHNICIANS)
    if isinstance(keys, tuple):        # (file, why): none to trust
        keys = ()
    ed25519 = lazy.load("felt.ed25519")
    try:
        for k in keys:
            if ed25519.verify(k, data, sig):
                return image.key_id(k)
        return None
    finally:
        lazy.forget("felt.ed25519")
        lazy.forget("felt.image")


def _set_aside(j):
    """The journal's files renamed `<path>.cleared` (its archives `<path>.cleared.1`...,
    docs/journal.md) and a new journal begun; returns the name kept.  The archives go
    first: a power cut on the way leaves a journal lost beside an archive, locked
    again, cleared again."""
    from felt.table.journal import exists
    from felt.table.recall import files
    kept = j.path + ".cleared"
    for old in files(j.path)[::-1]:
        if exists(old):
            if old == j.path + ".new":
                j.remove(old)
            else:
                j.rename(old, kept + old[len(j.path):])
    j.seq = j.table_seq = j.header_seq = j.count = j.rounds = 0
    j.kept = []
    j.header = None
    j.ready(None)
    return kept
