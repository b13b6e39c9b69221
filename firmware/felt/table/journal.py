"""The journal: every accepted event of a round, written before the table acts on it.

One mechanism for three features: rebuild a round after a power cut, recall a past
round, export a hand history.  A round is its header (hand number, button, stacks,
structure) plus its events; replaying them through the pure rules core rebuilds it.
Between rounds, and as each begins, the table's lasting state (its configuration,
stacks, button, decks...) is written as a `table` entry: a restart resumes from the last
one and the round begun after it, if any.  The journal appends one JSON line per entry
to a file (on a board, on flash).  Past `limit` bytes the file is moved to `<path>.1`
(replacing the one before) as the next table entry is written, between rounds or as
one begins, so the file always holds the round under way whole and flash never fills.
With a `phh_dir`, each finished round is also written there as a Poker Hand History,
`hand-<n>.phh` (felt.table.phh, docs/phh.md).
"""

import json
import os

from felt.poker import rake, structure, variants
from felt.poker.round import Round


class Journal:
    def __init__(self, path=None, phh_dir=None, limit=64 * 1024):
        self.path = path
        self.limit = limit
        self.phh_dir = phh_dir
        self.header = None
        self.events = []
        self.source = None       # the link frame being applied, noted on each entry
        self.last_frame = None   # after recover(): the last link frame applied

    def begin(self, hand, button, stacks, config):
        self.header = {"hand": hand, "button": button, "stacks": list(stacks),
                       "game": config.game, "structure": config.structure.as_dict(),
                       "rake": config.rake.as_dict()}
        self.events = []
        self._write({"round": self.header})

    def table(self, state):
        """The table's lasting state, as felt.table.controller saves it."""
        if self.path is not None and _size(self.path) > self.limit:
            try:
                os.remove(self.path + ".1")
            except OSError:
                pass
            os.rename(self.path, self.path + ".1")
        self._write({"table": state})

    def recover(self):
        """(table, header, events, under_way) to resume from after a restart, or None:
        the last table entry, and the last round (header None if there was none),
        under_way when it began after that entry.  The journal carries on from there."""
        if self.path is None or _size(self.path) == 0:
            return None          # no journal yet: a new table
        table = None
        under_way = False
        for entry in _entries(self.path):
            if "table" in entry:
                table, under_way = entry["table"], False
            elif "round" in entry:
                self.header, self.events, under_way = entry["round"], [], True
            elif "event" in entry and self.header is not None:
                self.events.append(tuple(entry["event"]))
            if "from" in entry:
                self.last_frame = entry["from"]
        if table is None:
            return None
        return table, self.header, self.events, under_way

    def append(self, event):
        self.events.append(event)
        self._write({"event": list(event)})

    def _write(self, entry):
        if self.path is None:
            return
        if self.source is not None:
            # Which link frame made this entry: after a power cut, its resend is known.
            entry["from"] = list(self.source)
        with open(self.path, "a") as f:
            f.write(json.dumps(entry))
            f.write("\n")

    def write_phh(self, round=None):
        """Write the round's hand history to <phh_dir>/hand-<n>.phh, if a phh_dir is set;
        returns the path written, or None."""
        if self.phh_dir is None or self.header is None:
            return None
        from felt.table.phh import history
        path = "%s/hand-%d.phh" % (self.phh_dir, self.header["hand"])
        text = history(self.header, self.events, round)
        with open(path, "w") as f:
            f.write(text)
        return path

    def replay(self):
        """The current round rebuilt from its header and events."""
        return rebuild(self.header, self.events)


def rebuild(header, events):
    r = Round(header["stacks"], header["button"], structure.from_dict(header["structure"]),
              variants.get(header["game"]), rake.from_dict(header["rake"]))
    r.start()
    for e in events:
        r.apply(tuple(e))
    return r


def load(path):
    """[(header, events)] for every round in a journal file, oldest first."""
    rounds = []
    for entry in _entries(path):
        if "round" in entry:
            rounds.append((entry["round"], []))
        elif "event" in entry and rounds:
            rounds[-1][1].append(tuple(entry["event"]))
    return rounds


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def _entries(path):
    """The journal's entries, one at a time (a board never holds the whole file).  A
    last line cut short by a power cut is left out: it was being written before its
    event was acted on, so the table never acted on it."""
    torn = 0
    n = 0
    with open(path) as f:
        for line in f:
            n += 1
            if torn:
                raise ValueError("journal %s: line %d is corrupt" % (path, torn))
            try:
                entry = json.loads(line)
            except ValueError:
                torn = n
                continue
            yield entry
