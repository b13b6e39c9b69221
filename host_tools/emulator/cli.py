"""felt-emulator: run the emulated table, headless or in the terminal view.

    felt-emulator --hands 200 --players 9 --seed 7     # headless, scripted players
    felt-emulator --hands 1000 --seed 5 --faults random # with devices and dealer failing
    felt-emulator --players 6                           # the interactive view
    felt-emulator --runtime micropython --image build/image --hands 10  # a signed image
"""

import argparse
import sys
from pathlib import Path

from felt.poker import variants
from host_tools.emulator.link import Tilted, add_runtime_arguments, check_runtime
from host_tools.emulator.session import DEFAULT_BOARD, RAKES, Session, round_line, table_config


TILTED = 3    # the exit status when the table tilts at boot (its program check failed)


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="felt-emulator", description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, help="play this many rounds headless, then stop")
    ap.add_argument("--game", default="holdem", choices=variants.NAMES, help="the game")
    ap.add_argument("--list-games", action="store_true",
                    help="print each game's name and its maximum players, then stop")
    ap.add_argument("--structure", default="fixed", choices=("fixed", "spread", "pot", "no"),
                    help="betting structure: fixed, spread, pot or no limit")
    ap.add_argument("--rake", default="none", choices=sorted(RAKES),
                    help="rake method (13:47-20.37), with the emulator's posted amounts")
    ap.add_argument("--straddle", action="store_true", help="allow the straddle (hold 'em)")
    ap.add_argument("--players", type=int, default=6, help="seated players (2..11)")
    ap.add_argument("--seed", type=int, default=1, help="seeds the shuffler and the players")
    ap.add_argument("--stack", type=int, default=1000, help="each player's starting chips")
    ap.add_argument("--button", choices=("dealer_right", "high_card"), default="dealer_right",
                    help="where the button starts (19:47-14.10(c)2)")
    ap.add_argument("--board", default=str(DEFAULT_BOARD), help="board definition (JSON)")
    ap.add_argument("--journal", help="keep the firmware's journal in this file (removed first: a new "
                         "table) rather than in a temporary one")
    ap.add_argument("--phh", metavar="DIR",
                    help="write each round's Poker Hand History to DIR/hand-<n>.phh")
    ap.add_argument("--faults", choices=("random",),
                    help="inject faults (jams, face-up, extra and missing cards, misdeals, "
                         "exposed cards...) at random moments, seeded by --seed")
    ap.add_argument("--trace", help="write every frame on the link to this file")
    add_runtime_arguments(ap)
    ap.add_argument("--image", metavar="DIR",
                    help="run the signed image in DIR (felt-flash build) as a board flashed "
                         "with it: its program is checked at boot (MicroPython only)")
    ap.add_argument("--trust", metavar="FILE", default="keys/felt.pub",
                    help="with --image: the public key the board trusts (default %(default)s)")
    ap.add_argument("--tech-key", metavar="FILE", default="keys/felt.key",
                    help="with --image: the technician's private key, which signs the "
                         "table's configuration and deck registrations (default %(default)s)")
    ap.add_argument("--interactive", action="store_true",
                    help="the terminal view (the default when --hands is not given)")
    args = ap.parse_args(argv)
    if args.list_games:
        return args
    check_runtime(ap, args)
    if args.image is not None:
        if args.runtime != "micropython":
            ap.error("--image needs --runtime micropython: an image's program is bytecode")
        if not (Path(args.image) / "board.json").is_file():
            ap.error("--image %s: no board.json there (felt-flash build makes images)"
                     % args.image)
        if not Path(args.trust).is_file():
            ap.error("--trust %s: no such key file (felt-flash keygen makes one)" % args.trust)
        args.board = str(Path(args.image) / "board.json")   # the board it was built for
        from host_tools.flash import load_key
        try:
            args.tech_key = load_key(args.tech_key)
        except SystemExit as e:
            ap.error(str(e))
    else:
        args.tech_key = None
    most = variants.get(args.game).max_players
    if not 2 <= args.players <= most:
        ap.error("--players must be 2..%d for %s" % (most, args.game))
    if args.hands is not None and args.hands < 0:
        ap.error("--hands must be >= 0")
    return args


def headless(args, out=None):
    out = out or sys.stdout
    config = table_config(args.game, args.players, args.stack, args.structure, args.rake,
                          args.button, args.straddle)
    session = Session(players=args.players, seed=args.seed, board=args.board,
                      journal=args.journal, config=config, phh=args.phh, inject=args.faults,
                      runtime=args.runtime, heap=args.heap, image=args.image, trust=args.trust,
                      tech_key=args.tech_key)
    faulty = args.faults is not None
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
            _notes(session, out)
            line = round_line(end, session.events)
            print(line + (" deck=%s" % end["deck"] if faulty else ""), file=out)
            if args.rake == "time":
                session.pass_time()
        state = session.state()
        rake = state["rake"]
        end_chips = sum(state["stacks"]) + rake
    except Tilted as e:
        print("felt-emulator: the table is tilted: %s" % e, file=sys.stderr)
        return TILTED
    except RuntimeError as e:     # a LinkError, or the emulated shoe out of cards
        session.faults.append(str(e))
        end_chips = -1
        rake = 0
        start = sum(session.config["stacks"])
        err = session.fw.stderr()
        if err:
            print(err, file=sys.stderr)
    finally:
        session.close()
    _notes(session, out)
    errors = len(session.faults) + session.link.decoder.errors + session.link.sender.failed \
        + session.link_errors
    for f in session.faults:
        print("error: %s" % f, file=out)
    if start != end_chips:
        print("error: chips at the start %d, at the end %d (stacks and rake)"
              % (start, end_chips), file=out)
    rake_part = " rake=%d" % rake if args.rake != "none" else ""
    if faulty:
        counts = session.fault_counts()
        print("fault kinds: " + " ".join("%s=%d" % kc for kc in counts.items()), file=out)
        # faults= counts the injected faults; what went wrong unexpectedly is counted
        # on its own line (and each printed as `error:`), and fails the run.
        print("errors: %d" % errors, file=out)
        print("summary: hands=%d chips_start=%d chips_end=%d faults=%d%s"
              % (played, start, end_chips, sum(counts.values()), rake_part), file=out)
    else:
        # Rake is house money: counted in chips_end, and shown when the table takes one.
        print("summary: hands=%d chips_start=%d chips_end=%d faults=%d%s"
              % (played, start, end_chips, errors, rake_part), file=out)
    return 0 if errors == 0 and start == end_chips else 1


def _notes(session, out):
    """The injected faults' lines and the technician's, and the firmware's reboots
    (felt.guard: a task died), as they happened."""
    for line in session.notes:
        print(line, file=out)
    session.notes.clear()
    link = session.link
    for why in link.reboots[link.reported:]:
        print("reboot: the firmware rebooted: %s" % why, file=out)
    link.reported = len(link.reboots)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.list_games:
        for v in variants.every():
            print("%s %d" % (v.name, v.max_players))
        from felt.table import config   # the house-banked games (docs/protocol.md, 6.4)
        for name in config.BANKED:
            print("%s %d" % (name, config.BANKED_MAX_PLAYERS))
        return 0
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
