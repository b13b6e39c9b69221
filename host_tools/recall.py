"""felt-recall: the table's last rounds as its journal keeps them (docs/journal.md,
"Archives and recall"), printed for a technician and written as hand histories.

    felt-recall --port /dev/ttyUSB0           # ask the board over its link (`recall`)
    felt-recall --port /dev/ttyUSB0 --key keys/tech.key --board ID   # a board that trusts keys
    felt-recall --journal journal.jsonl       # a journal copied off a board, archives beside it
    felt-recall --journal FILE --phh DIR      # also DIR/hand-<n>.phh for each round
    felt-recall --journal FILE --board-key keys/boards/BOARD.key   # its MACs checked

Each round is rebuilt through the rules core from its header and events: the seats and
stacks, every card and wager in order, the pots and what each took, the rake, and the
irregularities the table applied.  The rounds come oldest first; a round the journal
could not read whole says which lines.  A board's journal carries the MAC of each record
by the board's key (docs/journal.md): read from a file, the MACs are checked with
--board-key (a line whose MAC does not hold is one that could not be read), and read
past, said to be unchecked, without it.  Over the link, a board that trusts keys answers
a technician only (--key): each request signed for the board named (--board ID, or
--board-key FILE, as felt-tech), each answer taken only where the board's key vouches
for it.
"""

import io
import json
import os
import sys

from felt.poker import variants
from felt.table import phh, poker_table
from felt.table.journal import RECALL
from felt.table.recall import files
from felt.table.records import UNCHECKED
from felt.table.states import is_banked
from felt.table.recovery import begun
from host_tools import cli
from host_tools.words import Narrator

TRIES = 3    # a round that changed between its pages (the table wrote one) is asked again


class RecallError(RuntimeError):
    """The board's answers do not make a round."""


def fetch(ask, rounds=RECALL):
    """The last `rounds` complete rounds, oldest first, each the first page's answer
    with every event in `events`; `ask(k, start)` gives the answer to `recall`."""
    out = []
    for k in range(rounds):
        got = one_round(ask, k)
        if got is None:
            break
        out.append(got)
    return out[::-1]


def one_round(ask, k):
    """Round k (0 the newest complete one) with every event of its pages, as fetch gives
    each; None when the board holds no round k."""
    for _ in range(TRIES):
        first = ask(k, 0)
        if k >= first["rounds"]:
            return None
        first = dict(first, events=list(first["events"]))   # the answer asked, as it was
        nxt, ok = first["next"], True
        while nxt is not None and ok:
            page = ask(k, nxt)
            ok = page["seq"] == first["seq"]
            first["events"] += page["events"]
            nxt = page["next"]
        if ok:
            return first
    raise RecallError("round %d changed while it was read, %d times" % (k, TRIES))


def describe(answer):
    """The round as lines of text for a technician."""
    h = answer["header"]
    out = []
    if answer["unread"]:
        out.append("  could not be read: %s" % ", ".join(
            "%s line %d" % ("the journal" if f == 0 else "archive .%d" % f, n)
            for f, n in answer["unread"]))
    if h is None:
        out.insert(0, "round (its header could not be read): %d events" % len(answer["events"]))
        out += ["  event %s" % json.dumps(e) for e in answer["events"]]
        return out
    if is_banked(h):
        return _banked(h, answer["events"], out)
    st = h["structure"]
    stud = h["game"] in variants.NAMES and variants.get(h["game"]).stud()  # no button
    out.insert(0, "hand %d: %s, %s limit %s/%s, %s" % (
        h["hand"], h["game"], st["structure"], st["small_bet"], st["big_bet"],
        "no button" if h["button"] < 0 or stud else "button seat %d" % h["button"]))
    out.append("  stacks: " + " ".join("%d:%d" % (s, n) for s, n in enumerate(h["stacks"])))
    try:
        r, said = begun(h)
        for e in answer["events"]:
            said += r.apply(tuple(e))
    except Exception as e:  # noqa: BLE001 - whatever the journal holds, a sentence
        out.append("  the rules core cannot rebuild it: %s" % e)
        return out
    pots = {}
    narrator = Narrator()   # a bet or raise said as its total, as the view says it
    for e in said:
        event = _event(r, e)
        if e[0] == "award":
            pots[e[1]] = pots.get(e[1], 0) + e[3]
        if event is not None:
            out.append("  " + narrator.line(event))
    if pots:
        out.append("  pots: " + ", ".join("%s %d" % ("main" if p == 0 else "side %d" % p,
                                                      pots[p]) for p in sorted(pots)))
    out.append("  rake: %d" % r.raked)
    if not r.finished():
        out.append("  (the round is not over in the journal)")
    out.append("  stacks after: " + " ".join("%d:%d" % (s, n) for s, n in enumerate(r.stacks)))
    return out


def _banked(h, events, out):
    """A house-banked round (docs/banked-records.md) as lines of text."""
    from felt.table import banked_record
    out.insert(0, "hand %d: %s, house-banked, %s" % (h["hand"], h["game"], ", ".join(
        "%s %s" % kv for kv in sorted(h["settings"].items()))))
    out.append("  stacks: " + " ".join("%d:%d" % (s, n) for s, n in enumerate(h["stacks"])))
    out.append("  wagers (ante, side): " + " ".join(
        "%d:%d,%d" % (s, a, b) for s, (a, b) in enumerate(h["wagers"]) if a + b))
    try:
        d = banked_record.build(h, events, None)
    except Exception as e:  # noqa: BLE001 - whatever the journal holds, a sentence
        out.append("  the rules core cannot rebuild it: %s" % e)
        return out
    out += ["  seat %d: %s" % (s, cards) for s, cards in d["seats"]]
    out.append("  dealer: %s%s" % (d["dealer"], "; board: " + d["board"] if d["board"] else ""))
    out += ["  %s: seat %d %s%s" % (name, s, what, " %d" % chips if chips else "")
            for name, s, what, chips in d["decisions"]]
    out += ["  %s shows %s: %s" % ("the dealer" if s < 0 else "seat %d" % s, cards, hand)
            for s, cards, hand, _ in d["shown"]]
    out += ["  seat %d: %s %s %d (%s)" % (s, what, kind, amount, section)
            for what, s, kind, amount, section in d["settlement"]]
    if d["called_off"]:
        out.append("  called off: %s, %s (%s)" % tuple(d["called_off"]))
    out.append("  house: %+d" % d["house"])
    out.append("  stacks after: " + " ".join(
        "%d:%d" % (s, n) for s, n in enumerate(d["finishing_stacks"])))
    return out


def _event(r, e):
    """The event a board sends for one of the rules core's effects, every card named
    (felt.table.poker_table.event_of), for words.Narrator; None for an effect it sends
    none for."""
    k = e[0]
    if k == "called_off":
        return {"e": "irregularity", "kind": e[1], "detail": e[2], "section": e[3]}
    if k == "irregularity":
        return {"e": k, "kind": e[1], "section": e[2], "detail": e[3]}
    if k in ("need", "to_act", "end", "settle"):
        return None
    return poker_table.event_of(r, e)


def write_phh(folder, answer):
    """The round as DIR/hand-<n>.phh (felt.table.phh, docs/phh.md), a house-banked
    round as DIR/hand-<n>.banked (felt.table.banked_record, docs/banked-records.md;
    its `firmware` null), and its path; RecallError saying why not for a round whose
    header could not be read or that the rules core cannot rebuild (an event damaged)."""
    header = answer["header"]
    if header is None:
        raise RecallError("its header could not be read")
    banked = is_banked(header)
    try:
        if banked:
            from felt.table import banked_record
            out = io.StringIO()
            banked_record.write(out, header, answer["events"], None)
            text = out.getvalue()
        else:
            text = phh.history(header, answer["events"])
    except Exception as e:  # noqa: BLE001 - whatever the journal holds, a sentence
        raise RecallError("the rules core cannot rebuild it: %s" % e)
    path = os.path.join(folder, "hand-%d.%s" % (header["hand"], "banked" if banked else "phh"))
    with open(path, "w") as f:
        f.write(text)
    return path


def from_journal(path, key=UNCHECKED):
    """ask(k, start) reading the journal files with the firmware's own reader, each
    line's MAC checked by `key`, the board's (UNCHECKED: read past)."""
    from felt.table import recall
    return lambda k, start: recall.page(path, k, start, key=key)


def not_a_journal(path):
    """Why the files of the journal at `path` are none, or None: not one of their lines
    reads as a record (felt.table.records.parse; a table with no round yet has some)."""
    from felt.table import records
    why = None
    for name in files(path):
        if os.path.isfile(name):
            with open(name, "rb") as f:
                for line in f:
                    try:
                        records.parse(memoryview(line.rstrip(b"\n")), UNCHECKED)
                        return None
                    except ValueError as e:
                        why = why or "%s: %s" % (os.path.basename(name), e)
    return why or "it is empty"


def from_link(link, port, who=None):
    """ask(k, start) over a board's link (a HostLink on `port`); `who`: the technician
    (host_tools.tech.Technician), for a board that trusts keys (it answers them only)."""
    hello = link.request("hello", {}, "hello")          # a host says hello first (5)
    ask = asker(link, hello, who)
    if ask is None:
        raise cli.UserError("--port %s: the board answers a technician only: give --key "
                            "KEYFILE and --board ID" % port, 1)
    return ask


def asker(link, hello, who=None):
    """ask(k, start) over a board's link that said `hello`: signed by the technician
    `who` where the board trusts keys (hello's `signed`), each answer taken once the
    board's key vouched for it; None there without a technician."""
    if not hello.get("signed"):
        return lambda k, start: link.request("recall", {"round": k, "from": start}, "recall")
    if who is None:
        return None
    from host_tools import tech
    return lambda k, start: tech.ask(link, who, "recall", {"round": k, "from": start})


@cli.command("felt-recall")
def main(argv=None):
    ap = cli.parser("felt-recall", __doc__)
    where = ap.add_mutually_exclusive_group(required=True)
    cli.link_options(ap, where)
    where.add_argument("--journal", help="a journal file; its archives FILE.1, FILE.2, ... "
                                         "are read beside it")
    ap.add_argument("--phh", metavar="DIR", type=cli.out_dir,
                    help="write each round to DIR/hand-<n>.phh")
    ap.add_argument("--key", help="with --port: the technician's private key, for a board "
                                  "that trusts keys")
    from host_tools import tech
    tech.board_options(ap)
    ap.add_argument("--rounds", type=cli.count(1, RECALL), default=RECALL,
                    help="how many of the last rounds, 1 to %d (a board keeps %d; default "
                         "%d)" % (RECALL, RECALL, RECALL))
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if args.journal is not None and not any(os.path.isfile(f) for f in files(args.journal)):
        raise cli.UserError("--journal %s: no such file, nor archives beside it" % args.journal, 1)
    try:
        if args.key and not args.port:
            ap.error("--key is for a board on --port")
        named = tech.board_named(args)
        if args.port and named and not args.key:
            ap.error("--board and --board-key go with --key")
        who = tech.technician(args.key, args) if args.key else None
        if args.port:
            from host_tools.link import HostLink
            with cli.open_link(args.port, args.baud) as port:
                link = HostLink(port.fileno(), args.timeout)
                rounds = fetch(from_link(link, args.port, who), args.rounds)
        else:
            from host_tools.signing import read_board_key
            macs = UNCHECKED if named is None else read_board_key(named[1])
            rounds = fetch(from_journal(args.journal, macs), args.rounds)
    except (RuntimeError, OSError) as e:      # RecallError, the link's LinkError
        raise cli.UserError(str(e), 1)
    why = not_a_journal(args.journal) if args.journal and not rounds else None
    if why is not None:
        raise cli.UserError("--journal %s: no line reads as a journal's record (first: %s)"
                            % (args.journal, why), 1)
    print("%d rounds, oldest first" % len(rounds))
    if args.journal:
        print("MACs: " + ("not checked (no --board-key)" if named is None else
                          "checked by the board's key (a line whose MAC does not hold is "
                          "listed as not read)"))
    for answer in rounds:
        print("\n".join(describe(answer)))
        if args.phh:
            try:
                print("  written: %s" % write_phh(args.phh, answer))
            except RecallError as e:
                print("  written: none, %s" % e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
