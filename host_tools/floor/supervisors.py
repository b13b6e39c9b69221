"""The supervisors who may sign in to the floor's page: the users file `felt-floor user`
writes ({name: "scrypt$salt$hash"}, mode 0600), and passwords checked against it on a
bounded pool of threads, so that a flood of sign-ins costs a few scrypts at a time and
the rest are refused at once rather than queued without end."""

import hashlib
import hmac
import json
import os
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

HASH_WORKERS = 2        # scrypts at once (16 MiB of memory each)
HASH_WAITING = 4        # more that may wait for a worker; past that, refused


def password_hash(password, salt=None):
    """scrypt of the password, as stored in the users file: "scrypt$salt$hash"."""
    salt = salt or secrets.token_hex(16)
    digest = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=2 ** 14, r=8, p=1)
    return "scrypt$%s$%s" % (salt, digest.hex())


def set_password(users_file, name, password):
    """Add the supervisor `name`, or change their password, in the users file."""
    users = read_users(users_file)
    users[name] = password_hash(password)
    tmp = "%s.new" % users_file
    with open(tmp, "w") as f:
        os.chmod(tmp, 0o600)
        json.dump(users, f, indent=1, sort_keys=True)
    os.replace(tmp, users_file)


def read_users(users_file):
    try:
        with open(users_file) as f:
            users = json.load(f)
    except FileNotFoundError:
        return {}
    if not isinstance(users, dict):
        raise ValueError("%s: not a users file (felt-floor user writes one)" % users_file)
    return users


def check_password(users, name, password):
    stored = users.get(name)
    if not isinstance(stored, str) or stored.count("$") != 2:
        password_hash(password)          # the same time whether the name is known or not
        return False
    _, salt, _ = stored.split("$")
    return hmac.compare_digest(stored, password_hash(password, salt))


class Users:
    """The users file as it is now, read again only when it changed (a password changed
    or a supervisor removed ends their sign-ins: Page.who).  A file that is not a users
    file lets nobody in, said once (`say`) until it changes."""

    def __init__(self, users_file, say):
        self.users_file = users_file
        self.say = say
        self._seen = None           # (mtime_ns, size, inode) of the file last read
        self._users = {}
        self._lock = threading.Lock()

    def now(self):
        try:
            st = os.stat(self.users_file)
            seen = (st.st_mtime_ns, st.st_size, st.st_ino)
        except FileNotFoundError:
            seen = None
        with self._lock:
            if seen != self._seen:
                self._seen = seen
                try:
                    self._users = read_users(self.users_file) if seen else {}
                except ValueError as e:     # made by hand, wrongly (JSON's errors too)
                    self._users = {}
                    self.say("nobody may sign in: %s" % e)
            return self._users


class PasswordChecker:
    """check_password on HASH_WORKERS threads, HASH_WAITING more waiting at most."""

    def __init__(self, workers=HASH_WORKERS, waiting=HASH_WAITING):
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="felt-floor-scrypt")
        self._room = threading.BoundedSemaphore(workers + waiting)

    def submit(self, users, name, password):
        """A future of whether the password is the name's, or None when the pool is full."""
        if not self._room.acquire(blocking=False):
            return None
        future = self._pool.submit(check_password, users, name, password)
        future.add_done_callback(lambda _: self._room.release())
        return future

    def close(self):
        self._pool.shutdown(wait=False, cancel_futures=True)
