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
