"""What leaves the board for everyone (felt.table.public, felt.table.shown): a round's
public record, asked for with the `public` query a page at a time, names only the cards
the table showed, and so do the irregularities' details and the refusals on the link.
Runs on CPython and MicroPython."""

from felt import protocol as P
from felt.poker import cards as C
from felt.table import shown
from felt.table.public import chunk

from table_fakes import boot, events, journal_path, start_round

CFG = {"seats": 4, "stacks": [100, 100, 100, 0], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}
# Three players' hole cards, then the burns and the board.
DECK = "As Kd 7c 7d 2h 3h 4s Qs Jh Tc 5d 9s 6c Ad".split()


def table(name):
    ctl, hal = boot(journal_path(name))
    assert ctl.handle("cfg", CFG) is None
    start_round(ctl)
    return ctl, hal


def feed(ctl, deck):
    """The cards the round asks for, from `deck`, until it asks for none or none is left."""
    while ctl.state == "playing" and ctl.round.expecting() is not None and deck:
        assert ctl.handle("card", {"code": deck.pop(0)}) is None


def showdown(ctl):
    """Deal and play to the showdown: the first player to act folds, the others call
    and check; the seat that folded."""
    deck = list(DECK)
    folder = None
    while ctl.state == "playing":
        feed(ctl, deck)
        if ctl.state != "playing":
            break
        seat = ctl.round.to_act
        folder = seat if folder is None else folder
        assert ctl.handle("btn", {"seat": seat, "b": "fold" if seat == folder else "call"}) \
            is None
    return folder


def pages(ctl, hal, k=0):
    """Every page of round k's public record, asked for as a floor's tool does."""
    got, start = [], 0
    while start is not None:
        assert ctl.handle("public", {"round": k, "from": start}) is None
        kind, answer = hal.link.sent[-1]
        assert kind == "public" and answer["from"] == start
        assert len(P.encode(65535, "public", answer)) <= P.MAX_FRAME
        got.append(answer)
        start = answer["next"]
    return got


def record(ctl, hal, k=0):
    got = pages(ctl, hal, k)
    assert len(set([a["seq"] for a in got])) == 1
    return got[0]["format"], "".join([a["text"] for a in got])


def dealt(text):
    """{PHH player: the cards of its `d dh` lines}."""
    out = {}
    for line in text.split("\n"):
        words = line.strip().strip("',").split()
        if words[:2] == ["d", "dh"]:
            out[words[2]] = out.get(words[2], "") + words[3]
    return out


def test_a_showdowns_record_names_the_hands_shown_and_the_board_and_masks_the_folded():
    ctl, hal = table("public-showdown")
    folder = showdown(ctl)
    r = ctl.round
    assert r.finished() and r.folded[folder] and len(r.show_order) == 2
    form, text = record(ctl, hal)
    assert form == "phh" and text.startswith("variant = 'FT'\n") and text.endswith("\n")
    order = r.clockwise()
    for seat in order:
        hole = "".join([C.code(c) for c in r.hole[seat]])
        mine = dealt(text)["p%d" % (order.index(seat) + 1)]
        assert mine == (hole if seat in r.show_order else "????"), (seat, text)
    assert all([C.code(c) in text for c in r.board])
    for hidden in ("_burns", "_felt_events"):
        assert hidden not in text


def test_every_page_fits_a_frame_and_the_record_is_let_go_after_its_last():
    ctl, hal = table("public-pages")
    showdown(ctl)
    got = pages(ctl, hal)
    assert len(got) > 1 and got[-1]["next"] is None
    assert ctl.public is None                   # nothing kept once its last page went
    again = pages(ctl, hal)
    assert [a["text"] for a in again] == [a["text"] for a in got]
    # A page asked again, from anywhere, is that piece of the same text.
    whole = "".join([a["text"] for a in got])
    assert ctl.handle("public", {"from": 5}) is None
    assert whole[5:].startswith(hal.link.sent[-1][1]["text"])
    assert ctl.public is not None               # kept while its pages are asked for
    start_round(ctl)
    assert ctl.public is None                   # the next round lets it go


def test_a_line_longer_than_a_page_is_split_across_pages():
    lines = ["a" * 1500 + "\n", "b\n", '"' * 400 + "\n"]
    start, parts = 0, []
    while start is not None:
        piece, start = chunk(lines, [len(P.dumps(line)) - 2 for line in lines], start, 600)
        assert 0 < len(P.dumps(piece)) - 2 <= 600
        parts.append(piece)
    assert "".join(parts) == "".join(lines) and len(parts) >= 4


def test_no_round_kept_gives_no_record_and_says_none():
    ctl, hal = boot(journal_path("public-none"))
    assert ctl.handle("cfg", CFG) is None
    assert ctl.handle("public", {}) is None
    answer = hal.link.sent[-1][1]
    assert (answer["rounds"], answer["format"], answer["text"], answer["next"]) == \
        (0, None, "", None)


def test_an_irregularity_names_a_card_found_face_up_never_one_dealt_face_down():
    ctl, hal = table("public-irregular")
    assert ctl.handle("card", {"code": "As"}) is None          # a hole card
    assert ctl.handle("dealer", {"b": "ineligible", "card": "As"}) is None
    assert ctl.handle("card", {"code": "Kh", "face_up": True}) is None
    details = [e["detail"] for e in events(hal, "irregularity")]
    assert details[0].startswith("?? dealt to a seat not in the round: discarded, seat ")
    assert details[1] == "Kh found face up in the deck: not used"
    # The dealer's report naming the card again is refused: the refusal on the link
    # names it no more than the table showed it.
    assert ctl.handle("dealer", {"b": "ineligible", "card": "As"}) is not None
    assert "As" not in events(hal, "refused")[-1]["why"]
    while ctl.state == "playing":
        feed(ctl, list(DECK[1:]))
        if ctl.state == "playing" and ctl.round.expecting() is None:
            assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "fold"}) is None
    form, text = record(ctl, hal)
    assert "# felt: replace ?? ineligible" in text and "# felt: face_up Kh" in text
    assert "As" not in text


def test_a_duplicate_of_a_hole_card_calls_the_round_dead_without_naming_it():
    ctl, hal = table("public-duplicate")
    feed(ctl, DECK[:6])                          # the hole cards
    hole = C.code(ctl.round.hole[ctl.round.clockwise()[0]][0])
    while ctl.round.expecting() is None:
        assert ctl.handle("btn", {"seat": ctl.round.to_act, "b": "call"}) is None
    assert ctl.handle("card", {"code": hole}) is None        # the burn: a second copy
    dead = [e for e in events(hal, "irregularity") if e["kind"] == "dead"]
    assert dead[0]["detail"] == "duplicate card ??"
    form, text = record(ctl, hal)
    assert "_called_off_why = 'duplicate card ?? 13:47-20.38(h)'" in text
    assert hole not in text
    # The journal keeps it: the technician's recall names the card.
    from felt.table import recall
    assert ["dead", "duplicate card %s" % hole] in recall.page(ctl.journal.path, 0, 0, None)["events"]


def test_the_text_names_only_the_cards_it_is_given_as_seen():
    assert shown.masked("duplicate card As", set()) == "duplicate card ??"
    assert shown.masked("As Kd, 7c: Ask", {"Kd"}) == "?? Kd, ??: Ask"
    assert shown.masked("seat 2's hole card Th exposed", {"Th"}) == \
        "seat 2's hole card Th exposed"
    assert shown.masked("deck check: 51 cards, missing 2c", set()) == \
        "deck check: 51 cards, missing ??"
    assert shown.masked("", set()) == "" and shown.masked("A", set()) == "A"
