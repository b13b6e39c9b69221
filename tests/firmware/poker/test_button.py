"""19:47-14.10(c) and 13:47-20.36(c): where the button starts and how it moves."""

from felt.poker.button import by_high_card, dealer_right, rotate, next_seat, clockwise_from
from felt.poker.cards import parse


def test_button_starts_right_of_the_dealer_on_the_last_occupied_seat():
    assert dealer_right([True, True, False, True, False]) == 3


def test_button_by_high_card_rank_first():
    dealt = [(0, parse("Kc")), (1, parse("As")), (2, parse("Qh"))]
    assert by_high_card(dealt) == 1


def test_button_by_high_card_ties_broken_spades_hearts_diamonds_clubs():
    dealt = [(0, parse("Ah")), (1, parse("Ac")), (2, parse("As")), (3, parse("Ad"))]
    assert by_high_card(dealt) == 2


def test_button_rotates_clockwise_skipping_empty_seats():
    seated = [True, False, True, True]
    assert rotate(0, seated) == 2
    assert rotate(3, seated) == 0


def test_clockwise_order_starts_left_of_the_seat_and_ends_with_it():
    assert clockwise_from(2, [True] * 4) == [3, 0, 1, 2]
    assert next_seat(1, [False] * 3) == -1
