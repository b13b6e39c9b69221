"""A power cut at every byte the journal writes (journal_cuts.py): the table
comes back exactly as it was before or after the write, or stops LOCKED; no chip is
ever lost.  Also the cuts while a new file is begun (its stamp and table record written
under <path>.new, then the renames) and while a torn record is cut off at boot."""

import os
import shutil

import pytest

import journal_cuts as S
from sampling import first

# make test cuts every 97th byte of each write (and its last); make check every byte.
EVERY = first([97, 1], 1)


# make test: seed 1 at every 97th byte; make check: both seeds at every byte, seed 2 at
# every 97th.
@pytest.mark.parametrize("seed, every", first([(1, 97), (2, 97), (1, 1), (2, 1)], 1))
def test_every_cut_in_every_write_resumes_exactly_or_locks_and_loses_no_chip(seed, every):
    failures = []
    counts = S.cut_every_offset(seed, failures=failures, every=every)
    assert failures == []
    assert counts["chips_lost"] == 0 and counts["rounds_missing"] == 0
    assert counts["power_cuts"] > 3000 // every
    assert counts["resumed_exactly"] + counts["stopped_locked"] == counts["power_cuts"]


@pytest.mark.parametrize("every", EVERY)
def test_every_cut_in_a_journal_without_macs_resumes_exactly_or_locks(every):
    # A developer's table keeps no key: its lines carry no MAC, and cut the same.
    failures = []
    counts = S.cut_every_offset(1, failures=failures, every=every, keyed=False)
    assert failures == [] and counts["chips_lost"] == 0 and counts["rounds_missing"] == 0
    assert counts["power_cuts"] > 3000 // every
    assert counts["resumed_exactly"] + counts["stopped_locked"] == counts["power_cuts"]


@pytest.mark.parametrize("every", EVERY)
def test_a_cut_at_every_step_of_beginning_a_new_file_resumes_exactly(every):
    # limit=1: every table record begins a new file, so each of its steps is cut:
    # writing <path>.new, renaming the file to <path>.1, renaming <path>.new over it.
    failures = []
    counts = S.cut_every_offset(3, rounds=1, limit=1, failures=failures, every=every)
    assert failures == [] and counts["chips_lost"] == 0
    assert counts["resumed_exactly"] + counts["stopped_locked"] == counts["power_cuts"]


@pytest.mark.parametrize("every", first([199, 41], 1))
def test_a_cut_at_every_step_of_keeping_the_archives_resumes_exactly_and_keeps_the_rounds(every):
    # limit=1 and two rounds recalled: every round ends in a new file, so the archives
    # move one number on, and the oldest are removed, with a power cut between every
    # two steps (and in the writes, every 41st byte in make check, every 199th in make
    # test: the tests above cut every byte).
    failures = []
    counts = S.cut_every_offset(5, rounds=3, limit=1, failures=failures, recall=2,
                             every=every)
    assert failures == [] and counts["chips_lost"] == 0 and counts["rounds_missing"] == 0
    assert counts["archives_moved"] > 0 and counts["archives_removed"] > 0
    assert counts["resumed_exactly"] + counts["stopped_locked"] == counts["power_cuts"]


@pytest.mark.parametrize("every", EVERY)
def test_a_cut_while_a_torn_record_is_cut_off_at_boot_resumes_exactly(tmp_path, every):
    # Boot cuts a torn record off by copying the whole ones to <path>.new and renaming
    # it over the file; the power may fail at any point of that too.
    live = tmp_path / "live"
    live.mkdir()
    ops, marks = S.play(4, 1, 64 * 1024, str(live))
    files = S.first_files(True)
    for op in ops:
        files = S._apply(files, op)
    last = files[S.NAME].split(b"\n")[-2]
    torn = dict(files)    # the next record, cut short
    torn[S.NAME] += b'%d 0123abcd {"table":{"bu' % (int(last.split(b" ")[0]) + 1)
    want = booted(files)
    repair = []
    for name, data in torn.items():
        (tmp_path / name).write_bytes(data)
    j = S.RecordingJournal(os.path.join(str(tmp_path), S.NAME), repair, 64 * 1024)
    S.boot(str(tmp_path), 64 * 1024, j)
    assert [op[0] for op in repair][-1] == "rename" and (tmp_path / S.NAME).read_bytes() == \
        files[S.NAME]
    state = torn
    cuts = 0
    for op in repair:
        steps = sorted(set(range(0, len(op[2]), every)) | set([len(op[2])])) \
            if op[0] == "put" else [None]
        for k in steps:
            cut = S._apply(state, op, k) if k is not None else state
            assert booted(cut) == want, (op[0], op[1], k)
            cuts += 1
        state = S._apply(state, op)
    assert cuts > len(files[S.NAME]) // every


def booted(files):
    """The snapshot of a table booted on `files`, which must not lock."""
    ctl, folder = S._boot_on(files, 64 * 1024)
    shutil.rmtree(folder)
    assert ctl.locked is None, ctl.locked
    return ctl.snapshot()
