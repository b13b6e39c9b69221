"""Every event the firmware sends, in words (host_tools/words.py): the view's log and
felt-console show these lines."""

import re
from pathlib import Path

from host_tools.words import Narrator, event_line

REPO = Path(__file__).resolve().parents[2]

EVENTS = {
    "button": {"seat": 2, "how": "dealer_right"},
    "hand": {"hand": 4, "button": 2, "stacks": [200, 198]},
    "post": {"seat": 0, "kind": "blind", "amount": 1, "all_in": False},
    "dealt": {"what": "up", "seat": 1, "card": "As"},
    "reshuffle": {"cards": "2c 3d"},
    "discarded": {"seat": 1, "cards": "2c 3d"},
    "rake": {"amount": 2},
    "time_charge": {"charges": [3, 0, 3]},
    "street": {"name": "flop"},
    "runout": {"n": 2, "of": 2, "board": "Ah Kd 7c"},
    "to_act": {"seat": 1, "legal": ["fold", "call", "raise"], "min": 4, "max": 20},
    "action": {"seat": 1, "a": "bring_in", "amount": 1, "all_in": False},
    "return": {"seat": 1, "amount": 6},
    "show": {"seat": 1, "high": 9, "low": 3, "hand": "a flush", "low_hand": "8-6-4-3-2",
             "cards": "2c 3c 4c 6c 8c"},
    "award": {"pot": 0, "seat": 1, "amount": 29, "share": "high"},
    "end": {"hand": 4, "button": 2, "stacks": [200, 198], "winners": [1], "board": "",
            "rake": 0, "called_off": "void", "deck": "A"},
    "refused": {"what": "card", "why": "no card is due"},
    "waiting": {"for": "hand_shuffle", "deck": "B"},
    "shuffled": {"how": "device", "deck": "A"},
    "irregularity": {"kind": "void", "section": "19:47-27.12(f)", "detail": "shoe jam"},
    "refund": {"seat": 0, "amount": 1},
    "dead_hand": {"seat": 3},
    "exposed": {"seat": 3, "card": "Kd"},
    "shuffler": {"present": False},
    "shoe": {"present": True},
    "deck": {"registered": "B", "in_play": "A"},
    "link": {"lost": True},
    "cleared": {"kept": "journal.jsonl.cleared"},
    "rules": {"state": "posted", "changes": {"rake": {"method": "percent", "percent": 5},
                                             "blinds": [2, 4]}, "at": 40},
    "locked": {"code": "critical_memory", "why": "journal line 4: bad checksum"},
    "resumed": {"hand": 4, "state": "playing", "events": 12},
    # A house-banked table's (docs/protocol.md, 6.4).
    "wagers": {"seat": 1, "ante": 5, "side": 5},
    "wager": {"seat": 1, "kind": "aces_up", "amount": 5},
    "decide": {"name": "play", "seats": [0, 2], "legal": ["fold", "call", "raise"]},
    "fold": {"seat": 2},
    "check": {"seat": 2},
    "held": {"card": "Kd", "section": "19:47-27.12(b)"},
    "collect": {"seat": 0, "kind": "ante", "amount": 5, "section": "19:47-27.10(c)"},
    "pay": {"seat": 0, "kind": "ante_bonus", "amount": 25, "section": "19:47-27.11(a)2"},
    "muck": {"seat": -1},
}


def documented_events():
    """The `e` of every row of docs/protocol.md's event table."""
    text = (REPO / "docs" / "protocol.md").read_text()
    table = text.split("Events (`evt`)", 1)[1].split("\n\n", 2)[1]
    kinds = set()
    for row in table.splitlines()[2:]:
        kinds.update(re.findall(r"`(\w+)`", row.split("|")[1]))
    return kinds


def emitted_events():
    """The `e` of every event the firmware sends."""
    kinds = set()
    for path in (REPO / "firmware" / "felt").rglob("*.py"):
        kinds.update(re.findall(r'"e": "(\w+)"', path.read_text()))
    return kinds


def test_every_event_kind_has_words():
    documented = documented_events()
    assert len(documented) >= 30 and {"resumed", "locked", "shuffler", "shoe"} <= documented
    assert documented | emitted_events() <= set(EVENTS)
    for kind, fields in EVENTS.items():
        line = event_line(dict(fields, e=kind))
        assert line and "{" not in line and "[" not in line and "'" not in line[-3:], \
            (kind, line)
    # The variants of one kind, in words too.
    assert event_line({"e": "dealt", "what": "burn", "seat": -1, "card": "2c"}) == \
        "a card burnt (2c)"
    assert event_line({"e": "refused", "what": "btn", "why": "out of turn"}) == \
        "btn refused: out of turn"
    assert event_line({"e": "award", "pot": 0, "seat": 3, "amount": 29, "share": "high"}) \
        == "seat 3 wins 29, the high half of the main pot"
    # Issue 22: code names are said as words ("bring_in/bet", "misdeal: skipped_seat").
    assert event_line({"e": "to_act", "seat": 2, "legal": ["bring_in", "bet"]}) == \
        "seat 2 to act: bring in or bet"
    assert event_line({"e": "to_act", "seat": 0, "legal": ["fold", "call", "raise"]}) == \
        "seat 0 to act: fold, call or raise"
    assert event_line({"e": "irregularity", "kind": "misdeal", "detail": "skipped_seat",
                       "section": "13:47-20.38(f)4"}) == \
        "irregularity, misdeal: skipped seat (13:47-20.38(f)4)"
    # Issue 22: where no low qualifies the high hand takes the whole pot, said so (the
    # rules core said "high", and this "the high half" of all 119 chips).
    assert event_line({"e": "award", "pot": 0, "seat": 1, "amount": 119, "share": "all"}) \
        == "seat 1 wins 119 from the main pot"
    assert "the low half of the side pot 1" in event_line(
        {"e": "award", "pot": 1, "seat": 3, "amount": 8, "share": "low"})
    assert event_line({"e": "resumed", "hand": 3, "state": "idle", "events": 0}) == \
        "the table resumed between rounds from its journal (after hand 3)"
    for state in ("in_effect", "dropped"):
        line = event_line({"e": "rules", "state": state, "changes": {"min_wager": 4},
                           "why": "the maximum wager is below"})
        assert "min wager 4" in line and "{" not in line
    # An event this module does not know, or a field of another shape: still words.
    for odd in ({"e": "new_thing", "x": {"y": [1, 2]}, "flag": True},
                {"e": "hand", "hand": 4}):
        line = event_line(odd)
        assert line and "{" not in line and "[" not in line
    assert event_line({"e": "new_thing", "x": {"y": [1, 2]}}) == "new thing: x y 1/2"
    # A banked table's: the dealer named, the wager's kind in words, the house's result.
    assert event_line({"e": "muck", "seat": -1}) == "the dealer's hand goes to the discards"
    assert event_line({"e": "show", "seat": -1, "cards": "As Ad Kc 2h", "hand": "pair of aces",
                       "value": 9}) == "the dealer shows As Ad Kc 2h: pair of aces"
    assert event_line(dict(EVENTS["pay"], e="pay")) == \
        "the house pays seat 0 25 on the ante bonus (19:47-27.11(a)2)"
    assert event_line({"e": "end", "hand": 2, "button": -1, "stacks": [90], "winners": [],
                       "house": 10, "house_round": 10}).endswith(
        "the house +10 this round, +10 in all")


def test_events_in_words_that_had_none():
    said = [event_line(e) for e in (
        {"e": "time_charge", "charges": [0, 3, 3]},
        {"e": "link", "lost": True}, {"e": "link", "lost": False},
        {"e": "cleared", "kept": "/journal.jsonl.cleared"},
        {"e": "rules", "state": "posted", "changes": {"small_bet": 4}, "at": 30},
        {"e": "rules", "state": "in_effect", "changes": {"min_wager": 3}},
        {"e": "rules", "state": "dropped", "changes": {"small_bet": 40},
         "why": "a bet above the maximum wager"},
        {"e": "locked", "why": "journal line 4: bad checksum"},
        {"e": "locked", "code": "internal_fault",
         "why": "internal fault: TypeError in button (felt/table/poker_table.py), handling btn"},
        {"e": "resumed", "hand": 7, "state": "playing", "events": 12})]
    assert said == [
        "time charges: seat 1 pays 3, seat 2 pays 3",
        "the host link is lost: play waits for it", "the host link is back",
        "a technician cleared the tilt; the journal as found kept as /journal.jsonl.cleared",
        "rule change posted: small bet 4, from table minute 30",
        "rule change in effect: min wager 3",
        "posted rule change dropped (a bet above the maximum wager): small bet 40",
        "the table is locked: journal line 4: bad checksum",
        "the table is locked (internal fault): internal fault: TypeError in button "
        "(felt/table/poker_table.py), handling btn",
        "the table resumed hand 7 from its journal (12 events replayed)"]


def test_a_bet_or_raise_is_said_as_the_seats_total_on_the_street():
    # Issue 22: the log said "raises +3" where hand histories and the amount the view
    # asks for say "raise to 4".  Blinds and the bring-in count, antes do not; a new
    # street starts from nothing; after a power cut mid-street the totals before it are
    # not known, so a bet says what it added until the next street.
    def action(seat, a, amount):
        return {"e": "action", "seat": seat, "a": a, "amount": amount, "all_in": False}
    n = Narrator()
    said = [n.line(e) for e in (
        {"e": "hand", "hand": 1, "button": 0},
        {"e": "post", "seat": 1, "kind": "ante", "amount": 1, "all_in": False},
        {"e": "post", "seat": 1, "kind": "blind", "amount": 1, "all_in": False},
        {"e": "post", "seat": 2, "kind": "blind", "amount": 2, "all_in": False},
        action(0, "call", 2), action(1, "raise", 3), action(2, "raise", 4),
        {"e": "street", "name": "flop"}, action(1, "bet", 4),
        {"e": "resumed", "hand": 1, "state": "playing", "events": 9}, action(2, "raise", 8),
        {"e": "street", "name": "turn"}, action(1, "bet", 4))]
    assert said[4:7] == ["seat 0 calls 2", "seat 1 raises to 4", "seat 2 raises to 6"]
    assert said[8] == "seat 1 bets to 4"
    assert said[10] == "seat 2 raises +8"
    assert said[12] == "seat 1 bets to 4"
    assert said[1] == "seat 1 posts ante 1"
    # A field missing or of another shape: still the event's words.
    assert n.line({"e": "action", "seat": 1, "a": "raise"}) == event_line(
        {"e": "action", "seat": 1, "a": "raise"})


def test_a_wired_boards_discards_are_counted_not_named():
    assert event_line({"e": "discarded", "seat": 2, "count": 2}) == "seat 2 discards 2 cards"
    assert event_line({"e": "discarded", "seat": 0, "count": 1}) == "seat 0 discards 1 card"
