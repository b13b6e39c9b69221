"""The rounds' records the floor keeps: each round's public record, as the board builds
it (the `public` query, felt.table.public: its hand history or house-banked record
with only the cards the table showed), its pages put together.  The board never sends
the floor's tool a hole card it did not show: the full `recall` is a technician's.
"""

TRIES = 3    # a round that changed between its pages (the table ended one) is asked again


class RecordError(ValueError):
    """The board gives no public record of the round."""


def of_round(ask, hand):
    """(format, text) of round `hand`'s public record, the newest complete round, from
    the board's answers to `public` (`ask(k, start)`); RecordError saying why not."""
    for _ in range(TRIES):
        first = ask(0, 0)
        if first["hand"] != hand:
            raise RecordError("the journal's newest round is hand %s" % (first["hand"],))
        if first["format"] is None:
            raise RecordError(first["why"] or "the board keeps no round")
        text, nxt, same = [first["text"]], first["next"], True
        while nxt is not None and same:
            page = ask(0, nxt)
            same = page["seq"] == first["seq"] and page["from"] == nxt
            text.append(page["text"])
            nxt = page["next"]
        if same:
            return first["format"], "".join(text)
    raise RecordError("the round changed while it was read, %d times" % TRIES)
