"""Link fuzzing (issue 13): at random points of play of every kind of table, a frame
of any kind with fields of any type is either applied or refused, and a refused frame
leaves the controller's whole state as it was; its reason is a check's sentence, never
the last-resort catch's."""

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from hostile import KEYS, KINDS, TABLES, VALUES, judge, play, table
from felt.table.messages import SPECS

values = st.one_of(st.sampled_from(VALUES), st.integers(), st.text(max_size=8),
                   st.lists(st.sampled_from(VALUES), max_size=3))


@st.composite
def frames(draw):
    kind = draw(st.sampled_from(KINDS))
    keys = draw(st.lists(st.sampled_from(sorted(SPECS.get(kind, {})) + KEYS), max_size=4))
    return kind, dict((k, draw(values)) for k in keys)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TABLES))), st.integers(0, 80), st.integers(0, 2 ** 32),
       st.lists(frames(), min_size=1, max_size=10))
def test_a_refused_frame_changes_nothing(which, steps, seed, sent):
    ctl = table(TABLES[which])
    play(ctl, random.Random(seed), steps)
    for kind, payload in sent:
        refused, changed, generic = judge(ctl, kind, payload)
        assert not changed, "refused %s %r changed the table" % (kind, payload)
        assert not generic, "%s %r reached the last-resort catch" % (kind, payload)
