"""tests/mp/compare.py's judgement of two runs' frames: the protocol's resends aside
(issue 39: a busy machine made a resend on one runtime only, and the runs differed)."""

from compare import first_difference, sent_once


def frame(seq, kind, payload, crc="0badc0de"):
    return "@%d %s %s *%s\n" % (seq, kind, payload, crc)


def test_a_resend_and_the_second_ack_it_brings_are_the_link_working():
    host_quiet = [frame(399, "btn", '{"seat":1}'), frame(400, "btn", '{"seat":2}'),
                  frame(401, "btn", '{"seat":3}')]
    host_busy = host_quiet[:2] + [frame(400, "btn", '{"seat":2}')] + host_quiet[2:]
    board_quiet = [frame(57, "ack", '{"seq":399}'), frame(58, "ack", '{"seq":400}'),
                   frame(59, "evt", '{"e":"bet"}', "11111111"),
                   frame(60, "ack", '{"seq":401}')]
    board_busy = [frame(57, "ack", '{"seq":399}'), frame(58, "ack", '{"seq":400}'),
                  frame(59, "ack", '{"seq":400}'), frame(60, "evt", '{"e":"bet"}', "22222222"),
                  frame(61, "ack", '{"seq":401}')]
    assert first_difference(host_quiet, host_busy) is not None     # as compared before
    assert first_difference(sent_once(host_quiet), sent_once(host_busy)) is None
    assert first_difference(sent_once(board_quiet), sent_once(board_busy)) is None


def test_a_frame_more_or_changed_is_still_a_difference():
    run = [frame(1, "ack", '{"seq":1}'), frame(2, "evt", '{"e":"bet"}'),
           frame(3, "evt", '{"e":"bet"}')]       # the same event twice, each its own seq
    assert first_difference(sent_once(run), sent_once(run[:2])) is not None
    assert first_difference(sent_once(run), sent_once(run[:1] + [
        frame(2, "evt", '{"e":"call"}'), run[2]])) is not None
    nak = frame(4, "nak", '{"seq":1,"why":"no"}')
    assert first_difference(sent_once(run + [nak]), sent_once(run)) is not None


def test_after_a_boot_the_same_answer_again_is_a_new_one():
    # A power cut: the board boots (hello) and its seqs start again; an ack of the same
    # host seq as before the cut is the answer to a new frame, not a resend's.
    before = [frame(0, "hello", "{}"), frame(1, "ack", '{"seq":5}')]
    assert sent_once(before + before) == ["hello {}", 'ack {"seq":5}'] * 2
