"""What a table seldom does: the dealer's reports about the round under way
(13:47-20.38), the decks retired and registered again (13:47-20.38(h)), the host's link
lost and found, play locked, the time charges due.  Loaded for one and forgotten after (felt.lazy), as the
controller's `cold`.  Each function takes the controller and its argument.
"""

from felt.table.states import PLAYING


def panel(ctl, bp):
    """A dealer-panel report about the round under way (13:47-20.38): `bp`, the button
    and the dealer message."""
    b, p = bp
    if ctl.state != PLAYING:
        return "no round under way for %s" % b
    if b == "misdeal":
        event = ("misdeal", p.get("why", "wrong_start"))
    elif b == "dead_round":
        event = ("dead", p.get("why", "missing card"))
    elif b in ("player_away", "foul"):
        if "seat" not in p:
            return "say which seat"
        event = ("away" if b == "player_away" else "foul", p["seat"])
    else:
        code = p.get("card", ctl.last_card)
        if code is None:
            return "no card read yet to report"
        if b == "exposed" and ctl.round.variant.stud():
            event = ("exposed", code)
        else:
            event = ("replace", code, b)
    reason = ctl.round.why_not(event)
    if reason is None:
        ctl.apply(event)
    return reason


def retire_deck(ctl, why):
    """Seal the deck in play and report it, `why` (13:47-20.38(h)); the other to the table."""
    sealed = ctl.decks.name()
    other = ctl.decks.retire()
    ctl.record("deck_retired", "deck %s: %s" % (sealed, why))
    ctl.irregularity("deck_retired", "13:47-20.38(h)",
                      "deck %s sealed and reported (%s); %s" % (
                          sealed, why, "deck %s to the table" % other if other
                          else "no deck left: a technician registers one"))


def register_deck(ctl, p):
    """A technician registers a checked deck anew (13:47-20.38(h))."""
    reason = ctl.decks.register(p["register"])
    if reason is None:
        ctl.evt({"e": "deck", "registered": p["register"], "in_play": ctl.decks.name()})
        ctl.record("deck_registered", "deck %s" % p["register"])
    return reason


def link_lost(ctl, lost):
    """The host fell silent, or is heard again (Controller.link_lost, which set
    link_down)."""
    ctl.record("link_lost" if lost else "link_restored",
               "the host fell silent" if lost else "the host is heard again")
    ctl.evt({"e": "link", "lost": lost})
    ctl.render()


def lock(ctl, why_code):
    """Play stops (Controller.lock, which set locked): why, with the event log's code
    (docs/tilts.md), which the link's `locked` event names too."""
    why, code = why_code
    ctl.record(code, why)
    ctl.evt({"e": "locked", "code": code, "why": why})
    ctl.render()


def time_charges(ctl, rake):
    """13:47-20.37(a)4iii: the hourly fee due, from every seated player (inactive ones
    too) or shared by the table."""
    while ctl.charged < ctl.minutes // rake.every:
        per_player, per_table = rake.time_charge(None)
        seated = [s for s in range(len(ctl.stacks)) if ctl.stacks[s] > 0]
        charges = [0] * len(ctl.stacks)
        for s in seated:
            charges[s] = per_player
        if per_table and seated:
            # Shared by the seated players; the odd chips from the first seats.
            each, odd = divmod(per_table, len(seated))
            for i, s in enumerate(seated):
                charges[s] = each + (1 if i < odd else 0)
        taken = ctl.charge(charges)      # assessed, with no one seated too
        if seated:
            ctl.evt({"e": "time_charge", "charges": taken})


def fault(ctl, kind_e_mark):
    """A handler raised what no check does: a bug of the firmware, not the input
    (docs/tilts.md, internal_fault).  What the input changed is put back (the mark
    Controller.handle took), the table locks, the event log keeps the exception's type
    and where it was raised (the traceback goes to stderr), and the host sees the lock,
    not a refusal.  An input already journaled is in the journal: the next boot
    resumes with it, and it is answered as applied (Controller._fault)."""
    from felt import guard
    from felt.table.journal import brief
    kind, e, mark = kind_e_mark
    if mark is not None:
        ctl.restore(mark)
    guard.print_traceback(e)
    why = brief("internal fault: %s, handling %s" % (place(e), kind))
    if ctl.locked is None:
        ctl.lock(why, "internal_fault")
    else:
        ctl.record("internal_fault", why)
    ctl.render()


def place(e):
    """`e`'s type and where it was raised, the innermost frame of its traceback:
    "TypeError in button (felt/table/poker_table.py)".  The function and the file
    only: the same on every runtime (a board's .mpy files keep no line numbers)."""
    import io
    from felt import guard
    text = io.StringIO()
    guard.print_traceback(e, text)
    where = ""
    for line in text.getvalue().split("\n"):
        line = line.strip()
        if line.startswith('File "'):
            where = line
    name = type(e).__name__
    if not where:
        return name
    path = where[6:where.find('"', 6)]
    # The firmware's files from felt/ on, wherever the package sits (a frozen image's
    # are named so already); any other file by its name alone.
    import felt
    top = getattr(felt, "__file__", "felt/")
    top = top[:top.rfind("felt/")]
    if not path.startswith(top + "felt/") and not path.startswith("felt/"):
        path = path[path.rfind("/") + 1:]
    elif top and path.startswith(top):
        path = path[len(top):]
    func = where[where.rfind(" in ") + 4:] if " in " in where else "?"
    return "%s in %s (%s)" % (name, func, path)
