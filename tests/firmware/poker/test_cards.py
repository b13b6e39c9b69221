from felt.poker import cards as C


def test_every_code_round_trips():
    for card in range(52):
        assert C.parse(C.code(card)) == card


def test_suit_order_spades_hearts_diamonds_clubs():
    # 19:47-14.9(d): spades > hearts > diamonds > clubs; a larger suit number is higher.
    assert C.suit(C.parse("As")) > C.suit(C.parse("Ah")) > C.suit(C.parse("Ad")) > C.suit(C.parse("Ac"))


def test_unknown_codes_are_refused_with_a_reason():
    for bad in ("Zz", "1s", "A", "Asx", "", None, 7, "Ax"):
        try:
            C.parse(bad)
        except C.CardError as e:
            assert "unknown card code" in str(e)
        else:
            assert False, bad


def test_only_the_protocols_spelling_is_a_card():
    # docs/protocol.md: a rank of 23456789TJQKA and a suit of cdhs, nothing else.
    for bad in ("as", "AS", "aS", "10s", "Ax", "", " As"):
        try:
            C.parse(bad)
        except C.CardError:
            continue
        assert False, "accepted %r" % bad
