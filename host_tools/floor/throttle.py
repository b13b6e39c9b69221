"""Sign-in throttling for the floor's page: a name that failed NAME_TRIES times within
WINDOW_S is locked for LOCK_S, and so is an address that failed ADDRESS_TRIES times
(whatever names it tried).  A try still being checked counts as failed until it is
answered, so tries sent at once are held to the same numbers; a locked name or address
is answered at once, without checking any password.  A right password clears its
name's failures (not its address's)."""

import time

NAME_TRIES = 5
ADDRESS_TRIES = 20
WINDOW_S = 15 * 60
LOCK_S = 15 * 60


class _Count:
    def __init__(self):
        self.failed = []        # when each failure within the window was
        self.checking = 0       # tries being checked now
        self.locked_until = 0.0


class Throttle:
    """Used from one thread (the page's event loop)."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self._names = {}
        self._addresses = {}
        self._pruned = clock()

    def begin(self, name, address):
        """None when the try may be checked (end() must follow), else the seconds until
        it may be tried again."""
        now = self.clock()
        self._prune(now)
        counts = ((self._names.setdefault(name, _Count()), NAME_TRIES),
                  (self._addresses.setdefault(address, _Count()), ADDRESS_TRIES))
        wait = 0.0
        for count, tries in counts:
            count.failed = [t for t in count.failed if t > now - WINDOW_S]
            if count.locked_until > now:
                wait = max(wait, count.locked_until - now)
            elif len(count.failed) + count.checking >= tries:
                # Not locked yet, but the tries being checked would lock it if wrong.
                wait = max(wait, count.failed[0] + WINDOW_S - now if count.failed else 1.0)
        if wait:
            return max(1.0, wait)
        for count, _ in counts:
            count.checking += 1
        return None

    def end(self, name, address, right):
        """The try begun is answered: `right` or not.  True when it locked the name or
        the address."""
        now = self.clock()
        locked = False
        for count, tries, clear in ((self._names[name], NAME_TRIES, right),
                                    (self._addresses[address], ADDRESS_TRIES, False)):
            count.checking -= 1
            if clear:
                count.failed = []
            elif not right:
                count.failed.append(now)
                if len(count.failed) >= tries and count.locked_until <= now:
                    count.locked_until = now + LOCK_S
                    locked = True
        return locked

    def cancel(self, name, address):
        """The try begun was not checked (no room to check it): it counts for nothing."""
        self._names[name].checking -= 1
        self._addresses[address].checking -= 1

    def __len__(self):
        """How many names and addresses it keeps counts of."""
        return len(self._names) + len(self._addresses)

    def _prune(self, now):
        """Forget, once a minute, what no longer counts (it would grow with every name
        tried)."""
        if now - self._pruned < 60:
            return
        self._pruned = now
        for counts in (self._names, self._addresses):
            for key in [k for k, c in counts.items() if not c.checking and
                        c.locked_until <= now and not [t for t in c.failed
                                                       if t > now - WINDOW_S]]:
                del counts[key]
