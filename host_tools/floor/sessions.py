"""What keeps the floor page's sign-ins across restarts: the key their cookies are
signed with, and the sign-ins ended before their time (signed out), each in a file of
the floor's own (mode 0600) beside the users file.

A sign-in is a cookie the browser holds (Starlette's SessionMiddleware, signed with
itsdangerous): {"user", "sid", "until", "pw", "csrf"}; nothing of it is kept on the
floor but the sids signed out, until their shift is over."""

import json
import os
import secrets
import stat
import threading
import time

KEY_BYTES = 32


def paths(users_file):
    """(key file, signed-out file) of a users file: floor/users.json beside
    floor/users.session-key and floor/users.signed-out."""
    stem = os.path.splitext(users_file)[0]
    return stem + ".session-key", stem + ".signed-out"


def _private(path):
    """The file's mode leaves it to its owner, else ValueError."""
    if stat.S_IMODE(os.stat(path).st_mode) & 0o077:
        raise ValueError("%s: others may read it: chmod 600 %s" % (path, path))


def _write_private(path, text):
    """The file written whole (a new file moved into place), mode 0600."""
    tmp = path + ".new"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def session_key(path):
    """The key in the file, made (random, mode 0600) when there is none yet."""
    if not os.path.exists(path):
        _write_private(path, secrets.token_hex(KEY_BYTES) + "\n")
    _private(path)
    with open(path) as f:
        key = f.read().strip()
    if len(key) < 2 * KEY_BYTES or any(c not in "0123456789abcdef" for c in key):
        raise ValueError("%s: not a session key (%d hex digits); remove it and a new one "
                         "is made (everyone signs in again)" % (path, 2 * KEY_BYTES))
    return key


class SignedOut:
    """The sids signed out before their time, {sid: until}, kept in a file."""

    def __init__(self, path):
        self.path = path
        self._lock = threading.Lock()
        self._sids = {}
        if os.path.exists(path):
            _private(path)
            try:
                with open(path) as f:
                    sids = json.load(f)
            except ValueError as e:
                raise ValueError("%s: not a list of sign-ins ended (%s); remove it and "
                                 "the page starts one anew" % (path, e)) from None
            if not isinstance(sids, dict):
                raise ValueError("%s: not a list of sign-ins ended; remove it and the "
                                 "page starts one anew" % path)
            self._sids = {k: v for k, v in sids.items() if isinstance(v, (int, float))}

    def add(self, sid, until):
        with self._lock:
            now = time.time()
            self._sids = {k: v for k, v in self._sids.items() if v > now}
            self._sids[sid] = until
            _write_private(self.path, json.dumps(self._sids))

    def __contains__(self, sid):
        with self._lock:
            return sid in self._sids
