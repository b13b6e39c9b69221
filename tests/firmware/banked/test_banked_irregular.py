"""Irregularities at the house-banked tables, 19:47-27.12 (Four Card Poker; Texas hold
'em bonus poker's own section is not in our texts and follows the same rules here).
A void returns every wager exactly."""

from felt.banked.banked_round import DEALER
from felt.poker.cards import parse
from banked_helpers import four_card, holdem_bonus, feed, refused, of_kind, conserved

PAIR_OF_ACES = "Ac Ad 7h 2s 9c"
KINGS = "Kc Kd 5h 4s 8c 3d"


def voided_exactly(r, out):
    assert r.called_off == "void" and r.finished() and out[-1] == ("end",)
    assert [t for t, p in r.result()] == [p for t, p in r.result()]
    assert r.stacks == r.start_stacks and r.house() == 0


def test_one_card_face_up_in_the_shoe_is_not_used():
    # 19:47-27.12(a)
    r, _ = four_card([(10, 0)])
    r.apply(("card", "Ac"))
    out = r.apply(("face_up", "Qs"))
    assert out == [("unused", parse("Qs"), "19:47-27.12(a)")]
    assert r.expecting() == ("dealer", DEALER)
    assert "already seen" in refused(r, ("card", "Qs"))
    feed(r, {0: "Ad 7h 2s 9c", DEALER: KINGS})
    assert r.dealer[0] == parse("Kc")


def test_a_second_face_up_card_voids_all_hands():
    # 19:47-27.12(a)
    r, _ = four_card([(10, 5), (10, 0)])
    r.apply(("face_up", "Qs"))
    out = r.apply(("face_up", "Qh"))
    assert ("called_off", "void", "second face-up card", "19:47-27.12(a)") in out
    assert of_kind(out, "return") == [("return", 0, "ante", 10, "19:47-27.12(a)"),
                                      ("return", 0, "aces_up", 5, "19:47-27.12(a)"),
                                      ("return", 1, "ante", 10, "19:47-27.12(a)")]
    voided_exactly(r, out)


def test_face_up_is_found_only_while_dealing():
    r, _ = four_card([(10, 0)])
    feed(r, {0: PAIR_OF_ACES, DEALER: KINGS})
    assert "while dealing" in refused(r, ("face_up", "Qs"))


def test_a_card_drawn_in_error_unexposed_is_the_next_card_used():
    # 19:47-27.12(b): read during the flop decisions, it becomes the burn.
    r, _ = holdem_bonus([(10, 0)])
    feed(r, {0: "Ac Ad", DEALER: "Kc Kd"})
    out = r.apply(("card", "5c"))
    assert out == [("held", parse("5c"), "19:47-27.12(b)")]
    out = r.apply(("play", 0))
    assert ("dealt", "burn", DEALER, parse("5c")) in out
    assert out[-1] == ("need", "board", DEALER)


def test_no_card_is_due_once_four_card_poker_is_dealt():
    r, _ = four_card([(10, 0)])
    feed(r, {0: PAIR_OF_ACES, DEALER: KINGS})
    assert "no card is due" in refused(r, ("card", "Qs"))


def test_a_player_with_the_wrong_number_of_cards_voids_all_hands():
    # 19:47-27.12(c)
    r, _ = four_card([(10, 0), (10, 5)])
    feed(r, {0: PAIR_OF_ACES, 1: "Qc Qd 7d 6h 9h", DEALER: KINGS})
    r.apply(("play", 0, 3))
    out = r.apply(("miscount", 1))
    assert ("called_off", "void", "seat 1 has the wrong number of cards",
            "19:47-27.12(c)") in out
    assert ("return", 0, "play", 30, "19:47-27.12(c)") in out
    voided_exactly(r, out)


def test_the_dealer_with_the_wrong_number_of_cards_voids_all_hands():
    # 19:47-27.12(c)
    r, _ = holdem_bonus([(10, 5)])
    feed(r, {0: "Ac Ad", DEALER: "Kc Kd"})
    voided_exactly(r, r.apply(("miscount", DEALER)))


def test_a_folded_seat_has_no_hand_to_miscount():
    r, _ = holdem_bonus([(10, 0), (10, 0)])
    feed(r, {0: "Ac Ad", 1: "7s 2c", DEALER: "Kc Kd"})
    r.apply(("fold", 1))
    assert "no hand" in refused(r, ("miscount", 1))


def test_the_dealers_card_exposed_before_the_reveal_voids_all_hands():
    # 19:47-27.12(d); a forfeited ante, already collected, goes back too.
    r, _ = holdem_bonus([(10, 5), (10, 0)])
    cards = {0: "Ac Ad", 1: "7s 2c", DEALER: "Kc Kd", "burn": "3c", "board": "7h 8s 9d"}
    feed(r, cards)
    r.apply(("play", 0))
    r.apply(("fold", 1))
    feed(r, cards)
    assert "not the dealer's" in refused(r, ("dealer_exposed", "Ac"))
    out = r.apply(("dealer_exposed", "Kd"))
    assert ("return", 1, "ante", 10, "19:47-27.12(d)") in out
    assert ("return", 0, "flop", 20, "19:47-27.12(d)") in out
    voided_exactly(r, out)


def test_a_jammed_shoe_voids_the_round():
    # 19:47-27.12(f)
    r, _ = four_card([(10, 5)])
    feed(r, {0: "Ac Ad", DEALER: "Kc"})
    voided_exactly(r, r.apply(("void", "shoe jam")))


def test_nothing_happens_to_a_finished_round():
    r, _ = four_card([(10, 0)])
    feed(r, {0: PAIR_OF_ACES, DEALER: KINGS})
    r.apply(("play", 0, 1))
    assert "over" in refused(r, ("void", "shoe jam"))
    assert conserved(r)
