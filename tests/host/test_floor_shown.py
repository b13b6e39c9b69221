"""What the floor's page shows of what is stored (host_tools/floor/shown.py): any stored
value shown in words, cut short or as "?", never a failure to draw; a table silent,
offline, locked or with its clock off said so; times in the floor's one format."""

import csv
import datetime
import io
import json
import time

from host_tools.floor import shown

NOW = 1_800_000_000.0

# A retained state whose every field is of another type than a table sends.
WRONG = {"game": "x" * 10_000, "stakes": ["fixed"], "seats": "six", "status": {"a": 1},
         "hand": 2 ** 80, "button": {"seat": 1}, "stacks": "1,2,3", "pot": "12",
         "to_act": True, "tilt": "jammed", "hands": 1.5, "rake": None, "house": [1],
         "board": {"cards": "As"}, "centre": 7, "at": 1e18}


def row(state, online=True, last_seen=NOW - 1, **more):
    return dict({"name": "t1", "first_seen": NOW - 100, "last_seen": last_seen,
                 "online": online, "since": NOW - 50, "state": state}, **more)


def test_a_state_of_wrong_types_is_drawn_with_each_field_of_its_own_type():
    view = shown.table_view(row(WRONG), {"t1": {"hands": "many", "house": {"x": 1}}}, NOW)
    s = view["state"]
    assert len(s["game"]) == 40 and s["game"].endswith("…")
    assert s["stakes"] == '["fixed"]' and s["board"] == '{"cards": "As"}'
    assert [s[k] for k in ("seats", "status", "hand", "button", "pot", "to_act", "hands",
                           "rake", "house", "tilt", "at")] == [None] * 11
    assert s["stacks"] == [] and view["seats"] == [] and s["centre"] == "7"
    assert view["status"] == "idle" and view["tilt"] == ""
    assert view["shift"] == {"hands": 0, "hands_per_hour": 0, "rake": 0, "house": None,
                             "tilts": 0}
    json.dumps(view)            # what the live stream sends


def test_stacks_of_mixed_kinds_are_each_a_number_or_a_question_mark():
    view = shown.table_view(row({"stacks": [200, "x", {"a": 1}, 150], "button": 3,
                                 "to_act": 0}), {}, NOW)
    assert [s["label"] for s in view["seats"]] == ["0: 200", "1: ?", "2: ?", "D 3: 150"]
    assert [s["act"] for s in view["seats"]] == [True, False, False, False]


def test_a_table_not_heard_from_for_thirty_seconds_is_silent_whatever_online_says():
    heard = NOW - shown.SILENT_S - 1
    view = shown.table_view(row({"status": "playing"}, last_seen=heard), {}, NOW)
    assert view["status"] == "silent"
    assert view["status_text"] == "silent since %s" % datetime.datetime.fromtimestamp(
        heard).strftime("%Y-%m-%d %H:%M:%S")
    fresh = shown.table_view(row({"status": "playing"}, last_seen=NOW - 29), {}, NOW)
    assert fresh["status"] == "playing"
    off = shown.table_view(row({"status": "playing"}, online=False), {}, NOW)
    assert off["status"] == "offline" and off["status_text"].startswith("offline since ")


def test_a_locked_or_tilted_state_is_said_with_its_tilt():
    tilt = {"code": "journal_write_failed", "why": "<b>flash</b>", "clears": "a technician"}
    for status in ("locked", "tilted"):
        view = shown.table_view(row({"status": status, "tilt": tilt}), {}, NOW)
        assert view["status"] == status
        assert view["tilt"] == "%s: journal_write_failed: <b>flash</b> (cleared by a " \
                               "technician)" % status


def test_a_clock_off_is_said_when_the_row_has_it():
    assert shown.table_view(row({}), {}, NOW)["notes"] == []
    assert shown.table_view(row({}, clock_off=None), {}, NOW)["notes"] == []
    assert shown.table_view(row({}, clock_off=-2 * 86400 - 3600), {}, NOW)["notes"] == [
        "clock off by 2 d 1 h"]
    assert shown.table_view(row({}, clock_off=75), {}, NOW)["notes"] == [
        "clock off by 1 min 15 s"]
    assert shown.table_view(row({}, clock_off="late"), {}, NOW)["notes"] == ["clock off by ?"]


def test_times_are_the_floors_in_one_format_and_a_time_past_any_calendar_is_said():
    assert shown.clock(NOW) == time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(NOW))
    for bad in (1e18, float("nan"), float("inf"), -1e18, "noon", None, True):
        assert shown.clock(bad) == "not a time"


def test_a_round_of_wrong_types_is_a_row_of_words():
    r = shown.round_row({"at": 1e18, "hand": "3", "winners": [{"seat": 1}, 2],
                         "rake": "abc", "house": {"x": 1}, "called_off": "<script>",
                         "run": "r1", "n": 7})
    assert r == {"ended": "not a time", "hand": "?", "winners": "? 2", "rake": "?",
                 "house": "?", "called_off": "<script>", "run": "r1", "n": 7}
    assert shown.round_row({"at": NOW, "hand": 1, "winners": "0 1", "rake": 0, "house": None,
                            "called_off": None, "run": "r", "n": 1})["winners"] == "0 1"


def test_a_replay_says_an_event_it_cannot_follow_and_keeps_the_felt():
    steps = shown.replay_steps("t1", [
        (1, NOW, {"e": "hand", "hand": 1, "button": 0, "stacks": [100, 100]}),
        (2, NOW, {"e": "post", "seat": 0, "kind": "small_blind", "amount": "1",
                  "all_in": False}),
        (3, 1e18, {"e": "end", "stacks": 5})])
    assert [s["felt"]["seats"][0]["label"] for s in steps] == ["D 0: 100"] * 3
    assert steps[1]["line"].endswith("(not shown on the felt: a field of another kind)")
    assert steps[2]["at"] == "not a time"


def test_the_csv_report_takes_stored_text_as_text_never_a_formula():
    rows = list(csv.reader(io.StringIO(shown.report([
        {"table_name": "t1", "at": NOW, "hand": 1, "winners": [0], "rake": -2, "house": None,
         "called_off": "=HYPERLINK(\"x\")", "run": "r", "n": 3}]))))
    assert rows[1] == ["t1", shown.clock(NOW), "1", "0", "-2", "", "'=HYPERLINK(\"x\")"]
