"""Poker Hand History export (felt.table.phh): the fields PHH requires, Felt's own `_`
fields, and the action lines, from scripted rounds.  Runs on CPython and MicroPython."""

from felt.poker import variants
from felt.poker.structure import FixedLimit, Structure
from felt.table import config as config_mod
from felt.table import phh
from felt.table.controller import Controller
from felt.table.journal import Journal
from table_fakes import BOARD, FakeHal, scratch_dir

REQUIRED = ("variant", "ante_trimming_status", "antes", "small_bet", "big_bet",
            "starting_stacks", "actions", "finishing_stacks")
FELT = ("_felt_game", "_felt_structure", "_felt_rake", "_rake_method", "_rake", "_burns",
        "_dead", "_button", "_seats", "_felt_version")
IRREGULAR = ("void", "dead", "misdeal", "face_up", "replace", "exposed", "foul", "away")
NO_RAKE = {"method": "none", "percent": 0, "levels": [], "maximum": 0, "hourly": 0,
           "every": 30, "per": "player"}


def header(stacks, button, structure, game="holdem", hand=1):
    return {"hand": hand, "button": button, "stacks": list(stacks), "game": game,
            "structure": structure.as_dict(), "rake": NO_RAKE}


def events(script):
    """Events from a script such as "Ac Kc / call 2 / raise 1 8 / draw 0 As,Kd /
    replace Ad exposed"."""
    out = []
    for part in script.split("/"):
        words = part.split()
        if not words:
            continue
        if words[0] in IRREGULAR:
            out.append(tuple([words[0]] + [int(w) if w.isdigit() else w for w in words[1:]]))
        elif words[0] in ("draw", "discard"):
            out.append((words[0], int(words[1]),
                        " ".join(words[2].split(",")) if len(words) > 2 else ""))
        elif len(words) >= 2 and words[1].isdigit() and len(words[0]) > 2:
            out.append(tuple([words[0]] + [int(w) for w in words[1:]]))
        else:
            out += [("card", c) for c in words]
    return out


def fields(text):
    """{key: raw value text} for the document's top-level lines (actions excluded)."""
    out = {}
    for line in text.split("\n"):
        if " = " in line and not line.startswith(" "):
            k, v = line.split(" = ", 1)
            out[k] = v
    return out


def actions(text):
    lines = text.split("\n")
    start = lines.index("actions = [")
    end = lines.index("]", start)
    return [ln.strip()[1:-2] for ln in lines[start + 1:end]]


def written(stacks, button, structure, script, game="holdem"):
    h = header(stacks, button, structure, game)
    return phh.history(h, events(script))


HOLES_4 = "Ac Kc Qc Jc Ad Kd Qd Jd"      # button 3: seats 0, 1, 2, 3 twice round


def test_fixed_limit_holdem_has_every_required_field_and_felt_s_own():
    text = written([100, 100, 100, 100], 3, FixedLimit(2, 4, (1, 2)),
                   HOLES_4 + " / call 2 / call 3 / call 0 / check 1 / 2s 3s 4s 5d"
                   " / check 0 / bet 1 / call 2 / fold 3 / call 0 / 6d 7h"
                   " / check 0 / check 1 / check 2 / 8c 9d / check 0 / check 1 / check 2")
    f = fields(text)
    for k in REQUIRED + FELT + ("blinds_or_straddles", "hand", "seats", "seat_count"):
        assert k in f, k
    assert "min_bet" not in f and "bring_in" not in f     # not a field of FT
    assert f["variant"] == "'FT'" and f["ante_trimming_status"] == "true"
    assert f["blinds_or_straddles"] == "[1, 2, 0, 0]" and f["antes"] == "[0, 0, 0, 0]"
    assert f["starting_stacks"] == "[100, 100, 100, 100]"
    assert f["_burns"] == "['2s', '6d', '8c']" and f["_dead"] == "[]"
    assert f["_seats"] == "[0, 1, 2, 3]" and f["_button"] == "3"
    assert f["_felt_game"] == "'holdem'" and f["_rake"] == "0"
    assert f["_felt_structure"].startswith("{ante = 0, big_bet = 4, blinds = [1, 2]")
    assert actions(text) == [
        "d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 QcQd", "d dh p4 JcJd",
        "p3 cc", "p4 cc", "p1 cc", "p2 cc", "d db 3s4s5d",
        "p1 cc", "p2 cbr 2", "p3 cc", "p4 f", "p1 cc", "d db 7h",
        "p1 cc", "p2 cc", "p3 cc", "d db 9d", "p1 cc", "p2 cc", "p3 cc",
        "p1 sm AcAd", "p2 sm KcKd", "p3 sm QcQd"]
    # Aces win 3 x 4 + 2 from the folded button.
    assert f["finishing_stacks"] == "[110, 96, 96, 98]"


def test_players_start_left_of_the_button_and_seats_map_them_back():
    # Six seats, seat 2 empty, button on seat 4: PHH players are seats 5, 0, 1, 3, 4.
    text = written([50, 60, 0, 70, 80, 90], 4, FixedLimit(2, 4, (1, 2)),
                   "Ac Kc Qc Jc Tc Ad Kd Qd Jd Td / fold 1 / fold 3 / fold 4 / fold 5")
    f = fields(text)
    assert f["_seats"] == "[5, 0, 1, 3, 4]" and f["seats"] == "[6, 1, 2, 4, 5]"
    assert f["starting_stacks"] == "[90, 50, 60, 70, 80]" and f["seat_count"] == "6"
    assert actions(text)[:2] == ["d dh p1 AcAd", "d dh p2 KcKd"]
    assert actions(text)[-4:] == ["p3 f", "p4 f", "p5 f", "p1 f"]
    assert f["finishing_stacks"] == "[89, 51, 60, 70, 80]"


def test_heads_up_forced_bets_are_written_in_reverse_as_phh_assigns_them():
    # Felt: the seat left of the button posts the first blind even heads-up
    # (13:47-20.36(d)); PHH reverses heads-up forced bets, so the list is [2, 1].
    text = written([100, 100], 1, FixedLimit(2, 4, (1, 2)), "Ac Kc Ad Kd / fold 0")
    assert fields(text)["blinds_or_straddles"] == "[2, 1]"
    assert fields(text)["finishing_stacks"] == "[99, 101]"


def test_a_straddle_is_a_forced_bet_in_blinds_or_straddles():
    st = Structure("fixed", 4, 8, (1, 2), straddle=True)
    text = written([100, 100, 100, 100], 3, st,
                   "straddle 2 / " + HOLES_4 + " / fold 3 / fold 0 / fold 1")
    assert fields(text)["blinds_or_straddles"] == "[1, 2, 4, 0]"
    declined = written([100, 100, 100, 100], 3, st,
                       "decline 2 / " + HOLES_4 + " / fold 2 / fold 3 / fold 0")
    assert fields(declined)["blinds_or_straddles"] == "[1, 2, 0, 0]"


def test_no_limit_and_pot_limit_write_min_bet():
    st = Structure("no", 2, 2, (1, 2))
    text = written([100, 100, 100], 2, st, "Ac Kc Qc Ad Kd Qd / raise 2 10 / fold 0 / fold 1")
    f = fields(text)
    assert f["variant"] == "'NT'" and f["min_bet"] == "2" and "small_bet" not in f
    assert actions(text)[3:] == ["p3 cbr 10", "p1 f", "p2 f"]
    st = Structure("pot", 2, 2, (1, 2))
    text = written([100, 100, 100], 2, st, "Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs"
                   " / fold 2 / fold 0", game="omaha")
    assert fields(text)["variant"] == "'PO'" and fields(text)["min_bet"] == "2"
    assert actions(text)[0] == "d dh p1 AcAdAhAs"


def test_stud_writes_the_bring_in_and_no_blinds():
    st = Structure("fixed", 2, 4, (), ante=1, bring_in=1)
    # Seats 0, 1, 2 from the dealer's left; up-cards 5c, Kd, Ah: the 5c brings it in.
    text = written([20, 20, 20], 2, st, "2c 3c 4c 2d 3d 4d 5c Kd Ah / bring_in 0 / fold 1"
                   " / fold 2", game="stud7")
    f = fields(text)
    assert f["variant"] == "'F7S'" and f["bring_in"] == "1" and f["antes"] == "[1, 1, 1]"
    assert "blinds_or_straddles" not in f
    assert actions(text) == ["d dh p1 2c2d5c", "d dh p2 3c3dKd", "d dh p3 4c4dAh",
                             "p1 pb", "p2 f", "p3 f"]
    assert f["finishing_stacks"] == "[22, 19, 19]"


def test_draws_list_every_discard_before_the_replacement_cards():
    st = FixedLimit(2, 4, (1, 2))
    deal = "2c 3c 4c 2d 3d 4d 2h 3h 4h 2s 3s 4s 5c 5d 5h"
    text = written([100, 100, 100], 2, st, deal + " / call 2 / call 0 / check 1 / As"
                   " / draw 0 2c,2d / Ks Qs / draw 1 / draw 2 4c / Js / bet 0 / fold 1 / fold 2",
                   game="triple-draw-27")
    assert fields(text)["variant"] == "'F2L3D'"
    assert actions(text)[6:] == ["p1 sd 2c2d", "p2 sd", "p3 sd 4c",
                                 "d dh p1 KsQs", "d dh p3 Js", "p1 cbr 2", "p2 f", "p3 f"]
    assert fields(text)["_burns"] == "['As']"


def test_hands_all_in_are_shown_before_the_rest_of_the_board():
    # PHH (PokerKit) shows the hands down when betting is over, then deals the rest.
    text = written([100, 3, 100], 2, FixedLimit(2, 4, (1, 2)),
                   "Ac Kc Qc Ad Kd Qd / call 2 / call 0 / raise 1 / call 2 / call 0"
                   " / 2s 3s 4s 5d / check 0 / check 2 / 6d 7h / check 0 / check 2"
                   " / 8c 9d / check 0 / check 2")
    acts = actions(text)
    assert acts.index("d db 3s4s5d") < acts.index("p1 sm AcAd")
    text = written([100, 3, 3], 2, FixedLimit(2, 4, (1, 2)),
                   "Ac Kc Qc Ad Kd Qd / call 2 / raise 0 / call 1 / call 2 / 2s 3s 4s 5d 6d 7h 8c 9d")
    acts = actions(text)
    assert acts[-6:] == ["p1 sm AcAd", "p2 sm KcKd", "p3 sm QcQd",
                         "d db 3s4s5d", "d db 7h", "d db 9d"]


def test_runouts_are_commentary_and_each_runout_s_board_dealt_in_turn():
    # 13:69F-14.10(l): PHH has no notation for the players' agreement: a commentary line
    # each; the count is `_runouts` (PokerKit's runout count); each runout's board
    # cards follow the last, street by street, as PokerKit deals them.
    text = written([200, 51, 100], 0, Structure("no", 2, 0, (1, 2), run_it=2),
                   "As Ks Qs Ad Kd Qd / raise 0 200 / call 1 / call 2 / run_it 1"
                   " / run_it 2 / run_it 0 / 2d 2c 7h 9d 3d 3s 4d 4c"
                   " / 5d Qh 5c 8d 6d Jc 7d 2h")
    assert actions(text)[6:] == [
        "# felt: run_it p1", "# felt: run_it p2", "# felt: run_it p3",
        "p3 sm QsQd", "p1 sm AsAd", "p2 sm KsKd",     # the all-in raiser first (20.38(d))
        "d db 2c7h9d", "d db 3s", "d db 4c", "d db Qh5c8d", "d db Jc", "d db 2h"]
    f = fields(text)
    assert f["_runouts"] == "2" and f["finishing_stacks"] == "[77, 49, 225]"
    assert f["_burns"] == "['2d', '3d', '4d', '5d', '6d', '7d']"
    declined = written([200, 51, 100], 0, Structure("no", 2, 0, (1, 2), run_it=2),
                       "As Ks Qs Ad Kd Qd / raise 0 200 / call 1 / call 2 / run_it 1"
                       " / run_once 2 / 2d 2c 7h 9d 3d 3s 4d 4c")
    assert "# felt: run_once p2" in actions(declined)
    assert "_runouts" not in fields(declined)


def test_a_covered_big_blind_checks_in_phh_only_when_a_fold_left_it_covered():
    # Seats 0 (button) and 1 have 2 chips each, seat 2 posts the big blind of 2; both
    # call all-in.  Nobody could call the big blind's bet: neither Felt nor PHH asks it.
    text = written([2, 2, 100], 0, FixedLimit(2, 4, (1, 2)),
                   "Ac Kc Qc Ad Kd Qd / call 0 / call 1 / 2s 3s 4s 5d 6d 7h 8c 9d")
    assert actions(text)[3:6] == ["p3 cc", "p1 cc", "p3 sm QcQd"]
    # Seat 0 (100 chips) folds first: PHH (PokerKit) still asks the big blind, who
    # could be called when the betting began, and the history writes its check.
    text = written([100, 2, 100], 0, FixedLimit(2, 4, (1, 2)),
                   "Ac Kc Qc Ad Kd Qd / fold 0 / call 1 / 2s 3s 4s 5d 6d 7h 8c 9d")
    assert actions(text)[3:6] == ["p3 f", "p1 cc", "p2 cc"]


def test_variant_codes():
    assert phh.variant_code("holdem", "fixed") == "FT"
    assert phh.variant_code("holdem", "no") == "NT"
    assert phh.variant_code("omaha", "pot") == "PO"
    assert phh.variant_code("omaha-hilo8", "fixed") == "FO/8"
    assert phh.variant_code("stud7", "fixed") == "F7S"
    assert phh.variant_code("stud7-hilo8", "fixed") == "F7S/8"
    assert phh.variant_code("triple-draw-27", "fixed") == "F2L3D"
    assert phh.variant_code("holdem", "spread") == "ST"
    assert phh.variant_code("mambo-stud", "fixed") == "FMS/6"
    codes = []
    for v in variants.every():
        assert v.name in phh.GAME_CODES, v.name
        if v.phh:
            assert phh.variant_code(v.name, "fixed") == v.phh
        for kind in ("fixed", "spread", "pot", "no"):
            codes.append(phh.variant_code(v.name, kind))
    assert len(set(codes)) == len(codes) == 4 * len(variants.every())
    assert [c for c in codes if phh.standard(c)] == [
        "FT", "NT", "PO", "FO/8", "F7S", "F7S/8", "F2L3D"]


def test_toml_values():
    assert phh.toml(True) == "true" and phh.toml(7) == "7" and phh.toml("As") == "'As'"
    assert phh.toml({"b": [1, 2], "a": "x"}) == "{a = 'x', b = [1, 2]}"
    assert phh.toml("it's") == '"it\'s"'


def test_the_controller_writes_each_round_s_history_through_the_journal():
    d = scratch_dir("phh-test")
    hal = FakeHal()
    ctl = Controller(hal, BOARD, Journal(phh_dir=d))
    assert ctl.handle("cfg", {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2,
                              "big_bet": 4, "blinds": [1, 2], "cap": 4}) is None
    for hand in (1, 2):
        assert ctl.handle("dealer", {"b": "deal"}) is None
        assert ctl.handle("shuf", {"state": "done"}) is None
        assert ctl.handle("dealer", {"b": "cut_done"}) is None   # 20.38(f)1: the cut
        for code in HOLES_4.split():
            assert ctl.handle("card", {"code": code}) is None
        while ctl.state == "playing":
            assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "fold"}) is None
        with open("%s/hand-%d.phh" % (d, hand)) as f:
            text = f.read()
        assert fields(text)["hand"] == str(hand)
        # Written a line at a time (a board's heap may hold no block for the whole).
        assert text == phh.history(ctl.journal.header, ctl.journal.events, ctl.round)
        assert fields(text)["finishing_stacks"] == \
            "[%s]" % ", ".join([str(ctl.stacks[s]) for s in ctl.round.clockwise()])
    assert [p for k, p in hal.link.sent if k == "log"] == []


def test_no_phh_dir_writes_nothing():
    j = Journal()
    cfg = config_mod.from_dict({"seats": 2, "stacks": [10, 10]})
    j.begin(1, 1, [10, 10], cfg)
    assert j.history_path("phh") is None and j.history_path("banked") is None


def test_a_replaced_card_is_left_out_and_the_irregularity_is_a_comment():
    # 13:47-20.38(n): seat 0's second card is turned up while dealing and replaced.
    text = written([100, 100, 100, 100], 3, FixedLimit(2, 4, (1, 2)),
                   "Ac Kc Qc Jc Ad / replace Ad exposed / 2h Kd Qd Jd / fold 2 / fold 3"
                   " / fold 0")
    acts = actions(text)
    assert acts[:5] == ["d dh p1 Ac", "d dh p2 Kc", "d dh p3 Qc", "d dh p4 Jc",
                        "# felt: replace Ad exposed"]
    assert acts[5:9] == ["d dh p1 2h", "d dh p2 Kd", "d dh p3 Qd", "d dh p4 Jd"]
    f = fields(text)
    assert f["_felt_events"].startswith("[['card', 'Ac'], ")
    assert "['replace', 'Ad', 'exposed']" in f["_felt_events"]
    assert "_called_off" not in f and f["finishing_stacks"] == "[99, 101, 100, 100]"


def test_a_misdeal_ends_the_history_with_every_stack_back():
    text = written([100, 100, 100, 100], 3, FixedLimit(2, 4, (1, 2)),
                   "Ac Kc Qc / misdeal no_shuffle")
    f = fields(text)
    assert actions(text)[-1] == "# felt: misdeal no_shuffle"
    assert f["_called_off"] == "'misdeal'" and f["finishing_stacks"] == "[100, 100, 100, 100]"
    # 13:47-20.38(f)1: a round dealt without a shuffle is a misdeal.
    assert f["_called_off_why"] == "'no_shuffle 13:47-20.38(f)1'"


def test_a_fouled_hand_names_the_player():
    text = written([100, 100, 100, 100], 3, FixedLimit(2, 4, (1, 2)),
                   HOLES_4 + " / call 2 / foul 3 / fold 0 / check 1 / 2s 3s 4s 5d / check 1"
                   " / check 2 / 6d 7h / check 1 / check 2 / 8c 9d / check 1 / check 2")
    assert "# felt: foul p4" in actions(text)
    assert fields(text)["finishing_stacks"] == "[99, 103, 98, 100]"
