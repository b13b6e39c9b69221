"""tests/mp/compare.py's judgement of two runs' frames: the protocol's resends aside
(issue 39: a busy machine made a resend on one runtime only, and the runs differed)."""

from compare import first_difference, sent_once


def frame(side, seq, kind, payload, crc="0badc0de"):
    return "%s @%d %s %s *%s" % (side, seq, kind, payload, crc)


# A seat's press, the board's event and the host's ack of it, quiet: each frame once.
QUIET = [frame(">", 399, "btn", '{"seat":1}'), frame("<", 57, "ack", '{"seq":399}'),
         frame(">", 400, "btn", '{"seat":2}'), frame("<", 58, "ack", '{"seq":400}'),
         frame("<", 59, "evt", '{"e":"bet"}', "11111111"), frame(">", 401, "ack", '{"seq":59}'),
         frame(">", 402, "btn", '{"seat":3}'), frame("<", 60, "ack", '{"seq":402}')]
# Busy: btn 400 resent (its ack came late), so the board acks it twice, and every seq
# of the board's after that is one more, the host's ack of its event too.
BUSY = [frame(">", 399, "btn", '{"seat":1}'), frame("<", 57, "ack", '{"seq":399}'),
        frame(">", 400, "btn", '{"seat":2}'), frame(">", 400, "btn", '{"seat":2}'),
        frame("<", 58, "ack", '{"seq":400}'), frame("<", 59, "ack", '{"seq":400}'),
        frame("<", 60, "evt", '{"e":"bet"}', "22222222"), frame(">", 401, "ack", '{"seq":60}'),
        frame(">", 402, "btn", '{"seat":3}'), frame("<", 61, "ack", '{"seq":402}')]


def test_a_resend_and_the_second_ack_it_brings_are_the_link_working():
    (host_q, board_q), (host_b, board_b) = sent_once(QUIET), sent_once(BUSY)
    assert first_difference(host_q, host_b) is None
    assert first_difference(board_q, board_b) is None
    assert host_q[2] == 'ack to evt {"e":"bet"}'       # the ack names what it answers
    assert board_q[1] == 'ack to btn {"seat":2}'


def test_a_frame_more_or_changed_or_answered_otherwise_is_still_a_difference():
    host, board = sent_once(QUIET)
    more = QUIET[:5] + [frame("<", 60, "evt", '{"e":"bet"}')] + QUIET[5:]   # its own seq
    assert first_difference(board, sent_once(more)[1]) is not None
    changed = QUIET[:4] + [frame("<", 59, "evt", '{"e":"call"}')] + QUIET[5:]
    assert first_difference(board, sent_once(changed)[1]) is not None
    naked = QUIET[:3] + [frame("<", 58, "nak", '{"seq":400,"why":"no"}')] + QUIET[4:]
    assert first_difference(board, sent_once(naked)[1]) is not None
    # An ack of another frame than in the quiet run (the host's ack of the press instead).
    other = QUIET[:5] + [frame(">", 401, "ack", '{"seq":58}')] + QUIET[6:]
    assert first_difference(host, sent_once(other)[0]) is not None


def test_after_a_boot_the_same_answer_again_is_a_new_one():
    # A power cut: the board boots (hello) and its seqs start again; its ack of a frame
    # the host sends again after the boot is the answer the journal gives, not a resend's.
    boot = [frame("<", 0, "hello", "{}"), frame(">", 5, "btn", '{"seat":1}'),
            frame("<", 1, "ack", '{"seq":5}')]
    assert sent_once(boot + boot)[1] == ["hello {}", 'ack to btn {"seat":1}'] * 2
