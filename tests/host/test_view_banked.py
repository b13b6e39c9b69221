"""The terminal view at a house-banked table (Four Card Poker, hold 'em bonus), against
the real firmware, driven key by key through textual's pilot at 80x24."""

import re

from host_tools.emulator.session import Session, table_config
from test_view import drive, log_text, screen_text, seat_rows, wait_for

PLAYERS, STACK = 3, 100


def banked_session(game, seed, players=PLAYERS):
    return Session(players=players, seed=seed, config=table_config(game, players, STACK),
                   inject="manual")


def shown_house(app):
    return int(re.search(r"house: ([+-]\d+) in all", screen_text(app)).group(1))


def test_four_card_poker_round_by_keys_shows_the_dealer_and_the_settlement():
    players = 4
    session = banked_session("four-card-poker", 4, players)
    ante = session.config["ante"]

    async def script(app, pilot):
        await pilot.press("d")
        await wait_for(pilot, lambda: len(app.deciding()) == players)
        assert "##" in screen_text(app)           # the dealer's cards face down
        dealt = [e["card"] for e in session.events if e["e"] == "dealt" and e["what"] == "dealer"]
        assert "the dealer's card (face down)" in log_text(app)
        assert not [c for c in dealt if c in log_text(app)], log_text(app)   # nor in the log
        assert app.selected in app.deciding()
        assert sum(app.circles()) == app.fw_state["pot"] == players * ante
        # Seat 0 plays 3x with r, seat 1 types a play wager of 2 antes, 2 plays 1x, 3 folds.
        for seat, keys in enumerate((["r"], ["t", *str(2 * ante), "enter"], ["c"], ["f"])):
            await pilot.press(str(seat), *keys)
            await wait_for(pilot, lambda: seat not in app.deciding() or session.ended)
        await wait_for(pilot, lambda: session.ended is not None)
        await pilot.pause(0.2)
        plays = {e["seat"]: e["amount"] for e in session.events
                 if e["e"] == "wager" and e["kind"] == "play"}
        assert plays == {0: 3 * ante, 1: 2 * ante, 2: ante}
        assert [e["seat"] for e in session.events if e["e"] == "fold"] == [3]
        screen, log = screen_text(app), log_text(app)
        dealer = next(e for e in session.events if e["e"] == "show" and e["seat"] == -1)
        assert "##" not in screen and dealer["hand"] in screen
        assert "the house takes seat 3's ante" in log
        state = session.state()
        rows = seat_rows(app)
        assert [rows[s][0] for s in range(players)] == state["stacks"]
        assert shown_house(app) == state["house"]
        assert sum(state["stacks"]) + state["house"] == players * STACK
        assert "this round" in screen
        assert app.circles() == [0] * players and "in circles: 0" in screen

    drive(session, script)


def test_holdem_bonus_round_plays_through_every_decision_with_autoplay():
    session = banked_session("holdem-bonus", 6)

    async def script(app, pilot):
        await pilot.press("B", "d")
        await wait_for(pilot, lambda: session.ended is not None, 30)
        await pilot.pause(0.2)
        names = [e["name"] for e in session.events if e["e"] == "decide"]
        assert names[0] == "flop"
        state = session.state()
        assert shown_house(app) == state["house"]
        assert sum(state["stacks"]) + state["house"] == PLAYERS * STACK
        if "turn" in names:       # someone stayed past the flop: the board is out
            assert names[-1] == "river"
            board = re.search(r"board: ((?:\S\S ){4}\S\S)", screen_text(app))
            assert board and board.group(1) == state["board"]

    drive(session, script)


def test_a_shoe_jam_voids_the_round_and_shows_every_wager_back():
    session = banked_session("four-card-poker", 2)

    async def script(app, pilot):
        # Between rounds: seat 1 adds the side wager (r), seat 2 sits out (f).
        await pilot.press("1", "r", "2", "f")
        await wait_for(pilot, lambda: (app.fw_state or {}).get("wagers") == [[1, 0], [1, 1],
                                                                             [0, 0]])
        rows = seat_rows(app)
        assert [rows[s][2].split()[0] for s in range(PLAYERS)] == ["1+0", "1+1", "0+0"]
        await pilot.press("S")                # armed for the next card
        await pilot.press("d")
        await wait_for(pilot, lambda: session.ended is not None, 20)
        await pilot.pause(0.2)
        assert session.ended.get("called_off")
        wagers = [e for e in session.events if e["e"] == "wager"]
        refunds = [e for e in session.events if e["e"] == "refund"]
        assert wagers and len(refunds) == len(wagers)
        log = log_text(app)
        for r in refunds:
            assert "seat %d gets %d back" % (r["seat"], r["amount"]) in log
        rows = seat_rows(app)
        assert [rows[s][0] for s in range(PLAYERS)] == [STACK] * PLAYERS
        assert shown_house(app) == 0
        await pilot.press("K")                # a poker table's fault
        await wait_for(pilot, lambda: "does not apply" in log_text(app))

    drive(session, script)
