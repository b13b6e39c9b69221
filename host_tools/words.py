"""The table's events in words, one line each: for the terminal view and felt-console.

Every event kind of docs/protocol.md has its sentence; an event of a kind this module
does not know yet still comes out as words (`fallback_line`), never as a raw dict.
"""

VERBS = {"bring_in": "brings in", "decline": "declines the straddle",
         "run_it": "agrees to run the board again", "run_once": "wants the board once"}
# else a + "s"
SHARES = {"high": "the high half of ", "low": "the low half of "}


# What the table waits for, by the centre LEDs' status (felt.table.scenes.CENTRE_NAMES),
# and what to do about it: the view's words under the LED strip.
CENTRE_HINTS = {
    "idle": "between rounds: deal (d)",
    "shuffling": "the shuffler is shuffling the next deck",
    "dealing": "the shoe deals the cards asked for",
    "betting": "the seat to act presses its buttons",
    "hand shuffle": "the shuffler failed: remove it and shuffle by hand (13:47-20.38(o), (p))",
    "cut": "the dealer cuts the deck",
    "called off": "the round was called off, every wager returned",
    "remove the shoe": "the shoe failed: remove it (19:47-27.12(g))",
    "no deck": "both decks retired: a technician registers one (13:47-20.38(h))",
    "irregularity": "a card irregularity was handled: the log says which",
    "locked": "play stopped: the log says why, a technician clears it (docs/tilts.md)",
}


# What clears each tilt that locks a table (docs/tilts.md), said on the view's banner.
TILT_CLEARS = {
    "critical_memory": "a technician reads the journal, then clears it (felt-tech ... clear)",
    "journal_write_failed": "a technician checks the flash, then clears it (felt-tech ... "
                            "clear)",
    "internal_fault": "a technician reads the event log and reboots the board, or clears it",
    "program_check_failed": "a technician installs a signed image",
}


def banner(e):
    """The banner for an event that stops play or calls a round off, or None: what
    happened, the section, and what clears it (issue 22: they were log lines only)."""
    k = e.get("e")
    if k == "locked":
        code = e.get("code") or "locked"
        return "TILT %s: %s. Cleared by: %s" % (
            code_words(code), e.get("why", ""), TILT_CLEARS.get(code, "a technician"))
    if k == "irregularity":
        return "IRREGULARITY %s: %s (%s). The dealer goes on as the table says" % (
            code_words(e["kind"]), code_words(e["detail"]), e["section"])
    return None


def seat_words(status):
    """A seat's status as its LEDs show it (felt.table.scenes), in words."""
    from felt.table.scenes import SEAT_NAMES
    if not 0 <= status < len(SEAT_NAMES):
        return "unknown colour"
    return "to act" if SEAT_NAMES[status] == "action" else SEAT_NAMES[status]


def code_words(code):
    """A code of the protocol as people say it: "skipped_seat" as "skipped seat"."""
    return str(code).replace("_", " ")


def alternatives(codes):
    """Codes as a choice in words: "bring in or bet", "fold, call or raise"."""
    said = [code_words(c) for c in codes]
    return " or ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)


def value_words(v):
    """A field's value in words: lists and settings without brackets or braces."""
    if isinstance(v, dict):
        return ", ".join("%s %s" % (code_words(k), value_words(v[k])) for k in sorted(v))
    if isinstance(v, (list, tuple)):
        return "/".join(value_words(x) for x in v) if v else "none"
    if v is None:
        return "none"
    if v is True or v is False:
        return "yes" if v else "no"
    return str(v)


def fallback_line(e):
    """An event of a kind without a sentence of its own: its kind and fields, in words."""
    fields = "; ".join("%s %s" % (code_words(k), value_words(e[k]))
                       for k in sorted(e) if k != "e")
    return "%s%s" % (code_words(e.get("e", "event")), ": " + fields if fields else "")


class Narrator:
    """A table's events in words, one after another (event_line), saying a bet or raise
    as the seat's total on the street ("raises to 4"), as hand histories and the view's
    amount do: its event gives the chips it added.  After a power cut mid-street the
    totals before it are unknown, so until the next street a bet says what it added."""

    def __init__(self):
        self.put = {}           # seat: chips put in on this street (blinds included)
        self.known = True

    def line(self, e):
        try:
            return self._total(e) or event_line(e)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return event_line(e)

    def _total(self, e):
        k = e["e"]
        if k in ("hand", "street"):
            self.put, self.known = {}, True
        elif k == "resumed" and e["state"] == "playing":
            self.known = False
        elif k == "action" or k == "post" and e["kind"] != "ante":
            seat = e["seat"]
            self.put[seat] = self.put.get(seat, 0) + e["amount"]
            if k == "action" and e["a"] in ("bet", "raise") and self.known:
                return "seat %d %ss to %d%s" % (seat, e["a"], self.put[seat],
                                                 " (all-in)" if e["all_in"] else "")
        return None


def pot_name(pot):
    return "side pot %d" % pot if pot else "main pot"


def event_line(e):
    """One log line for a firmware event, in words: never a raw dict, whatever its kind."""
    try:
        return _line(e)
    except (KeyError, TypeError, ValueError, IndexError):
        return fallback_line(e)     # a field missing or of another shape: still words


def _line(e):
    k = e["e"]
    if k == "hand":
        from felt.table.states import is_banked
        if is_banked(e):    # a house-banked table: the dealer deals from a fixed place
            return "hand %d: the dealer against %d seats" % (
                e["hand"], sum(1 for ante, _ in e["wagers"] if ante))
        if e["button"] < 0:
            return "hand %d (no button in stud)" % e["hand"]
        return "hand %d: button on seat %d" % (e["hand"], e["button"])
    if k == "button":
        return "button to seat %d (%s)" % (e["seat"], code_words(e["how"]))
    if k == "post":
        return "seat %d posts %s %d%s" % (e["seat"], code_words(e["kind"]), e["amount"],
                                          " (all-in)" if e["all_in"] else "")
    if k == "dealt":
        card = e.get("card")        # none where a wired board keeps it (docs/security.md)
        if e["what"] == "burn":
            return "a card burnt (%s)" % card if card else "a card burnt"
        if e["what"] == "board":
            return "board card %s" % card
        if e["what"] == "button":
            return "seat %d draws %s for the button" % (e["seat"], card)
        if e["what"] == "dealer":
            # Face down until the dealer's hand is shown, as the view shows it (issue 22:
            # the log named a card the view hid).
            return "the dealer's card (face down)"
        return "seat %d %s card %s" % (e["seat"], e["what"], card or "(face down)")
    if k == "to_act":
        line = "seat %d to act: %s" % (e["seat"], alternatives(e["legal"]))
        if "min" in e:
            line += " (bet or raise to %d..%d)" % (e["min"], e["max"])
        return line
    if k == "action":
        # The chips it put in: a bet or raise by so much (Narrator says it as a total).
        amt = (" +%d" if e["a"] in ("bet", "raise") else " %d") % e["amount"] \
            if e["amount"] else ""
        return "seat %d %s%s%s" % (e["seat"], VERBS.get(e["a"], e["a"] + "s"), amt,
                                   " (all-in)" if e["all_in"] else "")
    if k == "return":
        if "kind" in e:      # a banked table's wager that neither wins nor loses
            return "seat %d gets its %s wager of %d back (%s)" % (
                e["seat"], _kind(e["kind"]), e["amount"], e["section"])
        return "seat %d's uncalled %d goes back" % (e["seat"], e["amount"])
    if k == "refund":
        return "seat %d gets %d back" % (e["seat"], e["amount"])
    if k == "street":
        return "── %s ──" % e["name"]
    if k == "runout":
        return "── runout %d of %d: %s ──" % (e["n"], e["of"], e["board"] or "no board yet")
    if k == "show":
        hands = [e[h] for h in ("hand", "low_hand") if e.get(h)]
        if e.get("low_hand"):
            hands[-1] = "low " + hands[-1]
        return "%s shows %s: %s" % (_who(e["seat"]), e["cards"] or "no cards",
                                    ", ".join(hands) or "no qualifying hand")
    if k == "award":
        share = e.get("share", "all")
        if share in SHARES:
            return "seat %d wins %d, %s%s" % (e["seat"], e["amount"], SHARES[share],
                                              "the " + pot_name(e["pot"]))
        return "seat %d wins %d from the %s" % (e["seat"], e["amount"], pot_name(e["pot"]))
    if k == "record":       # the floor's copy of a round's record (host_tools.floorlink.records)
        return "hand %d's record (%s) kept" % (
            e["hand"], "hand history" if e["format"] == "phh" else "house-banked record")
    if k == "end":
        off = e.get("called_off")
        line = "hand %d %s: %s, stacks %s" % (
            e["hand"], "called off (%s)" % off if off else "over",
            "winners " + ",".join(map(str, e["winners"])) if e["winners"] else "no winner",
            " ".join(map(str, e["stacks"])))
        if "house" in e:     # a banked table: what the house won or lost
            line += ", the house %+d this round, %+d in all" % (e["house_round"], e["house"])
        return line
    if k == "refused":
        return "%s refused: %s" % (e["what"], e["why"])
    if k == "irregularity":
        return "irregularity, %s: %s (%s)" % (code_words(e["kind"]), code_words(e["detail"]),
                                               e["section"])
    if k in BANKED:
        return _banked_line(e)
    if k == "dead_hand":
        return "seat %d's hand is dead" % e["seat"]
    if k == "exposed":
        return "seat %d's %s exposed" % (e["seat"], e["card"])
    if k == "discarded":
        if e["seat"] < 0:
            return "%s to the discards" % e["cards"]
        if "count" in e:           # a wired board names no card thrown away face down
            return "seat %d discards %d card%s" % (e["seat"], e["count"],
                                                    "" if e["count"] == 1 else "s")
        if not e["cards"]:
            return "seat %d stands pat" % e["seat"]
        return "seat %d discards %s" % (e["seat"], e["cards"])
    if k == "waiting":
        return "waiting for the %s (deck %s)" % (code_words(e["for"]), e["deck"])
    if k == "shuffled":
        return "deck %s shuffled (%s)" % (e["deck"], "by hand" if e["how"] == "hand"
                                          else "shuffler")
    if k == "shuffler":
        return "shuffler %s" % ("refitted" if e["present"] else "removed from the table")
    if k == "shoe":
        return "dealing shoe %s" % ("fitted" if e["present"] else "removed from the table")
    if k == "deck":
        return "deck %s registered; deck %s in play" % (e["registered"], e["in_play"])
    if k == "reshuffle":
        return "reshuffled into the stub: %s" % e["cards"]
    if k == "rake":
        return "rake %d" % e["amount"]
    if k == "time_charge":
        charged = ["seat %d pays %d" % (s, c) for s, c in enumerate(e["charges"]) if c]
        return "time charges: %s" % (", ".join(charged) or "none")
    if k == "link":
        return ("the host link is lost: play waits for it" if e["lost"]
                else "the host link is back")
    if k == "locked":
        return "the table is locked%s: %s" % (" (%s)" % code_words(e["code"]) if e.get("code")
                                              else "",
                                              e["why"])
    if k == "cleared":
        return "a technician cleared the tilt; the journal as found kept as %s" % e["kept"]
    if k == "resumed":
        if e["state"] == "playing":
            return "the table resumed hand %d from its journal (%d events replayed)" % (
                e["hand"], e["events"])
        return "the table resumed between rounds from its journal (after hand %d)" % e["hand"]
    if k == "rules":
        changes = value_words(e["changes"])
        if e["state"] == "posted":
            return "rule change posted: %s, from table minute %d" % (changes, e["at"])
        if e["state"] == "dropped":
            return "posted rule change dropped (%s): %s" % (e["why"], changes)
        return "rule change in effect: %s" % changes
    return fallback_line(e)


# The house-banked tables' events (docs/protocol.md, 6.4).

BANKED = ("wagers", "wager", "decide", "fold", "check", "held", "collect", "pay", "muck")
KINDS = {"aces_up": "aces up", "ante_bonus": "ante bonus"}   # else the kind as it is


def _kind(kind):
    return KINDS.get(kind, kind)


def _who(seat):
    return "the dealer" if seat < 0 else "seat %d" % seat


def _banked_line(e):
    k = e["e"]
    if k == "wagers":
        if not e["ante"] and not e["side"]:
            return "seat %d sits out" % e["seat"]
        return "seat %d wagers an ante of %d%s" % (
            e["seat"], e["ante"], " and a side wager of %d" % e["side"] if e["side"] else "")
    if k == "wager":
        return "seat %d puts %d on the %s" % (e["seat"], e["amount"], _kind(e["kind"]))
    if k == "decide":
        return "%s: seats %s decide" % (e["name"], ",".join(map(str, e["seats"])))
    if k == "fold":
        return "seat %d folds" % e["seat"]
    if k == "check":
        return "seat %d checks" % e["seat"]
    if k == "held":
        return "%s drawn in error: the next card used (%s)" % (e["card"], e["section"])
    if k == "collect":
        return "the house takes seat %d's %s wager of %d (%s)" % (
            e["seat"], _kind(e["kind"]), e["amount"], e["section"])
    if k == "pay":
        return "the house pays seat %d %d on the %s (%s)" % (
            e["seat"], e["amount"], _kind(e["kind"]), e["section"])
    return "%s's hand goes to the discards" % _who(e["seat"])     # muck
