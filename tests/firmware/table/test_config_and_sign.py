"""The table configuration and its posted sign, and time charges through the controller.

A setting the rules forbid is refused with the section that forbids it (config.py);
the sign (13:47-20.37(a), 13:47-20.39, 19:47-8.3) is rendered from the configuration
and readable over the link; time charges (13:47-20.37(a)4iii) are assessed from the
`clock` message between rounds, counted in the house's total, every chip accounted for.
"""

from felt import protocol as P
from felt.poker import variants
from felt.poker.structure import ConfigError
from felt.table import config as config_mod
from felt.table.config import from_dict, sign
from felt.table.controller import Controller, IDLE, PLAYING, SHUFFLING
from felt.table.journal import Journal

from table_fakes import BOARD, FakeHal, configured, events

CFG = {"seats": 4, "stacks": [100, 100, 0, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "button": "dealer_right"}


def with_(base, **changes):
    d = dict(base)
    d.update(changes)
    return d


def refusal(d, board_seats=11):
    """The ConfigError message for d (fails the test if d is accepted)."""
    try:
        from_dict(d, board_seats)
    except ConfigError as e:
        return str(e)
    raise AssertionError("accepted %r" % (d,))


def table_for(game, players, seats=None, **more):
    """A configuration of `game` with `players` seats holding chips (stud: ante and
    bring-in; the others: blinds)."""
    seats = seats or players
    d = {"game": game, "seats": seats, "stacks": [100] * players + [0] * (seats - players),
         "small_bet": 2, "big_bet": 4}
    if variants.get(game).stud():
        d.update({"ante": 1, "bring_in": 1})
    else:
        d["blinds"] = [1, 2]
    d.update(more)
    return d


def controller(cfg=None):
    return configured(cfg or CFG)


def time_cfg(hourly, every=30, per="player", stacks=None):
    return with_(CFG, stacks=stacks or [100, 100, 0, 100],
                 rake={"method": "time", "hourly": hourly, "every": every, "per": per})


# ----- players per game -----------------------------------------------------------------

def test_each_game_seats_its_maximum_and_refuses_one_more():
    for v in variants.every():
        most = v.max_players
        cfg = from_dict(table_for(v.name, most))
        assert cfg.game == v.name and sum([1 for s in cfg.stacks if s]) == most
        # One more, on a board with room for it (the board's own limit is 11).
        why = refusal(table_for(v.name, most + 1), board_seats=most + 1)
        assert "at most %d players" % most in why, why


def test_player_limits_cite_their_sections():
    # 19:47-14.9(b): stud, eight players; 13:69F-14.12B(b): triple draw, seven;
    # 19:47-14.10(b) and 13:69F-14.10(b): hold 'em and Pineapple, eleven.
    for game, most, section in (("stud7", 8, "19:47-14.9(b)"), ("stud7-hilo", 8, "19:47-14.9(b)"),
                                ("stud7-hilo8", 8, "19:47-14.9(b)"),
                                ("triple-draw-a5", 7, "13:69F-14.12B(b)"),
                                ("triple-draw-27", 7, "13:69F-14.12B(b)"),
                                ("holdem", 11, "19:47-14.10(b)"),
                                ("pineapple", 11, "13:69F-14.10(b)"),
                                ("crazy-pineapple", 11, "13:69F-14.10(b)")):
        assert variants.get(game).max_players == most
        why = refusal(table_for(game, most + 1), board_seats=12)
        assert section in why and str(most) in why, why


def test_empty_seats_do_not_count_as_players():
    # Nine seats at a stud table, one of them empty: eight players.
    cfg = from_dict(table_for("stud7", 8, seats=9))
    assert cfg.seats == 9
    assert "19:47-14.9(b)" in refusal(table_for("stud7", 9, seats=9))


def test_more_seats_than_the_board_has_are_refused():
    assert "seats must be" in refusal(table_for("holdem", 5), board_seats=4)


# ----- casino night (13:47-20) --------------------------------------------------------------

def test_a_casino_night_offers_only_hold_em_and_seven_card_stud():
    for v in variants.every():
        d = table_for(v.name, 2, regime="casino_night")
        if v.name in ("holdem", "stud7"):
            assert from_dict(d).regime == "casino_night"
        else:
            assert "13:47-20.4" in refusal(d), v.name


def test_casino_night_player_limits_are_8_for_stud_and_11_for_hold_em():
    assert from_dict(table_for("stud7", 8, regime="casino_night")).seats == 8
    assert "13:47-20.35(b)" in refusal(table_for("stud7", 9, regime="casino_night"))
    assert from_dict(table_for("holdem", 11, regime="casino_night")).seats == 11
    why = refusal(table_for("holdem", 12, regime="casino_night"), board_seats=12)
    assert "13:47-20.36(b)" in why and "11" in why


def test_an_unknown_regime_or_game_is_refused():
    assert "regime" in refusal(with_(CFG, regime="riverboat"))
    assert "unknown game" in refusal(with_(CFG, game="canasta"))


# ----- rake -----------------------------------------------------------------------------------

def test_a_rake_above_ten_percent_is_refused_citing_the_section():
    assert from_dict(with_(CFG, rake={"method": "percent", "percent": 10})).rake.percent == 10
    why = refusal(with_(CFG, rake={"method": "percent", "percent": 11}))
    assert "13:47-20.37(a)4i(1)" in why, why


def test_time_charges_are_every_20_or_30_minutes():
    for every in (20, 30):
        assert from_dict(time_cfg(60, every)).rake.every == every
    assert "13:47-20.37(a)4iii" in refusal(time_cfg(60, 15))
    assert "per player or per table" in refusal(time_cfg(60, 30, "seat"))


def test_the_controller_refuses_a_rake_above_ten_percent_and_keeps_its_config():
    ctl, hal = controller()
    why = ctl.handle("cfg", with_(CFG, rake={"method": "percent", "percent": 12}))
    assert "13:47-20.37(a)4i(1)" in why
    assert events(hal, "refused")[-1]["why"] == why
    assert ctl.config.rake.method == "none"


# ----- minimum and maximum wagers (19:47-8.2(a)) ------------------------------------------

def test_a_maximum_below_ten_times_a_minimum_of_100_or_less_is_refused():
    why = refusal(with_(CFG, min_wager=100, max_wager=999))
    assert "19:47-8.2(a)" in why and "1000" in why, why
    assert "19:47-8.2(a)" in refusal(with_(CFG, min_wager=5, max_wager=49))
    assert from_dict(with_(CFG, min_wager=100, max_wager=1000)).max_wager == 1000
    # Above 100 the ratio is the licensee's to set.
    assert from_dict(with_(CFG, min_wager=101, max_wager=200)).max_wager == 200
    # (a) sets a floor under a posted maximum; it does not make one up.
    assert from_dict(with_(CFG, min_wager=25)).max_wager is None


def test_no_maximum_posted_is_table_stakes_no_wager_bounded_but_by_the_chips():
    # 19:47-8.2: no posted maximum, none made up; the sign says so (8.2(c)).
    cfg = from_dict(with_(CFG, structure="no", small_bet=2, cap=0))
    assert cfg.max_wager is None and cfg.structure.max_wager == 0
    assert "Minimum wager 2, no maximum wager: table stakes" in sign(cfg)
    assert cfg.as_dict()["max_wager"] is None and from_dict(cfg.as_dict()).max_wager is None


def test_null_is_a_setting_left_out_in_every_setting_of_the_configuration():
    # One rule for every setting: null is the setting's default, as if left out.
    four = {"game": "four-card-poker", "seats": 3, "stacks": [100, 100, 0], "min_wager": 5,
            "max_wager": 50, "ante": 10, "aces_up": "II"}
    for base, keys in ((with_(CFG, max_wager=20, rake={"method": "percent", "percent": 5}),
                        config_mod.KEYS), (four, config_mod.BANKED_KEYS)):
        for k in keys:
            if k in ("stacks", "game"):
                continue
            left_out = dict([(key, v) for key, v in base.items() if key != k])
            assert from_dict(with_(base, **{k: None})).as_dict() == \
                from_dict(left_out).as_dict(), k
    # The cases that were refused as "a field has the wrong type", or taken, before.
    assert from_dict(with_(CFG, blinds=None)).structure.blinds == ()
    assert from_dict(with_(CFG, min_wager=None)).min_wager == 2      # the small bet
    assert from_dict(with_(CFG, max_wager=None)).max_wager is None   # table stakes
    assert from_dict(with_(CFG, rake=None)).rake.method == "none"
    assert from_dict(with_(CFG, rake={"method": "percent", "percent": 5,
                                      "maximum": None})).rake.maximum == 0
    # The one setting without a default is refused by its name.
    assert refusal(with_(CFG, stacks=None)) == \
        "the configuration lacks stacks: one amount per seat"


def test_a_setting_of_any_wrong_type_is_refused_naming_it():
    four = {"game": "four-card-poker", "seats": 3, "stacks": [100, 100, 0], "min_wager": 5}
    for base, keys in ((CFG, config_mod.KEYS), (four, config_mod.BANKED_KEYS)):
        for k in keys:
            for bad in (True, "x", -1, 2 ** 40, [], {}, [None], ["x", 1]):
                try:
                    from_dict(with_(base, **{k: bad}))
                except ConfigError as e:
                    name = "blind" if k == "blinds" else k.replace("_", " ")
                    assert name in str(e).replace("_", " "), (k, bad, str(e))


def test_wagers_must_be_whole_numbers_of_chips():
    for bad in (0, -5, "10", 2.5, True):
        assert "min_wager" in refusal(with_(CFG, min_wager=bad, max_wager=1000))


# ----- unknown keys and misplaced forced bets --------------------------------------------

def test_unknown_keys_are_refused():
    why = refusal(with_(CFG, colour="green"))
    assert "unknown setting" in why and "colour" in why
    assert "unknown rake setting" in refusal(with_(CFG, rake={"method": "none", "rate": 5}))
    assert "must be an object" in refusal([("seats", 4)])


def test_blinds_in_stud_are_refused():
    for game in ("stud7", "stud7-hilo", "stud7-hilo8", "stud5", "mambo-stud"):
        why = refusal(table_for(game, 4, blinds=[1, 2]))
        assert "no blinds" in why and "19:47-14.9(d)" in why, why


def test_a_bring_in_outside_stud_is_refused():
    for v in variants.every():
        if not v.stud():
            assert "bring-in" in refusal(table_for(v.name, 4, bring_in=1)), v.name


def test_a_straddle_outside_hold_em_and_omaha_is_refused():
    assert from_dict(table_for("holdem", 4, straddle=True)).structure.straddle
    assert "13:69F-14.10(f)" in refusal(table_for("draw5", 4, straddle=True))


def test_running_the_board_more_than_once_is_a_casino_s_board_game_option_off_by_default():
    # 13:69F-14.10(l) and docs/rules.md: run_it 1 (the default, or null), 2 or 3; a
    # shared board to deal again (hold 'em and Omaha); a casino licensee's option.
    assert from_dict(table_for("holdem", 4)).structure.run_it == 1
    assert from_dict(table_for("holdem", 4, run_it=None)).structure.run_it == 1
    for game in ("holdem", "pineapple", "crazy-pineapple", "omaha", "omaha-hilo8"):
        cfg = from_dict(table_for(game, 4, run_it=3))
        assert cfg.structure.run_it == 3 and cfg.as_dict()["run_it"] == 3
        assert from_dict(cfg.as_dict()).structure.run_it == 3
    assert "run_it" not in from_dict(table_for("holdem", 4, run_it=1)).as_dict()
    for bad in (0, 4, True, "2", 2.0):
        why = refusal(table_for("holdem", 4, run_it=bad))
        assert why.startswith("run_it must be 1") and "13:69F-14.10(l)" in why, why
    for game in ("stud7", "draw5", "triple-draw-27", "mambo-stud"):
        why = refusal(table_for(game, 4, run_it=2))
        assert why.startswith("run_it:") and "no shared board" in why, why
    why = refusal(table_for("holdem", 4, run_it=2, regime="casino_night"))
    assert why.startswith("run_it:") and "casino night" in why


def test_the_sign_says_when_the_board_is_run_twice():
    text = sign(from_dict(table_for("holdem", 4, structure="no", run_it=2)))
    assert "twice if every player in agrees" in line_with(text, "all-in")
    assert "three times" in sign(from_dict(table_for("omaha", 4, run_it=3)))
    assert "all-in" not in sign(from_dict(table_for("holdem", 4))).lower()


def test_an_invalid_configuration_leaves_the_old_one_in_force():
    ctl, hal = controller()
    before = ctl.snapshot()
    for bad in (table_for("stud7", 4, blinds=[1, 2]), with_(CFG, colour="green"),
                with_(CFG, min_wager=100, max_wager=200),
                table_for("omaha", 4, regime="casino_night")):
        assert ctl.handle("cfg", bad) is not None
    assert ctl.snapshot() == before


# ----- the sign ---------------------------------------------------------------------------

def line_with(text, word):
    found = [l for l in text.split("\n") if word.lower() in l.lower()]
    assert found, "no line with %r in the sign:\n%s" % (word, text)
    return found[0]


def numbers_in(line):
    out, cur = [], ""
    for ch in line + " ":
        if "0" <= ch <= "9":
            cur += ch
        elif cur:
            out.append(int(cur))
            cur = ""
    return out


def test_sign_holdem_fixed_limit_with_percentage_rake():
    cfg = from_dict({"game": "holdem", "stacks": [500] * 6, "small_bet": 10, "big_bet": 20,
                     "blinds": [5, 10], "ante": 1, "cap": 4, "straddle": True,
                     "min_wager": 10, "max_wager": 100,
                     "rake": {"method": "percent", "percent": 10, "maximum": 5}})
    text = sign(cfg)
    first = text.split("\n")[0]
    assert "Hold 'em" in first and "fixed limit" in first
    assert numbers_in(line_with(text, "Bets")) == [10, 20]
    wagers = line_with(text, "minimum wager")
    assert "maximum" in wagers.lower() and numbers_in(wagers) == [10, 100]
    assert numbers_in(line_with(text, "Blinds")) == [5, 10]
    assert "straddle" in text.lower()
    assert numbers_in(line_with(text, "Ante")) == [1]
    assert "bring-in" not in text.lower()
    raises = line_with(text, "Raises")
    assert numbers_in(raises) == [3] and "heads-up" in raises      # a bet and 3 raises
    rake = line_with(text, "Rake:")
    assert numbers_in(rake) == [10] and "%" in rake and "betting round" in rake
    assert numbers_in(line_with(text, "Maximum rake")) == [5]
    assert numbers_in(line_with(text, "Players")) == [11]


def test_sign_stud_shows_ante_and_bring_in_and_no_blinds():
    cfg = from_dict({"game": "stud7", "regime": "casino_night", "stacks": [100] * 8,
                     "small_bet": 4, "big_bet": 8, "ante": 1, "bring_in": 2,
                     "rake": {"method": "incremental", "levels": [[20, 1], [50, 2]],
                              "maximum": 3}})
    text = sign(cfg)
    first = text.split("\n")[0]
    assert "Seven-card stud" in first and "fixed limit" in first
    assert numbers_in(line_with(text, "Bets")) == [4, 8]
    assert numbers_in(line_with(text, "Ante")) == [1]
    assert numbers_in(line_with(text, "Bring-in")) == [2]
    assert "blind" not in text.lower()
    assert numbers_in(line_with(text, "Rake:")) == [1, 20, 2, 50]
    assert numbers_in(line_with(text, "Maximum rake")) == [3]
    assert numbers_in(line_with(text, "Players")) == [8]          # 13:47-20.35(b)


def test_sign_for_each_structure_kind():
    base = {"game": "holdem", "stacks": [100] * 3, "blinds": [1, 2]}
    spread = sign(from_dict(with_(base, structure="spread", small_bet=2, big_bet=10)))
    assert "spread limit" in spread.split("\n")[0]
    assert numbers_in(line_with(spread, "wager: ")) == [2, 10]
    for kind, name in (("pot", "pot limit"), ("no", "no limit")):
        text = sign(from_dict(with_(base, structure=kind, small_bet=2)))
        assert name in text.split("\n")[0]
        assert numbers_in(line_with(text, "Smallest bet")) == [2]
        # Pot and no limit default to no raise cap.
        assert "no limit on their number" in line_with(text, "Raises")


def test_sign_posts_a_raise_cap_other_than_four_and_no_check_raise():
    text = sign(from_dict(with_(CFG, cap=3, check_raise=False)))
    assert numbers_in(line_with(text, "Raises")) == [2]
    assert "no check-raise" in text.lower()
    text = sign(from_dict(with_(CFG, cap=0)))
    assert "no limit on their number" in line_with(text, "Raises")


def test_sign_posts_time_charges_and_no_rake():
    text = sign(from_dict(time_cfg(30, 20, "table")))
    charge = line_with(text, "Time charge")
    assert numbers_in(charge) == [30, 20] and "table" in charge
    assert "No rake" in sign(from_dict(CFG))


def test_sign_names_every_game():
    for v in variants.every():
        text = sign(from_dict(table_for(v.name, 2)))
        assert text.split("\n")[0].startswith(v.title)
        assert numbers_in(line_with(text, "Players")) == [v.max_players]


def test_sign_is_sent_over_the_link_on_request():
    hal = FakeHal()
    ctl = Controller(hal, BOARD, Journal())
    assert "no table configuration" in ctl.handle("sign", {})
    assert ctl.handle("cfg", with_(CFG, rake={"method": "percent", "percent": 5})) is None
    assert ctl.handle("sign", {}) is None
    kind, payload = hal.link.sent[-1]
    assert kind == "sign" and payload == {"text": sign(ctl.config)}
    assert "5%" in payload["text"]
    # The frame the link would send carries the text intact.
    frame = P.encode(1, "sign", payload)
    body = frame[frame.index(b"{"):frame.rindex(b" *")]
    assert P.loads(body) == payload


def test_sign_of_any_accepted_configuration_fits_one_frame():
    # docs/protocol.md: a frame is at most 1024 bytes.  A configuration the table
    # accepts must be postable over the link.
    levels = [[1000 * (i + 1), 10] for i in range(50)]
    d = with_(CFG, rake={"method": "incremental", "levels": levels})
    try:
        cfg = from_dict(d)
    except ConfigError:
        return      # refusing such a sign is fine too
    text = sign(cfg)
    try:
        P.encode(65535, "sign", {"text": text})
    except P.ProtocolError as e:
        raise AssertionError("an accepted configuration's sign (%d characters) cannot be "
                             "sent: %s" % (len(text), e))


# ----- time charges through the controller (13:47-20.37(a)4iii) ------------------------------

def test_time_charge_per_player_every_30_minutes():
    ctl, hal = controller(time_cfg(12))            # 12 an hour: 6 every 30 minutes
    assert ctl.handle("clock", {"minutes": 29}) is None
    assert events(hal, "time_charge") == [] and ctl.stacks == [100, 100, 0, 100]
    assert ctl.handle("clock", {"minutes": 30}) is None
    assert events(hal, "time_charge")[-1]["charges"] == [6, 6, 0, 6]
    assert ctl.stacks == [94, 94, 0, 94]
    assert ctl.rake_total == 18 and ctl.snapshot()["rake"] == 18
    assert sum(ctl.stacks) + ctl.rake_total == 300


def test_time_charge_every_20_minutes_and_missed_assessments_caught_up():
    ctl, hal = controller(time_cfg(12, 20))        # 4 every 20 minutes
    ctl.handle("clock", {"minutes": 20})
    ctl.handle("clock", {"minutes": 39})
    assert len(events(hal, "time_charge")) == 1
    ctl.handle("clock", {"minutes": 100})          # 40, 60, 80, 100
    assert len(events(hal, "time_charge")) == 5
    assert ctl.stacks == [80, 80, 0, 80] and ctl.rake_total == 60


def test_time_charge_per_table_is_shared_by_the_seated_players():
    ctl, hal = controller(time_cfg(10, 30, "table"))   # 5 every 30 minutes, 3 seated
    ctl.handle("clock", {"minutes": 30})
    charges = events(hal, "time_charge")[-1]["charges"]
    assert sum(charges) == 5 and charges[2] == 0 and sorted(charges) == [0, 1, 2, 2]
    assert ctl.rake_total == 5 and sum(ctl.stacks) + ctl.rake_total == 300


def test_time_charge_per_player_includes_players_who_sat_the_round_out():
    # (a)4iii(1): inactive players seated at the table are assessed too.  Seat 3 folds
    # at once; every seat with chips pays all the same.
    ctl, hal = controller(time_cfg(12))
    play_a_round_folding_to_the_big_blind(ctl)
    assert ctl.state == IDLE
    ctl.handle("clock", {"minutes": 30})
    charges = events(hal, "time_charge")[-1]["charges"]
    assert charges == [6, 6, 0, 6]


def play_a_round_folding_to_the_big_blind(ctl):
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.handle("shuf", {"state": "done"}) is None
    assert ctl.handle("dealer", {"b": "cut_done"}) is None   # 20.38(f)1: the cut
    for code in "2c 3c 4c 2d 3d 4d".split():
        assert ctl.handle("card", {"code": code}) is None
    while ctl.state == PLAYING:
        assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "fold"}) is None


def test_time_charges_wait_until_the_round_is_over():
    ctl, hal = controller(time_cfg(12))
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.state == SHUFFLING
    ctl.handle("clock", {"minutes": 30})           # while shuffling: not yet
    assert events(hal, "time_charge") == []
    ctl.handle("shuf", {"state": "done"})
    assert ctl.handle("dealer", {"b": "cut_done"}) is None   # 20.38(f)1: the cut
    for code in "2c 3c 4c 2d 3d 4d".split():
        ctl.handle("card", {"code": code})
    assert ctl.state == PLAYING
    in_play = list(ctl.round.stacks)
    ctl.handle("clock", {"minutes": 60})           # in a round: not yet
    assert events(hal, "time_charge") == [] and ctl.round.stacks == in_play
    assert ctl.stacks == [100, 100, 0, 100]
    while ctl.state == PLAYING:
        ctl.handle("btn", {"seat": ctl.round.to_act, "b": "fold"})
    kinds = [p["e"] for k, p in hal.link.sent if k == "evt"]
    # Both assessments, after the round's end.
    assert kinds.count("time_charge") == 2
    assert kinds.index("end") < kinds.index("time_charge")
    assert ctl.rake_total == 36
    assert sum(ctl.stacks) + ctl.rake_total == 300


def test_time_charges_are_not_taken_from_the_pot():
    ctl, hal = controller(time_cfg(12))
    play_a_round_folding_to_the_big_blind(ctl)
    assert events(hal, "rake") == [] and events(hal, "end")[-1]["rake"] == 0


def test_a_time_charge_takes_no_more_than_a_player_has():
    ctl, hal = controller(time_cfg(60, 30, "player", stacks=[100, 100, 0, 10]))   # 30 each
    ctl.handle("clock", {"minutes": 30})
    assert events(hal, "time_charge")[-1]["charges"] == [30, 30, 0, 10]
    assert ctl.stacks == [70, 70, 0, 0] and ctl.rake_total == 70
    ctl.handle("clock", {"minutes": 60})           # seat 3 has left: not charged
    assert events(hal, "time_charge")[-1]["charges"] == [30, 30, 0, 0]
    assert sum(ctl.stacks) + ctl.rake_total == 210


def test_a_per_table_charge_with_nobody_left_seated_takes_nothing():
    # 30 every 30 minutes shared by two seats of 5: both are emptied; at the next
    # assessment nobody is seated, and the clock must still be accepted.
    ctl, hal = controller(time_cfg(60, 30, "table", stacks=[5, 5, 0, 0]))
    ctl.handle("clock", {"minutes": 30})
    assert ctl.stacks == [0, 0, 0, 0] and ctl.rake_total == 10
    try:
        why = ctl.handle("clock", {"minutes": 60})
    except ZeroDivisionError:
        raise AssertionError("a clock message crashed the controller (ZeroDivisionError)")
    assert why is None
    assert ctl.rake_total == 10 and sum(ctl.stacks) == 0


def test_the_clock_never_goes_back_and_must_be_whole_minutes():
    ctl, hal = controller(time_cfg(12))
    assert ctl.handle("clock", {"minutes": 30}) is None
    before = (ctl.snapshot(), ctl.minutes)
    assert ctl.handle("clock", {"minutes": 29}) == "clock minutes never go back: the table's time is 30"
    assert ctl.handle("clock", {"minutes": "31"}) == 'clock minutes must be a whole number, not "31"'
    assert ctl.handle("clock", {}) == "clock lacks minutes"
    assert (ctl.snapshot(), ctl.minutes) == before


def test_a_new_configuration_charges_no_time_before_it():
    ctl, hal = controller()
    ctl.handle("clock", {"minutes": 50})
    assert ctl.handle("cfg", time_cfg(12)) is None
    ctl.handle("clock", {"minutes": 59})
    assert events(hal, "time_charge") == []
    ctl.handle("clock", {"minutes": 60})
    assert len(events(hal, "time_charge")) == 1


def test_percentage_rake_through_the_controller_is_counted_and_conserved():
    ctl, hal = controller(with_(CFG, stacks=[100, 100, 100, 100],
                                rake={"method": "percent", "percent": 10}))
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.handle("shuf", {"state": "done"}) is None
    assert ctl.handle("dealer", {"b": "cut_done"}) is None   # 20.38(f)1: the cut
    for code in "2c 3c 4c 5c 2d 3d 4d 5d".split():
        assert ctl.handle("card", {"code": code}) is None
    for seat in (2, 3, 0):                         # button 3: blinds on seats 0 and 1
        assert ctl.handle("btn", {"seat": seat, "b": "raise" if seat == 2 else "call"}) is None
    assert ctl.handle("btn", {"seat": 1, "b": "call"}) is None    # 16 in: 1 raked
    assert [p["amount"] for p in events(hal, "rake")] == [1]
    assert ctl.snapshot()["rake"] == 1
    for code in "9s Ah Kh Qd".split():
        ctl.handle("card", {"code": code})
    ctl.handle("btn", {"seat": 0, "b": "raise"})
    for seat in (1, 2, 3):
        ctl.handle("btn", {"seat": seat, "b": "fold"})
    assert ctl.state == IDLE
    assert ctl.rake_total == 1 == events(hal, "end")[-1]["rake"]
    assert sum(ctl.stacks) + ctl.rake_total == 400
    ctl.handle("clock", {"minutes": 120})          # no time charges with this rake
    assert ctl.rake_total == 1 and events(hal, "time_charge") == []
    assert config_mod.sign(ctl.config) == sign(ctl.config)


def test_a_configuration_survives_its_own_dict_for_the_journal():
    # The journal keeps the table's configuration as as_dict() gives it; a restart
    # reads it back with from_dict (felt.table.controller, power cuts).
    rakes = ({"method": "percent", "percent": 5, "maximum": 6},
             {"method": "incremental", "levels": [[20, 1], [60, 2]], "maximum": 3},
             {"method": "time", "hourly": 6, "every": 30, "per": "table"})
    for game in variants.NAMES:
        for kind in ("fixed", "spread", "pot", "no"):
            for rake in rakes:
                d = table_for(game, 3, structure=kind, rake=rake, min_wager=2, max_wager=20,
                              regime="casino")
                if kind != "fixed":
                    d["cap"] = 0
                try:
                    once = from_dict(d).as_dict()
                except ConfigError:
                    continue            # not a setting this game allows
                assert from_dict(once).as_dict() == once, (game, kind, rake)
