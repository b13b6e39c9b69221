"""19:47-8.3: a change of a table's rules is posted on the sign with the time it takes
effect, half an hour ahead ((b)1); the minimum and maximum wagers change at once ((c))."""

from felt.table.configure import RULE_NOTICE
from felt.table.controller import IDLE

from table_fakes import boot, events, journal_path, start_round

CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}


def table(name):
    ctl, hal = boot(journal_path(name))
    assert ctl.handle("cfg", CFG) is None
    return ctl, hal


def sign(ctl, hal):
    assert ctl.handle("sign", {}) is None
    return [p for k, p in hal.link.sent if k == "sign"][-1]["text"]


def test_a_new_minimum_or_maximum_wager_applies_at_once():
    # 19:47-8.3(c)
    ctl, hal = table("rules-at-once")
    assert ctl.handle("rules", {"max_wager": 40}) is None
    assert ctl.config.max_wager == 40 and ctl.coming is None
    assert events(hal, "rules")[-1]["state"] == "in_effect"
    assert "Minimum wager 2, maximum wager 40" in sign(ctl, hal)


def test_another_change_is_posted_and_refused_until_half_an_hour_of_table_time():
    # 19:47-8.3(b): posted with the time it takes effect, applied 30 minutes later.
    ctl, hal = table("rules-posted")
    assert RULE_NOTICE == 30
    assert ctl.handle("rules", {"small_bet": 4, "big_bet": 8}) is None
    posted = events(hal, "rules")[-1]
    assert posted["state"] == "posted" and posted["at"] == 30
    text = sign(ctl, hal)
    assert "Bets: 2, then 4" in text
    assert "Rule change at table minute 30 (in 30 minutes):\n  Bets: 4, then 8" in text
    assert ctl.handle("clock", {"minutes": 29}) is None
    assert ctl.config.structure.small_bet == 2          # not yet: the old rules play
    start_round(ctl)
    assert [p["amount"] for p in events(hal, "post")] == [1, 2]
    ctl.round = None
    ctl.state = IDLE                                    # the round ends (a test's shortcut)
    assert ctl.handle("clock", {"minutes": 30}) is None
    assert ctl.config.structure.small_bet == 4 and ctl.coming is None
    assert events(hal, "rules")[-1] == {"e": "rules", "state": "in_effect",
                                        "changes": {"small_bet": 4, "big_bet": 8}}
    assert "Bets: 4, then 8" in sign(ctl, hal) and "Rule change" not in sign(ctl, hal)


def test_a_posted_change_takes_effect_at_the_next_deal_after_its_time():
    ctl, hal = table("rules-at-deal")
    assert ctl.handle("rules", {"cap": 3}) is None
    ctl.minutes = 45          # the clock moved on during a round (applied when idle)
    assert ctl.handle("dealer", {"b": "deal"}) is None
    assert ctl.config.structure.cap == 3


def test_refused_changes_change_nothing():
    ctl, hal = table("rules-refused")
    before = ctl.config.as_dict()
    assert "a new table is a cfg" in ctl.handle("rules", {"stacks": [5, 5, 5, 5]})
    assert "unknown setting" in ctl.handle("rules", {"colour": "green"})
    assert "13:47-20.37" in ctl.handle("rules", {"rake": {"method": "percent", "percent": 11}})
    assert "19:47-8.2" in ctl.handle("rules", {"max_wager": 5})
    start_round(ctl)
    assert "wait until the round is over" in ctl.handle("rules", {"cap": 3})
    assert ctl.config.as_dict() == before and ctl.coming is None


def test_a_change_the_table_no_longer_allows_when_its_time_comes_is_dropped():
    ctl, hal = table("rules-dropped")
    assert ctl.handle("rules", {"small_bet": 10, "big_bet": 20}) is None
    assert ctl.handle("rules", {"min_wager": 1, "max_wager": 10}) is None   # at once
    assert "not possible now" in sign(ctl, hal)
    assert ctl.handle("clock", {"minutes": 30}) is None
    dropped = events(hal, "rules")[-1]
    assert dropped["state"] == "dropped" and "maximum wager" in dropped["why"]
    assert ctl.config.structure.big_bet == 4 and ctl.coming is None


def test_a_posted_change_survives_a_power_cut():
    path = journal_path("rules-power-cut")
    ctl, _ = boot(path)
    assert ctl.handle("cfg", CFG) is None
    assert ctl.handle("rules", {"big_bet": 6}) is None
    ctl2, hal2 = boot(path)
    assert ctl2.locked is None and ctl2.coming == {"rules": {"big_bet": 6}, "at": 30}
    assert ctl2.handle("clock", {"minutes": 30}) is None
    assert ctl2.config.structure.big_bet == 6


def test_a_rule_set_to_null_goes_back_to_its_default():
    # Null is the setting's default, in rules as in cfg (a setting left out of a rule
    # change keeps its value).
    ctl, hal = table("rules-null")
    assert ctl.handle("rules", {"min_wager": 1, "max_wager": 40}) is None
    assert ctl.handle("rules", {"min_wager": None}) is None           # at once (8.3(c))
    assert ctl.config.min_wager == 2 and ctl.config.max_wager == 40   # the small bet
    assert ctl.handle("rules", {"max_wager": None}) is None
    assert ctl.config.max_wager is None                               # table stakes
    assert "no maximum wager: table stakes" in sign(ctl, hal)
    assert ctl.handle("rules", {"blinds": None}) is None              # posted (8.3(b))
    assert ctl.coming == {"rules": {"blinds": None}, "at": RULE_NOTICE}
    assert ctl.handle("clock", {"minutes": RULE_NOTICE}) is None
    assert ctl.config.structure.blinds == ()
