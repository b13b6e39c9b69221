"""felt-emulator: run the emulated table, headless or in the terminal view.

    felt-emulator --hands 200 --players 9 --seed 7     # headless, scripted players
    felt-emulator --hands 1000 --seed 5 --faults random # with devices and dealer failing
    felt-emulator --players 6                           # the interactive view
    felt-emulator --runtime micropython --image build/image --hands 10  # a signed image
    felt-emulator --runtime pico --image build/pico/flash --hands 3     # felt-flash pico's
    felt-emulator --serve localhost:7000                # a board on a bench, for felt-console
"""

import json
import sys
from pathlib import Path

from felt.board import load as load_board
from felt.check import MAX_CHIPS
from felt.poker import variants
from felt.poker.structure import ConfigError
from felt.table.config import BANKED, BANKED_MAX_PLAYERS, MAX_SEATS, \
    from_dict as check_config
from felt.table.recall import files
from host_tools import cli
from host_tools.emulator import serve
from host_tools.images import chip_hex
from host_tools.link import Tilted
from host_tools.process import add_runtime_arguments, check_runtime
from host_tools.emulator.session import BANKED_TABLE, DEFAULT_BOARD, RAKES, from_args, \
    round_line, table_config
from host_tools.floorlink.credentials import Credentials


PROG = "felt-emulator"
TILTED = 3    # the exit status when the table tilts at boot (its program check failed)
POKER_ONLY = {"structure", "rake", "straddle", "button", "run_it"}   # a banked table has none


def parse_args(argv):
    ap = cli.parser(PROG, __doc__)
    ap.add_argument("--hands", type=cli.count(1), help="play this many rounds headless, then stop")
    ap.add_argument("--pause", type=cli.count(0, 3600), default=0, metavar="S",
                    help="headless: wait S seconds between rounds, a pace a person can "
                         "follow (make floor's tables) (default %(default)s)")
    ap.add_argument("--game", default="holdem", choices=variants.NAMES + BANKED,
                    help="the game; the house-banked games (%s) play headless at a table "
                         "of wagers %d to %d, an ante of %d, aces up table %s, settled "
                         "player by player" % (
                             ", ".join(BANKED), BANKED_TABLE["min_wager"],
                             BANKED_TABLE["max_wager"], BANKED_TABLE["ante"],
                             BANKED_TABLE["aces_up"]))
    ap.add_argument("--list-games", action="store_true",
                    help="print each game's name and its maximum players, then stop")
    ap.add_argument("--structure", default="fixed", choices=("fixed", "spread", "pot", "no"),
                    help="betting structure: fixed, spread, pot or no limit")
    ap.add_argument("--rake", default="none", choices=sorted(RAKES),
                    help="rake method (13:47-20.37), with the emulator's posted amounts")
    ap.add_argument("--straddle", action="store_true",
                    help="allow the straddle (hold 'em and Omaha)")
    ap.add_argument("--run-it", type=cli.count(1, 3), default=1,
                    help="when every player left is all-in and all agree, deal the rest "
                         "of the board this many times (13:69F-14.10(l); hold 'em, Omaha)")
    ap.add_argument("--players", type=cli.count(2, MAX_SEATS), default=6,
                    help="seated players (2..11, at most the game's)")
    ap.add_argument("--seed", type=int, default=1, help="seeds the shuffler and the players")
    ap.add_argument("--stack", type=cli.count(1, MAX_CHIPS), default=1000,
                    help="each player's starting chips")
    ap.add_argument("--button", choices=("dealer_right", "high_card"), default="dealer_right",
                    help="where the button starts (19:47-14.10(c)2)")
    ap.add_argument("--board", default=DEFAULT_BOARD.stem, type=cli.board_file,
                    help="the board: a name from hardware/boards/ or a definition file")
    ap.add_argument("--journal", type=cli.out_file,
                    help="keep the firmware's journal in this file rather than in a temporary "
                         "one: a new table (with --serve, the board resumes from it)")
    ap.add_argument("--force", action="store_true",
                    help="with --journal: replace a journal already there, its archives too")
    ap.add_argument("--phh", metavar="DIR", type=cli.out_dir,
                    help="write each round's Poker Hand History to DIR/hand-<n>.phh")
    ap.add_argument("--faults", choices=("random",),
                    help="inject faults (jams, face-up, extra and missing cards, misdeals, "
                         "exposed cards...) at random moments, seeded by --seed")
    ap.add_argument("--trace", type=cli.out_file,
                    help="write every frame on the link to this file")
    ap.add_argument("--presses-only", action="store_true",
                    help="players act with their seat buttons alone, as at a wired board: a bet "
                         "or raise is the button's own, without an amount (how --runtime "
                         "pico always plays)")
    add_runtime_arguments(ap)
    ap.add_argument("--image", metavar="DIR",
                    help="run the signed image in DIR as a board flashed with it, its "
                         "program checked at boot: with --runtime micropython an image of "
                         "felt-flash build, with --runtime pico the files felt-flash pico "
                         "wrote (the Pico's firmware and filesystem, its keys in it)")
    ap.add_argument("--trust", metavar="FILE",
                    help="with --image and --runtime micropython: the board's trust document "
                         "(default: trust.json in the image's folder, as felt-flash provision "
                         "--dir writes it with the board's record; trust.sig beside it): its "
                         "owners' keys sign images, its technicians' commands")
    ap.add_argument("--chip", metavar="ID", type=cli.checked(chip_hex),
                    help="with --image and --runtime micropython: the board's chip id in hex "
                         "(the unix port has none; a Pico's is read from its flash), which an "
                         "image built with felt-flash build --chip must name")
    ap.add_argument("--board-key", metavar="FILE",
                    help="with --image and --runtime micropython: the host's copy of the "
                         "board's own key, put beside its journal as felt-flash install "
                         "puts it (default: one made there)")
    ap.add_argument("--tech-key", metavar="FILE", default="keys/tech.key",
                    help="with --image: the technician's private key, which signs the "
                         "table's configuration and deck registrations (default %(default)s)")
    ap.add_argument("--serve", metavar="HOST:PORT", type=cli.checked(cli.address),
                    help="boot the firmware as a board on a bench, no device playing, and serve "
                         "its link on this TCP address (felt-console --port socket://HOST:PORT)")
    ap.add_argument("--floor", metavar="CREDENTIALS", type=cli.checked(Credentials.load),
                    help="publish the table on the floor's broker, as felt-floor table does a "
                         "board's (docs/floor.md): the table's credentials file (felt-floor "
                         "add-table NAME writes it), which names the broker and the table; "
                         "its spool in ~/.local/state/felt/floor/NAME")
    ap.add_argument("--interactive", action="store_true",
                    help="the terminal view (the default when --hands is not given)")
    args = ap.parse_args(argv)
    if args.serve is not None and args.given - serve.OPTIONS:
        ap.error("--serve boots a board that no device plays: leave out --%s" % ", --".join(
            sorted(o.replace("_", "-") for o in args.given - serve.OPTIONS)))
    if args.list_games:
        if args.given - {"list_games"}:
            ap.error("--list-games prints the games and stops: give it alone")
        return args
    check_runtime(ap, args)
    if args.force and args.journal is None:
        ap.error("--force replaces a journal: give --journal")
    if args.journal is not None and args.serve is None and not args.force and \
            [f for f in files(args.journal) if Path(f).exists()]:
        ap.error("--journal %s: a journal is there already (a table's rounds); --force "
                 "replaces it, its archives too" % args.journal)
    if args.pause and args.hands is None:
        ap.error("--pause paces a headless run: give --hands")
    if args.interactive and args.hands is not None:
        ap.error("--interactive plays until you quit: leave out --hands (or --interactive)")
    if args.hands is None and args.rake == "time":
        ap.error("--rake time charges by the table's clock, which only a headless run "
                 "moves: give --hands")
    if args.image is not None:
        if args.runtime == "cpython":
            ap.error("--image needs --runtime micropython (felt-flash build's bytecode) or "
                     "--runtime pico (felt-flash pico's files)")
        if "board" in args.given:
            ap.error("--image runs the board it was built for (its board.json): leave out "
                     "--board")
        if args.runtime == "pico" and "chip" in args.given:
            ap.error("--chip is for --runtime micropython: a Pico's chip id is read from its "
                     "flash")
        if args.runtime == "pico" and "trust" in args.given:
            ap.error("--trust is for --runtime micropython: a Pico's filesystem holds the "
                     "keys it trusts (felt-flash pico --owners, --tech)")
        if args.runtime == "pico" and "board_key" in args.given:
            ap.error("--board-key is for --runtime micropython: a Pico's filesystem holds "
                     "its own key (felt-flash pico)")
        if args.runtime == "pico" and not (Path(args.image) / "filesystem.img").is_file():
            ap.error("--image %s: no Pico's files there (no filesystem.img): felt-flash pico "
                     "writes them" % args.image)
        if args.trust is None:
            args.trust = str(Path(args.image) / "trust.json")
        if args.runtime == "micropython" and not Path(args.trust).is_file():
            ap.error("--trust %s: no such trust document (felt-flash provision --dir "
                     "writes one)" % args.trust)
        args.board = image_board(Path(args.image))
        from host_tools.signing import load_key
        try:
            args.tech_key = None if args.serve else load_key(args.tech_key)   # the console signs
        except cli.UserError as e:
            ap.error(str(e))
    else:
        for option in ("trust", "tech_key", "chip", "board_key"):
            if option in args.given:
                ap.error("--%s goes with --image: a table without one checks no program and "
                         "takes unsigned commands" % option.replace("_", "-"))
        args.tech_key = None
    if args.game in BANKED:
        poker = sorted(o for o in args.given & POKER_ONLY)
        if poker:
            ap.error("%s is house-banked: it has no --%s" % (
                args.game, ", --".join(o.replace("_", "-") for o in poker)))
        most = BANKED_MAX_PLAYERS
    else:
        most = variants.get(args.game).max_players
    if not 2 <= args.players <= most:
        ap.error("--players must be 2..%d for %s" % (most, args.game))
    # The table's own check of the configuration, as the firmware would refuse it.
    seats = load_board(str(args.board))["seats"]
    try:
        check_config(table_config(args.game, args.players, args.stack, args.structure,
                                  args.rake, args.button, args.straddle, args.run_it),
                     seats)
    except ConfigError as e:
        ap.error("the table refuses this configuration: %s" % e)
    return args


def image_board(image):
    """The board definition the emulator plays an image's devices by: the image's
    board.json, or, when that is damaged or missing, the board its manifest names: the
    board's own program check then tilts on it, as a board flashed with it would."""
    try:
        return cli.board_file(str(image / "board.json"))
    except cli.UserError:
        try:
            return cli.board_file(json.loads((image / "manifest.json").read_text())["board"])
        except (OSError, ValueError, KeyError, TypeError, cli.UserError):
            raise cli.UserError("--image %s: no image there: neither its board.json nor its "
                                "manifest.json can be read (felt-flash build makes images)"
                                % image)


def headless(args, out=None):
    """Play args.hands rounds; each round's line and the summary go to `out` (stdout),
    what went wrong to stderr."""
    session = from_args(args, args.faults)
    faulty = args.faults is not None
    played = 0
    try:
        session.open()
        if session.banked:
            session.side_wagers()
        start = sum(session.config["stacks"])
        with cli.progress(args.hands, "hands") as step:
            for _ in range(args.hands):
                if session.banked:
                    st = session.state()
                    if not [1 for (a, b), s in zip(st["wagers"], st["stacks"])
                            if 0 < a + b <= s or 0 < a <= s]:
                        print("stopped: no player has chips for a wager", file=out)
                        break
                elif sum(1 for s in session.state()["stacks"] if s > 0) < 2:
                    print("stopped: fewer than two players have chips", file=out)
                    break
                end = session.play_round()
                played += 1
                _notes(session, out)
                line = round_line(end, session.events)
                print(line + (" deck=%s" % end["deck"] if faulty else ""), file=out)
                step()
                if args.rake == "time":
                    session.pass_time()
                session.wait(args.pause)
        state = session.state()
        rake = state["rake"]
        house = state.get("house", 0)    # a house-banked table's result
        end_chips = sum(state["stacks"]) + rake + house
    except Tilted as e:
        raise cli.UserError("the table is tilted: %s" % e, TILTED)
    except RuntimeError as e:     # a LinkError, or the emulated shoe out of cards
        session.faults.append(str(e))
        end_chips = -1
        rake = house = 0
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
        print("error: %s" % f, file=sys.stderr)
    if start != end_chips and end_chips >= 0:   # -1: the link failed, said above
        print("error: chips at the start %d, at the end %d (stacks and %s)"
              % (start, end_chips, "the house" if session.banked else "rake"),
              file=sys.stderr)
    # The house's chips are counted in chips_end, and shown at a house-banked table.
    rake_part = " rake=%d" % rake if args.rake != "none" else ""
    house_part = " house=%d" % house if session.banked else ""
    if faulty:
        counts = session.fault_counts()
        print("fault kinds: " + " ".join("%s=%d" % kc for kc in counts.items()), file=out)
        # faults= counts the injected faults; what went wrong unexpectedly is counted
        # on its own line (and each printed as `error:` on stderr), and fails the run.
        print("errors: %d" % errors, file=out)
        print("summary: hands=%d chips_start=%d chips_end=%d%s faults=%d%s"
              % (played, start, end_chips, house_part, sum(counts.values()), rake_part),
              file=out)
    else:
        # Rake is house money: counted in chips_end, and shown when the table takes one.
        print("summary: hands=%d chips_start=%d chips_end=%d%s faults=%d%s"
              % (played, start, end_chips, house_part, errors, rake_part), file=out)
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


@cli.command(PROG)
def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.list_games:
        games = [(v.name, v.max_players) for v in variants.every()]
        from felt.table import config   # the house-banked games (docs/protocol.md, 6.4)
        games += [(name, config.BANKED_MAX_PLAYERS) for name in config.BANKED]
        width = max(len(name) for name, _ in games)
        for name, most in games:
            print("%-*s  up to %d players" % (width, name, most))
        return 0
    if args.serve is not None:
        return serve.serve(args)
    if args.hands is None or args.interactive:
        if not sys.stdin.isatty():
            raise cli.UserError("the interactive view needs a terminal; "
                                "give --hands N to play headless")
        from host_tools.emulator.view import run_view
        return run_view(args)
    with cli.interruptible():       # the firmware and the floor's spool closed on the way out
        return headless(args)


if __name__ == "__main__":
    sys.exit(main())
