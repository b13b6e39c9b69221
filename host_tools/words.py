"""The table's events in words, one line each: for the terminal view and felt-console."""

import json


def event_line(e):
    """One log line for a firmware event, or None for those not worth a line."""
    k = e["e"]
    if k == "hand":
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
        return "seat %d %s card %s" % (e["seat"], e["what"], e["card"])
    if k == "to_act":
        return "seat %d to act: %s" % (e["seat"], "/".join(e["legal"]))
    if k == "action":
        amt = " +%d" % e["amount"] if e["amount"] else ""   # the chips it put in
        return "seat %d %ss%s%s" % (e["seat"], e["a"], amt, " (all-in)" if e["all_in"] else "")
    if k == "return":
        return "seat %d gets %d back" % (e["seat"], e["amount"])
    if k == "street":
        return "── %s ──" % e["name"]
    if k == "show":
        return "seat %d shows %s: %s" % (e["seat"], e["cards"], e["hand"])
    if k == "award":
        pot = "side pot %d" % e["pot"] if e["pot"] else "main pot"
        return "seat %d wins %d from the %s" % (e["seat"], e["amount"], pot)
    if k == "end":
        return "hand %d over: winners %s, stacks %s" % (
            e["hand"], ",".join(map(str, e["winners"])), " ".join(map(str, e["stacks"])))
    if k == "refused":
        return None if e["what"] == "btn" else "%s refused: %s" % (e["what"], e["why"])
    if k == "irregularity":
        return "irregularity %s: %s (%s)" % (e["kind"], e["detail"], e["section"])
    if k == "refund":
        return "seat %d gets %d back" % (e["seat"], e["amount"])
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
    if k == "time_charge":
        return "time charges: " + (", ".join(
            "seat %d pays %d" % (s, c) for s, c in enumerate(e["charges"]) if c) or "none")
    if k == "link":
        return "the host link is lost: play waits for it" if e["lost"] \
            else "the host link is heard again"
    if k == "cleared":
        return "tilt cleared by a technician; the journal as found kept as %s" % e["kept"]
    if k == "rules":
        changes = ", ".join("%s %s" % (name, json.dumps(v, separators=(",", ":")))
                            for name, v in sorted(e["changes"].items()))
        if e["state"] == "posted":
            return "rule change posted, in effect at table minute %d: %s" % (e["at"], changes)
        if e["state"] == "dropped":
            return "rule change dropped (%s): %s" % (e["why"], changes)
        return "rule change in effect: %s" % changes
    if k == "locked":
        return "the table is locked: %s" % e["why"]
    if k == "resumed":
        return "resumed from the journal: hand %d, %s%s" % (
            e["hand"], e["state"], ", %d events replayed" % e["events"] if e["events"] else "")
    return repr(e)
