"""The journal: every accepted event of a round, written before the table acts on it.

One mechanism for three features: rebuild a round after a power cut, recall a past
round, export a hand history.  A round is its header (hand number, button, stacks,
structure) plus its events; replaying them through the pure rules core rebuilds it.
On the board the journal appends one JSON line per entry to a file on flash.
"""

import json

from felt.poker import rake, structure, variants
from felt.poker.round import Round


class Journal:
    def __init__(self, path=None):
        self.path = path
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
