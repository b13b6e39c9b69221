"""What the floor's page shows of what is stored, in words: a table's row and retained
state, its rounds, a round step by step, the CSV report.  Whatever a stored value is
(a number where words were due, an object where a number was, a time past the year
9999, ten kilobytes of text), it is shown as what it is, cut short, or as "?": nothing
stored makes the page fail to draw.  Times are the floor's clock, in one format."""

import csv
import datetime
import io
import json
import math

from host_tools.floor.store import NO_FIGURES
from host_tools.floorlink.table_state import TableState
from host_tools.words import event_line

SILENT_S = 30           # an online table not heard from for this long is "silent"
STATUSES = ("playing", "idle", "tilted", "locked")
WHOLE = 2 ** 63         # whole numbers past this are not a count of anything
SEATS = 64              # at most this many seats drawn


def clock(at):
    """A time as the page says it: the floor's local time, "YYYY-MM-DD HH:MM:SS"."""
    if isinstance(at, bool) or not isinstance(at, (int, float)) or not math.isfinite(at):
        return "not a time"
    try:
        return datetime.datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return "not a time"


def duration(seconds):
    """A length of time in words: "45 s", "3 min 20 s", "5 h 2 min", "2 d 3 h"."""
    s = int(abs(seconds))
    d, h, m = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if d:
        return "%d d %d h" % (d, h)
    if h:
        return "%d h %d min" % (h, m)
    return "%d min %d s" % (m, s % 60) if m else "%d s" % s


def whole(value):
    """The value if it is a whole number a count could be, else None."""
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= WHOLE:
        return None
    return value


def text(value, limit=80):
    """Any stored value as text of `limit` characters at most ("" for none)."""
    if value is None:
        return ""
    said = value if isinstance(value, str) else json.dumps(value, default=str)
    return said if len(said) <= limit else said[:limit - 1] + "…"


def number(value):
    """A whole number as text, anything else as "?"."""
    return "?" if whole(value) is None else str(value)


def _finite(value):
    """The value if it is a finite number, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value):
        return None
    return value


def _time(value):
    """The value if it is a time the page can say, else None."""
    return value if clock(value) != "not a time" else None


def clean_state(state):
    """A table's retained state with each field of its type, or None (its words cut
    short): what the page draws from."""
    s = state if isinstance(state, dict) else {}
    tilt = s.get("tilt")
    stacks = s.get("stacks")
    return {
        "game": text(s.get("game"), 40) or None,
        "stakes": text(s.get("stakes"), 60) or None,
        "seats": whole(s.get("seats")),
        "status": s.get("status") if s.get("status") in STATUSES else None,
        "hand": whole(s.get("hand")), "button": whole(s.get("button")),
        "stacks": [whole(v) for v in stacks[:SEATS]] if isinstance(stacks, list) else [],
        "pot": whole(s.get("pot")), "to_act": whole(s.get("to_act")),
        "tilt": {"code": text(tilt.get("code"), 64), "why": text(tilt.get("why"), 300),
                 "clears": text(tilt.get("clears"), 200)} if isinstance(tilt, dict) else None,
        "hands": whole(s.get("hands")), "rake": whole(s.get("rake")),
        "house": whole(s.get("house")), "board": text(s.get("board"), 40),
        "centre": text(s.get("centre"), 40) or None, "at": _time(s.get("at"))}


def clean_figures(figures):
    f = figures if isinstance(figures, dict) else NO_FIGURES
    return {k: (whole(f.get(k)) if k == "house" else whole(f.get(k)) or 0)
            for k in NO_FIGURES}


def table_status(row, s, now):
    """(status, in words) of a table, from its row and its state cleaned: offline (its
    last will, or its goodbye), silent (online, but not heard from for SILENT_S), else
    as its state says."""
    last_seen = _time(row.get("last_seen"))
    if not row.get("online"):
        return "offline", "offline since %s" % clock(row.get("since"))
    if last_seen is None or now - last_seen > SILENT_S:
        return "silent", "silent since %s" % clock(last_seen)
    return s["status"] or "idle", s["status"] or "idle"


def table_view(row, figures, now):
    """A table as the page draws it, from its row (store.table_rows) and this shift's
    figures (store.shifts): its state and figures cleaned, and the words for each."""
    s = clean_state(row.get("state"))
    f = clean_figures(figures.get(row["name"], NO_FIGURES))
    status, status_text = table_status(row, s, now)
    tilt = ""
    if s["tilt"] and status in ("tilted", "locked"):
        tilt = "%s: %s: %s (cleared by %s)" % (status, s["tilt"]["code"], s["tilt"]["why"],
                                               s["tilt"]["clears"])
    notes = []
    off = row.get("clock_off")
    if off is not None:
        notes.append("clock off by %s" % (duration(off) if _finite(off) is not None
                                          else "?"))
    return {"name": text(row["name"], 64), "online": bool(row.get("online")),
            "status": status, "status_text": status_text,
            "about": ", ".join(v for v in (s["game"], s["stakes"]) if v),
            "tilt": tilt, "notes": notes,
            "seats": seats(s), "centre": s["centre"], "middle": middle(s),
            "figures": "this shift: %d hands (%d in the last hour), %s, %d tilts" % (
                f["hands"], f["hands_per_hour"], "rake %d" % f["rake"] if f["house"] is None
                else "house %+d" % f["house"], f["tilts"]),
            "heard": clock(row.get("last_seen")), "since": clock(row.get("since")),
            "first_seen": clock(row.get("first_seen")), "state": s, "shift": f}


def seats(s):
    """Each seat as the felt shows it: "D 3: 200" (the button's), whose action it is."""
    return [{"label": "%s%d: %s" % ("D " if seat == s["button"] else "", seat, number(stack)),
             "act": seat == s["to_act"]} for seat, stack in enumerate(s["stacks"])]


def middle(s):
    """The felt's middle in words: the LEDs' scene, the pot, the board, the hand."""
    return "%s · pot %s%s%s" % (s["centre"] or "no LEDs yet", number(s["pot"] or 0),
                                " · " + s["board"] if s["board"] else "",
                                " · hand %d" % s["hand"] if s["hand"] is not None else "")


def round_row(r):
    """A stored round (store.rounds_between) in words, with its key for its links."""
    winners = r.get("winners")
    return {"ended": clock(r.get("at")), "hand": number(r.get("hand")),
            "winners": text(" ".join(number(w) for w in winners), 80)
            if isinstance(winners, list) else text(winners),
            "rake": number(r.get("rake")),
            "house": "" if r.get("house") is None else number(r.get("house")),
            "called_off": text(r.get("called_off"), 40),
            "run": text(r.get("run"), 64), "n": whole(r.get("n"))}


def event_row(at, e):
    """A stored event in words (host_tools.words), at its time."""
    return {"at": clock(at), "line": text(event_line(e) if isinstance(e, dict) else e, 300)}


def replay_steps(table, stored):
    """A stored round as steps: each event in words, with the felt as the floor saw it
    then (TableState over the round's events).  An event the felt cannot follow (a
    field of another type) is said, and the felt stays as it was."""
    state = TableState(table)
    steps = []
    for _, at, e in stored:
        followed = True
        try:
            state.event(e)
        except (KeyError, TypeError, ValueError, AttributeError):
            followed = False
        s = clean_state(state.snapshot())
        step = event_row(at, e)
        if not followed:
            step["line"] += " (not shown on the felt: a field of another kind)"
        step["felt"] = {"status": s["status"], "hand": s["hand"], "pot": s["pot"],
                        "board": s["board"], "middle": middle(s),
                        "seats": seats(s)}
        steps.append(step)
    return steps


def _cell(value):
    """Stored text as a CSV cell a spreadsheet takes as text, never as a formula."""
    said = text(value, 200)
    return "'" + said if said[:1] in ("=", "+", "-", "@", "\t", "\r") else said


def report(rounds):
    """Rounds (store.rounds_between) as CSV text, one a line."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["table", "ended", "hand", "winners", "rake", "house", "called_off"])
    for r in rounds:
        row = round_row(r)
        w.writerow([r["table_name"], row["ended"], row["hand"], _cell(row["winners"]),
                    row["rake"], row["house"], _cell(row["called_off"])])
    return out.getvalue()
