"""Four card poker rounds: 19:47-27.10 and 27.11.  Seats of 1000 chips, antes of 10."""

from felt.banked.banked_round import DEALER
from banked_helpers import four_card, feed, refused, of_kind, flows, conserved

PAIR_OF_ACES = "Ac Ad 7h 2s 9c"
KINGS = "Kc Kd 5h 4s 8c 3d"           # the dealer's best: a pair of kings


def test_five_cards_to_each_player_and_six_to_the_dealer_dealer_last():
    r, out = four_card([(10, 0), (0, 0), (10, 5)])
    assert of_kind(out, "wager") == [("wager", 0, "ante", 10), ("wager", 2, "ante", 10),
                                     ("wager", 2, "aces_up", 5)]
    dealt = feed(r, {0: "2c 3c 4c 5c 6c", 2: "2d 3d 4d 5d 6d", DEALER: "2h 3h 4h 5h 6h 7h"})
    assert [e[2] for e in of_kind(dealt, "dealt")] == [0, 2, -1] * 5 + [-1]
    assert len(r.dealer) == 6 and len(r.hole[0]) == 5 and r.hole[1] == []
    assert of_kind(dealt, "decide") == [("decide", "play", [0, 2])]


def test_play_wager_is_one_to_three_times_the_ante():
    r, _ = four_card([(10, 0)])
    feed(r, {0: PAIR_OF_ACES, DEALER: KINGS})
    assert "one to three times" in refused(r, ("play", 0, 4))
    assert "one to three times" in refused(r, ("play", 0, 0))
    assert r.legal_actions(0) == ["play", "fold"]
    out = r.apply(("play", 0, 3))
    assert of_kind(out, "wager") == [("wager", 0, "play", 30)]


def test_play_wager_refused_beyond_the_seats_chips():
    r, _ = four_card([(10, 0)], stacks=[35])
    feed(r, {0: PAIR_OF_ACES, DEALER: KINGS})
    assert "the play wager is 30" in refused(r, ("play", 0, 3))


def test_higher_hand_wins_ante_and_play_one_to_one():
    # 19:47-27.11(a)1
    r, _ = four_card([(10, 0)])
    feed(r, {0: PAIR_OF_ACES, DEALER: KINGS})
    out = r.apply(("play", 0, 2))
    assert flows(out, 0) == [("return", "ante", 10), ("pay", "ante", 10),
                             ("return", "play", 20), ("pay", "play", 20)]
    assert r.stacks == [1030] and r.house() == -30 and conserved(r)


def test_a_tie_goes_to_the_player():
    # 19:47-27.11(a)1: "or is of equal rank with the dealer's hand"
    r, _ = four_card([(10, 0)])
    feed(r, {0: "Kh Ks Qc Jd 2c", DEALER: "Kc Kd Qh Js 2d 3d"})
    out = r.apply(("play", 0, 1))
    shows = of_kind(out, "show")
    assert shows[0][1] == DEALER and shows[0][2] == shows[1][2]
    assert r.stacks == [1020]


def test_lower_hand_loses_ante_and_play():
    r, _ = four_card([(10, 0)])
    feed(r, {0: "Qc Qd 7h 2s 9c", DEALER: KINGS})
    out = r.apply(("play", 0, 3))
    assert flows(out, 0) == [("collect", "ante", 10), ("collect", "play", 30)]
    assert r.house() == 40 and conserved(r)


def test_ante_bonus_paid_on_three_of_a_kind_even_when_the_dealer_wins():
    # 19:47-27.11(a)2: "regardless of whether the player's hand outranks the dealer's"
    r, _ = four_card([(10, 0)])
    feed(r, {0: "7c 7d 7h 2s 3c", DEALER: "9c 9d 9h 9s 2d 4d"})
    out = r.apply(("play", 0, 1))
    assert flows(out, 0) == [("collect", "ante", 10), ("collect", "play", 10),
                             ("pay", "ante_bonus", 20)]
    assert r.stacks == [1000] and conserved(r)


def test_ante_bonus_for_four_of_a_kind_and_straight_flush():
    for hand, bonus in (("9c 9d 9h 9s 2c", 250), ("5s 6s 7s 8s 2c", 200)):
        r, _ = four_card([(10, 0)])
        feed(r, {0: hand, DEALER: KINGS})
        out = r.apply(("play", 0, 1))
        assert ("pay", "ante_bonus", bonus) in flows(out, 0)


def test_aces_up_paid_whatever_the_dealer_holds_even_after_a_fold():
    # 19:47-27.11(a)3; 27.10(c): a folded hand with an aces up wager stays in.
    r, _ = four_card([(10, 5)], aces_up="II")
    feed(r, {0: "Tc Jd Qh Ks 2c", DEALER: "9c 9d 9h 9s 2d 4d"})
    out = r.apply(("fold", 0))
    assert flows(out, 0) == [("collect", "ante", 10), ("return", "aces_up", 5),
                             ("pay", "aces_up", 25)]     # a straight, table II: 5 to 1
    assert ("muck", 0) in out
    assert r.stacks == [1015] and conserved(r)


def test_forfeited_antes_collected_before_the_dealer_reveals():
    # 19:47-27.10(c)-(d): folded antes and the cards of a fold without aces up go
    # first; then the dealer's hand, then the players'.
    r, _ = four_card([(10, 0), (10, 0)])
    feed(r, {0: PAIR_OF_ACES, 1: "Qc Qd 7d 6h 9h", DEALER: KINGS})
    r.apply(("fold", 1))
    out = r.apply(("play", 0, 1))
    assert out[:3] == [("wager", 0, "play", 10),
                       ("collect", 1, "ante", 10, "19:47-27.10(c)"), ("muck", 1)]
    assert out[3][:2] == ("show", DEALER)
    assert [e[1] for e in of_kind(out, "show")] == [DEALER, 0]


def test_aces_up_only_seat_has_no_decision():
    r, _ = four_card([(0, 5), (10, 0)])
    out = feed(r, {0: PAIR_OF_ACES, 1: "Qc Qd 7d 6h 9h", DEALER: KINGS})
    assert of_kind(out, "decide") == [("decide", "play", [1])]
    out = r.apply(("fold", 1))
    assert flows(out, 0) == [("return", "aces_up", 5), ("pay", "aces_up", 5)]
    assert r.finished() and conserved(r)


def test_no_decisions_when_every_seat_wagers_aces_up_only():
    r, _ = four_card([(0, 5)])
    out = feed(r, {0: "Qc Qd 7d 6h 9h", DEALER: KINGS})
    assert flows(out, 0) == [("collect", "aces_up", 5)] and r.finished()


def hands_three_seats(order):
    r, _ = four_card([(10, 0), (10, 0), (10, 0)], settle_order=order)
    feed(r, {0: PAIR_OF_ACES, 1: "Qc Qd 7d 6h 9h", 2: "Ah As 8h 3s Th", DEALER: KINGS})
    r.apply(("play", 0, 1))
    r.apply(("play", 1, 1))
    return [e[:2] for e in r.apply(("play", 2, 1))
            if e[0] in ("show", "collect", "return", "pay", "muck")]


def test_settlement_27_10_e_2_finishes_each_player_from_the_dealers_right():
    # 19:47-27.10(e)2: seat 2 is farthest to the dealer's right.
    assert hands_three_seats(2) == [
        ("show", -1),
        ("show", 2), ("return", 2), ("pay", 2), ("return", 2), ("pay", 2), ("muck", 2),
        ("show", 1), ("collect", 1), ("collect", 1), ("muck", 1),
        ("show", 0), ("return", 0), ("pay", 0), ("return", 0), ("pay", 0), ("muck", 0),
        ("muck", -1)]


def test_settlement_27_10_e_1_does_each_step_round_the_table():
    # 19:47-27.10(e)1: reveal all, collect all losing wagers, pay all winning ones.
    assert hands_three_seats(1) == [
        ("show", -1), ("show", 2), ("show", 1), ("show", 0),
        ("collect", 1), ("collect", 1),
        ("return", 2), ("pay", 2), ("return", 2), ("pay", 2),
        ("return", 0), ("pay", 0), ("return", 0), ("pay", 0),
        ("muck", 2), ("muck", 1), ("muck", 0), ("muck", -1)]


def test_settlement_waits_for_settle_when_asked():
    r, _ = four_card([(10, 0)])
    feed(r, {0: PAIR_OF_ACES, DEALER: KINGS})
    out = r.apply(("play", 0, 1), settle=False)
    assert out[-1] == ("settle",) and not of_kind(out, "show")
    out = r.settle()
    assert out[-1] == ("end",) and r.stacks == [1020]


def test_decisions_refused_while_dealing_and_twice():
    r, _ = four_card([(10, 0), (10, 0)])
    assert "dealing" in refused(r, ("play", 0, 1))
    feed(r, {0: PAIR_OF_ACES, 1: "Qc Qd 7d 6h 9h", DEALER: KINGS})
    r.apply(("fold", 0))
    assert "no decision" in refused(r, ("play", 0, 1))
    assert "unknown event" in refused(r, ("bet", 1))


def test_undo_takes_the_round_back_to_a_saved_state():
    # The table undoes an event whose journal write failed.
    r, _ = four_card([(10, 5), (10, 0)])
    feed(r, {0: PAIR_OF_ACES, 1: "Qc Qd 7d 6h 9h", DEALER: KINGS})
    r.apply(("fold", 1))
    saved = r.save()
    first = r.apply(("play", 0, 2))
    r.undo(saved)
    assert r.undecided[0] and r.stacks == [990 - 5, 990] and not r.finished()
    assert r.apply(("play", 0, 2)) == first
