"""Link fuzzing (issue 13): at random points of play of every kind of table, a frame
of any kind with fields of any type is either applied or refused, and a refused frame
leaves the controller's whole state as it was; its reason is a check's sentence, and the
firmware never fails on it (a handler's fault locks the table: internal_fault)."""

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from sampling import examples, first, sampled
from hostile import KEYS, KINDS, NINE_SEATS, TABLES, VALUES, judge, over_link, play, table
from felt.table.messages import SPECS
from host_tools import micropython
from host_tools.process import FirmwareProcess

BOARD = Path(__file__).resolve().parents[2] / "hardware" / "boards" / "pico-11.json"

values = st.one_of(st.sampled_from(VALUES), st.integers(), st.text(max_size=8),
                   st.lists(st.sampled_from(VALUES), max_size=3))


@st.composite
def frames(draw):
    kind = draw(st.sampled_from(KINDS))
    keys = draw(st.lists(st.sampled_from(sorted(SPECS.get(kind, {})) + KEYS), max_size=4))
    return kind, dict((k, draw(values)) for k in keys)


@sampled
@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TABLES))), st.integers(0, 80), st.integers(0, 2 ** 32),
       st.lists(frames(), min_size=1, max_size=10))
def test_a_refused_frame_changes_nothing(which, steps, seed, sent):
    ctl = table(TABLES[which])
    play(ctl, random.Random(seed), steps)
    for kind, payload in sent:
        refused, changed, fault = judge(ctl, kind, payload)
        assert not changed, "refused %s %r changed the table" % (kind, payload)
        assert not fault, "%s %r: the firmware failed on it (internal_fault)" % (kind, payload)


@sampled
@pytest.mark.parametrize("seed", first([1, 2], 1))
def test_hostile_frames_over_the_link_reboot_nothing_at_the_boards_heap(seed, tmp_path):
    """The whole firmware in the unix port at pico-11's heap, a 9-seat table played on
    between bursts of random frames (kinds of their own among them): it never runs out
    of memory.  It once did, twice over: every kind the link named was interned for good
    by getattr, and the first load of cold code (a recall, a deck) grew MicroPython's
    pool of names by one ~9 KB block in a fragmented heap."""
    try:
        micropython.binary()
    except micropython.MicroPythonMissing as e:   # make test builds it first
        pytest.skip(str(e))
    micropython.board_tree()
    fw = FirmwareProcess(BOARD, tmp_path / "journal.jsonl", runtime="micropython")
    try:
        assert fw.link.send("cfg", NINE_SEATS) is None
        frames = examples(1500)
        rounds = over_link(fw.link, random.Random(seed), frames)
        assert fw.link.reboots == [] and fw.proc.poll() is None, fw.link.reboots
        assert rounds > frames // 150
    finally:
        fw.close()
