"""felt-floor: the tables of a room on one MQTT broker, stored in one database
(docs/floor.md).

    felt-floor init --broker floor.lan:8883    # the floor's folder: CA, broker, passwords
    felt-floor add-table t1                    # t1's credentials: floor/tables/t1.json
    felt-floor user alice                      # a supervisor who may sign in
    felt-floor serve --page 0.0.0.0:8443 --page-tls    # beside mosquitto -c floor/mosquitto.conf
    felt-floor table --port /dev/ttyUSB0 --credentials t1.json
    felt-floor demo                            # make floor: six emulated tables
    felt-floor bench --tables 500              # the floor under load: one JSON line

`init` makes the floor's folder (--home, default ./floor): its own CA, the broker's
certificate, mosquitto's configuration, passwords and access rules, and the floor
service's credentials; `add-table` gives a table a password of its own, in a file to
carry to the table's machine.  Over TLS, with a password each, nobody anonymous, a table
publishes only under its own name and only the floor says what it stored.  `serve` stores every table's events, each once, with its rounds and tilts, in the
database (SQLite by default; a PostgreSQL URL for a room that outgrows it), and tells each
table what is stored; with --page it serves the floor's page, live, to the supervisors
`user` lets sign in.  `table` publishes one board's link on the broker: its events
(never a card a player holds face down), its state and whether it is online, through a
spool that keeps what the floor has not stored across restarts.  An emulated table
publishes itself: felt-emulator --floor CREDENTIALS.
"""

import os
import sys
import time

from host_tools import cli
from host_tools.floorlink.credentials import Credentials
from host_tools.floorlink.wire import check_name

PROG = "felt-floor"
HOME = "floor"


def init(args):
    from host_tools.floor import broker
    try:
        broker.init(args.home, args.broker, args.host)
    except (OSError, broker.BrokerError) as e:
        raise cli.UserError("--home %s: %s" % (args.home, getattr(e, "strerror", None) or e),
                            1)
    print("felt-floor: the floor of %s:%d is in %s: run its broker with mosquitto -c %s; "
          "felt-floor add-table NAME gives each table its credentials"
          % (args.broker + (args.home, os.path.join(args.home, "mosquitto.conf"))))
    return 0


def add_table(args):
    from host_tools.floor import broker
    try:
        broker.add_tables(args.home, [args.name])
    except FileNotFoundError:
        raise cli.UserError("--home %s: no floor there: felt-floor init makes one" % args.home,
                            1)
    except (OSError, ValueError, broker.BrokerError) as e:
        raise cli.UserError("%s: %s" % (args.name, getattr(e, "strerror", None) or e), 1)
    print("felt-floor: %s's credentials are in %s: carry them to the table's machine "
          "(felt-floor table --credentials FILE); a running mosquitto takes the new "
          "password on SIGHUP (systemctl reload mosquitto)"
          % (args.name, broker.table_file(args.home, args.name)))
    return 0


def floor_credentials(home):
    """The floor service's credentials in its folder, or a UserError saying what is
    wrong."""
    path = os.path.join(home, "floor.json")
    if not os.path.exists(path):
        raise cli.UserError("--home %s: no floor there: felt-floor init makes one" % home, 1)
    try:
        return Credentials.load(path)
    except ValueError as e:
        raise cli.UserError(str(e), 1)


def serve(args):
    from sqlalchemy.exc import SQLAlchemyError
    from host_tools.floor.service import FloorService
    from host_tools.floor.store import Store
    floor = floor_credentials(args.home)
    try:
        store = Store(args.db)
    except SQLAlchemyError as e:
        raise cli.UserError("--db %s: the database cannot be opened: %s"
                            % (args.db, str(e.orig if hasattr(e, "orig") else e).strip()), 1)
    service = FloorService(floor, store)
    page = None
    if args.page is not None:
        from host_tools.floor.page import Page
        from host_tools.floor.supervisors import read_users
        try:
            if not read_users(args.users):
                raise cli.UserError("%s: no supervisor can sign in: felt-floor user NAME "
                                    "--home %s adds one" % (args.users, args.home), 1)
        except ValueError as e:
            raise cli.UserError(str(e), 1)
        try:
            tls = None
            if args.page_tls:           # the certificate felt-floor init made, of the CA
                tls = (os.path.join(args.home, "server.pem"),
                       os.path.join(args.home, "server.key"))
            page = Page(args.page, store, service, args.users, tls=tls,
                        say=lambda line: print("felt-floor: " + line, flush=True))
        except OSError as e:
            raise cli.UserError("--page %s:%d: %s" % (args.page + (e.strerror or e,)), 1)
        except ValueError as e:         # the sign-ins' key file (host_tools.floor.sessions)
            raise cli.UserError(str(e), 1)
    service.start()
    print("felt-floor: storing the tables on %s:%d in %s; Ctrl-C stops" % (
        service.broker + (args.db,)), flush=True)
    if page is not None:
        page.start()
        print("felt-floor: the floor's page is at %s/" % page.url, flush=True)
    try:
        with cli.interruptible():
            while True:
                time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        if page is not None:
            page.stop()
        service.stop()
    print("felt-floor: stopped", flush=True)
    return 0


def user(args):
    import getpass
    from host_tools.floor.supervisors import set_password
    if sys.stdin.isatty():
        password = getpass.getpass("password for %s: " % args.name)
        if getpass.getpass("again: ") != password:
            raise cli.UserError("the two passwords differ: nothing changed", 1)
    else:
        password = sys.stdin.readline().rstrip("\n")
    if len(password) < 8:
        raise cli.UserError("a password has at least 8 characters: nothing changed", 1)
    try:
        os.makedirs(args.home, exist_ok=True)
        set_password(args.users, args.name, password)
    except (OSError, ValueError) as e:
        raise cli.UserError("%s: %s" % (args.users, getattr(e, "strerror", None) or e), 1)
    print("felt-floor: %s may sign in to the floor's page" % args.name)
    return 0


def table(args):
    from host_tools.link import HostLink, LinkError
    from host_tools.floorlink.publisher import Publisher, SpoolBusy, say_waiting, spool_for
    from host_tools.floorlink.table_state import about
    spool = args.spool or spool_for(args.credentials.user)
    if args.deliver:
        return deliver(args.credentials, spool)
    port = cli.open_link(args.port, args.baud)
    link = HostLink(port.fileno(), args.timeout)
    try:
        hello = link.request("hello", {"session": "floor-" + args.credentials.user}, "hello")
        # A board whose program check failed answers no question but with its tilt.
        state = None if hello.get("tilt") else link.request("state", {}, "state")
    except LinkError as e:
        raise cli.UserError("%s: no hello from a board: %s" % (args.port, e), 1)
    try:
        # The rounds' records: the board's public ones, which any host may ask for.
        pub = Publisher(args.credentials.user, args.credentials, spool,
                        about(state and state.get("config")),
                        cli.board_leds(hello.get("board")),
                        public=lambda k, start: link.request("public",
                                                             {"round": k, "from": start},
                                                             "public"))
    except SpoolBusy as e:
        port.close()
        raise cli.UserError(str(e), 1)
    pub.opened(hello, state)
    print("felt-floor: %s (board %s) on %s:%d; Ctrl-C stops" % (
        (args.credentials.user, hello.get("board")) + args.credentials.broker), flush=True)
    say_waiting(spool)
    try:
        with cli.interruptible():
            try:
                while True:
                    for kind, p in link.drain(0.5):
                        pub.frame(kind, p)
            except KeyboardInterrupt:
                # What the board said just before is published, a round's record too.
                for kind, p in link.drain(0.2):
                    pub.frame(kind, p)
    except KeyboardInterrupt:
        pass
    except LinkError as e:
        raise cli.UserError("%s: the board's link failed: %s" % (args.port, e), 1)
    finally:
        pub.close()
        port.close()
    print("felt-floor: stopped", flush=True)
    return 0


def deliver(credentials, spool):
    """--deliver: a spool's events to the floor, no board on a link, until the floor has
    stored them all (or Ctrl-C: the rest stays)."""
    table = credentials.user
    from host_tools.floorlink.publisher import Publisher, SpoolBusy
    if not os.path.exists(os.path.join(spool, "run.json")):
        raise cli.UserError("--spool %s: no table's spool there" % spool, 1)
    try:
        pub = Publisher(table, credentials, spool, shown=False)
    except SpoolBusy as e:
        raise cli.UserError(str(e), 1)
    print("felt-floor: delivering %d events of %s from %s; Ctrl-C stops" % (
        pub.pending(), table, spool), flush=True)
    try:
        with cli.interruptible():
            while pub.pending():
                time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        pub.close(wait_s=0)
    print("felt-floor: stopped", flush=True)
    return 0


@cli.command(PROG)
def main(argv=None):
    ap = cli.parser(PROG, __doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)

    def home(p):
        p.add_argument("--home", default=HOME, metavar="DIR",
                       help="the floor's folder, which felt-floor init makes (default "
                            "%(default)s)")
    p = sub.add_parser("init", help="make the floor's folder: its CA, the broker's "
                                    "certificate and configuration, the floor's credentials")
    home(p)
    p.add_argument("--broker", required=True, metavar="HOST:PORT", type=cli.checked(cli.address),
                   help="where the tables reach the broker (its certificate names HOST)")
    p.add_argument("--host", nargs="+", default=[], metavar="NAME",
                   help="the other names and addresses of the broker's machine (and the "
                        "page's), for its certificate")
    p = sub.add_parser("add-table", help="give a table a password of its own: its "
                                         "credentials file in the floor's folder")
    home(p)
    p.add_argument("name", type=cli.checked(check_name),
                   help="the table's name on the floor (letters, digits, _ . -)")
    p = sub.add_parser("serve", help="store every table's events in the floor's database")
    home(p)
    p.add_argument("--db", metavar="URL",
                   help="the database, a SQLAlchemy URL (default sqlite:///HOME/floor.db; "
                        "postgresql+psycopg://USER@HOST/NAME for PostgreSQL)")
    p.add_argument("--page-tls", action="store_true",
                   help="serve the page over HTTPS, with the certificate of the floor's CA "
                        "that felt-floor init made (give --host the page's names there)")
    p.add_argument("--page", metavar="HOST:PORT", type=cli.checked(cli.address),
                   help="serve the floor's page here (docs/floor.md), for the supervisors "
                        "of --users")
    p = sub.add_parser("user", help="let a supervisor sign in to the page, or change "
                                    "their password (read twice on a terminal, else a line "
                                    "of stdin): in HOME/users.json")
    home(p)
    p.add_argument("name", help="the supervisor's name")
    p = sub.add_parser("demo", help="a floor on this machine (make floor): a broker, the "
                                    "floor service and its page, six emulated tables")
    p.add_argument("--page", metavar="HOST:PORT", type=cli.checked(cli.address),
                   default=("127.0.0.1", 8080),
                   help="the page's address (default 127.0.0.1:8080, or a free port)")
    p = sub.add_parser("bench", help="the floor under many tables on this machine: one "
                                     "JSON line of figures (docs/floor.md)")
    p.add_argument("--tables", type=cli.count(1, 5000), default=500,
                   help="tables replayed (default %(default)s)")
    p.add_argument("--minutes", type=float, default=3.0,
                   help="how long they play (default %(default)s)")
    p.add_argument("--round-s", type=float, default=60.0,
                   help="seconds a round at each table (default %(default)s)")
    p = sub.add_parser("table", help="publish a board's link on the broker")
    source = p.add_mutually_exclusive_group(required=True)
    cli.link_options(p, source)
    source.add_argument("--deliver", action="store_true",
                        help="no board: deliver the events waiting in the table's spool "
                             "(a table renamed, or gone) to the floor, then stop")
    p.add_argument("--credentials", required=True, metavar="FILE",
                   type=cli.checked(Credentials.load),
                   help="the table's credentials (felt-floor add-table NAME writes them): "
                        "the broker, the table's name and its password")
    p.add_argument("--spool", metavar="DIR",
                   help="the table's spool (default ~/.local/state/felt/floor/TABLE)")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if args.cmd in ("serve", "user"):
        args.users = os.path.join(args.home, "users.json")
    if args.cmd == "serve" and args.db is None:
        args.db = "sqlite:///%s" % os.path.join(args.home, "floor.db")
    if args.cmd == "init":
        return init(args)
    if args.cmd == "add-table":
        return add_table(args)
    if args.cmd == "table":
        return table(args)
    if args.cmd == "user":
        return user(args)
    if args.cmd == "bench":
        import json
        from host_tools.bench import floor as bench
        figures = bench.run(args.tables, args.minutes, args.round_s,
                            say=lambda line: print("felt-floor: " + line, file=sys.stderr))
        print(json.dumps(figures))
        return 0 if figures["lost"] == 0 else 1
    if args.cmd == "demo":
        from host_tools.floor import demo
        return demo.run(args.page)
    return serve(args)


if __name__ == "__main__":
    sys.exit(main())
