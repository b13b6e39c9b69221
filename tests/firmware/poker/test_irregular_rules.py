"""Irregularities, one test per rule: 13:47-20.38 (casino night poker) and 19:47-27.12(f)
(the automated dealing shoe), as felt.poker.irregular applies them to a round.

Fixed limit 2/4; hold 'em with blinds 1 and 2, button on seat 0 (seat 1 the small blind,
seat 2 the big blind, cards from seat 1 round to the button); stud with ante 1 and
bring-in 1, cards from seat 0 (the dealer's left).  Seats of 100 unless said."""

from felt.poker.rake import Rake
from felt.poker.round import BETTING
from firmware_helpers import deal, act, refused, of_kind
from variant_helpers import new_game, cards, codes_of, dealt, passive, feed, face_up

THIRD = "2c 2d 2h 3c 3d 3h 9s 4c Kh"    # stud, three seats: seat 1 shows the low 4c


def chips(r):
    return sum(r.stacks) + r.pot() + r.raked


def called_off(out):
    return of_kind(out, "called_off")


def refunds(out):
    return [(e[1], e[2]) for e in of_kind(out, "refund")]


def holdem3(rake=None, stacks=None):
    """Hold 'em, three seats, the hole cards dealt: seat 1 As Ah, seat 2 Ks Kh,
    seat 0 Qs Qh; seat 0 to act."""
    r, _ = new_game("holdem", stacks or [100, 100, 100], 0, None, rake)
    deal(r, "As Ks Qs Ah Kh Qh")
    return r


# ----- the round called off -------------------------------------------------------------

def test_a_shoe_jam_voids_the_round_and_returns_every_wager_19_47_27_12_f():
    # 19:47-27.12(f): the shoe jams, stops or fails to deal: the round is void.  Every
    # wager goes back, the rake taken after the first betting round too.
    r = holdem3(Rake("percent", 10))
    act(r, "raise 0", "call 1", "call 2")          # 4 each; 10 % of 12: 1 raked
    deal(r, "2c 7d 8h 9s")
    act(r, "bet 1", "call 2")
    assert r.raked == 1 and r.pot() == 15 and r.to_act == 0
    out = r.apply(("void", "shoe jam"))
    assert called_off(out) == [("called_off", "void", "shoe jam", "19:47-27.12(f)")]
    assert refunds(out) == [(0, 4), (1, 6), (2, 6)]
    assert out[-1] == ("end",)
    assert r.finished() and r.called_off == "void"
    assert r.stacks == [100, 100, 100] and r.raked == 0
    assert of_kind(out, "award") == []
    for after in (("card", "Tc"), ("call", 0), ("void", "again"), ("foul", 1)):
        assert refused(r, after)


def test_missing_or_extra_cards_call_the_round_dead_and_return_all_money_20_38_h():
    # 20.38(h): missing cards found, or additional cards: the round is dead and all money
    # in the pot goes back to who put it there.  Stud, on fourth street, with a rake.
    r, _ = new_game("stud7", [100, 60, 100], 0, None, Rake("percent", 10))
    deal(r, THIRD)
    act(r, "bring_in 1", "bet 2", "call 0", "call 1")   # completed to 2: 7 in the pot
    deal(r, "Tc 5d 6d 7d")
    out = r.apply(("dead", "missing card"))
    assert called_off(out) == [("called_off", "dead", "missing card", "13:47-20.38(h)")]
    assert refunds(out) == [(0, 3), (1, 3), (2, 3)]
    assert r.stacks == [100, 60, 100] and r.raked == 0 and r.finished()
    # An extra card found in hold 'em, before anyone acted: the blinds go back.
    r = holdem3()
    out = r.apply(("dead", "extra card"))
    assert called_off(out) == [("called_off", "dead", "extra card", "13:47-20.38(h)")]
    assert refunds(out) == [(1, 1), (2, 2)]
    assert r.stacks == [100, 100, 100]


def test_a_misdeal_for_a_wrong_start_only_before_two_players_voluntarily_wager_20_38_f2():
    # 20.38(f)2: dealing to an incorrect starting position is a misdeal if detected
    # before two players voluntarily put wagers in the pot.  The blinds are not
    # voluntary; one call is not two.
    r, _ = new_game("holdem", [100] * 4, 0)
    deal(r, "As Ks Qs Js Ah Kh Qh Jh")
    assert r.why_not(("misdeal", "wrong_start")) is None
    act(r, "call 3")
    out = r.apply(("misdeal", "wrong_start"))
    assert called_off(out) == [("called_off", "misdeal", "wrong_start", "13:47-20.38(f)2")]
    assert refunds(out) == [(1, 1), (2, 2), (3, 2)]
    assert r.stacks == [100] * 4
    # A second voluntary wager: too late, the round goes on unchanged.
    r, _ = new_game("holdem", [100] * 4, 0)
    deal(r, "As Ks Qs Js Ah Kh Qh Jh")
    act(r, "call 3", "call 0")
    assert "(f)2" in r.why_not(("misdeal", "wrong_start"))
    assert refused(r, ("misdeal", "wrong_start"))
    assert r.to_act == 1 and not r.finished()


def test_a_straddle_is_no_voluntary_wager_for_a_misdeal_20_38_f2():
    # Ruling on 20.38(f)2 and 4: the straddle goes in blind before the deal, so with one
    # call after it only one player has voluntarily wagered: still a misdeal.
    from variant_helpers import blinds_limit
    r, _ = new_game("holdem", [100] * 4, 0, blinds_limit(straddle=True))
    r.apply(("straddle", 3))
    deal(r, "As Ks Qs Js Ah Kh Qh Jh")
    act(r, "call 0")
    out = r.apply(("misdeal", "wrong_start"))
    assert refunds(out) == [(0, 4), (1, 1), (2, 2), (3, 4)] and r.stacks == [100] * 4


def test_a_misdeal_for_a_skipped_seat_only_before_two_players_voluntarily_wager_20_38_f4():
    # 20.38(f)4: failing to deal to an eligible seated player, detected before two or
    # more players voluntarily wager.  Stud: the antes and the bring-in are forced, the
    # completion and the call of it are voluntary.
    r, _ = new_game("stud7", [100] * 3, 0)
    deal(r, THIRD)
    act(r, "bring_in 1", "bet 2")
    assert r.why_not(("misdeal", "skipped_seat")) is None
    act(r, "call 0")
    assert "(f)4" in r.why_not(("misdeal", "skipped_seat"))
    assert refused(r, ("misdeal", "skipped_seat"))
    # Failing to shuffle and cut ((f)1) is a misdeal whenever found.
    out = r.apply(("misdeal", "no_shuffle"))
    assert called_off(out) == [("called_off", "misdeal", "no_shuffle", "13:47-20.38(f)1")]
    assert r.stacks == [100] * 3
    assert refused(r, ("misdeal", "skipped_seat"))      # the round is over
    # Before the two wagers it is a misdeal: everything goes back.
    r, _ = new_game("stud7", [100] * 3, 0)
    deal(r, THIRD)
    act(r, "bring_in 1", "bet 2")
    out = r.apply(("misdeal", "skipped_seat"))
    assert called_off(out) == [("called_off", "misdeal", "skipped_seat", "13:47-20.38(f)4")]
    assert refunds(out) == [(0, 1), (1, 2), (2, 3)]
    assert r.stacks == [100] * 3


def test_more_than_one_card_face_up_in_the_deck_is_a_misdeal_20_38_f3():
    # 20.38(f)3: more than one card found face up in the deck.  The first is only
    # discarded (20.38(i)); the second, later in the round, is a misdeal.
    r, _ = new_game("holdem", [100] * 3, 0)
    deal(r, "As Ks")
    out = r.apply(("face_up", "Ad"))
    assert called_off(out) == [] and not r.finished()
    deal(r, "Qs Ah Kh Qh")
    act(r, "call 0", "call 1", "check 2")
    deal(r, "2c")                                   # the burn before the flop
    out = r.apply(("face_up", "Ac"))
    assert called_off(out) == [("called_off", "misdeal", "face_up", "13:47-20.38(f)3")]
    assert r.finished() and r.stacks == [100] * 3 and r.raked == 0


# ----- cards not used ------------------------------------------------------------------------

def test_a_card_found_face_up_in_the_deck_is_not_used_20_38_i():
    # 20.38(i): not used in the game, placed with the discards; the card due is dealt
    # from the next one.
    r, _ = new_game("holdem", [100] * 3, 0)
    deal(r, "2c")                                   # to seat 1
    assert r.expecting() == ("hole", 2)
    out = r.apply(("face_up", "As"))
    assert ("discarded", -1, cards("As")) in out
    assert ("need", "hole", 2) in out and r.expecting() == ("hole", 2)
    assert cards("As")[0] in r.muck
    assert refused(r, ("card", "As"))               # it cannot be dealt now
    out = deal(r, "3c 4c 5c 6c 7c")
    assert dealt(out, "hole")[0] == (2, "3c")
    assert [codes_of(r.hole[s]) for s in range(3)] == ["4c 7c", "2c 5c", "3c 6c"]
    assert r.phase == BETTING
    # Only a card still in the deck, and only while dealing.
    assert refused(r, ("face_up", "Ad"))            # no card is due
    r, _ = new_game("holdem", [100] * 3, 0)
    deal(r, "2c")
    assert refused(r, ("face_up", "2c"))            # already dealt


def test_a_card_dealt_to_an_ineligible_player_is_discarded_and_play_continues_20_38_g():
    # 20.38(g): only the cards dealt to the ineligible player are discarded and the
    # round goes on.  Seat 1 is empty: cards go to seats 2, 3, 0.  The card the shoe
    # read for seat 3 landed on seat 1: seat 3 gets the next one.
    r, _ = new_game("holdem", [100, 0, 100, 100], 0)
    deal(r, "2c 3c")
    out = r.apply(("replace", "3c", "ineligible"))
    assert ("discarded", 3, cards("3c")) in out and r.expecting() == ("hole", 3)
    deal(r, "4c 5c 6c 7c 8c")
    assert [codes_of(r.hole[s]) for s in (0, 2, 3)] == ["5c 8c", "2c 6c", "4c 7c"]
    assert cards("3c")[0] in r.muck
    # The deal is over and the betting open; a card found on the empty seat now is
    # replaced the same way, and the action stays where it was.
    assert r.phase == BETTING and r.to_act == 0
    out = r.apply(("replace", "8c", "ineligible"))
    assert r.expecting() == ("hole", 0)
    deal(r, "9c")
    assert codes_of(r.hole[0]) == "5c 9c"
    assert r.phase == BETTING and r.to_act == 0
    act(r, "call 0")
    assert not r.finished() and r.to_act == 2
    # Cards of an earlier deal are not "just dealt": they cannot be replaced any more.
    assert refused(r, ("replace", "9c", "ineligible"))


def test_a_card_dealt_off_the_table_is_not_used_20_38_m():
    # 20.38(m): not used in that round, placed with the discards.  A hole card: the
    # seat gets the next card.  A community card: the next card takes its place.
    r, _ = new_game("holdem", [100] * 3, 0)
    deal(r, "As Ks")
    out = r.apply(("replace", "Ks", "off_table"))
    assert ("discarded", 2, cards("Ks")) in out and r.expecting() == ("hole", 2)
    deal(r, "Kd Qs Ah Kh Qh")
    assert codes_of(r.hole[2]) == "Kd Kh"
    act(r, "call 0", "call 1", "check 2")
    deal(r, "2c 7d 8h 9s")                          # burn, flop
    out = r.apply(("replace", "8h", "off_table"))
    assert ("discarded", -1, cards("8h")) in out
    assert r.expecting() == ("board", -1)
    deal(r, "Tc")
    assert codes_of(r.board) == "7d 9s Tc"
    assert cards("8h")[0] in r.muck
    assert r.phase == BETTING and r.to_act == 1
    assert chips(r) == 300


def test_holdem_exposed_down_card_is_exchanged_for_the_next_card_20_38_n():
    # 20.38(n): a hold 'em down card turned face up while dealing is exchanged for the
    # card from the top of the deck and goes to the discards.
    r, _ = new_game("holdem", [100] * 3, 0)
    deal(r, "2c 3c 4c 5c")                          # seat 1: 2c 5c
    out = r.apply(("replace", "5c", "exposed"))
    assert ("discarded", 1, cards("5c")) in out and r.expecting() == ("hole", 1)
    deal(r, "6c 7c 8c")
    assert [codes_of(r.hole[s]) for s in range(3)] == ["4c 8c", "2c 6c", "3c 7c"]
    assert face_up(r, 1) == [False, False]
    assert cards("5c")[0] in r.muck
    # Outside stud it is no "exposed" hole card of 20.38(l); in stud no exchange.
    assert refused(r, ("exposed", "8c"))
    r, _ = new_game("stud7", [100] * 3, 0)
    deal(r, "2c")
    assert "20.38(l)" in r.why_not(("replace", "2c", "exposed"))


def test_stud_first_or_second_hole_card_exposed_the_third_is_dealt_down_20_38_l():
    # 20.38(l): a first or second hole card turned face up while dealing: the third card
    # is dealt face down.  The exposed card counts as the player's up-card.
    r, _ = new_game("stud7", [100] * 3, 0)
    deal(r, "2c 2d 2h")
    out = r.apply(("exposed", "2c"))
    assert ("exposed", 0, cards("2c")[0]) in out and of_kind(out, "dead_hand") == []
    out = deal(r, "3c 3d 3h")
    r.apply(("exposed", "3d"))                      # seat 1's second hole card
    out = deal(r, "9s 4c Kh")
    assert dealt(out) == [("hole", 0, "9s"), ("hole", 1, "4c"), ("up", 2, "Kh")]
    assert face_up(r, 0) == [True, False, False] and face_up(r, 1) == [False, True, False]
    assert r.showing(0) == cards("2c") and r.showing(1) == cards("3d")
    # The bring-in goes by what shows: seat 0's 2c is the lowest up-card.
    assert r.phase == BETTING and r.to_act == 0 and r.bring_in_due
    # Only while dealing the first cards; never the third card or an up-card.
    assert refused(r, ("exposed", "2d"))


def test_stud_both_hole_cards_exposed_the_hand_is_dead_and_the_ante_returned_20_38_l():
    # 20.38(l): both hole cards turned face up: the cards are collected, the hand is
    # dead and the ante comes back.  The deal goes on for the others.
    r, _ = new_game("stud7", [100] * 3, 0)
    deal(r, "2c 2d 2h 3c")
    r.apply(("exposed", "2c"))
    out = r.apply(("exposed", "3c"))
    assert ("dead_hand", 0) in out and refunds(out) == [(0, 1)]
    assert r.stacks[0] == 100 and r.folded[0] and r.hole[0] == []
    assert cards("2c")[0] in r.muck and cards("3c")[0] in r.muck
    out = deal(r, "3d 3h 4c Kh")                    # seat 0 is dealt nothing more
    assert [e[1] for e in dealt(out)] == [1, 2, 1, 2]
    assert r.phase == BETTING and r.to_act == 1     # 4c brings it in
    assert chips(r) == 300 and r.pot() == 2


def test_stud_exposed_hole_card_replaced_takes_the_exposure_with_it_20_38_l_g_m():
    # 20.38(l) then (g)/(m): the exposed hole card leaves the hand; its replacement comes
    # down as the hole card it replaces, and the third card goes back to being up.
    r, _ = new_game("stud7", [100] * 3, 0)
    deal(r, "2c 2d 2h")
    r.apply(("exposed", "2c"))
    out = r.apply(("replace", "2c", "off_table"))
    assert ("discarded", 0, cards("2c")) in out and r.expecting() == ("hole", 0)
    out = deal(r, "5s 3c 3d 3h 9s 4c Kh")
    assert dealt(out)[0] == ("hole", 0, "5s")
    assert dealt(out)[-3:] == [("up", 0, "9s"), ("up", 1, "4c"), ("up", 2, "Kh")]
    assert [len(r.up[s]) for s in range(3)] == [1, 1, 1]
    assert r.phase == BETTING and r.to_act == 1          # 4c brings it in
    # A second exposure is again the first: the hand lives.
    r, _ = new_game("stud7", [100] * 3, 0)
    deal(r, "2c 2d 2h")
    r.apply(("exposed", "2c"))
    r.apply(("replace", "2c", "ineligible"))
    deal(r, "5s 3c")
    assert of_kind(r.apply(("exposed", "3c")), "dead_hand") == []


def test_stud_exposed_card_replaced_after_its_down_third_card_comes_up_20_38_l_m():
    # The third card already came down for the exposed card (20.38(l)): the exposed
    # card's replacement shows in its place, so the hand keeps one up card to bet by.
    r, _ = new_game("stud7", [100] * 3, 0)
    deal(r, "2c 2d 2h 3c 3d 3h")
    r.apply(("exposed", "2c"))
    deal(r, "9s 4c Kh")
    assert face_up(r, 0) == [True, False, False]
    out = r.apply(("replace", "2c", "off_table"))
    assert r.expecting() == ("up", 0)
    out = deal(r, "Qd")
    assert dealt(out) == [("up", 0, "Qd")] and face_up(r, 0) == [False, False, True]
    assert r.phase == BETTING and r.to_act == 1 and chips(r) == 300


def test_one_hole_card_games_exposed_brings_the_up_card_down_20_38_l():
    # Five-card stud and Mambo stud deal one hole card then one up (ruling: 20.38(l)
    # read for one hole card): exposed, the up card comes down, the hand lives.
    for game in ("stud5", "mambo-stud"):
        r, _ = new_game(game, [100] * 3, 0)
        deal(r, "2c")
        out = r.apply(("exposed", "2c"))
        assert of_kind(out, "dead_hand") == [] and r.live(0)
        out = deal(r, "2d 2h 9s 4c Kh")
        assert dealt(out)[2] == ("hole", 0, "9s"), game
        assert face_up(r, 0) == [True, False] and r.showing(0) == cards("2c")
        assert r.phase == BETTING and chips(r) == 300, game


# ----- players' hands --------------------------------------------------------------------------

def test_a_fouled_protected_hand_gets_back_all_it_put_in_20_38_j3():
    # 20.38(j)3: a protected hand collected by the dealer or fouled by discards: the
    # player, a victim of the error, gets back from the pot all it put in.
    r = holdem3()
    act(r, "call 0", "call 1", "check 2")
    deal(r, "2c 7d 8h 9s")
    act(r, "bet 1", "call 2")
    out = r.apply(("foul", 2))
    assert refunds(out) == [(2, 4)] and ("dead_hand", 2) in out
    assert r.stacks[2] == 100 and r.folded[2]
    # Seat 0 still owes seat 1's bet; the hand goes on between seats 0 and 1.
    assert r.to_act == 0 and r.to_call(0) == 2
    act(r, "call 0")
    while not r.finished():
        if r.expecting() is not None:
            feed(r)
        else:
            passive(r)
    # Seat 1's aces win seat 0's 4; seat 2 neither wins nor loses.
    assert r.stacks == [96, 104, 100]


def test_a_fouled_hand_gets_no_more_than_the_pot_holds_after_the_rake_20_38_j3():
    # A rake already taken stays taken (13:47-20.37): the refund is what the pot holds.
    r = holdem3(Rake("incremental", levels=[(1, 5)]))
    act(r, "call 0", "call 1", "check 2")           # 6 in; the rake takes 5
    assert r.raked == 5 and r.pot() == 1
    deal(r, "2c 7d 8h 9s")
    out = r.apply(("foul", 0))
    assert refunds(out) == [(0, 1)]
    assert r.stacks[0] == 99 and r.pot() == 0
    assert chips(r) == 300


def test_a_player_who_leaves_with_an_unprotected_hand_is_folded_20_38_j4():
    # 20.38(j)4: assumed to have no interest in the pot; the cards are collected.  What
    # the player put in stays in the pot; the action moves on.
    r = holdem3()
    act(r, "call 0")
    assert r.to_act == 1
    out = r.apply(("away", 1))
    assert ("dead_hand", 1) in out and refunds(out) == []
    assert r.folded[1] and r.total[1] == 1 and r.to_act == 2
    # A player who is not to act may leave too.
    out = r.apply(("away", 0))
    assert ("dead_hand", 0) in out and out[-1] == ("end",)
    assert r.finished() and r.stacks == [98, 99, 103]
    assert refused(r, ("away", 2))


def test_a_forced_bet_is_still_owed_after_throwing_the_cards_away_20_38_k2():
    # 20.38(k)2: throwing away the cards does not relieve a player of a forced bet.
    # Stud: the bring-in cannot be folded ...
    r, _ = new_game("stud7", [100] * 3, 0)
    deal(r, THIRD)
    assert r.to_act == 1 and r.bring_in_due
    assert refused(r, ("fold", 1))
    # ... and a player who leaves with it due still posts it.
    out = r.apply(("away", 1))
    assert ("action", 1, "bring_in", 1, False) in out and ("dead_hand", 1) in out
    assert r.total[1] == 2 and r.stacks[1] == 98 and r.folded[1]
    assert r.to_act == 2 and not r.bring_in_due
    # Hold 'em: a blind folded stays in the pot, for the winner.
    r = holdem3()
    out = act(r, "fold 0", "fold 1")
    assert r.finished()
    assert r.stacks == [100, 99, 101]
    assert [e for e in of_kind(out, "return") if e[1] == 1] == []



def test_a_bring_in_owed_by_a_player_who_leaves_stays_in_the_pot():
    # 13:47-20.38(k)2 with (j)4: the bring-in is posted as the hand is folded; when no
    # one is left to call it, it is no uncalled bet to hand back to the folded hand.
    from felt.poker.round import Round
    from felt.poker.structure import Structure
    from felt.poker import variants
    r = Round([2, 40, 1, 1], 0, Structure("fixed", 2, 2, (), 1, 0, 1), variants.get("stud5"))
    r.start()
    for code in "2c 2d 2h 2s 3d 3c 3h 3s".split():
        r.apply(("card", code))
    r.apply(("away", 0))
    assert r.to_act == 1 and r.bring_in_due
    out = r.apply(("away", 1))
    assert ("action", 1, "bring_in", 1, False) in out and ("dead_hand", 1) in out
    assert not [e for e in out if e[0] == "return"]
    assert r.stacks[1] == 38 and r.total[1] == 2
