"""The journal: every accepted event of a round, written before the table acts on it.

One mechanism for three features: rebuild a round after a power cut, recall a past
round, export a hand history.  A round is its header (hand number, button, stacks,
structure) plus its events; replaying them through the pure rules core rebuilds it.
On the board the journal appends one JSON line per entry to a file on flash.  With a
`phh_dir`, each finished round is also written there as a Poker Hand History,
`hand-<n>.phh` (felt.table.phh, docs/phh.md).
"""

import json

from felt.poker import rake, structure, variants
from felt.poker.round import Round


class Journal:
    def __init__(self, path=None, phh_dir=None):
        self.path = path
        self.phh_dir = phh_dir
        self.header = None
        self.events = []

    def begin(self, hand, button, stacks, config):
        self.header = {"hand": hand, "button": button, "stacks": list(stacks),
                       "game": config.game, "structure": config.structure.as_dict(),
                       "rake": config.rake.as_dict()}
        self.events = []
        self._write({"round": self.header})

    def append(self, event):
        self.events.append(event)
        self._write({"event": list(event)})

    def _write(self, entry):
        if self.path is None:
            return
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
    with open(path) as f:
        for line in f:
            entry = json.loads(line)
            if "round" in entry:
                rounds.append((entry["round"], []))
            elif rounds:
                rounds[-1][1].append(tuple(entry["event"]))
    return rounds
