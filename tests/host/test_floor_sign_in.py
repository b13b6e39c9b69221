"""Signing in to the floor's page, part by part: tries throttled per name and per
address with a lockout (host_tools/floor/throttle.py), passwords checked on a bounded
pool (supervisors.PasswordChecker), and the sign-ins' key and sign-outs kept on disk,
mode 0600 (sessions.py).  The page's own tests (test_floor_page.py) try them over HTTP."""

import os
import stat

import pytest

from host_tools.floor import sessions
from host_tools.floor.supervisors import (HASH_WAITING, HASH_WORKERS, PasswordChecker,
                                          password_hash)
from host_tools.floor.throttle import ADDRESS_TRIES, LOCK_S, NAME_TRIES, WINDOW_S, Throttle


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def failed(throttle, name, address, times):
    for _ in range(times):
        assert throttle.begin(name, address) is None
        throttle.end(name, address, False)


def test_a_name_that_failed_five_times_is_locked_for_fifteen_minutes_even_to_its_password():
    clock = Clock()
    t = Throttle(clock)
    failed(t, "alice", "10.0.0.1", NAME_TRIES - 1)
    assert t.begin("alice", "10.0.0.1") is None
    assert t.end("alice", "10.0.0.1", False) is True          # the fifth locks it
    assert t.begin("alice", "10.0.0.2") == LOCK_S             # from anywhere
    clock.now += LOCK_S - 1
    assert t.begin("alice", "10.0.0.2") == 1.0
    assert t.begin("bob", "10.0.0.2") is None                 # another name is not locked
    t.end("bob", "10.0.0.2", True)
    clock.now += 1
    assert t.begin("alice", "10.0.0.2") is None               # over: it may try again


def test_tries_being_checked_count_so_tries_at_once_are_held_to_the_same_number():
    t = Throttle(Clock())
    begun = [t.begin("alice", "10.0.0.%d" % k) for k in range(40)]
    assert begun[:NAME_TRIES] == [None] * NAME_TRIES
    assert all(wait is not None for wait in begun[NAME_TRIES:])
    for k in range(NAME_TRIES):
        t.end("alice", "10.0.0.%d" % k, False)
    assert t.begin("alice", "10.0.0.99") == LOCK_S


def test_a_right_password_clears_its_names_failures_and_old_failures_lapse():
    clock = Clock()
    t = Throttle(clock)
    failed(t, "alice", "10.0.0.1", NAME_TRIES - 1)
    assert t.begin("alice", "10.0.0.1") is None
    t.end("alice", "10.0.0.1", True)
    failed(t, "alice", "10.0.0.2", NAME_TRIES - 1)          # counted afresh: not locked
    clock.now += WINDOW_S + 1                               # these lapse too
    failed(t, "alice", "10.0.0.2", NAME_TRIES - 1)
    assert t.begin("alice", "10.0.0.2") is None


def test_an_address_that_failed_twenty_times_is_locked_whatever_names_it_tries():
    t = Throttle(Clock())
    for k in range(ADDRESS_TRIES):
        failed(t, "name-%d" % k, "10.0.0.1", 1)
    assert t.begin("somebody", "10.0.0.1") == LOCK_S
    assert t.begin("somebody", "10.0.0.2") is None


def test_a_try_not_checked_counts_for_nothing_and_what_lapsed_is_forgotten():
    clock = Clock()
    t = Throttle(clock)
    for _ in range(3 * NAME_TRIES):
        assert t.begin("alice", "10.0.0.1") is None
        t.cancel("alice", "10.0.0.1")
    failed(t, "bob", "10.0.0.1", 1)
    clock.now += WINDOW_S + 61
    assert t.begin("carol", "10.0.0.3") is None             # prunes what lapsed
    assert len(t) == 2                  # carol and her address, no more


def test_the_password_pool_takes_a_few_at_once_and_refuses_the_rest_at_once():
    users = {"alice": password_hash("right-password")}
    checker = PasswordChecker()
    try:
        futures = [checker.submit(users, "alice", "guess-%d" % k) for k in range(20)]
        taken = [f for f in futures if f is not None]
        assert len(taken) == HASH_WORKERS + HASH_WAITING
        assert futures[len(taken):] == [None] * (20 - len(taken))
        assert [f.result(10) for f in taken] == [False] * len(taken)
        right = checker.submit(users, "alice", "right-password")   # room again
        assert right.result(10) is True
    finally:
        checker.close()


def test_the_session_key_is_made_once_mode_0600_and_kept(tmp_path):
    key_file, _ = sessions.paths(str(tmp_path / "floor-users.json"))
    assert key_file == str(tmp_path / "floor-users.session-key")
    key = sessions.session_key(key_file)
    assert len(key) == 64 and stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    assert sessions.session_key(key_file) == key
    os.chmod(key_file, 0o644)
    with pytest.raises(ValueError, match="others may read it: chmod 600"):
        sessions.session_key(key_file)
    os.chmod(key_file, 0o600)
    (tmp_path / "floor-users.session-key").write_text("short\n")
    with pytest.raises(ValueError, match="not a session key"):
        sessions.session_key(key_file)


def test_a_sign_out_is_kept_across_restarts_until_its_shift_is_over(tmp_path):
    _, path = sessions.paths(str(tmp_path / "floor-users.json"))
    gone = sessions.SignedOut(path)
    gone.add("old", 1.0)                # its shift long over
    gone.add("sid-1", 4e9)
    gone.add("sid-2", 4e9)
    again = sessions.SignedOut(path)
    assert "sid-1" in again and "sid-2" in again and "old" not in again
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    (tmp_path / "floor-users.signed-out").write_text("[1, 2")
    with pytest.raises(ValueError, match="not a list of sign-ins ended"):
        sessions.SignedOut(path)
