"""Texas hold 'em bonus poker rounds: 19:47-28.1's wagers and cards, and the posted
settlement (the game's rules past 28.2 are not in our texts).  Antes of 10."""

from felt.banked.banked_round import DEALER
from banked_helpers import holdem_bonus, feed, refused, of_kind, flows, conserved

BURNS = "2c 3c 4c"


def play_out(r, cards, flop=(), turn=(), river=()):
    """Deal, decide and deal again: flop/turn/river list (event, seat) decisions."""
    out = feed(r, cards)
    for decisions in (flop, turn, river):
        for d in decisions:
            out += r.apply(d)
        out += feed(r, cards)
    return out


def test_two_cards_each_dealer_last_then_burn_and_flop_burn_turn_burn_river():
    # 19:47-28.1: burn, flop (three), turn, river
    r, out = holdem_bonus([(10, 0), (10, 5)])
    cards = {0: "Ac Ad", 1: "7s 7c", DEALER: "Kc Kd", "burn": BURNS,
             "board": "7h 8s 9d Jc 2d"}
    dealt = feed(r, cards)
    assert [e[2] for e in of_kind(dealt, "dealt")] == [0, 1, -1, 0, 1, -1]
    assert of_kind(dealt, "decide") == [("decide", "flop", [0, 1])]
    r.apply(("play", 0))
    dealt = r.apply(("play", 1))
    assert [e[1] for e in of_kind(dealt, "need")] == ["burn"]
    dealt = feed(r, cards)
    assert [e[1] for e in of_kind(dealt, "dealt")] == ["burn", "board", "board", "board"]
    assert of_kind(dealt, "decide") == [("decide", "turn", [0, 1])]


def test_flop_wager_is_twice_the_ante_turn_and_river_one_ante():
    # 19:47-28.1 "flop wager", "turn wager", "river wager"
    r, _ = holdem_bonus([(10, 0)])
    out = play_out(r, {0: "Ac Ad", DEALER: "Kc Kd", "burn": BURNS, "board": "7h 8s 9d Jc 2d"},
                   flop=[("play", 0)], turn=[("bet", 0)], river=[("check", 0)])
    assert of_kind(out, "wager") == [("wager", 0, "flop", 20), ("wager", 0, "turn", 10)]
    assert ("check", 0) in out


def test_flop_decision_is_fold_or_play_and_later_bet_or_check():
    r, _ = holdem_bonus([(10, 0)])
    cards = {0: "Ac Ad", DEALER: "Kc Kd", "burn": BURNS, "board": "7h 8s 9d Jc 2d"}
    feed(r, cards)
    assert r.legal_actions(0) == ["play", "fold"]
    assert "flop wager" in refused(r, ("check", 0))
    r.apply(("play", 0))
    feed(r, cards)
    assert r.legal_actions(0) == ["bet", "check"]
    assert "bet or check" in refused(r, ("fold", 0))


def test_winner_paid_even_money_ante_pushes_below_a_flush():
    # Posted: a winning ante is paid only on a flush or better (the default).
    r, _ = holdem_bonus([(10, 0)])
    out = play_out(r, {0: "Ac Ad", DEALER: "Kc Kd", "burn": BURNS, "board": "7h 8s 9d Jc 2d"},
                   flop=[("play", 0)], turn=[("bet", 0)], river=[("bet", 0)])
    assert flows(out, 0) == [("return", "ante", 10),
                             ("return", "flop", 20), ("pay", "flop", 20),
                             ("return", "turn", 10), ("pay", "turn", 10),
                             ("return", "river", 10), ("pay", "river", 10)]
    assert r.stacks == [1040] and conserved(r)


def test_winning_ante_paid_on_a_flush_or_as_configured_a_straight():
    flush = ("Ah 5h", "Qc Qd", "Kh 9h 2h 7c 3d")
    straight = ("Tc Jd", "4h 4s", "Qh Ks Ac 2d 3s")
    for cards, setting, paid in ((flush, "flush", True), (straight, "flush", False),
                                 (straight, "straight", True)):
        r, _ = holdem_bonus([(10, 0)], ante_pays_from=setting)
        out = play_out(r, {0: cards[0], DEALER: cards[1], "burn": "5c 6c 8c", "board": cards[2]}, flop=[("play", 0)], turn=[("check", 0)], river=[("check", 0)])
        assert (("pay", "ante", 10) in flows(out, 0)) == paid


def test_a_tie_is_a_push():
    # 19:47-28.1 "push"
    r, _ = holdem_bonus([(10, 0)])
    out = play_out(r, {0: "2c 3d", DEALER: "2h 3s", "burn": "4c 5c 6c",
                       "board": "As Ks Qh Jd Tc"},
                   flop=[("play", 0)], turn=[("bet", 0)], river=[("check", 0)])
    assert flows(out, 0) == [("return", "ante", 10), ("return", "flop", 20),
                             ("return", "turn", 10)]
    assert r.stacks == [1000] and r.house() == 0


def test_a_loss_loses_every_wager_but_the_bonus_pays_on_the_two_cards():
    # 19:47-28.1 "bonus wager": on the two cards dealt to the player.
    r, _ = holdem_bonus([(10, 5)])
    out = play_out(r, {0: "Kc Ks", DEALER: "Ac Ad", "burn": BURNS, "board": "2h 7d 9s 3d 4h"},
                   flop=[("play", 0)], turn=[("check", 0)], river=[("bet", 0)])
    assert flows(out, 0) == [("collect", "ante", 10), ("collect", "flop", 20),
                             ("collect", "river", 10),
                             ("return", "bonus", 5), ("pay", "bonus", 50)]
    assert conserved(r)


def test_aces_against_the_dealers_aces_pays_the_top_bonus():
    r, _ = holdem_bonus([(10, 1)])
    out = play_out(r, {0: "Ac Ad", DEALER: "Ah As", "burn": BURNS, "board": "2h 7d 9s 3d 4h"},
                   flop=[("play", 0)], turn=[("check", 0)], river=[("check", 0)])
    assert ("pay", "bonus", 1000) in flows(out, 0)


def test_a_losing_bonus_is_collected():
    r, _ = holdem_bonus([(10, 5)])
    out = play_out(r, {0: "Kc 9s", DEALER: "Ac 2d", "burn": BURNS, "board": "2h 7d 9d 3s 4h"},
                   flop=[("play", 0)], turn=[("check", 0)], river=[("check", 0)])
    assert ("collect", "bonus", 5) in flows(out, 0)


def test_a_fold_forfeits_ante_and_bonus_and_the_others_play_on():
    # 19:47-28.1 "fold": withdrawing before the flop wager, discarding the cards.
    r, _ = holdem_bonus([(10, 5), (10, 0)])
    cards = {0: "Ac Ad", 1: "7s 2c", DEALER: "Kc Kd", "burn": "3c 4c 5c",
             "board": "7h 8s 9d Jc 2d"}
    feed(r, cards)
    r.apply(("play", 0))
    out = r.apply(("fold", 1))
    assert flows(out, 1) == [("collect", "ante", 10)] and ("muck", 1) in out
    out = feed(r, cards)
    assert of_kind(out, "decide") == [("decide", "turn", [0])]


def test_when_everyone_folds_no_community_cards_are_dealt():
    r, _ = holdem_bonus([(10, 5)])
    feed(r, {0: "7s 2c", DEALER: "Kc Kd"})
    out = r.apply(("fold", 0))
    assert flows(out, 0) == [("collect", "ante", 10), ("collect", "bonus", 5)]
    assert r.finished() and r.expecting() is None and r.board == []
    assert r.house() == 15 and conserved(r)


def test_the_bonus_wager_needs_an_ante():
    try:
        holdem_bonus([(0, 5)])
    except ValueError as e:
        assert "goes with an ante" in str(e)
        return
    raise AssertionError("a bonus wager without an ante was accepted")


def test_flop_wager_refused_beyond_the_seats_chips():
    r, _ = holdem_bonus([(10, 0)], stacks=[25])
    feed(r, {0: "Ac Ad", DEALER: "Kc Kd"})
    assert "the flop wager is 20" in refused(r, ("play", 0))
