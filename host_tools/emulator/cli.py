"""felt-emulator: run the emulated table, headless or in the terminal view.

    felt-emulator --hands 200 --players 9 --seed 7     # headless, scripted players
    felt-emulator --players 6                           # the interactive view
"""

import argparse
import sys

from host_tools.emulator.link import LinkError
from host_tools.emulator.session import DEFAULT_BOARD, Session, round_line


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="felt-emulator", description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, help="play this many rounds headless, then stop")
    ap.add_argument("--players", type=int, default=6, help="seated players (2..11)")
    ap.add_argument("--seed", type=int, default=1, help="seeds the shuffler and the players")
    ap.add_argument("--stack", type=int, default=1000, help="each player's starting chips")
    ap.add_argument("--button", choices=("dealer_right", "high_card"), default="dealer_right",
                    help="where the button starts (19:47-14.10(c)2)")
    ap.add_argument("--board", default=str(DEFAULT_BOARD), help="board definition (JSON)")
    ap.add_argument("--journal", help="append the firmware's journal to this file")
    ap.add_argument("--trace", help="write every frame on the link to this file")
    ap.add_argument("--interactive", action="store_true",
                    help="the terminal view (the default when --hands is not given)")
    args = ap.parse_args(argv)
    if not 2 <= args.players <= 11:
        ap.error("--players must be 2..11")
    if args.hands is not None and args.hands < 0:
        ap.error("--hands must be >= 0")
    return args


def headless(args, out=sys.stdout):
    session = Session(players=args.players, seed=args.seed, stack=args.stack,
                      board=args.board, button=args.button, journal=args.journal)
    played = 0
    if args.trace:
        trace = open(args.trace, "w")
        session.link.trace = lambda d, line: trace.write(d + " " + line.decode(errors="replace"))
    try:
        session.open()
        start = sum(session.config["stacks"])
        for _ in range(args.hands):
            if sum(1 for s in session.state()["stacks"] if s > 0) < 2:
                print("stopped: fewer than two players have chips", file=out)
                break
            end = session.play_round()
            played += 1
            print(round_line(end, session.events), file=out)
        end_chips = sum(session.state()["stacks"])
    except LinkError as e:
        session.faults.append(str(e))
        end_chips = -1
        start = sum(session.config["stacks"])
        err = session.fw.stderr()
        if err:
            print(err, file=sys.stderr)
    finally:
        session.close()
    faults = len(session.faults) + session.link.decoder.errors + session.link.sender.failed
    for f in session.faults:
        print("fault: %s" % f, file=out)
    print("summary: hands=%d chips_start=%d chips_end=%d faults=%d"
          % (played, start, end_chips, faults), file=out)
    return 0 if faults == 0 and start == end_chips else 1


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.hands is None or args.interactive:
        if not sys.stdin.isatty():
            print("felt-emulator: the interactive view needs a terminal; "
                  "give --hands N to play headless", file=sys.stderr)
            return 2
        from host_tools.emulator.view import run_view
        return run_view(args)
    return headless(args)


if __name__ == "__main__":
    sys.exit(main())
