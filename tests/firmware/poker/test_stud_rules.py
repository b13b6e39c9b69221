"""Stud rules: seven-card stud high, high-low and high-low eight or better
(19:47-14.9, 13:47-20.35), the dead deals of 13:47-20.38(e), five-card stud
(19:47-14.8(a)5) and Mambo stud (rules README).  Fixed limit 2/4, ante 1, bring-in 1
unless said; seats are numbered clockwise from the dealer's left."""

from felt.poker.cards import parse
from felt.poker.evaluate import evaluate
from felt.poker.round import BETTING
from firmware_helpers import deal, act, refused, of_kind
from variant_helpers import DECK, new_game, stud_limit, cards, dealt, feed, passive, \
    bet_round, stud7_streets, stud7_showdown, awards, won, codes_of, face_up

THIRD = "2c 2d 2h 3c 3d 3h 9s 4c Kh"    # three seats; seat 1 shows the low 4c


def opener_after(name, ups):
    """The seat to act after third street when the seats show `ups` (high hole cards)."""
    ups = ups.split()
    n = len(ups)
    holes = [c for c in DECK if c not in ups][-2 * n:]
    r, _ = new_game(name, [100] * n)
    deal(r, " ".join(holes + ups))
    return r.to_act


# ----- dealing and opening -----------------------------------------------------------------

def test_stud_deals_two_down_then_one_up_from_the_dealers_left_14_9_c():
    # 19:47-14.9(c), 13:47-20.35(c): from the first player left of the dealer, clockwise.
    r, _ = new_game("stud7", [100] * 3)
    out = deal(r, "2c 3c 4c 2d 3d 4d 9s 5h Kd")
    assert dealt(out) == [("hole", 0, "2c"), ("hole", 1, "3c"), ("hole", 2, "4c"),
                          ("hole", 0, "2d"), ("hole", 1, "3d"), ("hole", 2, "4d"),
                          ("up", 0, "9s"), ("up", 1, "5h"), ("up", 2, "Kd")]
    assert face_up(r, 0) == [False, False, True]
    assert r.showing(1) == cards("5h")
    # An empty seat at the dealer's left: the deal starts with the next player.
    r, _ = new_game("stud7", [0, 100, 100])
    out = deal(r, "2c 3c 2d 3d 9s 5h")
    assert [e[1] for e in dealt(out)] == [1, 2, 1, 2, 1, 2]


def test_high_bring_in_is_the_lowest_up_card_suits_spades_hearts_diamonds_clubs_14_9_d_1():
    # 19:47-14.9(d)1, 13:47-20.35(d): the lowest up-card; equal ranks by suit, clubs lowest.
    assert opener_after("stud7", "3s 3h 3d 3c") == 3
    assert opener_after("stud7", "3s 3h 3d") == 2
    assert opener_after("stud7", "5h 5s") == 0
    assert opener_after("stud7", "As 2d Kc") == 1     # the ace is high (13:69F-14.3(a))


def test_high_low_bring_in_is_the_highest_up_card_the_ace_below_the_two_14_9_d_2():
    # 19:47-14.9(d)2
    assert opener_after("stud7-hilo", "Ah 2c") == 1
    assert opener_after("stud7-hilo", "Ac Ad 2c") == 2
    assert opener_after("stud7-hilo", "Kd Ks Qs") == 1
    assert opener_after("stud7-hilo", "Kh Kd 9s") == 0


def test_eight_or_better_bring_in_is_the_lowest_up_card_the_ace_high_14_9_d_3():
    # 19:47-14.9(d)3
    assert opener_after("stud7-hilo8", "Ac 2s") == 1
    assert opener_after("stud7-hilo8", "Ac Kd") == 1
    assert opener_after("stud7-hilo8", "7h 7d 9c") == 1


def test_the_bring_in_may_post_the_bring_in_or_complete_the_bet_14_9_d_e():
    # 19:47-14.9(d)-(e): the forced bet; in fixed limit, the bring-in or the full bet.
    r, _ = new_game("stud7", [100] * 3)
    deal(r, THIRD)
    assert r.to_act == 1
    assert r.legal_actions(1) == ["bring_in", "bet"]
    for not_now in (("fold", 1), ("check", 1), ("call", 1), ("raise", 1)):
        assert refused(r, not_now)
    out = act(r, "bet 1")                   # completes to the small bet
    assert of_kind(out, "action") == [("action", 1, "bet", 2, False)]
    assert r.level == 2
    assert r.to_act == 2 and r.legal_actions(2) == ["fold", "call", "raise"]


def test_after_the_bring_in_others_may_call_it_or_complete_clockwise_from_it_14_9_e():
    # 19:47-14.9(e): clockwise from the player who placed the forced bet.
    r, _ = new_game("stud7", [100] * 3)
    deal(r, THIRD)
    out = act(r, "bring_in 1")
    assert of_kind(out, "action") == [("action", 1, "bring_in", 1, False)]
    assert r.to_act == 2 and r.legal_actions(2) == ["fold", "call", "bet"]
    out = act(r, "call 2")
    assert of_kind(out, "action")[0][3] == 1
    out = act(r, "bet 0")                   # completes the bring-in to the small bet
    assert of_kind(out, "action")[0][3] == 2 and r.level == 2
    assert r.to_act == 1 and "raise" in r.legal_actions(1)


def test_a_player_who_called_the_bring_in_may_raise_after_a_completion_14_9_e():
    # 19:47-14.9(e), (g): facing a bet a player may fold, call or raise.  The completion
    # is a full bet, not a short all-in raise (the only raise that does not reopen the
    # betting, rules README), so the player who called the bring-in may raise it.
    r, _ = new_game("stud7", [100] * 3)
    deal(r, THIRD)
    act(r, "bring_in 1", "call 2", "bet 0", "call 1")
    assert r.to_act == 2
    assert r.legal_actions(2) == ["fold", "call", "raise"]
    out = act(r, "raise 2")
    assert r.level == 4 and of_kind(out, "action")[0][3] == 3


def test_later_streets_are_opened_by_the_highest_hand_showing_14_9_f_1():
    # 19:47-14.9(f)1: a pair of kings showing beats ace-queen and ace-five.
    r, _ = new_game("stud7", [100] * 3)
    deal(r, "2c 2d 2h 3c 3d 3h 5s Ad Kh")
    passive(r)
    out = deal(r, "4c As Qd Kc")
    assert r.to_act == 2 and of_kind(out, "to_act") == [("to_act", 2)]
    assert r.legal_actions(2) == ["fold", "check", "bet"]


def test_a_tie_for_the_highest_hand_showing_goes_to_the_closest_to_the_dealers_left_14_9_f_2():
    # 19:47-14.9(f)2: ace-king against ace-king; suits do not break this tie.
    r, _ = new_game("stud7", [100] * 3)
    deal(r, "2c 2d 2h 3c 3d 3h 5s Ad Ah")
    passive(r)
    deal(r, "4c 9c Kc Ks")
    assert r.to_act == 1
    r, _ = new_game("stud7", [100] * 3)
    deal(r, "2c 2d 2h 3c 3d 3h Ac 5s As")
    passive(r)
    deal(r, "4c Kc 9h Ks")
    assert r.to_act == 0


def test_later_cards_go_only_to_players_who_made_or_called_the_last_wager_14_9_f_h():
    # 19:47-14.9(f), (h); 13:47-20.35(f), (h): a player who folded to a wager gets no card.
    r, _ = new_game("stud7", [100] * 4)
    deal(r, "2c 2d 2h 2s 3c 3d 3h 3s 9s 4c Kh Qd")
    act(r, "bring_in 1", "bet 2", "fold 3", "call 0", "call 1")
    out = deal(r, "5c 6c 7c 8c")
    assert [(e[0], e[1]) for e in dealt(out)] == [("burn", -1), ("up", 0), ("up", 1), ("up", 2)]
    assert r.expecting() is None and len(r.hole[3]) == 3
    assert r.to_act == 2                     # king-eight showing
    bet_round(r, folds=(0,))
    out = deal(r, "5d 6d 7d")
    assert [(e[0], e[1]) for e in dealt(out)] == [("burn", -1), ("up", 1), ("up", 2)]
    assert r.expecting() is None


def test_a_card_is_burned_before_each_street_after_the_first_14_9_f_h():
    # 19:47-14.9(f), (h)
    streets = stud7_streets(["2c 2d 9s Ac Ad Ah As", "3c 3d 4c Kc Kd Kh Ks"], "5c 6c 7c 8c")
    r, _ = new_game("stud7", [100, 100])
    assert r.expecting() == ("hole", 0)          # no burn before the first cards
    deal(r, streets[0])
    passive(r)
    kinds = []
    for street in streets[1:]:
        assert r.expecting() == ("burn", -1)
        out = deal(r, street)
        kinds.append([e[0] for e in dealt(out)])
        passive(r)
    assert kinds == [["burn", "up", "up"]] * 3 + [["burn", "hole", "hole"]]
    assert r.burns == cards("5c 6c 7c 8c")
    assert r.finished()


# ----- the common card --------------------------------------------------------------

def test_common_card_when_the_deck_cannot_give_every_player_a_seventh_card_14_9_h():
    # 19:47-14.9(h): eight players, one folds to a wager on fifth street.  After sixth
    # street two cards remain for seven players: burn one, deal one common card face up.
    r, out = new_game("stud7", [100] * 8)
    feed(r)
    passive(r)
    feed(r)
    passive(r)
    feed(r)
    gone = (r.to_act + 1) % 8               # folds to the opening bet on fifth street
    bet_round(r, folds=(gone,))
    out = feed(r) + passive(r)
    assert r.cards_left() == 2
    out += feed(r)
    assert [(e[0], e[1]) for e in dealt(out)][-2:] == [("burn", -1), ("board", -1)]
    assert of_kind(out, "reshuffle") == []
    assert len(r.board) == 1
    assert [len(r.hole[s]) for s in range(8)] == [5 if s == gone else 6 for s in range(8)]
    passive(r)
    assert r.finished()
    # The common card plays in every remaining hand (13:47-20.2 "common card").
    for s in range(8):
        if s != gone:
            assert r.high[s] == evaluate(r.hole[s] + r.board)


def test_with_one_card_left_the_burn_cards_are_shuffled_then_burn_and_common_card_14_9_h():
    # 19:47-14.9(h): eight players stay to seventh street: 51 cards are out, one is left.
    # The dealer shuffles the burn cards, burns a card and deals the common card.
    r, out = new_game("stud7", [100] * 8)
    for street in range(3):
        feed(r)
        passive(r)
    feed(r)                                 # sixth street
    burns = list(r.burns)
    assert len(burns) == 3 and r.cards_left() == 1
    out = passive(r)
    # Not every player can have a card: no hole card is asked for; the burns go back.
    assert of_kind(out, "reshuffle") == [("reshuffle", burns)]
    assert r.expecting() == ("burn", -1)
    assert r.cards_left() == 4
    # A shuffled burn card may now be burned again and another dealt as the common card.
    out = deal(r, codes_of(burns[:2]))
    assert [(e[0], e[1]) for e in dealt(out)] == [("burn", -1), ("board", -1)]
    assert r.board == [burns[1]]
    passive(r)
    assert r.finished()
    for s in range(8):
        assert len(r.hole[s]) == 6
        assert r.high[s] == evaluate(r.hole[s] + r.board)


# ----- 13:47-20.38(e): dead deals to a folded position ------------------------------------

def test_a_player_who_folds_on_a_round_of_checking_is_dealt_to_until_a_wager_20_38_e():
    # 13:47-20.38(e): seat 0 folds when nobody has bet on fourth street; its position
    # still receives the fifth-street card (a dead card), then nothing after the wager.
    r, _ = new_game("stud7", [100] * 3)
    deal(r, THIRD)
    passive(r)                              # the bring-in and two calls
    deal(r, "5c 6c 7c 8c")                  # seat 2 opens with king-eight
    act(r, "check 2", "fold 0", "check 1")
    out = deal(r, "5d 6d 7d 8d")
    assert [(e[0], e[1]) for e in dealt(out)] == [("burn", -1), ("up", 0), ("up", 1), ("up", 2)]
    assert len(r.hole[0]) == 4 and parse("6d") in r.muck
    assert r.to_act == 2                    # a pair of eights showing
    act(r, "bet 2", "call 1")               # a wager: no more cards for seat 0
    out = deal(r, "5h 7h 8h")
    assert [(e[0], e[1]) for e in dealt(out)] == [("burn", -1), ("up", 1), ("up", 2)]
    assert r.expecting() is None


def test_showdown_order_after_a_checked_last_round_starts_with_its_opener_20_38_d():
    # docs/rules.md: seventh street is checked, so its opener (19:47-14.9(f): the pair
    # of kings showing, seat 2) shows first, not seat 0 who bet fourth street; the opener
    # who folded on a round of checking (13:47-20.38(e)) passes it to the next, seat 0.
    streets = stud7_streets(["2c 3c 9s 5d 6d 7d 8s", "2d 3d 4c 5h 6h 7h 8h",
                             "2h 3h Kh Kd 9c Jc Ts"], "5c 6c 7c 8c")
    for fold in (False, True):
        r, _ = new_game("stud7", [100] * 3)
        deal(r, streets[0])
        passive(r)
        deal(r, streets[1])
        act(r, "check 2", "bet 0", "call 1", "call 2")
        for street in streets[2:4]:
            deal(r, street)
            act(r, "check 2", "check 0", "check 1")
        deal(r, streets[4])
        assert r.to_act == 2
        out = act(r, "fold 2" if fold else "check 2", "check 0", "check 1")
        assert r.finished()
        assert [e[1] for e in of_kind(out, "show")] == ([0, 1] if fold else [2, 0, 1])


def test_a_player_who_folds_after_making_the_forced_bet_is_dealt_to_until_a_wager_20_38_e():
    # 13:47-20.38(e) as written: "folds after making a forced bet".  Seat 1 posts the
    # bring-in, seat 2 completes, seat 0 calls, and seat 1 folds: there is no wager after
    # the fold, so seat 1's position still receives the fourth-street card.
    r, _ = new_game("stud7", [100] * 3)
    deal(r, THIRD)
    act(r, "bring_in 1", "bet 2", "call 0", "fold 1")
    deal(r, "5c 6c")                        # the burn, seat 0's card
    assert r.expecting() == ("up", 1)
    deal(r, "7c 8c")
    assert len(r.hole[1]) == 3
    bet_round(r)                            # a wager on fourth street
    out = deal(r, "5d 6d 7d")
    assert [(e[0], e[1]) for e in dealt(out)] == [("burn", -1), ("up", 0), ("up", 2)]


# ----- the showdown: high-low ----------------------------------------------------------

def test_eight_or_better_without_a_qualifying_low_the_high_hand_takes_the_pot_14_9_j():
    # 19:47-14.9(j): seat 1's best low is 9-5-4-3-2, no eight or better.
    hands = ["Ah Ad Kc Qs Js 9c 9d", "2c 3h 4s 5d 9h Kd Qc"]
    r, out = stud7_showdown("stud7-hilo8", hands, "Tc Td Th Ts")
    assert r.low == [-1, -1]
    assert awards(out) == [(0, 4, "all")]      # the whole pot, not a high half
    assert won(r) == [2, -2]
    # Without the qualifier (stud high-low, rules README) the same low takes half.
    r, out = stud7_showdown("stud7-hilo", hands, "Tc Td Th Ts")
    assert sorted(awards(out)) == [(0, 2, "high"), (1, 2, "low")]


def test_an_ace_plays_high_and_low_at_once_14_9_l():
    # 19:47-14.9(l): seat 0's aces beat kings for high, and its ace makes 6-4-3-2-A,
    # which beats seat 1's 8-7-5-4-3 for low.
    hands = ["Ac Ad 2h 3s 4c 6d Kh", "Ks Kd 8c 7h 5s 4d 3h"]
    r, out = stud7_showdown("stud7-hilo8", hands, "9s 9d 9c 9h")
    assert sorted(awards(out)) == [(0, 2, "high"), (0, 2, "low")]
    assert won(r) == [2, -2]


def test_the_same_five_cards_may_make_the_high_and_the_low_hand_14_9_k():
    # 19:47-14.9(k)1: 2-3-4-5-6 is a straight for high and a 6-5-4-3-2 low.
    hands = ["2c 3d 4h 5s 6c Kd Kh", "8c 7d 5c 4c 3s Ks Kc"]
    r, out = stud7_showdown("stud7-hilo8", hands, "9s 9d 9c 9h")
    assert sorted(awards(out)) == [(0, 2, "high"), (0, 2, "low")]
    # (k)2: five suited cards, none above an eight: a flush and an 8-7-5-4-2 low,
    # against aces with an 8-7-6-5-A low.
    hands = ["2h 4h 5h 7h 8h Kc Qd", "As Ad 8s 7c 6d 5c Ks"]
    r, out = stud7_showdown("stud7-hilo8", hands, "9s 9d 9c 9h")
    assert sorted(awards(out)) == [(0, 2, "high"), (0, 2, "low")]


def test_the_odd_chip_of_a_split_pot_goes_to_the_high_hand_14_9_i_2_i():
    # 19:47-14.9(i)2i: a pot of 9 (ante 1, bring-in 2, three players) splits 5 / 4.
    hands = ["Ah Ad Kc Qs Js 9c 9d", "2c 3h 4s 5d 7h Kd Qc", "Th Tc 8c 8d 6h 6s Jh"]
    r, out = stud7_showdown("stud7-hilo8", hands, "2s 3s 4d 5h",
                            structure=stud_limit(ante=1, bring_in=2, small=4, big=8))
    assert r.pot() == 9
    assert sorted(awards(out)) == [(0, 5, "high"), (1, 4, "low")]


def test_a_tied_high_shares_odd_chip_goes_to_the_highest_card_by_suit_14_9_i_2_ii():
    # 19:47-14.9(i)2ii, iv: seats 0 and 1 tie with A-K-Q-J-9; the high half of 6 is 3.
    # Seat 1 holds the ace of spades, seat 0 the ace of hearts.  Seat 2 wins the low.
    hands = ["Ah Kd Qc Jc 9d 3c 4d", "As Kc Qd Js 9h 3d 4c", "2c 3h 4s 6d 7c 8h Tc"]
    r, out = stud7_showdown("stud7-hilo8", hands, "5c 5d 5h 5s")
    assert r.high[0] == r.high[1]
    assert sorted(awards(out)) == [(0, 1, "high"), (1, 2, "high"), (2, 3, "low")]


def test_a_tied_low_shares_odd_chip_goes_to_the_lowest_card_by_suit_14_9_i_2_iii():
    # 19:47-14.9(i)2iii, iv: seats 0 and 1 tie with 7-5-4-3-A; the low half of 6 is 3.
    # Seat 0 holds the ace of clubs, the lowest card by suit.  Seat 2 wins the high.
    hands = ["Ac 3h 4s 5d 7c Kd Qh", "Ad 3c 4h 5s 7d Ks Qc", "9c 9d 9h Js Jd 2s 8c"]
    r, out = stud7_showdown("stud7-hilo8", hands, "Tc Td Th Ts")
    assert r.low[0] == r.low[1] and r.low[2] == -1
    assert sorted(awards(out)) == [(0, 2, "low"), (1, 1, "low"), (2, 3, "high")]


def test_stud_high_tie_odd_chip_goes_to_the_highest_card_by_suit_20_35_i_2():
    # 13:47-20.35(i)2: a pot of 9 split between two A-K-Q-J-9 hands; the ace of spades.
    hands = ["Ah Kd Qc Jc 9d 3c 4d", "As Kc Qd Js 9h 3d 4c", "2c 3h 5s 6d 7c 8h Tc"]
    r, out = stud7_showdown("stud7", hands, "2s 2d 2h 4h",
                            structure=stud_limit(ante=1, bring_in=2, small=4, big=8))
    assert sorted(awards(out)) == [(0, 4, "all"), (1, 5, "all")]


# ----- five-card stud -----------------------------------------------------------------

def test_five_card_stud_deals_one_down_one_up_then_one_up_a_street_14_8_a_5():
    # 19:47-14.8(a)5: five-card stud high.
    r, _ = new_game("stud5", [100] * 3)
    out = deal(r, "2c 3c 4c 9s 5h Kd")
    assert [(e[0], e[1]) for e in dealt(out)] == [("hole", 0), ("hole", 1), ("hole", 2),
                                                  ("up", 0), ("up", 1), ("up", 2)]
    assert r.to_act == 1 and r.legal_actions(1) == ["bring_in", "bet"]   # the low 5h
    passive(r)
    for street in ("Ac Qs Jh Td", "Ad 9h 8d 7c", "Ah 6s 4s 3s"):
        out = deal(r, street)
        assert [(e[0], e[1]) for e in dealt(out)] == [("burn", -1), ("up", 0), ("up", 1), ("up", 2)]
        passive(r)
    assert r.finished()
    assert [face_up(r, s) for s in range(3)] == [[False, True, True, True, True]] * 3


def test_five_card_stud_ten_players_get_a_common_last_card_14_9_h_readme():
    # Rules README: five-card stud seats 10 with the common-card rule: 20 + 3 x 11 cards
    # would be 53, so the last street is a burn and one common card.
    r, _ = new_game("stud5", [100] * 10)
    for street in range(3):
        feed(r)
        passive(r)
    assert r.cards_left() == 10
    out = feed(r)
    assert [(e[0], e[1]) for e in dealt(out)] == [("burn", -1), ("board", -1)]
    passive(r)
    assert r.finished() and sum(r.stacks) == 1000


# ----- Mambo stud (rules README) ------------------------------------------------------

MAMBO = stud_limit(ante=1, bring_in=0)


def mambo(hands, community, burns="Tc Td"):
    """Two seats play Mambo stud checking throughout: own cards "down up down"."""
    hs = [h.split() for h in hands]
    b = burns.split()
    r, out = new_game("mambo-stud", [100] * len(hands), structure=MAMBO)
    out += deal(r, " ".join([h[0] for h in hs] + [h[1] for h in hs]))
    out += passive(r)
    out += deal(r, " ".join([b[0]] + [h[2] for h in hs]))
    out += passive(r)
    out += deal(r, b[1] + " " + community)
    out += passive(r)
    return r, out


def test_mambo_ante_then_one_down_one_up_and_the_lowest_up_card_opens_readme():
    # Rules README, Mambo stud: ante; one card down and one up; the lowest up-card opens
    # (suits as 19:47-14.9(d)).  It is no forced bet: the opener may check.
    r, out = new_game("mambo-stud", [100] * 3, structure=MAMBO)
    assert [(e[1], e[2], e[3]) for e in of_kind(out, "post")] == \
        [(0, "ante", 1), (1, "ante", 1), (2, "ante", 1)]
    out = deal(r, "2c 3c 4c 9s 5h Kd")
    assert [(e[0], e[1]) for e in dealt(out)] == [("hole", 0), ("hole", 1), ("hole", 2),
                                                  ("up", 0), ("up", 1), ("up", 2)]
    assert r.to_act == 1
    assert "check" in r.legal_actions(1) and "bring_in" not in r.legal_actions(1)
    r, _ = new_game("mambo-stud", [100] * 3, structure=MAMBO)
    deal(r, "2c 3c 4c 5s 5h 5d")
    assert r.to_act == 2


def test_mambo_one_more_card_down_then_the_highest_up_card_opens_readme():
    r, _ = new_game("mambo-stud", [100] * 3, structure=MAMBO)
    deal(r, "2c 3c 4c 9s 5h Kd")
    passive(r)
    assert r.expecting() == ("burn", -1)
    out = deal(r, "Tc 6c 7c 8c")
    assert [(e[0], e[1]) for e in dealt(out)] == [("burn", -1), ("hole", 0), ("hole", 1), ("hole", 2)]
    assert [face_up(r, s) for s in range(3)] == [[False, True, False]] * 3
    assert r.to_act == 2                    # the king


def test_mambo_one_community_card_then_the_final_betting_readme():
    r, _ = new_game("mambo-stud", [100] * 3, structure=MAMBO)
    deal(r, "2c 3c 4c 9s 5h Kd")
    passive(r)
    deal(r, "Tc 6c 7c 8c")
    passive(r)
    out = deal(r, "Td Ah")
    assert [(e[0], e[1]) for e in dealt(out)] == [("burn", -1), ("board", -1)]
    assert r.board == cards("Ah") and r.phase == BETTING
    passive(r)
    assert r.finished()


def test_mambo_hands_are_three_of_the_four_cards_ranked_as_three_card_hands_readme():
    # Rules README: three of the player's three cards and the community card, ranked by
    # 13:69F-14.3(c), where a straight beats a flush: K-Q-J beats 9-8-2 of hearts.
    r, out = mambo(["9h 8h 2h", "Kc Qd 3s"], "Jd")
    assert awards(out) == [(1, 2, "all")]      # no six-or-better low: the whole pot
    assert won(r) == [-1, 1]


def test_mambo_six_or_better_low_splits_the_pot_readme():
    # Rules README: A-2-4 (with the community four) is a six-or-better low; the kings win high.
    r, out = mambo(["Ac 2d 9s", "Kc Kd 7s"], "4h")
    assert r.low[0] >= 0 and r.low[1] == -1
    assert sorted(awards(out)) == [(0, 1, "low"), (1, 1, "high")]


def test_mambo_without_a_six_or_better_low_the_high_hand_takes_all_readme():
    # Rules README: 7-4-2 is no six-or-better low; the queens take the whole pot.
    r, out = mambo(["7c 4d 2s", "Qc Qd 9s"], "Kh")
    assert r.low == [-1, -1]
    assert awards(out) == [(1, 2, "all")]
