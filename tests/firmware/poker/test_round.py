"""Fixed-limit hold 'em rounds: 13:47-20.36, 19:47-14.10, 13:47-20.38(d) and the
rules README's decisions.  Four seats of 100 with the button on seat 0 unless said."""

from felt.poker.cards import parse
from felt.poker.evaluate import evaluate
from firmware_helpers import new_round, deal, act, refused, of_kind, limit_2_4, snapshot

HOLES = "2c 3c 4c 5c 2d 3d 4d 5d"        # seats 1, 2, 3, 0, twice round
FLOP = "9s Ah Kh Qd"                    # burn, then three
TURN = "8s 7h"
RIVER = "6s Jc"


def preflop_all_call(r):
    act(r, "call 3", "call 0", "call 1", "check 2")


def at_the_flop():
    """Four seats of 100, the button on seat 0: all call before the flop, then the flop."""
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    preflop_all_call(r)
    deal(r, FLOP)
    return r


def test_blinds_are_posted_left_of_the_button():
    # 13:47-20.36(d)
    r, out = new_round([100] * 4, button=0)
    assert [(e[1], e[3]) for e in of_kind(out, "post")] == [(1, 1), (2, 2)]


def test_heads_up_the_player_left_of_the_button_posts_the_first_blind():
    # 13:47-20.36(d) read literally: no special heads-up order.
    r, out = new_round([100, 100], button=1)
    assert [(e[1], e[3]) for e in of_kind(out, "post")] == [(0, 1), (1, 2)]


def test_antes_are_posted_by_every_player_dealt_in():
    r, out = new_round([100, 0, 100, 100], button=0, structure=limit_2_4(ante=1))
    antes = [e[1] for e in of_kind(out, "post") if e[2] == "ante"]
    assert sorted(antes) == [0, 2, 3]
    assert r.pot() == 3 + 1 + 2


def test_hole_cards_dealt_left_of_the_button_first_two_rounds_button_last():
    # 13:47-20.36(e)
    r, out = new_round([100] * 4, button=0)
    dealt = deal(r, HOLES)
    assert [e[2] for e in of_kind(dealt, "dealt")] == [1, 2, 3, 0, 1, 2, 3, 0]
    assert r.hole[0] == [parse("5c"), parse("5d")]


def test_first_action_is_left_of_the_last_blind_and_big_blind_has_the_option():
    # 13:47-20.36(f): the blinds may raise too.
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    assert r.to_act == 3
    act(r, "call 3", "call 0", "call 1")
    assert r.to_act == 2
    assert r.legal_actions(2) == ["check", "raise"]


def test_each_street_is_burned_before_its_community_cards():
    # 13:47-20.36(g)-(i)
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    preflop_all_call(r)
    assert r.expecting() == ("burn", -1)
    deal(r, FLOP)
    assert r.burns == [parse("9s")] and len(r.board) == 3
    act(r, "check 1", "check 2", "check 3", "check 0")
    deal(r, TURN)
    act(r, "check 1", "check 2", "check 3", "check 0")
    deal(r, RIVER)
    assert len(r.burns) == 3 and len(r.board) == 5


def test_post_flop_action_starts_with_the_first_live_player_left_of_the_button():
    # 13:47-20.36(g)
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    act(r, "call 3", "call 0", "fold 1", "check 2")
    deal(r, FLOP)
    assert r.to_act == 2


def test_out_of_turn_action_is_refused_and_changes_nothing():
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    assert refused(r, ("call", 0))
    assert "out of turn" in r.why_not(("call", 0))
    assert refused(r, ("raise", 7))


def test_unknown_card_code_is_refused_and_changes_nothing():
    r, _ = new_round([100] * 4, button=0)
    assert refused(r, ("card", "Zz"))
    assert "unknown card code" in r.why_not(("card", "Zz"))


def test_card_already_seen_this_round_is_refused():
    r, _ = new_round([100] * 4, button=0)
    deal(r, "As")
    assert refused(r, ("card", "As"))
    assert "already seen" in r.why_not(("card", "As"))


def test_card_when_none_is_due_is_refused():
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    assert refused(r, ("card", "Ks"))


def test_action_while_cards_are_due_is_refused():
    r, _ = new_round([100] * 4, button=0)
    assert refused(r, ("call", 3))


def test_fold_is_refused_when_a_check_is_possible():
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    preflop_all_call(r)
    deal(r, FLOP)
    assert refused(r, ("fold", 1))
    assert "check" in r.why_not(("fold", 1))


def test_raise_cap_is_a_bet_and_three_raises():
    # Rules README: a bet and three raises unless posted otherwise (20.39 posts it).
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    act(r, "raise 3", "raise 0", "raise 1")   # big blind + three raises = 4 bets
    assert r.level == 8
    assert "raise cap" in r.why_not(("raise", 2))
    assert r.legal_actions(2) == ["fold", "call"]


def test_no_raise_cap_once_only_two_players_remain():
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    act(r, "fold 3", "fold 0", "raise 1", "raise 2", "raise 1", "raise 2")
    assert r.level == 10                # five bets: past the cap of four
    assert "raise" in r.legal_actions(1)


def test_posted_cap_other_than_four():
    r, _ = new_round([100] * 4, button=0, structure=limit_2_4(cap=3))
    deal(r, HOLES)
    act(r, "raise 3", "raise 0")
    assert "raise cap" in r.why_not(("raise", 1))


def test_check_raise_is_allowed():
    # 19:47-14.8 (j) (the paragraph before 14.8): raising after checking is allowed.
    r = at_the_flop()
    act(r, "check 1", "bet 2", "call 3", "call 0")
    assert r.to_act == 1 and "raise" in r.legal_actions(1)
    act(r, "raise 1")
    assert r.level == 4


def test_bets_are_the_small_bet_then_the_big_bet_on_turn_and_river():
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    preflop_all_call(r)
    deal(r, FLOP)
    out = act(r, "bet 1")
    assert of_kind(out, "action")[0][3] == 2
    act(r, "call 2", "call 3", "call 0")
    deal(r, TURN)
    out = act(r, "bet 1")
    assert of_kind(out, "action")[0][3] == 4


def test_short_all_in_raise_does_not_reopen_betting_to_players_who_acted():
    # Rules README: a short all-in raise does not reopen the betting.
    r, _ = new_round([100, 100, 100, 5], button=0)
    deal(r, HOLES)
    preflop_all_call(r)                 # everyone has 2 in; seat 3 has 3 left
    deal(r, FLOP)
    act(r, "bet 1", "call 2")           # level 2
    out = act(r, "raise 3")             # seat 3 all-in for 3: a short raise to 3
    assert of_kind(out, "action")[0][4] is True and r.level == 3
    act(r, "call 0")                    # seat 0 had not acted: may raise, but calls
    assert r.to_act == 1
    assert r.legal_actions(1) == ["fold", "call"]
    assert "not reopened" in r.why_not(("raise", 1))


def test_full_raise_after_a_short_all_in_reopens_betting():
    r, _ = new_round([100, 100, 100, 5], button=0)
    deal(r, HOLES)
    preflop_all_call(r)
    deal(r, FLOP)
    act(r, "bet 1", "call 2", "raise 3")    # short all-in raise to 3
    act(r, "raise 0")                       # completes the raise: the bet 2 plus 2
    assert r.level == 4
    assert "raise" in r.legal_actions(1)


def test_uncalled_bet_is_returned_and_the_pot_awarded_without_showdown():
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    out = act(r, "raise 3", "fold 0", "fold 1", "fold 2")
    assert r.finished()
    assert ("return", 3, 2) in out
    assert ("award", 0, 3, 1 + 2 + 2, "all") in out
    assert of_kind(out, "show") == []
    assert r.stacks == [100, 99, 98, 103]


def test_split_side_pots_three_way_all_in():
    # Stacks 4, 10, 100, 100: seat 1 holds the best hand, seat 2 second, 3 and 0 worst.
    r, _ = new_round([100, 4, 10, 100], button=0)
    deal(r, "Ac Kc 2d 3d Ad Kd 7h 8s")   # 1: Ac Ad, 2: Kc Kd, 3: 2d 7h, 0: 3d 8s
    act(r, "raise 3", "raise 0", "call 1", "call 2", "call 3")  # 1 all-in for 4, 6 each
    deal(r, "Qs 9c Jh 4s")
    act(r, "bet 2", "call 3", "call 0")                        # seat 2 has 2 left
    deal(r, "5s Tc")
    act(r, "bet 2", "call 3", "call 0")                        # a short all-in bet of 2
    deal(r, "6d 2s")
    act(r, "check 3", "check 0")
    assert r.finished()
    pots = r.pots()
    assert [p[0] for p in pots] == [16, 18]         # 4 x 4, then (10 - 4) x 3
    assert pots[0][1] == [0, 1, 2, 3] and pots[1][1] == [0, 2, 3]
    assert r.stacks[1] == 16 and r.stacks[2] == 18
    assert sum(r.stacks) == 214


def layers(total, live):
    """Side pots by their definition: for each level a live player put in, from the
    lowest, every seat's chips between the level below and it (a folded seat's too);
    the chips above the highest go to the last pot."""
    levels = sorted(set([total[s] for s in live]))
    if len(levels) < 2:
        return [(sum(total), live)]
    pots = []
    below = 0
    for level in levels:
        if level > below:
            pots.append((sum([min(t, level) - min(t, below) for t in total]),
                         [s for s in live if total[s] >= level]))
            below = level
    amount, eligible = pots[-1]
    pots[-1] = (amount + sum([max(0, t - below) for t in total]), eligible)
    return pots


def test_side_pots_are_the_layers_of_chips_up_to_each_live_players_level():
    # Every four totals of 0, 1, 3 and 4 chips, every set of live seats among them.
    r, _ = new_round([100, 100, 100, 100])
    amounts = (0, 1, 3, 4)
    cases = 0
    for k in range(4 ** 4):
        total = [amounts[(k >> (2 * s)) & 3] for s in range(4)]
        for seats in range(1, 16):
            live = [s for s in range(4) if seats >> s & 1]
            r.total = total
            assert r.pots(live) == layers(total, live), (total, live)
            cases += 1
    assert cases == 256 * 15


def test_showdown_order_starts_with_the_final_wager():
    # 13:47-20.38(d): the player initiating the final wager shows first, then clockwise.
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    preflop_all_call(r)
    for cards in (FLOP, TURN):
        deal(r, cards)
        act(r, "check 1", "check 2", "check 3", "check 0")
    deal(r, RIVER)
    out = act(r, "check 1", "bet 2", "call 3", "call 0", "call 1")
    assert [e[1] for e in of_kind(out, "show")] == [2, 3, 0, 1]


def test_showdown_order_without_a_final_wager_starts_left_of_the_button():
    r, _ = new_round([100] * 4, button=2)
    deal(r, "2c 3c 4c 5c 2d 3d 4d 5d")
    act(r, "call 1", "call 2", "call 3", "check 0")
    for cards in (FLOP, TURN, RIVER):
        deal(r, cards)
        out = act(r, "check 3", "check 0", "check 1", "check 2")
    assert [e[1] for e in of_kind(out, "show")] == [3, 0, 1, 2]


def test_showdown_order_an_all_in_raise_before_the_flop_is_the_final_wager():
    # 13:47-20.38(d): seat 0 raises all in before the flop and the others call all in;
    # nobody can bet after, so that raise is the final wager: seat 0 shows first.
    r, _ = new_round([3] * 4, button=0)
    deal(r, HOLES)
    act(r, "call 3", "raise 0", "call 1", "call 2", "call 3")
    out = deal(r, FLOP + " " + TURN + " " + RIVER)
    assert r.finished() and [e[1] for e in of_kind(out, "show")] == [0, 1, 2, 3]


def test_showdown_order_after_a_checked_last_round_starts_with_its_first_to_act():
    # docs/rules.md: the turn's bet by seat 2 is not the final wager when the river is
    # checked; the river's first to act, seat 1 left of the button, shows first.
    r = at_the_flop()
    act(r, "check 1", "check 2", "check 3", "check 0")
    deal(r, TURN)
    act(r, "check 1", "bet 2", "call 3", "call 0", "call 1")
    deal(r, RIVER)
    out = act(r, "check 1", "check 2", "check 3", "check 0")
    assert [e[1] for e in of_kind(out, "show")] == [1, 2, 3, 0]


def test_showdown_order_with_no_betting_round_starts_after_the_blinds():
    # Every player all in on the ante and the blinds: no betting round is played; the
    # first counts as checked, so the first to act after the blinds shows first, then
    # the others clockwise (13:47-20.38(d), docs/rules.md; PokerKit agrees).
    r, _ = new_round([1, 2, 3], button=0, structure=limit_2_4(ante=1))
    out = deal(r, "2c 3c 4c 2d 3d 4d " + FLOP + " " + TURN + " " + RIVER)
    assert r.finished() and [e[1] for e in of_kind(out, "show")] == [0, 1, 2]


def test_heads_up_a_small_blind_all_in_for_less_leaves_the_big_blind_nothing_to_do():
    # Heads-up (13:47-20.36(d): seat 0, left of the button, posts the small blind of 2
    # with 3 chips, the button the big blind of 4).  Seat 0 calls all in for 3: nobody
    # could call a bet of the big blind's, so the betting is over (issue 36: it was
    # asked, and a fold gave the pot away); its uncalled chip goes back.
    from felt.poker.structure import FixedLimit
    r, _ = new_round([3, 100], button=1, structure=FixedLimit(4, 8, (2, 4)))
    deal(r, "Ac Kc Ad Kd")
    assert r.to_act == 0
    out = act(r, "call 0")
    assert r.to_act == -1 and of_kind(out, "to_act") == [] and r.expecting() == ("burn", -1)
    assert ("return", 1, 1) in out
    assert refused(r, ("check", 1)) and refused(r, ("fold", 1))
    deal(r, FLOP + " " + TURN + " " + RIVER)
    assert r.finished()
    assert r.stacks == [6, 97] and sum(r.stacks) == 103


def test_board_plays_every_remaining_player_shares_equally():
    # 13:47-20.36(j): a royal flush on the board; all remaining players share.
    r, _ = new_round([100] * 4, button=0)
    deal(r, HOLES)
    preflop_all_call(r)                    # pot 8
    deal(r, "9c As Ks Qs")
    act(r, "check 1", "check 2", "check 3", "check 0")
    deal(r, "9d Js")
    act(r, "check 1", "check 2", "check 3", "check 0")
    deal(r, "9h Ts")
    out = act(r, "check 1", "check 2", "check 3", "check 0")
    assert sorted([(e[2], e[3]) for e in of_kind(out, "award")]) == [(0, 2), (1, 2), (2, 2), (3, 2)]
    assert r.stacks == [100] * 4


def test_odd_chip_goes_to_the_first_winner_clockwise_from_the_button():
    # Rules README (flop games): odd chips to the first winner clockwise from the button.
    r, _ = new_round([100, 100, 100], button=0, structure=limit_2_4(blinds=(1,), ante=1))
    deal(r, "2c 3c 4c 2d 3d 4d")           # seats 1, 2, 0
    act(r, "call 2", "fold 0", "check 1")  # pot: 3 antes + 1 + 1 = 5
    for cards in ("9c As Ks Qs", "9d Js", "9h Ts"):
        deal(r, cards)
        out = act(r, "check 1", "check 2")
    assert [(e[2], e[3]) for e in of_kind(out, "award")] == [(1, 3), (2, 2)]


def test_all_in_players_run_out_the_board_without_betting():
    r, _ = new_round([100, 3, 100, 100], button=0)
    deal(r, HOLES)
    act(r, "fold 3", "fold 0", "call 1", "raise 2")  # seat 1 calls all-in for 3 total? no:
    # seat 1 had 1 posted and 2 left: calling 1 leaves 1; the raise asks 2 more.
    act(r, "call 1")
    assert r.stacks[1] == 0
    deal(r, FLOP)
    assert r.expecting() == ("burn", -1)   # nobody left to bet: straight to the turn
    deal(r, TURN + " " + RIVER)
    assert r.finished() and sum(r.stacks) == 303


def test_chips_are_conserved_by_every_ending():
    r, _ = new_round([50, 30, 20, 10], button=3)
    deal(r, "Ac Kc Qc Jc Ad Kd Qd Jd")
    act(r, "raise 2", "raise 3", "call 0", "call 1", "call 2")
    while not r.finished():
        if r.expecting():
            deal(r, ["2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h"][len(r.burns) + len(r.board)])
        else:
            seat = r.to_act
            act(r, ("check %d" if "check" in r.legal_actions(seat) else "call %d") % seat)
    assert sum(r.stacks) == 110


def test_no_bet_or_raise_that_nobody_could_call():
    # Seats 1 and 2 cannot put in more than the 2 already bet: a raise is pointless.
    r, _ = new_round([100, 2, 2], button=0)
    deal(r, "Ac Kc Qc Ad Kd Qd")
    assert r.to_act == 0 and r.legal_actions(0) == ["fold", "call"]
    assert "nobody left to call" in r.why_not(("raise", 0))


def test_short_all_ins_reopen_only_for_players_facing_a_full_raise_since_they_acted():
    # Rules README.  Seat 3 raises to 4; seat 0 all-in to 5 (short); seat 1 calls 5;
    # seat 2 all-in to 6: seat 1 faces 1 more (no raise), seat 3 faces 2 more (may raise).
    r, _ = new_round([5, 100, 6, 100], button=0, structure=limit_2_4(cap=0))
    deal(r, HOLES)
    act(r, "raise 3", "raise 0", "call 1", "raise 2")
    assert "raise" in r.legal_actions(3)
    act(r, "call 3")
    assert r.to_act == 1 and r.legal_actions(1) == ["fold", "call"]


def test_no_seat_posts_two_blinds_when_there_are_fewer_players_than_blinds():
    # 13:47-20.36(d): each additional blind is posted by the next player.
    r, out = new_round([100, 100], button=1, structure=limit_2_4(blinds=(1, 1, 2)))
    assert [(e[1], e[3]) for e in of_kind(out, "post")] == [(0, 1), (1, 2)]


def test_malformed_event_is_refused_with_a_reason():
    r, _ = new_round([100] * 4, button=0)
    for bad in (("fold",), ("call", 1, 2), "fold", None):
        assert refused(r, bad)
    assert "malformed" in r.why_not(("fold",))


def _to_the_river_bet(r):
    deal(r, HOLES)
    preflop_all_call(r)
    deal(r, FLOP)
    act(r, "check 1", "check 2", "check 3", "check 0")
    deal(r, TURN)
    act(r, "check 1", "check 2", "check 3", "check 0")
    deal(r, RIVER)
    act(r, "bet 1", "call 2", "call 3")


def test_an_end_left_to_settle_gives_the_same_effects_after_the_last_action():
    # The table lights the LEDs before the showdown's work (felt.table.controller).
    whole, _ = new_round([100] * 4)
    _to_the_river_bet(whole)
    expected = whole.apply(("call", 0))
    r, _ = new_round([100] * 4)
    _to_the_river_bet(r)
    first = r.apply(("call", 0), settle=False)
    assert first[-1] == ("settle",) and not of_kind(first, "show")
    assert r.to_act == -1 and not r.finished()
    assert first[:-1] + r.settle() == expected
    assert r.finished() and (r.stacks, r.winners) == (whole.stacks, whole.winners)


def test_undo_puts_back_the_state_save_took():
    r, _ = new_round([100] * 4)
    _to_the_river_bet(r)
    before = snapshot(r)
    state = r.save()
    r.apply(("call", 0))
    assert r.finished()
    r.undo(state)
    assert snapshot(r) == before
    assert r.apply(("fold", 0)) and r.finished()
