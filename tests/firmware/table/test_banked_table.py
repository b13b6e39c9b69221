"""House-banked tables at the controller (felt.table.banked_table): Four Card Poker
(19:47-27.10 to 27.12) and Texas Hold 'em Bonus Poker (19:47-28) configured, wagered,
dealt, decided with the seat buttons and settled over the link's messages; the house's
result counted; irregularities; a power cut mid-round."""

from felt.table.controller import IDLE, PLAYING
from felt.table import scenes
from felt.table.states import is_banked

from table_fakes import boot, configured, events, journal_path

FOUR = {"game": "four-card-poker", "seats": 3, "stacks": [100, 100, 0], "min_wager": 5,
        "max_wager": 50, "aces_up": "II"}
BONUS = {"game": "holdem-bonus", "seats": 2, "stacks": [100, 100], "min_wager": 5,
         "max_wager": 50}
# Four Card Poker, two players: five rounds of (seat 0, seat 1, dealer), the dealer's sixth.
FOUR_CARDS = ("As Ks 2c Ad Kd 3c Ac Kc 5d Qh 9s 7h 2s 8d 9c Jd").split()


def cut(ctl):
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.handle("shuf", {"state": "done"}) is None
    assert ctl.handle("dealer", {"b": "cut_done"}) is None


def cards(ctl, codes):
    for code in codes:
        assert ctl.handle("card", {"code": code}) is None, code


def test_one_predicate_tells_a_banked_table_from_a_poker_one_by_header_or_configuration():
    ctl, _ = configured(FOUR)
    cut(ctl)
    assert is_banked(ctl.config) and is_banked(ctl.journal.header)
    assert ctl.game.__name__ == "felt.table.banked_table"
    poker, _ = configured({"seats": 2, "stacks": [100, 100], "small_bet": 2, "big_bet": 4,
                           "blinds": [1, 2], "cap": 4})
    cut(poker)
    assert not is_banked(poker.config) and not is_banked(poker.journal.header)
    assert poker.game.__name__ == "felt.table.poker_table"
    # A header is told by its wagers alone: the hand event the link hears is too.
    assert is_banked({"hand": 1, "wagers": []}) and not is_banked({"hand": 1, "button": 0})


def test_a_four_card_table_is_configured_with_its_settings_and_posts_its_tables():
    ctl, hal = configured(FOUR)
    snap = ctl.snapshot()
    assert snap["config"]["aces_up"] == "II" and snap["config"]["ante"] == 5
    assert snap["house"] == 0 and snap["wagers"] == [[5, 0], [5, 0], [5, 0]]
    assert ctl.handle("sign", {}) is None
    text = hal.link.sent[-1][1]["text"]
    assert "Four Card Poker" in text and "table II (19:47-27.11(a)3)" in text
    assert "Minimum wager 5, maximum wager 50" in text


def test_a_banked_configuration_is_checked():
    ctl, hal = configured(FOUR)
    bad = dict(FOUR, aces_up="IX")
    assert "aces up table" in ctl.handle("cfg", bad)
    assert "19:47-8.2(a)" in ctl.handle("cfg", dict(FOUR, max_wager=20))
    assert "unknown setting" in ctl.handle("cfg", dict(FOUR, blinds=[1, 2]))
    assert "ante" in ctl.handle("cfg", dict(FOUR, ante=70))
    assert ctl.config.settings["aces_up"] == "II"


def test_seats_set_their_wagers_with_buttons_or_the_wager_message():
    ctl, hal = configured(FOUR)
    assert ctl.handle("btn", {"seat": 0, "b": "raise"}) is None     # ante and aces up
    assert ctl.handle("btn", {"seat": 1, "b": "fold"}) is None      # sits out
    assert ctl.wagers[:2] == [[5, 5], [0, 0]]
    assert ctl.handle("wager", {"seat": 1, "ante": 0, "side": 10}) is None   # aces up alone
    assert "19:47-8.2" in ctl.handle("wager", {"seat": 1, "ante": 60})
    assert "has 100 chips" not in (ctl.handle("wager", {"seat": 1, "ante": 50}) or "")
    assert "has 0 chips" in ctl.handle("wager", {"seat": 2, "ante": 5})
    assert events(hal, "wagers")[0] == {"e": "wagers", "seat": 0, "ante": 5, "side": 5}


def test_a_four_card_round_over_the_link_settles_and_counts_the_house():
    ctl, hal = configured(FOUR)
    ctl.handle("btn", {"seat": 1, "b": "raise"})
    cut(ctl)
    assert [e["amount"] for e in events(hal, "wager")] == [5, 5, 5]
    cards(ctl, FOUR_CARDS)
    assert hal.card_reader.calls[:3] == [("hole", 0), ("hole", 1), ("dealer", -1)]
    decide = events(hal, "decide")[-1]
    assert decide["name"] == "play" and decide["seats"] == [0, 1]
    assert ctl.seat_statuses()[:2] == [scenes.ACTION, scenes.ACTION]
    assert "one to three times" in ctl.handle("btn", {"seat": 1, "b": "raise", "to": 7})
    assert ctl.handle("btn", {"seat": 1, "b": "raise", "to": 10}) is None   # 2x
    assert ctl.handle("btn", {"seat": 0, "b": "raise"}) is None             # 3x
    assert ctl.state == IDLE
    end = events(hal, "end")[-1]
    # Seat 0's trip aces beat the dealer's pair: ante and play 1 to 1, the ante bonus
    # 2 to 1 (19:47-27.11(a)1, 2).  Seat 1's kings: the same, and aces up 7 to 1 (II).
    pays = [(e["seat"], e["kind"], e["amount"]) for e in events(hal, "pay")]
    assert (0, "ante_bonus", 10) in pays and (1, "aces_up", 35) in pays
    assert end["stacks"][0] == 100 + 5 + 15 + 10
    assert sum(end["stacks"]) + end["house"] == 200 and ctl.snapshot()["house"] == end["house"]
    assert ctl.seat_statuses()[:2] == [scenes.WINNER, scenes.WINNER]


def test_the_winners_are_lit_before_the_settlements_frames_are_sent():
    # A board's UART is slow: the players see who won as soon as it is known.
    ctl, hal = configured(FOUR)
    ctl.handle("btn", {"seat": 1, "b": "raise"})
    cut(ctl)
    cards(ctl, FOUR_CARDS)
    assert ctl.handle("btn", {"seat": 1, "b": "raise", "to": 10}) is None
    order = []
    write, send = hal.pixels.write, hal.link.send
    hal.pixels.write = lambda: (order.append(ctl.seat_statuses()[:2]), write())
    hal.link.send = lambda k, p: (order.append(p.get("e", k)), send(k, p))
    assert ctl.handle("btn", {"seat": 0, "b": "raise"}) is None    # the last decision
    lit = order.index([scenes.WINNER, scenes.WINNER])
    assert lit < order.index("show") < order.index("pay") < order.index("end")


def test_a_holdem_bonus_round_with_the_seat_buttons():
    ctl, hal = configured(BONUS)
    ctl.handle("btn", {"seat": 0, "b": "raise"})     # the bonus wager too
    cut(ctl)
    cards(ctl, "As Ks Ad Kd 2c 3c".split())
    assert events(hal, "decide")[-1]["name"] == "flop"
    assert ctl.handle("btn", {"seat": 0, "b": "call"}) is None     # the flop wager
    assert ctl.handle("btn", {"seat": 1, "b": "fold"}) is None
    assert hal.card_reader.calls[-1] == ("burn", -1)
    cards(ctl, "4h Ah 7d 8s".split())
    assert hal.card_reader.calls[-3:] == [("board", -1)] * 3
    assert "checks or bets" in ctl.handle("btn", {"seat": 0, "b": "fold"})
    assert ctl.handle("btn", {"seat": 0, "b": "raise"}) is None    # the turn wager
    cards(ctl, "5h 9c".split())
    assert ctl.handle("btn", {"seat": 0, "b": "call"}) is None     # checks the river
    cards(ctl, "6h Tc".split())
    end = events(hal, "end")[-1]
    assert end["called_off"] is None and sum(end["stacks"]) + end["house"] == 200
    assert end["house"] == end["house_round"]


def test_a_second_face_up_card_voids_every_hand_and_returns_every_wager():
    ctl, hal = configured(FOUR)
    cut(ctl)
    assert ctl.handle("card", {"code": "As", "face_up": True}) is None   # 27.12(a)
    assert events(hal, "discarded")[-1]["section"] == "19:47-27.12(a)"
    assert ctl.handle("card", {"code": "Ks", "face_up": True}) is None
    irr = events(hal, "irregularity")[-1]
    assert irr["kind"] == "void" and irr["section"] == "19:47-27.12(a)"
    assert [e["amount"] for e in events(hal, "refund")] == [5, 5]
    assert ctl.stacks == [100, 100, 0] and ctl.house == 0 and ctl.state == IDLE


def test_a_miscount_or_an_exposed_dealer_card_from_the_panel_voids_the_round():
    ctl, hal = configured(FOUR)
    cut(ctl)
    cards(ctl, FOUR_CARDS[:3])
    assert "dealer_exposed" in ctl.handle("dealer", {"b": "misdeal"})
    assert ctl.handle("dealer", {"b": "dealer_exposed"}) is None    # the last card read
    assert events(hal, "irregularity")[-1]["section"] == "19:47-27.12(d)"
    cut(ctl)
    cards(ctl, FOUR_CARDS[:2])
    assert ctl.handle("dealer", {"b": "miscount", "seat": 1}) is None
    assert events(hal, "irregularity")[-1]["section"] == "19:47-27.12(c)"
    assert ctl.stacks == [100, 100, 0]


def test_two_decks_alternate_only_with_the_shuffler():
    # 19:47-28.2(b): a second deck only where a shuffler is used.
    ctl, hal = configured(FOUR)
    cut(ctl)
    cards(ctl, FOUR_CARDS)
    ctl.handle("btn", {"seat": 0, "b": "fold"})
    ctl.handle("btn", {"seat": 1, "b": "fold"})
    assert ctl.decks.name() == "B"
    ctl.handle("shuf", {"present": False})
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.handle("dealer", {"b": "hand_shuffle_done"}) is None
    assert ctl.handle("dealer", {"b": "cut_done"}) is None
    cards(ctl, FOUR_CARDS)
    ctl.handle("btn", {"seat": 0, "b": "fold"})
    ctl.handle("btn", {"seat": 1, "b": "fold"})
    assert ctl.decks.name() == "B" and ctl.house == 20


def test_poker_messages_and_banked_ones_are_kept_apart():
    ctl, hal = configured(FOUR)
    assert "house-banked" not in (ctl.handle("dealer", {"b": "deal"}) or "")
    assert "no discards" in ctl.handle("discard", {"seat": 0, "cards": "As"})
    poker = {"seats": 2, "stacks": [50, 50], "small_bet": 2, "big_bet": 4,
             "blinds": [1, 2], "cap": 4}
    ctl2, _ = configured(poker)
    assert "no house-banked table" == ctl2.handle("wager", {"seat": 0, "ante": 5})


def test_a_power_cut_mid_round_resumes_the_banked_round_exactly():
    path = journal_path("banked-cut")
    ctl, hal = boot(path)
    assert ctl.handle("cfg", FOUR) is None
    ctl.handle("btn", {"seat": 1, "b": "raise"})
    cut(ctl)
    cards(ctl, FOUR_CARDS)
    assert ctl.handle("btn", {"seat": 1, "b": "call"}) is None
    before = ctl.snapshot()
    ctl2, hal2 = boot(path)
    assert ctl2.snapshot() == before and ctl2.state == PLAYING
    assert events(hal2, "decide")[-1]["seats"] == [0]     # asked again
    assert ctl2.handle("btn", {"seat": 1, "b": "call"}) is not None   # decided already
    assert ctl2.handle("btn", {"seat": 0, "b": "call"}) is None
    end = events(hal2, "end")[-1]
    assert sum(end["stacks"]) + end["house"] == 200
    ctl3, hal3 = boot(path)                                # between rounds
    assert ctl3.state == IDLE and ctl3.house == end["house"] and ctl3.wagers[1] == [5, 5]
