"""felt.poker.variants: every game once, found by its name."""

from felt.poker import variants


def test_the_names_are_every_game_in_order():
    assert variants.NAMES == tuple([v.name for v in variants.every()])


def test_get_finds_each_game_and_refuses_another():
    for name in variants.NAMES:
        assert variants.get(name).name == name
    try:
        variants.get("canasta")
    except KeyError as e:
        assert e.args[0].startswith('unknown game "canasta" (games: holdem, ')
    else:
        raise AssertionError("an unknown game was found")
