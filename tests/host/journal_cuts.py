"""Power cuts at every byte the journal writes (docs/journal.md).

`cut_every_offset(seed)` plays short seeded rounds through the firmware's Controller
with a real file journal, recording each file operation its journal makes (a record
appended, a new file written whole, a rename, a removal).  Then, for every operation
and every byte of it, it builds the files a power cut there would leave (the bytes
before it and the first k of it), boots a fresh Controller on them and sorts the boot:

- resumed exactly: its snapshot() is that of a boot on the files just before the
  operation or just after it, and a second boot on what the first left agrees;
- stopped locked: the table refused to guess (Controller.lock);
- anything else is a failure, and chips lost counts the boots that resumed with the
  stacks, the pot and the rake not adding up to the chips the table began with.

Every boot that resumes must also find on the flash the last `recall` complete rounds
(or all, when fewer were played; felt.table.recall), while new files begin, archives
move one number on and the oldest are removed.

The boots before and after each operation are themselves checked against the table
that played: a power cut between two records must bring back what was played.

The board keeps its key beside the journal (felt.boardkey), as every installed board
does, so each line carries its MAC; `keyed=False` cuts a developer's table's journal,
without one.

    python tests/host/journal_cuts.py [SEED...]     # one JSON line of the counts
"""

import binascii
import json
import os
import random
import shutil
import sys
import tempfile

from felt import boardkey, protocol as P
from felt.table import recall as recall_mod
from felt.table.controller import PLAYING, Controller
from felt.table.journal import RECALL, Journal

BOARD = {"name": "soak", "leds": {"count": 14, "seats": [[0, 3], [3, 3], [6, 3], [9, 3]],
                                  "centre": [12, 2]}}
CFG = {"seats": 4, "stacks": [60, 60, 60, 60], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right",
       "rake": {"method": "time", "hourly": 6, "every": 30, "per": "player"}}
NAME = "journal.jsonl"
KEY = bytes(range(7, 7 + boardkey.SIZE))     # the board's key, a test's own
BUTTONS = {"fold": "fold", "check": "call", "call": "call", "bet": "raise",
           "raise": "raise"}


class _Link:
    def __init__(self):
        self.frame = None
        self.sent = []

    def resume(self, frame):
        pass

    def send(self, kind, payload):
        self.sent.append((kind, payload))


class _Pixels:
    def __setitem__(self, i, rgb):
        pass

    def write(self):
        pass


class _Device:
    def want(self, kind, seat=-1):
        P.check_card_kind(kind)     # as every real card reader does

    def start(self):
        pass


class _Hal:
    wired = False      # its devices are messages, as on the emulator's link
    keypad = display = muck = None    # no dealer's panel (felt.table.panel)

    def __init__(self):
        self.link = _Link()
        self.pixels = _Pixels()
        self.card_reader = _Device()
        self.shuffler = _Device()


class RecordingJournal(Journal):
    """A journal that notes each file operation as it makes it: (op, name, data, mode)
    for a write, (op, old, new) for a rename, (op, name) for a removal."""

    def __init__(self, path, ops, limit, recall=RECALL):
        Journal.__init__(self, path, limit=limit, recall=recall)
        self.ops = ops

    def put(self, path, pieces, mode):
        pieces = [bytes(p) for p in pieces]
        self.ops.append(("put", os.path.basename(path), b"".join(pieces), mode))
        return Journal.put(self, path, pieces, mode)

    def rename(self, old, new):
        self.ops.append(("rename", os.path.basename(old), os.path.basename(new)))
        Journal.rename(self, old, new)

    def remove(self, path):
        self.ops.append(("remove", os.path.basename(path)))
        Journal.remove(self, path)


def boot(folder, limit, journal=None, recall=RECALL):
    """A fresh Controller on the journal in `folder`."""
    j = journal or Journal(os.path.join(folder, NAME), limit=limit, recall=recall)
    return Controller(_Hal(), BOARD, j)


def first_files(keyed):
    """The files before the table's first write: the board's key, where it keeps one."""
    return {NAME + boardkey.SUFFIX: binascii.hexlify(KEY)} if keyed else {}


def play(seed, rounds, limit, folder, recall=RECALL, keyed=True):
    """Seeded rounds at a table journaling in `folder` (holding first_files(keyed)); the
    operations its journal made and, after each input, (how many operations had been
    made, lasting(), snapshot())."""
    rng = random.Random(seed)
    ops = []
    for name, data in first_files(keyed).items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    ctl = boot(folder, limit, RecordingJournal(os.path.join(folder, NAME), ops, limit, recall))
    marks = []

    def do(kind, payload):
        why = ctl.handle(kind, payload)
        if why is not None:
            raise AssertionError("%s refused: %s" % (kind, why))
        marks.append((len(ops), ctl.lasting(), ctl.snapshot()))

    do("cfg", CFG)
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    for n in range(rounds):
        do("clock", {"minutes": 30 * (n + 1)})     # a time charge: chips to the rake
        do("dealer", {"b": "deal"})
        do("shuf", {"state": "done"})
        do("dealer", {"b": "cut_done"})
        rng.shuffle(deck)
        cards = iter(deck)
        while ctl.state == PLAYING:
            r = ctl.round
            if r.expecting() is not None:
                do("card", {"code": next(cards)})
            else:
                legal = sorted(set(BUTTONS[a] for a in r.legal_actions(r.to_act)
                                   if a in BUTTONS))
                do("btn", {"seat": r.to_act, "b": rng.choice(legal)})
    return ops, marks


def _apply(files, op, k=None):
    """The files after `op`, or after the first k bytes of a write."""
    files = dict(files)
    if op[0] == "put":
        data = op[2] if k is None else op[2][:k]
        files[op[1]] = (files.get(op[1], b"") if op[3] == "ab" else b"") + data
    elif op[0] == "rename":
        files[op[2]] = files.pop(op[1])
    else:
        del files[op[1]]
    return files


def _boot_on(files, limit, recall=RECALL):
    """(controller, folder) booted on `files`; the folder is the caller's to remove."""
    folder = tempfile.mkdtemp(prefix="felt-cut-")
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    return boot(folder, limit, recall=recall), folder


def _recalled(folder):
    """The complete rounds the files in `folder` hold (felt.table.recall)."""
    path = os.path.join(folder, NAME)
    return recall_mod.page(path, key=boardkey.load(path))["rounds"]


def _finished(snapshot):
    """Rounds the table had finished by a snapshot."""
    return snapshot["hand"] - (snapshot["state"] == PLAYING)


def _kept(ctl):
    """What a power cut must keep: the lasting state, and the round when one is under way."""
    return ctl.lasting(), ctl.snapshot() if ctl.state == PLAYING else None


def cut_every_offset(seed, rounds=2, limit=2500, failures=None, recall=RECALL, every=1,
                     keyed=True):
    """Power cuts at every byte offset of every journal write (and between the steps of
    each new file's renames and archives' moves) of `rounds` seeded rounds; the counts,
    as a dict.  `every`: only every so many bytes of a write (and its end) are cut;
    `keyed`: the board keeps its key (first_files)."""
    counts = {"power_cuts": 0, "resumed_exactly": 0, "stopped_locked": 0, "chips_lost": 0,
              "rounds_missing": 0}
    failures = failures if failures is not None else []
    began = sum(CFG["stacks"])
    live = tempfile.mkdtemp(prefix="felt-live-")
    try:
        ops, marks = play(seed, rounds, limit, live, recall, keyed)
    finally:
        shutil.rmtree(live)
    _covered(ops, keyed)
    counts["archives_moved"] = len([op for op in ops if op[0] == "rename"
                                    and op[1][len(NAME) + 1:].isdigit()])
    counts["archives_removed"] = len([op for op in ops if op[0] == "remove"
                                      and op[1][len(NAME) + 1:].isdigit()])
    finished, m = [], 0                   # rounds finished before each operation
    for i in range(len(ops) + 1):
        while m < len(marks) and marks[m][0] <= i:
            m += 1
        finished.append(_finished(marks[m - 1][2]) if m else 0)
    files = first_files(keyed)
    states = [files]                      # the files after each operation
    for op in ops:
        files = _apply(files, op)
        states.append(files)
    refs = []
    for i, files in enumerate(states):
        ctl, folder = _boot_on(files, limit, recall)
        shutil.rmtree(folder)
        if ctl.locked is not None:
            raise AssertionError("locked with whole operations (%d): %s" % (i, ctl.locked))
        refs.append(ctl.snapshot())
    for n, lasting, snapshot in marks:    # between inputs, the table that played
        ctl, folder = _boot_on(states[n], limit, recall)
        shutil.rmtree(folder)
        if ctl.lasting() != lasting or (snapshot["state"] == PLAYING
                                        and ctl.snapshot() != snapshot):
            raise AssertionError("a boot after %d operations is not the table played" % n)
    for i, op in enumerate(ops):
        cuts = sorted(set(range(0, len(op[2]), every)) | set([len(op[2])])) \
            if op[0] == "put" else [None]
        for k in cuts:
            files = _apply(states[i], op, k) if k is not None else states[i]
            counts["power_cuts"] += 1
            what = "operation %d (%s %s), %s bytes" % (i, op[0], op[1], k)
            ctl, folder = _boot_on(files, limit, recall)
            try:
                if ctl.locked is not None:
                    counts["stopped_locked"] += 1
                    continue
                if _recalled(folder) < min(recall, finished[i]):
                    counts["rounds_missing"] += 1
                    failures.append("%s: %d rounds recalled, not %d" % (
                        what, _recalled(folder), min(recall, finished[i])))
                snap = ctl.snapshot()
                held = sum(snap["stacks"]) + snap["pot"] + snap["rake"]
                if held != (began if snap["config"] is not None else 0):
                    counts["chips_lost"] += 1
                    failures.append("%s: %d chips, not %d" % (what, held, began))
                again = boot(folder, limit, recall=recall)   # what the first boot left: the same
                if snap in (refs[i], refs[i + 1]) and _kept(again) == _kept(ctl):
                    counts["resumed_exactly"] += 1
                else:
                    failures.append("%s: resumed as %s" % (what, json.dumps(snap)[:300]))
            finally:
                shutil.rmtree(folder)
    return counts


def _covered(ops, keyed):
    """Every kind of record was written, each with its MAC where `keyed`, and a new file
    begun over an old one."""
    written = b"".join(op[2] for op in ops if op[0] == "put")
    macs = [len(line.split(b" ")[2]) == 16 for line in written.split(b"\n")[:-1]]
    if macs != [keyed] * len(macs):
        raise AssertionError("lines written %s their MAC" % ("without" if keyed else "with"))
    for kind in ("stamp", "table", "copy", "round", "event"):
        if (b' {"%s":' % kind.encode()) not in written:
            raise AssertionError("no %s record written" % kind)
    if ("rename", NAME, NAME + ".1") not in ops:
        raise AssertionError("no new file begun over an old one: lower the limit")


def main(argv):
    seeds = [int(a) for a in argv] or [1]
    total = {}
    for seed in seeds:
        for k, v in cut_every_offset(seed).items():
            total[k] = total.get(k, 0) + v
    print(json.dumps(total, sort_keys=True))
    return 0 if total["chips_lost"] == 0 and total["rounds_missing"] == 0 and \
        total["resumed_exactly"] + total["stopped_locked"] == total["power_cuts"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
