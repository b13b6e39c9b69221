"""The terminal view against the real firmware, driven key by key through textual's pilot."""

import asyncio
import time

from host_tools.emulator.session import Session
from host_tools.emulator.view import FeltView


def log_text(app):
    return "\n".join(line.text for line in app.query_one("#log").lines)


async def wait_for(pilot, cond, timeout_s=10.0):
    deadline = time.monotonic() + timeout_s
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.05)


def test_view_deals_shows_refusals_lets_bots_play_and_closes_the_firmware():
    session = Session(players=4, seed=3, stack=200)
    app = FeltView(session)
    try:
        session.open()

        async def drive():
            async with app.run_test(size=(160, 50)) as pilot:
                await pilot.press("d")
                await wait_for(pilot, lambda: session.turn is not None)
                seat = session.turn[0]
                other = (seat + 1) % 4
                await pilot.press(str(other), "c")
                await wait_for(pilot, lambda: "refused" in log_text(app))
                log = log_text(app)
                assert "seat %d call refused: out of turn" % other in log
                assert session.turn is not None and session.turn[0] == seat  # nothing changed
                stacks, _, _, _, pot = app.table_state()
                state = session.state()
                assert pot == state["pot"] == 3 and sum(stacks) + pot == 800

                acted = 0
                for _ in range(3):
                    await wait_for(pilot, lambda: session.turn is not None or session.ended)
                    if session.ended:
                        break
                    await pilot.press("b")
                    acted += 1
                    await pilot.pause(0.1)
                assert acted and log_text(app).count("to act") > acted
                # Autoplay finishes the round; the chips are all still there.
                await pilot.press("B")
                await wait_for(pilot, lambda: session.ended is not None, 30)
                assert sum(session.ended["stacks"]) == 800
                assert "over: winners" in log_text(app)
                await pilot.press("q")
                await wait_for(pilot, lambda: not app.is_running)

        asyncio.run(drive())
        # Quitting closed the session: the firmware process is gone.
        assert app.closed
        assert session.fw.proc.poll() is not None, "the firmware process is still running"
    finally:
        app.close_session()
