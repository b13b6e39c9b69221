"""The technician's authority: configuring the table, changing its rules, registering a
deck, clearing a tilt, reading past rounds (`recall`, hole cards and all) and the event
log are done only by a command signed with a technician's key the board trusts (the
`technicians` of its trust.json, felt.image.keys_for), never by whoever is on the link.
A new trust document (`root`, which revokes a key by leaving it out) and opening the USB
REPL (`service`, from which the board's files could be rewritten) take an owner's key,
one that signs images: the higher role (issue 38).  Seat buttons and the dealer's panel
stay as they are.

A signed command is `tech {"cmd": kind, "body": {...}, "key": id, "nonce": challenge,
"mac": hex, "sig": hex}`: `sig` an Ed25519 signature (felt.ed25519) by the key whose id
(felt.image.key_id) is `key` of `felt-tech ` followed by the canonical JSON
(felt.protocol.dumps) of {"board", "body", "cmd", "key", "nonce"}, where `board` is this
board's id and `nonce` a challenge it gave (the `challenge` query); `mac` the MAC of the
same bytes by the board's own key (felt.boardkey), which the installer's host keeps.
Each `challenge` query draws a new challenge, CHALLENGES of them outstanding at most
(the oldest dropped), each for CHALLENGE_MS.  A frame that cannot be genuine is refused
before any signature is checked, each for its own reason: a nonce that is not an
outstanding challenge (a replay, a guess), a MAC that does not hold (a host without the
board's key), a key not trusted for the command: a hash, no more.  One that passes spends
its challenge whatever its signature says, so each challenge pays for one signature
check at most, and a failed check on one never refuses the command that answers
another.  Refusals are counted (felt.table.eventlog).
Loaded only for a technician's command (felt.lazy).
"""

import binascii
import os

from felt import lazy, protocol
from felt.protocol import QUERIES, ticks_diff
from felt.vouch import board_id     # this board's id, as a challenge names it

PREFIX = b"felt-tech "
CHALLENGE_MS = 5 * 60 * 1000    # a challenge older than this is never taken: ask again
CHALLENGES = 4                  # outstanding at once: a new one drops the oldest
OWNERS_ONLY = ("root", "service")     # signed by an owner's key, never a technician's


def challenge(ctl, p):
    """Answer the `challenge` query: this board's id and a challenge drawn for it."""
    ctl.hal.link.send("challenge", {"board": board_id(ctl.board), "nonce": draw(ctl)})


def command(ctl, p):
    """Carry out a signed `tech` command, or say why not; a command that passes the
    cheap checks spends its challenge, carried out or not."""
    if ctl.trust is None:
        return "this table trusts no key: send technician commands plainly"
    kind = p["cmd"]
    why, key, data = unfounded(ctl, p)
    if why is None:
        ctl.keep_challenges([c for c in ctl.challenges if c[0] != p["nonce"]])   # spent
        if not signed_by(key, data, p["sig"]):
            why = "not signed by key %s for this board's challenge" % p["key"]
    if why is not None:
        ctl.record("technician_refused", kind)
        return "%s refused: %s" % (kind, why)
    reason = ctl.signed(kind, p["body"], p["key"], p["nonce"])
    if reason is None and kind not in QUERIES:    # a reading changes nothing: not logged
        ctl.record("technician", "%s, signed by key %s" % (kind, p["key"]))
    return reason


def unfounded(ctl, p):
    """(why the frame `p` cannot be genuine, None, None) found with a hash at most,
    before any signature is checked; else (None, the public key it names, the bytes it
    signs: signed_bytes).  Cheapest first: the
    MAC before the key files are read, so a host without the board's key costs the
    board no read of its flash."""
    if ctl.key is None:
        return "this board keeps no key of its own (felt-flash install makes one)", None, None
    if not outstanding(ctl, p["nonce"]):
        return "nonce %s is not a challenge of this board's: ask for one" % p["nonce"], \
            None, None
    data = signed_bytes(board_id(ctl.board), p["nonce"], p["key"], p["cmd"], p["body"])
    if not same(lazy.load("felt.boardkey").sign(ctl.key, data), p["mac"]):
        return "its MAC does not hold: not sent by a host that has this board's key", \
            None, None
    key = trusted(ctl.trust, p["cmd"], p["key"])
    if key is None:
        return "key %s is not trusted for %s" % (p["key"], p["cmd"]), None, None
    return None, key, data


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


def draw(ctl):
    """A new challenge, outstanding beside the newest CHALLENGES - 1 others."""
    drawn = nonce()
    ctl.keep_challenges(ctl.challenges[1 - CHALLENGES:] + [(drawn, ctl.hal.ticks_ms())])
    return drawn


def outstanding(ctl, drawn):
    """Whether `drawn` is a challenge the board gave and has not spent, nor let expire
    (CHALLENGE_MS); the expired ones are dropped."""
    now = ctl.hal.ticks_ms()
    ctl.keep_challenges([c for c in ctl.challenges if ticks_diff(now, c[1]) < CHALLENGE_MS])
    return [c for c in ctl.challenges if c[0] == drawn] != []


def nonce():
    """A fresh challenge: 64 random bits in hex."""
    try:
        return binascii.hexlify(os.urandom(8)).decode()
    except (AttributeError, NotImplementedError):
        import random
        return "%08x%08x" % (random.getrandbits(32), random.getrandbits(32))


def signed_bytes(board, nonce, key, cmd, body):
    """What a technician's key signs and the board's key MACs (host_tools/tech.py makes
    the same bytes): `key` the signing key's id."""
    return PREFIX + protocol.dumps({"board": board, "body": body, "cmd": cmd, "key": key,
                                    "nonce": nonce}).encode()


def trusted(trust, cmd, kid):
    """The public key whose id is `kid` if the board trusts it for `cmd` (a technician's;
    an owner's for OWNERS_ONLY), else None."""
    image = lazy.load("felt.image")
    try:
        keys = image.keys_for(trust, image.OWNERS if cmd in OWNERS_ONLY else image.TECHNICIANS)
        if isinstance(keys, tuple):        # (file, why): none to trust
            return None
        for k in keys:
            if image.key_id(k) == kid:
                return k
        return None
    finally:
        lazy.forget("felt.image")


def signed_by(key, data, sig):
    """Whether `sig` (hex) is the public `key`'s Ed25519 signature of `data`."""
    ed25519 = lazy.load("felt.ed25519")
    try:
        return ed25519.verify(key, data, binascii.unhexlify(sig))
    finally:
        lazy.forget("felt.ed25519")


def same(a, b):
    """a == b for two MACs in hex, in a time that does not tell how much of them agree."""
    if len(a) != len(b):
        return False
    differ = 0
    for i in range(len(a)):
        differ |= ord(a[i]) ^ ord(b[i])
    return differ == 0


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
