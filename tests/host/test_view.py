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


# ----- what is on the screen -------------------------------------------------------------

import io  # noqa: E402
import re  # noqa: E402

from rich.console import Console  # noqa: E402

from host_tools.emulator.session import table_config  # noqa: E402
from host_tools.emulator.view import FAULT_KEYS, KEYS, cards_text  # noqa: E402


def screen_text(app):
    """The characters on the app's screen, as the terminal shows them (the compositor's
    output, every widget of the screen in place)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text()


ROW = re.compile(r"^ *(?:D)? *>? *\[?(\d+)\]? +(\d+) +(to act|\S+) +(.*?) *$")


def seat_rows(app):
    """{seat: (stack, status, the rest: cards and last action)} as the screen shows them."""
    lines = screen_text(app).splitlines()
    top = next(i for i, s in enumerate(lines) if re.search(r"seat +stack +status", s))
    rows = {}
    for line in lines[top + 1:]:
        m = ROW.match(line)
        if not m:
            break
        rows[int(m.group(1))] = (int(m.group(2)), m.group(3), m.group(4))
    return rows


def shown_stacks(app):
    rows = seat_rows(app)
    return [rows[s][0] for s in sorted(rows)]


def shown_pot(app):
    return int(re.search(r"pot: (\d+)", screen_text(app)).group(1))


def drive(session, script, size=(80, 24), env=None, **view):
    """Open the session, run `script(app, pilot)` in the view, quit, close."""
    app = FeltView(session, **view)
    try:
        session.open()

        async def run():
            async with app.run_test(size=size) as pilot:
                await script(app, pilot)
                await pilot.press("q")
                await wait_for(pilot, lambda: not app.is_running)

        asyncio.run(run())
    finally:
        app.close_session()
    return app


async def call_until(pilot, session, done, timeout_s=30):
    """Press c (check/call) for each seat to act until done() holds."""
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, "timed out"
        if session.turn is not None and session.turn[0] is not None:
            await pilot.press("c")
        await pilot.pause(0.03)


def dealt(session, seat):
    """The seat's cards as the firmware dealt them this round: (code, up), less those it
    discarded."""
    held = []
    for e in session.events:
        if e["e"] == "dealt" and e.get("seat") == seat and e["what"] in ("hole", "up"):
            held.append((e["card"], e["what"] == "up"))
        elif e["e"] == "discarded" and e["seat"] == seat:
            held = [h for h in held if h[0] not in e["cards"].split()]
    return held


def test_stud_shows_down_and_up_cards_the_leds_in_words_and_the_common_card(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")    # up cards in brackets, the LEDs named
    session = Session(players=8, seed=3, stack=200,
                      config=table_config("stud7", 8, 200), inject="manual")

    async def script(app, pilot):
        await pilot.press("d")
        streets = lambda: [e["name"] for e in session.events if e["e"] == "street"]  # noqa: E731
        await call_until(pilot, session, lambda: "fourth street" in streets()
                         and session.turn is not None)
        await pilot.pause(0.1)
        rows = seat_rows(app)
        for seat in range(8):
            held = dealt(session, seat)
            assert [up for _, up in held] == [False, False, True, True]
            want = " ".join("[%s]" % c if up else c for c, up in held)
            assert rows[seat][2].startswith(want + " "), (seat, rows[seat])
        text = screen_text(app)
        # The seat to act: its LEDs named, not only coloured.
        assert re.search(r"\b%d\[orange×6\]" % session.turn[0], text), text
        assert "centre[" in text and "common card" not in text
        # Eight players call to the river: 8 × 7 cards and the burns outrun the deck,
        # so the seventh street is one common card (19:47-14.9(h)).
        await call_until(pilot, session, lambda: "seventh street" in streets()
                         and session.turn is not None, 60)
        await pilot.pause(0.1)
        board = session.state()["board"]
        assert len(board.split()) == 1
        assert "common card: %s " % board in screen_text(app)

    drive(session, script)


def test_up_cards_are_reversed_in_colour():
    text = cards_text([("Ah", False), ("Kd", True)])
    assert text.plain == "Ah Kd"
    styles = {text.plain[s.start:s.end]: str(s.style) for s in text.spans}
    assert "reverse" in styles["Kd"] and "reverse" not in styles["Ah"]


def test_a_draw_picks_cards_by_number_and_shows_what_the_firmware_dealt():
    session = Session(players=4, seed=3, stack=200,
                      config=table_config("triple-draw-27", 4, 200), inject="manual")

    async def script(app, pilot):
        await pilot.press("d")
        await call_until(pilot, session, lambda: session.turn is not None
                         and "draw" in session.turn[1])
        await pilot.pause(0.1)
        seat = session.turn[0]
        before = [c for c, _ in dealt(session, seat)]
        assert app.picking == seat and app.selected == seat
        # The cards are numbered for picking; 1 and 3 picked show, starred.
        await pilot.press("1", "3")
        text = screen_text(app)
        assert "1:%s* 2:%s 3:%s*" % tuple(before[:3]) in text
        assert "seat %d throws: %s %s" % (seat, before[0], before[2]) in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: session.turn is not None and session.turn[0] != seat)
        await pilot.pause(0.1)
        thrown = [e for e in session.events if e["e"] == "discarded" and e["seat"] == seat]
        assert thrown and thrown[-1]["cards"] == "%s %s" % (before[0], before[2])
        now = [c for c, _ in dealt(session, seat)]
        assert len(now) == 5 and before[0] not in now and before[2] not in now
        cards = seat_rows(app)[seat][2]
        assert cards.startswith(" ".join(now) + " "), cards
        assert "drew 2" in cards and "discards %s %s" % (before[0], before[2]) in log_text(app)
        # The next seat stands pat: Enter with nothing picked.
        nxt = session.turn[0]
        assert app.picking == nxt
        held = [c for c, _ in dealt(session, nxt)]
        await pilot.press("enter")
        await wait_for(pilot, lambda: "seat %d stands pat" % nxt in log_text(app))
        await pilot.pause(0.1)
        assert re.match(re.escape(" ".join(held)) + " +stood pat$", seat_rows(app)[nxt][2])

    drive(session, script)


def test_no_limit_raises_to_an_amount_typed_stepped_and_all_in():
    cfg = table_config("holdem", 3, 200, "no")
    cfg["max_wager"] = 400       # the posted maximum above the stacks: all-in is the limit
    session = Session(players=3, seed=3, stack=200, config=cfg, inject="manual")

    def last_action(seat):
        return [e for e in session.events if e["e"] == "action" and e["seat"] == seat][-1]

    async def same_as_firmware(app, pilot):
        await pilot.pause(0.15)
        state = session.state()
        assert shown_stacks(app) == state["stacks"]
        assert shown_pot(app) == state["pot"]
        return state

    async def script(app, pilot):
        await pilot.press("d")
        await wait_for(pilot, lambda: session.turn is not None)
        seat, (low, high) = session.turn[0], session.bounds
        assert "bet/raise to %d (%d..%d" % (low, low, high) in screen_text(app)
        # Typed: t, the amount, Enter.
        await pilot.press("t", *str(low + 5), "enter")
        await wait_for(pilot, lambda: session.turn is not None and session.turn[0] != seat)
        assert last_action(seat)["a"] == "raise" and last_action(seat)["amount"] == low + 5
        state = await same_as_firmware(app, pilot)
        assert state["stacks"][seat] == 200 - (low + 5)
        # Stepped: + twice (a small bet each) from the smallest raise.
        seat, (low, high) = session.turn[0], session.bounds
        put = 200 - shown_stacks(app)[seat]
        await pilot.press("plus", "plus")
        assert "bet/raise to %d" % (low + 4) in screen_text(app)
        await pilot.press("r")
        await wait_for(pilot, lambda: session.turn is not None and session.turn[0] != seat)
        assert last_action(seat)["amount"] == low + 4 - put
        await same_as_firmware(app, pilot)
        # All-in: A raises to the most allowed, here the whole stack.
        seat = session.turn[0]
        await pilot.press("A")
        await wait_for(pilot, lambda: last_action(seat)["a"] == "raise")
        assert last_action(seat)["all_in"]
        state = await same_as_firmware(app, pilot)
        assert state["stacks"][seat] == 0 and shown_stacks(app)[seat] == 0
        assert "(all-in)" in log_text(app)

    drive(session, script)


def test_a_void_shows_the_refunds_at_once_and_nobody_to_act():
    session = Session(players=4, seed=3, stack=200, config=table_config(players=4, stack=200),
                      inject="manual")

    async def script(app, pilot):
        await pilot.press("d")
        await wait_for(pilot, lambda: session.turn is not None)
        await pilot.press("c")               # a call: the pot holds the blinds and the call
        await wait_for(pilot, lambda: session.turn is not None)
        await pilot.pause(0.1)
        assert shown_pot(app) == 5 and re.search(r"seat \d to act", screen_text(app))
        await pilot.press("S")               # the shoe jams: the round is void
        await pilot.pause()
        assert session.ended["called_off"] == "void"
        text = screen_text(app)
        assert shown_stacks(app) == [200] * 4 == session.state()["stacks"]
        assert shown_pot(app) == 0
        assert "to act" not in text.split("pot:")[1].split("\n")[0]
        assert not [r for r in text.splitlines() if re.match(r" *D? *> ", r)]
        assert "irregularity, void" in log_text(app)

    drive(session, script)


def test_keys_fit_80_columns_and_the_help_lists_every_key():
    session = Session(players=4, seed=3, stack=200)

    async def script(app, pilot):
        last = lambda: screen_text(app).rstrip().splitlines()[-1]  # noqa: E731
        await wait_for(pilot, lambda: "quit" in last())        # the footer is drawn
        footer = last()
        for essential in ("d deal", "f fold", "c call", "r raise", "x draw", "b bot",
                          "? keys", "q quit"):
            assert essential in footer, footer
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        seen = screen_text(app)
        for _ in range(4):                   # 24 rows: the list scrolls
            await pilot.press("pagedown")
            await pilot.pause(0.05)
            seen += screen_text(app)
        for _, shown, _, _, what in KEYS:
            assert re.search(r"│ +%s +%s" % (re.escape(shown), re.escape(what[:30])), seen), \
                shown
        for key, _, _, what in FAULT_KEYS:
            assert re.search(r" %s +fault: %s" % (key, re.escape(what[:30])), seen), key
        # Every bound key is in the list.
        listed = {k for keys, _, _, _, _ in KEYS for k in keys.split(",") if k}
        bound = {k for b in app.BINDINGS for k in b.key.split(",")}
        assert len(bound) >= 40 and bound <= listed
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert "seat  stack" in screen_text(app)

    drive(session, script)


# ----- the events in words ------------------------------------------------------------------

# One event of every kind the protocol documents and the firmware emits, with its fields.
def test_the_view_writes_the_hand_histories_the_trace_and_the_journal(tmp_path):
    from host_tools.emulator import cli
    from host_tools.emulator.session import from_args
    phh, trace, journal = tmp_path / "phh", tmp_path / "trace.txt", tmp_path / "journal.jsonl"
    phh.mkdir()
    args = cli.parse_args(["--players", "3", "--seed", "2", "--phh", str(phh),
                           "--trace", str(trace), "--journal", str(journal)])
    session = from_args(args, "manual")   # as run_view makes it

    async def script(app, pilot):
        await pilot.press("d", "B")
        await wait_for(pilot, lambda: session.ended is not None, 30)
        await pilot.press("B")

    drive(session, script)     # closes the session, and the trace with it
    assert (phh / "hand-1.phh").is_file()
    lines = trace.read_text().splitlines()
    assert lines[0].startswith("< @0 hello ") and any(s.startswith("> ") for s in lines)
    assert any(' evt {"' in s and '"e":"end"' in s for s in lines)
    assert journal.is_file() and journal.stat().st_size > 0


def test_autoplay_deals_three_hands_on_its_own_at_the_pace_its_keys_set():
    # Issue 22: autoplay (B) stopped at the end of a round, and went too fast to follow:
    # now < and > set its pace, and it deals on between rounds.
    session = Session(players=3, seed=5, stack=200)

    async def script(app, pilot):
        await pilot.press("less_than_sign")                          # slower
        assert app.pace_s == 0.25
        await pilot.press("greater_than_sign", "greater_than_sign")   # faster, to the least
        assert app.pace_s == 0.1 and "autoplay: a move every 0.1 s" in log_text(app)
        await pilot.press("B")
        await wait_for(pilot, lambda: log_text(app).count("═══ deal ═══") >= 3 and
                       session.ended is not None, 60)
        await pilot.press("B")
        assert "AUTOPLAY" not in screen_text(app)
        assert log_text(app).count("over: winners") >= 3 and not session.faults

    drive(session, script, pace_s=0.1)


def test_the_log_scrolls_back_by_keyboard_and_stays_until_end():
    # Issue 22: the log scrolled by the mouse only.
    session = Session(players=3, seed=5, stack=200)

    async def script(app, pilot):
        await pilot.press("d", "B")
        await wait_for(pilot, lambda: session.ended is not None, 30)
        await pilot.press("B")
        log = app.query_one("#log")
        await pilot.pause(0.2)
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        await pilot.press("pageup")
        await pilot.pause(0.1)
        back = log.scroll_y
        assert back < log.max_scroll_y
        await pilot.press("c")           # a line more (a refusal): the log stays put
        await pilot.pause(0.2)
        assert log.scroll_y == back
        await pilot.press("end")
        await pilot.pause(0.1)
        assert log.scroll_y == log.max_scroll_y

    drive(session, script, pace_s=0.1)


def test_the_leds_have_a_legend_and_the_centre_says_what_the_table_waits_for():
    # Issue 22: the LEDs were colour blocks with no legend; what the table waited for
    # (the cut, the shuffler, a locked table) was never in words.
    session = Session(players=3, seed=5, stack=200)

    async def script(app, pilot):
        await pilot.pause(0.3)
        screen = " ".join(screen_text(app).split())      # as read, the lines wrapped
        assert "centre: idle, between rounds: deal (d)" in screen, screen
        for name in ("waiting", "to act", "folded", "all-in", "winner", "button"):
            assert "█%s " % name in screen, name
        await pilot.press("d")
        await wait_for(pilot, lambda: session.turn is not None, 20)
        await pilot.pause(0.3)
        assert "centre: betting, the seat to act presses its buttons" in \
            " ".join(screen_text(app).split())

    drive(session, script)


def test_a_tilt_shows_as_a_banner_saying_what_clears_it_and_goes_when_cleared():
    # Issue 22: faults and tilts were log lines only.  The journal's path taken by a
    # folder, the deal's journal write fails: the table locks (journal_write_failed), a
    # banner says so and what clears it; a technician's clear (plain, at a developer's
    # table) takes it away.
    import os
    session = Session(players=3, seed=5, stack=200)

    def banner(app):
        widget = app.query_one("#banner")
        return " ".join(str(widget.render()).split()) if widget.display else None

    async def script(app, pilot):
        await pilot.pause(0.3)
        assert banner(app) is None
        journal = session.fw.journal
        os.remove(journal)
        os.mkdir(journal)
        await pilot.press("d")
        await wait_for(pilot, lambda: banner(app) is not None, 20)
        said = banner(app)
        assert said.startswith("TILT journal write failed: ") and \
            "Cleared by: a technician checks the flash" in said, said
        assert session.link.send("clear", {}) is None
        await wait_for(pilot, lambda: banner(app) is None, 20)
        assert "a technician cleared the tilt" in log_text(app)
        os.rmdir(journal + ".cleared")      # the folder, set aside as the journal found

    drive(session, script)


def test_the_dealers_display_shows_as_a_wired_board_drew_it():
    # On --runtime pico the session has the display's lines (host_tools.pico.bridge);
    # here they are put there by hand: what the view does with them.
    session = Session(players=3, seed=3)
    app = FeltView(session)
    try:
        session.open()

        async def drive():
            async with app.run_test(size=(120, 50)) as pilot:
                panel = app.query_one("#panel")
                assert not panel.display                  # no display on this board
                session.panel = ["#1 seat 3 acts", "> s3 to 120_", "4-1000 pot 3"] + [""] * 5
                app.refresh_table()
                await pilot.pause(0.1)
                assert panel.display
                assert str(panel.render()) == "#1 seat 3 acts\n> s3 to 120_\n4-1000 pot 3"
                await pilot.press("q")

        asyncio.run(drive())
    finally:
        app.close_session()
