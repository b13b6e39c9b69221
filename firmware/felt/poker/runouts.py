"""Running the board more than once (13:69F-14.10(l), the ruling in docs/rules.md): a
round's runouts, at a table whose structure offers them (`run_it` 2 or 3).

Once nobody can bet any more, two players or more are still in and board cards are
still to come, each player still in is asked in turn, clockwise from the button:
("run_it", seat) agrees, ("run_once", seat) declines and the board is dealt once.
Agreed, the rest of the board is dealt `run_it` times (fewer if the stub cannot give
every runout its cards), each runout burning before each of its streets as the shoe
deals; each runout decides an equal share of each pot, the odd chips of that division
with the first runout's share.

felt.poker.round loads this module (felt.lazy) only at a table offering runouts: on a
board its bytecode lives in the heap while it is loaded.  Each function takes the
round, and changes it through its public methods and attributes.
"""

# The choice the players are asked (felt.poker.round's RUN_IT): named after the event
# that agrees.
RUN_IT = "run_it"


def start(r):
    """A new round's runout state, in the round (its save() and undo() keep it)."""
    r.runouts = 1               # times the rest of the board is dealt
    r.boards = []               # the boards of the runouts before the one being dealt
    r.run_from = -1             # the step the runouts deal from; -1 until asked
    r.offered = 0               # the runouts the players are asked to agree to
    r.shared = 0                # board cards every runout shares


def ask(r, out):
    """At a burn: True when the players are asked now (the first time nobody can bet
    any more with runouts to deal), else False and the burn goes on."""
    if r.run_from >= 0 or not _due(r):
        return False
    r.run_from = r.step
    r.ask_in_turn(RUN_IT, [s for s in r.clockwise() if r.live(s)], out)
    return True


def _due(r):
    """Two players or more still in, one at most able to bet, board cards to come
    and no player's decision before them, and the stub holding every runout's cards:
    the runouts offered (`run_it`, fewer if the stub cannot: ruling) set, True if more
    than one."""
    if _in_hand(r) < 2 or len([s for s in range(r.n) if r.can_act(s)]) > 1:
        return False
    need = board = 0
    for st in r.variant.steps[r.step:]:
        if st[0] in ("draw", "discard"):
            return False        # a player's decision is still to come
        if st[0] == "board":
            board += st[1]
        need += 1 if st[0] == "burn" else st[1] if st[0] == "board" else 0
    if not board:
        return False
    r.offered = min(r.structure.run_it, r.cards_left() // need)
    return r.offered > 1


def _in_hand(r):
    return len([s for s in range(r.n) if r.live(s)])


def agree(r, kind, seat, out):
    """("run_it", seat) or ("run_once", seat): a single decline deals the board once,
    whoever is still to answer."""
    out.append(("action", seat, kind, 0, False))
    if kind == "run_once":
        r.offered = 1
    r.answered(out, kind == "run_once")


def agreed(r, out):
    """Every player asked has answered (or gone): the cards follow, from the first
    runout's burn, on the board the runouts share."""
    r.runouts = r.offered
    r.shared = len(r.board)
    if r.runouts > 1:
        out.append(("runout", 1, r.runouts, list(r.board)))


def next_runout(r, out):
    """The variant's steps are done: True when another runout follows, dealt from
    where the runouts began, on the board they share."""
    if len(r.boards) + 1 >= r.runouts or _in_hand(r) < 2:
        return False
    r.boards.append(r.board)
    r.board = r.board[:r.shared]
    r.step = r.run_from
    out.append(("runout", len(r.boards) + 1, r.runouts, list(r.board)))
    return True


def finish(r, live, pots, out):
    """The showdown of each runout's board among the `live` seats, and its share of
    each of `pots` ([(amount after the rake, eligible seats)]): an equal share, the
    odd chips of that division the first runout's (ruling, docs/rules.md)."""
    boards = r.boards + [r.board]
    runs = len(boards)
    for k in range(runs):
        out.append(("runout", k + 1, runs, list(boards[k])))
        r.show_hands(live, boards[k], out)
        for i in range(len(pots)):
            amount = pots[i][0]
            share = amount // runs + (amount % runs if k == 0 else 0)
            if share:
                r.award(i, share, pots[i][1], out)
