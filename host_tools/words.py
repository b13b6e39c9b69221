"""The table's events in words, one line each: for the terminal view and felt-console."""


def event_line(e):
    """One log line for a firmware event, or None for those not worth a line."""
    k = e["e"]
    if k == "hand":
        if e["button"] < 0:
            return "hand %d" % e["hand"]
        return "hand %d: button on seat %d" % (e["hand"], e["button"])
    if k == "button":
        return "button to seat %d (%s)" % (e["seat"], e["how"])
    if k == "post":
        return "seat %d posts %s %d%s" % (e["seat"], e["kind"], e["amount"],
                                          " (all-in)" if e["all_in"] else "")
    if k == "dealt":
        if e["what"] == "burn":
            return None
        if e["what"] == "board":
            return "board card %s" % e["card"]
        if e["seat"] < 0:
            return "dealer's card %s" % e["card"] if e["what"] == "dealer" else None
        return "seat %d %s card %s" % (e["seat"], e["what"], e["card"])
    if k == "to_act":
        return "seat %d to act: %s" % (e["seat"], "/".join(e["legal"]))
    if k == "action":
        amt = " +%d" % e["amount"] if e["amount"] else ""   # the chips it put in
        return "seat %d %ss%s%s" % (e["seat"], e["a"], amt, " (all-in)" if e["all_in"] else "")
    if k == "return":
        if "kind" in e:
            return "seat %d gets its %s wager of %d back (%s)" % (
                e["seat"], _kind(e["kind"]), e["amount"], e["section"])
        return "seat %d gets %d back" % (e["seat"], e["amount"])
    if k == "street":
        return "── %s ──" % e["name"]
    if k == "show":
        return "%s shows %s: %s" % (_who(e["seat"]), e["cards"], e["hand"])
    if k == "award":
        pot = "side pot %d" % e["pot"] if e["pot"] else "main pot"
        return "seat %d wins %d from the %s" % (e["seat"], e["amount"], pot)
    if k == "end":
        line = "hand %d over: winners %s, stacks %s" % (
            e["hand"], ",".join(map(str, e["winners"])), " ".join(map(str, e["stacks"])))
        if "house" in e:
            line += ", the house %+d this round, %+d in all" % (e["house_round"], e["house"])
        return line
    if k == "refused":
        return None if e["what"] == "btn" else "%s refused: %s" % (e["what"], e["why"])
    if k == "irregularity":
        return "irregularity %s: %s (%s)" % (e["kind"], e["detail"], e["section"])
    if k == "refund":
        return "seat %d gets %d back" % (e["seat"], e["amount"])
    if k in BANKED:
        return _banked_line(e)
    if k == "dead_hand":
        return "seat %d's hand is dead" % e["seat"]
    if k == "exposed":
        return "seat %d's %s exposed" % (e["seat"], e["card"])
    if k == "discarded":
        if e["seat"] < 0:
            return "%s to the discards" % e["cards"]
        return "seat %d discards %s" % (e["seat"], e["cards"])
    if k == "waiting":
        return "waiting for the %s (deck %s)" % (e["for"].replace("_", " "), e["deck"])
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
    return repr(e)


# The house-banked tables' events (docs/protocol.md, 6.4).

BANKED = ("wagers", "wager", "decide", "fold", "check", "held", "collect", "pay", "muck")
KINDS = {"ante": "ante", "aces_up": "aces up", "play": "play", "bonus": "bonus",
         "flop": "flop", "turn": "turn", "river": "river", "ante_bonus": "ante bonus"}


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
    return None     # muck: the hand to the discard rack
