"""The irregularities of a round (13:47-20.38, 19:47-27.12), as events of the round.

The dealer's panel, the shoe and the card reader report what went wrong; the round
applies the rule.  Like every event these are checked first and journaled, so a replay
rebuilds the round they changed.

  ("void", why)            19:47-27.12(f): the shoe jammed, stopped or failed to deal
                           every card: every wager goes back
  ("dead", why)            13:47-20.38(h): missing or extra cards: all money in the pot
                           goes back to who put it there
  ("misdeal", why)         13:47-20.38(f): why is "no_shuffle" (1), "wrong_start" (2),
                           "face_up" (3) or "skipped_seat" (4); 2 and 4 only before two
                           players have voluntarily wagered; everything goes back
  ("face_up", code)        13:47-20.38(i): a card found face up in the deck is not used;
                           a second one in the round is a misdeal ((f)3)
  ("replace", code, why)   a card dealt this deal that may not be used, and is replaced
                           by the next: why "ineligible" (20.38(g): dealt to a seat not in
                           the round), "off_table" (20.38(m)), "exposed" (20.38(n): a
                           hold 'em down card turned up while dealing)
  ("exposed", code)        stud, 13:47-20.38(l): a hole card turned up while dealing; the
                           third card then comes down; both hole cards up kills the
                           hand and returns the ante.  Ruling: with one hole card
                           (five-card stud, Mambo) its up card comes down; an exposed
                           card later replaced takes the exposure with it
  ("foul", seat)           13:47-20.38(j)3: a protected hand fouled or collected by the
                           dealer: the player's money in the pot is refunded
  ("away", seat)           13:47-20.38(j)4: a player left with an unprotected hand: folded
Effects:  ("refund", seat, amount), ("called_off", kind, why, section), ("dead_hand", seat),
          ("irregularity", kind, section, detail)
"""

from felt import check
from felt.poker import cards as C

SECTIONS = {"void": "19:47-27.12(f)", "dead": "13:47-20.38(h)", "misdeal": "13:47-20.38(f)",
            "face_up": "13:47-20.38(i)", "exposed": "13:47-20.38(l)",
            "foul": "13:47-20.38(j)3", "away": "13:47-20.38(j)4",
            "ineligible": "13:47-20.38(g)", "off_table": "13:47-20.38(m)",
            "exposed_down": "13:47-20.38(n)"}
MISDEALS = ("no_shuffle", "wrong_start", "face_up", "skipped_seat")
REPLACE_WHY = ("ineligible", "off_table", "exposed")


def why_not(r, event):
    kind = event[0]
    if r.finished():
        return "the round is over"
    if len(event) != (3 if kind == "replace" else 2):
        return "malformed %s event %s" % (kind, check.shown(event))
    arg = event[1]
    if kind in ("void", "dead"):
        return None if isinstance(arg, str) else "say why the round is %s" % kind
    if kind == "misdeal":
        if arg not in MISDEALS:
            return "a misdeal is one of %s (13:47-20.38(f))" % ", ".join(MISDEALS)
        if arg in ("wrong_start", "skipped_seat") and r.voluntary_wagers() >= 2:
            return ("too late for a misdeal: two players have voluntarily wagered "
                    "(13:47-20.38(f)%s)" % ("2" if arg == "wrong_start" else "4"))
        return None
    if kind in ("foul", "away"):
        if not check.is_whole(arg) or not 0 <= arg < r.n or not r.live(arg):
            return "seat %s has no hand in the round" % check.shown(arg)
        return None
    card, reason = _card(arg)
    if reason:
        return reason
    if kind == "face_up":
        if not r.dealing():
            return "no card is due: a face-up card is found while dealing"
        if r.seen[card]:
            return "card %s was already seen this round" % C.code(card)
        return None
    seat = _dealt_to(r, card)
    if kind == "replace":
        why = event[2] if len(event) == 3 else None
        if why not in REPLACE_WHY:
            return "say why %s is replaced: %s" % (C.code(card), ", ".join(REPLACE_WHY))
        if why == "off_table" and seat < 0 and card in r.board and card in r.just_dealt:
            return None   # 20.38(m) covers a community card too
        if seat < 0:
            return "%s is not a card just dealt to a player" % C.code(card)
        if why == "exposed" and r.variant.stud():
            return "in stud an exposed hole card follows 13:47-20.38(l): report it as exposed"
        return None
    if seat < 0:
        return "%s is not a card just dealt to a player" % C.code(card)
    # exposed
    if not r.variant.stud():
        return "outside stud an exposed down card is replaced (13:47-20.38(n))"
    if r.betround >= 0 or card in r.up[seat]:
        return "13:47-20.38(l) covers the hole cards, while dealing"
    return None


def apply(r, event, out):
    kind = event[0]
    if kind in ("void", "dead", "misdeal"):
        call_off(r, kind, event[1], out)
    elif kind == "face_up":
        card = C.parse(event[1])
        _set_aside(r, card)
        r.face_ups += 1
        out.append(("discarded", -1, [card]))
        if r.face_ups > 1:
            call_off(r, "misdeal", "face_up", out)   # 13:47-20.38(f)3
        else:
            _notice(out, "face_up", "%s found face up in the deck: not used" % C.code(card))
            r.ask_card(out)
    elif kind == "replace":
        card = C.parse(event[1])
        why = event[2]
        seat = _dealt_to(r, card)
        if seat < 0:   # a community card off the table
            r.board.remove(card)
            r.muck.append(card)
            r.just_dealt.remove(card)
            out.append(("discarded", -1, [card]))
            _notice(out, "off_table", "%s dealt off the table: not used" % C.code(card))
            r.deal_extra("board", -1, out)
            return
        was_up = _take_back(r, seat, card, out)
        if card in r.exposed[seat]:
            was_up = _unexpose(r, seat, card)
        _notice(out, why if why != "exposed" else "exposed_down",
                "%s %s: discarded, seat %d gets the next card" % (
                    C.code(card), {"ineligible": "dealt to a seat not in the round",
                                   "off_table": "dealt off the table",
                                   "exposed": "exposed while dealing"}[why], seat))
        r.deal_extra("up" if was_up else "hole", seat, out)
    elif kind == "exposed":
        _exposed(r, C.parse(event[1]), out)
    elif kind == "foul":
        seat = event[1]
        _notice(out, "foul", "seat %d's protected hand fouled: its money refunded" % seat)
        _refund(r, seat, out)
        _take_out(r, seat, out)
    else:  # away
        seat = event[1]
        _notice(out, "away", "seat %d left with an unprotected hand: folded" % seat)
        if r.bring_in_due and seat == r.to_act:
            # 13:47-20.38(k)2: the forced bet is still owed by the player who leaves.
            # The hand is folded as it is posted, so the bring-in stays in the pot: were
            # the betting to close on it, it is no uncalled bet to hand back.
            _fold_posting(r, seat, out)
            out.append(("dead_hand", seat))
            return
        _take_out(r, seat, out)


def call_off(r, kind, why, out):
    """End the round with every player's money back: void, dead round or misdeal."""
    r.raked = 0   # nothing was won, so nothing is raked
    for s in range(r.n):
        _refund(r, s, out)
    section = SECTIONS[kind]
    if kind == "misdeal":
        section += str(MISDEALS.index(why) + 1)   # (f)1 .. (f)4
    r.call_off(kind, "%s %s" % (why, section))
    out.append(("called_off", kind, why, section))
    out.append(("end",))


def _notice(out, kind, detail):
    """The rule applied, with its section, for the table's log and lights."""
    out.append(("irregularity", kind, SECTIONS[kind], detail))


def _refund(r, seat, out):
    """Give a player back what they put in; never more than the pot holds (a rake
    already taken stays taken).  A refunded bet is no longer owed by the others."""
    amount = min(r.total[seat], r.pot())
    if amount:
        r.total[seat] -= amount
        r.street_bet[seat] = max(0, r.street_bet[seat] - amount)
        r.stacks[seat] += amount
        out.append(("refund", seat, amount))
        top = max(r.street_bet)
        if top < r.level:
            r.level = top
            r.full = min(r.full, top)


def _card(code):
    try:
        return C.parse(code), None
    except C.CardError as e:
        return -1, str(e)


def _dealt_to(r, card):
    """The seat holding `card` if it came in the deal now under way (or the deal just
    finished, before anyone acted on it), else -1."""
    if card not in r.just_dealt:
        return -1
    for s in range(r.n):
        if card in r.hole[s]:
            return s
    return -1


def _take_back(r, seat, card, out):
    """Take a dealt card back to the discards; True if it was dealt face up."""
    r.hole[seat].remove(card)
    was_up = card in r.up[seat]
    if was_up:
        r.up[seat].remove(card)
    r.muck.append(card)
    r.just_dealt.remove(card)
    out.append(("discarded", seat, [card]))
    return was_up


def _exposed(r, card, out):
    seat = _dealt_to(r, card)
    r.up[seat].append(card)
    r.exposed[seat].append(card)
    out.append(("exposed", seat, card))
    if len(r.exposed[seat]) >= 2:
        # Both hole cards up: the hand is dead and the ante comes back.
        _notice(out, "exposed", "seat %d's two hole cards exposed: the hand is dead and "
                "the ante returned" % seat)
        _refund(r, seat, out)
        r.muck += r.hole[seat]
        r.hole[seat] = []
        r.up[seat] = []
        _take_out(r, seat, out, dead=True)
        return
    _notice(out, "exposed", "seat %d's hole card %s exposed: the third card is dealt "
            "down" % (seat, C.code(card)))
    # One hole card up: the third card is dealt down instead of up.
    if _bring_down(r, seat):
        r.brought_down[seat] = True


def _unexpose(r, seat, card):
    """An exposed stud hole card is replaced (20.38(g), (m)): the exposure goes with it.
    True if its replacement must come up: the up card it brought down is already dealt,
    so the hand keeps one up card."""
    r.exposed[seat].remove(card)
    if not r.brought_down[seat]:
        return False       # exposed after the up card came: a down card replaces it
    r.brought_down[seat] = False
    return _bring_up(r, seat)    # while the card brought down is still due, it is up again


def _set_aside(r, card):
    """A card found that is not used (face up in the deck): seen, never dealt."""
    r.seen[card] = 1
    r.left -= 1
    r.muck.append(card)


def _bring_down(r, seat):
    """The next up card due to `seat` is dealt down instead (13:47-20.38(l)); True
    if one was still due."""
    for k in range(r.next_card, len(r.plan)):
        if r.plan[k] == ("need", "up", seat):
            r.plan[k] = ("need", "hole", seat)
            return True
    return False


def _bring_up(r, seat):
    """The card brought down for `seat` comes up again, if still due; True if it
    was dealt already.  It is the seat's last hole card of the plan: a replacement
    is always asked for before it."""
    k = len(r.plan) - 1
    while k >= 0 and r.plan[k] != ("need", "hole", seat):
        k -= 1
    if k >= r.next_card:
        r.plan[k] = ("need", "up", seat)
        return False
    return True


def _fold_posting(r, seat, out):
    """`seat` leaves owing the bring-in (13:47-20.38(k)2): folded as it is posted."""
    r.folded[seat] = True
    r.alive -= 1
    r.act("bring_in", seat, None, out)


def _take_out(r, seat, out, dead=False):
    """`seat` out of the hand at any time; the action moves on if it was theirs.  A
    `dead` hand (both stud hole cards exposed) is dealt no more cards: the deal moves
    on if the card due was its."""
    if dead:
        r.plan = r.plan[:r.next_card] + \
            [x for x in r.plan[r.next_card:] if x[2] != seat]
    r.folded[seat] = True
    r.alive -= 1
    out.append(("dead_hand", seat))
    if r.alive == 1:
        r.finish(out)
    elif r.choice is not None and seat == r.to_act:
        if r.choice == "straddle":
            r.choose("decline", seat, None, out)   # the straddle is not made
        else:
            # No draw or discard for a dead hand; nor an answer to the runouts:
            # the others' answers decide them.
            r.order.remove(seat)
            r.next_chooser(out)
    elif seat == r.to_act:
        r.set_to_act(seat, out)
        if r.to_act < 0:
            r.end_betting_round(out)
    elif r.choice is not None and seat in r.order:
        r.order.remove(seat)
    if dead and r.dealing():
        if r.next_card >= len(r.plan):
            r.deal_done(out)      # the seat was owed the deal's last card
        else:
            r.ask_card(out)        # the card asked for may have been the seat's
