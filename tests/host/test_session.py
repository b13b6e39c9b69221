"""The emulator's table session (host_tools/emulator/session.py), against the firmware on
CPython."""

from host_tools.emulator.session import Session


def test_an_end_said_again_after_a_reboot_does_not_end_the_next_round():
    # docs/protocol.md, `resumed`: a board that rebooted after a round's last event but
    # before its journal kept it ends that round again as it boots, with the same hand.
    with Session(players=3, seed=1) as s:
        first = s.play_round()
        s.deal()
        s.take("evt", dict(first))       # the board's boot, replaying the last round's end
        assert s.ended is None
        while s.ended is None:           # play the new round on, as play_round does
            s.take(*s.link.recv())
            if s.turn is not None:
                seat, legal = s.turn
                s.act(seat, s.bots[seat].choose(legal))
        assert s.ended["hand"] == first["hand"] + 1
        assert [e for e in s.events if e["e"] == "end"] == [s.ended]
        assert s.faults == []


def test_a_table_that_locks_is_a_fault_of_the_session_not_a_refusal():
    # docs/tilts.md, internal_fault: the firmware failed on an input, put it back and
    # locked; the host counts it as a fault, with the code, though no `refused` came.
    why = "internal fault: TypeError in button (felt/table/poker_table.py), handling btn"
    with Session(players=3, seed=1) as s:
        s.take("evt", {"e": "locked", "code": "internal_fault", "why": why})
        assert s.faults == ["the table locked (internal_fault): " + why]
