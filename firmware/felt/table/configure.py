"""Configuring the table, changing its rules (19:47-8.3) and writing its sign: seldom
done, so loaded for it and forgotten after (felt.lazy), as the controller's `cold`.
Each function takes the controller and the message's payload, and returns None or why
not; a refusal changes nothing.
"""

from felt import lazy
from felt.poker.structure import ConfigError
from felt.table.states import IDLE, is_banked

CONFIG = "felt.table.config"   # reading a configuration, writing the sign (felt.lazy)
RULE_NOTICE = 30           # minutes a rule change is posted before it applies (19:47-8.3(b))
AT_ONCE = ("min_wager", "max_wager")   # changes that apply when posted (19:47-8.3(c))


def new_table(ctl, p):
    """`cfg`: a new table, between rounds."""
    if ctl.state != IDLE:
        return "configuration changes wait until the round is over"
    cfg = _read(ctl, p)
    if isinstance(cfg, str):
        return cfg
    ctl.new_table(cfg)
    load_rules(ctl)
    return None


def rules(ctl, p):
    """`rules`: a change of the table's rules (19:47-8.3), between rounds: the minimum
    and maximum wagers at once ((c)); any other change is posted on the sign with the
    time it applies, and applies RULE_NOTICE minutes of table time later ((b))."""
    if ctl.config is None:
        return "no table configuration: send cfg first"
    if ctl.state != IDLE:
        return "rule changes wait until the round is over"
    if not p:
        return "rules: say which settings change"
    if "seats" in p or "stacks" in p:
        return "a rule change keeps the seats and the stacks: a new table is a cfg"
    cfg = _changed(ctl, p)
    if isinstance(cfg, str):
        return cfg
    if not [k for k in p if k not in AT_ONCE]:
        ctl.time_charges()
        _apply(ctl, cfg)
        ctl.evt({"e": "rules", "state": "in_effect", "changes": p})
        return None
    ctl.post({"rules": p, "at": ctl.minutes + RULE_NOTICE})
    ctl.evt({"e": "rules", "state": "posted", "changes": p, "at": ctl.coming["at"]})
    return None


def due(ctl, p=None):
    """The posted rule change, its time come, applies (between rounds)."""
    changes = ctl.coming["rules"]
    ctl.post(None)
    ctl.time_charges()      # what is due under the old rules first
    cfg = _changed(ctl, changes)
    if isinstance(cfg, str):
        # The table changed since it was posted (a new maximum wager, say).
        ctl.evt({"e": "rules", "state": "dropped", "changes": changes, "why": cfg})
        return
    _apply(ctl, cfg)
    ctl.evt({"e": "rules", "state": "in_effect", "changes": changes})


def sign(ctl, p):
    """`sign`: the posted sign, with a rule change coming and when."""
    if ctl.config is None:
        return "no table configuration: send cfg first"
    c = ctl.coming or {"rules": (), "at": 0}
    coming = _changed(ctl, c["rules"]) if ctl.coming else None
    text = lazy.load(CONFIG).sign(ctl.config, coming, c["at"], ctl.minutes, c["rules"])
    lazy.forget(CONFIG)
    ctl.hal.link.send("sign", {"text": text})
    return None


def _apply(ctl, cfg):
    ctl.use_rules(cfg)
    load_rules(ctl)


# The kind map: the game's table of each kind of table (felt.table.states.is_banked), a
# module of the table interface (felt.table.controller), loaded by name (felt.lazy).
TABLES = ("felt.table.poker_table", "felt.table.banked_table")


def table_of(of):
    """The game's table of the kind a configuration, or a round's journal header, is of."""
    return TABLES[1 if is_banked(of) else 0]


def load_rules(ctl):
    """The game's table the configuration plays by, loaded (felt.lazy) with its rules,
    the other kind's forgotten with its rules (at a new configuration, and when the
    table resumes at boot)."""
    kind = None if ctl.config is None else table_of(ctl.config)
    if ctl.game is not None and ctl.game.__name__ != kind:
        ctl.game.forget()
        lazy.forget(ctl.game.__name__)
        ctl.play(None)
    if kind is not None:
        ctl.play(lazy.load(kind))
        ctl.game.configured(ctl)


def _changed(ctl, changes):
    """The configuration with `changes` made, or why not."""
    d = ctl.config.as_dict()
    d.update(changes)
    d["stacks"] = list(ctl.stacks)
    return _read(ctl, d)


def _read(ctl, d):
    """A TableConfig from `d`, or why not (ConfigError's sentence)."""
    try:
        cfg = lazy.load(CONFIG).from_dict(d, len(ctl.leds["seats"]))
    except ConfigError as e:
        return str(e)
    finally:
        lazy.forget(CONFIG)
    if ctl.own_devices and not is_banked(cfg) and ctl.hal.muck is None and \
            [st for st in cfg.variant.steps if st[0] == "draw" or st[0] == "discard"]:
        # Its devices are its own: the link may not say the cards, the muck reader does.
        return "%s needs the players' discards, and this board has no muck reader" % (
            cfg.game)
    return cfg
