"""felt-console: a technician's console on a board's link (or the emulator's, served).

    felt-console --port /dev/ttyUSB0 --key keys/tech.key --board-id ID   # at a prompt
    felt-console --port socket://localhost:7000 state log     # run these, then exit
    felt-console --port /dev/ttyUSB0 < commands.txt           # one command a line

It says hello and shows the board's answer, then the board's events, its LED frames
(when what they show changes), log lines and refusals in words as they come, and runs
the technician's commands (`help` lists them).  cfg, rules, deck and clear go signed
with --key to a board whose hello says `signed` (the board named by --board-id or
--board-key, whose key MACs each command and vouches for each reading: felt-tech), and
plainly to one that trusts no key (the emulator without --image).
"""

import argparse
import json
import os
import queue
import signal
import sys
import threading
import time

from felt import protocol as P
from felt.table import scenes
from felt.table.controller import TECHNICIAN_ONLY
from host_tools import cli, recall, tech
from host_tools.leds import LedStrip
from host_tools.link import HostLink, LinkError, QueryRefused
from host_tools.words import Narrator, code_words, seat_words

PROG = "felt-console"
PROMPT = "felt> "
COMMANDS = (   # usage and what it does: `help` prints them; a usage's words are its arity
    ("state [--json]", "the table's state in a few lines (--json: as the board sends it)"),
    ("sign", "the posted sign"),
    ("log", "the event log, every record (docs/tilts.md)"),
    ("recall [N]", "a past round in words: N rounds before the newest complete one (0)"),
    ("heap", "the board's memory"),
    ("challenge", "the board's id and the challenge a signed command answers"),
    ("deck A|B", "register a checked deck again (13:47-20.38(h))"),
    ("cfg FILE|JSON", "configure the table: a new table"),
    ("rules JSON", "change the configured table's rules (19:47-8.3)"),
    ("clear", "clear a tilt (critical_memory, journal_write_failed)"),
    ("send KIND JSON", "send any message as it is (docs/protocol.md)"),
    ("help", "this list"),
    ("quit", "leave (Ctrl-D too)"),
)
ARITY = {u.split()[0]: (sum(1 for w in u.split()[1:] if not w.startswith("[")),
                        len(u.split()) - 1) for u, _ in COMMANDS}


class Bad(Exception):
    """A command that cannot be run as written: its text is the one line saying why."""


class Refused(Exception):
    """The board did not do what was asked: its text is why."""


class Closed(LinkError):
    """The link closed: the board (or the emulator's bridge) went away."""


def command_lines(words):
    """The words after the options as command lines: a command takes the words its usage
    allows after it (`deck A state` is `deck A`, then `state`); a word holding spaces may
    be a whole command (`'deck A'`) or a JSON argument."""
    lines = []
    for w in words:
        first = (w.split() or [""])[0]
        if lines:
            least, most = ARITY.get(lines[-1][0].split()[0], (0, 0))
            taken = len(" ".join(lines[-1]).split()) - 1
            if taken < least or (taken < most and first not in ARITY):
                lines[-1].append(w)
                continue
        lines.append([w])
    return [" ".join(line) for line in lines]


class Console:
    """The commands, over `link` (a HostLink), and the board's frames in words, each
    line given to `say`; `who`: the technician (host_tools.tech.Technician); `leds`: the
    board's LED layout (a board definition's "leds"), else the one its hello names."""

    def __init__(self, link, who=None, leds=None, say=None):
        self.link = link
        link.on_gone = self._gone
        self.who = who
        self.leds = leds
        self.hello = {}
        self.lit = None       # the LEDs in words, as last shown
        self.narrator = Narrator()   # events in words: a bet or raise as its total
        self.naked = None     # (kind, why) of the last nak: its `evt refused` goes unsaid
        self.say = say or (lambda line: print(line, flush=True))

    def _gone(self):
        raise Closed("the board's link closed")

    def greet(self):
        """Say hello, a host's first frame (docs/protocol.md, 5), and show the answer,
        then what came before it."""
        session = "console-" + os.urandom(6).hex()   # new seqs: no resend to mistake
        self.show(("hello", self.link.request("hello", {"session": session}, "hello")))
        self.show_waiting()

    def show_waiting(self, wait_s=0.0):
        for frame in self.link.drain(wait_s):
            self.show(frame)

    def show(self, frame):
        kind, p = frame
        if kind == "evt" and p.get("e") == "refused" and (p.get("what"), p.get("why")) == \
                self.naked:
            self.naked = None     # "refused: <why>" answers the command itself
            return
        if kind == "hello":
            self.hello = p
            if self.leds is None:
                self.leds = cli.board_leds(p.get("board"))
        try:
            line = self.words(kind, p)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            line = "%s %s" % (kind, P.dumps(p))    # not as this console knows it: as it is
        if line:
            self.say(line)

    def words(self, kind, p):
        """A frame from the board in words, or None for one not worth a line."""
        if kind == "evt":
            line = self.narrator.line(p)
            if line is None and p["e"] == "refused":    # the view leaves seat presses out
                line = "%s refused: %s" % (p["what"], p["why"])
            return line and "event: " + line
        if kind == "px":
            lit = self.lights(p["rgb"])
            if lit == self.lit:
                return None
            self.lit = lit
            return "leds: " + lit
        if kind == "log":
            return "log: %s" % p.get("msg")
        if kind == "hello":
            if p.get("tilt"):
                return "hello: board %s, %d seats, tilted: %s" % (
                    p.get("board"), p.get("seats"), tilt_words(p["tilt"]))
            return "hello: board %s, firmware %s, %d seats, technician's commands %s" % (
                p.get("board"), p.get("fw"), p.get("seats"),
                "signed" if p.get("signed") else "unsigned (it trusts no key)")
        if kind == "tilt":
            return "tilt: " + tilt_words(p)
        if kind == "need":
            return "the board asks the shoe for a %s card%s" % (
                p.get("what"), " for seat %d" % p["seat"] if p.get("seat", -1) >= 0 else "")
        if kind == "shuffle":
            return "the board starts the shuffler"
        if kind == "perf":
            return None
        return "%s %s" % (kind, P.dumps(p))

    def lights(self, rgb):
        """An LED frame in words: the centre's status, the button, each seat's status."""
        strip = LedStrip(self.leds)
        strip.capture(rgb)
        if self.leds is None:
            return "%d LEDs (their layout is unknown: give --board)" % len(strip.frame)
        try:
            centre = scenes.centre_status(strip.frame, self.leds)
            seats = [strip.seat_status(s) for s in range(len(self.leds["seats"]))]
        except IndexError:
            return "%d LEDs, fewer than the board's layout has" % len(strip.frame)
        button = strip.button_seat()
        return "centre %s;%s seats %s" % (
            _named(scenes.CENTRE_NAMES, centre),
            " button seat %d;" % button if button >= 0 else "", _runs(seats))

    # ----- commands ---------------------------------------------------------------------

    def run(self, line):
        """Run one command line and show its answer after the frames that came
        meanwhile; True when it was done, False when refused or not understood (one
        line on stderr says why)."""
        name, _, rest = line.strip().partition(" ")
        if not name or name.startswith("#"):
            return True
        try:
            if name not in ARITY:
                raise Bad("unknown command %r: help lists them" % name)
            if ARITY[name] == (0, 0) and rest.strip():
                raise Bad("%s takes nothing after it" % name)
            lines, ok = getattr(self, "do_" + name)(rest.strip()), True
        except (Bad, P.ProtocolError) as e:
            self.show_waiting()
            why = e if isinstance(e, Bad) else "%s: no frame can carry it (%s)" % (name, e)
            print("%s: %s" % (PROG, why), file=sys.stderr, flush=True)
            return False
        except (Refused, QueryRefused) as e:
            lines, ok = ["refused: %s" % e], False
        except Closed:
            raise
        # No answer in time; a round unread; an answer the board's key does not vouch for.
        except (LinkError, recall.RecallError, tech.Untrusted) as e:
            lines, ok = ["failed: %s" % e], False
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            lines, ok = ["failed: an answer not as this console knows it (%s: %s)"
                         % (type(e).__name__, e)], False
        self.show_waiting()
        for out in lines:
            self.say(out)
        return ok

    def ask(self, kind, payload=None):
        """The board's answer to a query; a tilted board answers every question but
        hello with its tilt (Refused)."""
        tilt = kind != "hello" and self.hello.get("tilt")
        if not tilt and kind in TECHNICIAN_ONLY and self.hello.get("signed"):
            if self.who is None:
                raise Bad("%s: this board answers a technician only: start felt-console "
                          "with --key KEYFILE --board-id ID" % kind)
            return tech.ask(self.link, self.who, kind, payload or {})
        got = self.link.request(kind, payload or {}, "tilt" if tilt else kind)
        if tilt:
            raise Refused("the table is tilted: " + tilt_words(got))
        return got

    def do_state(self, rest):
        if rest not in ("", "--json"):
            raise Bad("state takes --json or nothing")
        s = self.ask("state")
        return [P.dumps(s)] if rest else state_lines(s)

    def do_sign(self, rest):
        return ["sign:"] + ["  " + line for line in self.ask("sign")["text"].split("\n")]

    def do_log(self, rest):
        records, at = [], 0
        while at is not None:
            page = self.ask("eventlog", {"from": at})
            records += page["records"]
            at = page["next"] if page["next"] is not None and page["next"] > at else None
        return ["event log: %s" % _count(len(records), "record")] + [
            "  #%d minute %s hand %s %s: %s" % (r["n"], _or_dash(r["minute"]),
                                                 _or_dash(r["hand"]), code_words(r["code"]),
                                                 r["detail"])
            for r in records]

    def do_recall(self, rest):
        if not (rest or "0").isdigit():
            raise Bad("recall takes a round: 0 the newest complete one, 1 the one before...")
        k = int(rest or 0)

        def ask(r, start):
            return self.ask("recall", {"round": r, "from": start})
        got = recall.one_round(ask, k)
        if got is None:
            raise Refused("no round %d: the board holds %s (0 the newest)"
                          % (k, _count(ask(0, 0)["rounds"], "complete round")))
        return recall.describe(got)

    def do_heap(self, rest):
        h = self.ask("heap")
        if h["used"] is None:
            return ["heap: not measured (a runtime without a fixed heap: CPython)"]
        return ["heap: %d bytes used, %d free" % (h["used"], h["free"])]

    def do_challenge(self, rest):
        c = self.ask("challenge")
        return ["challenge: board %s, nonce %s" % (c["board"], c["nonce"])]

    def do_deck(self, rest):
        if rest not in ("A", "B"):
            raise Bad("deck takes A or B")
        return self.technician("deck", {"register": rest})

    def do_cfg(self, rest):
        return self.technician("cfg", self.body("cfg", rest))

    def do_rules(self, rest):
        return self.technician("rules", self.body("rules", rest))

    def do_clear(self, rest):
        return self.technician("clear", {})

    def body(self, cmd, arg):
        if not arg:
            raise Bad("%s takes JSON or a JSON file" % cmd)
        try:
            return tech.body_of(cmd, arg)
        except cli.UserError as e:       # a file it cannot read, not a JSON object
            raise Bad(str(e))

    def technician(self, cmd, body):
        """A technician's command: signed for a board that trusts keys."""
        if self.hello.get("signed"):
            if self.who is None:
                raise Bad("%s: this board takes a technician's commands signed only: "
                          "start felt-console with --key KEYFILE --board-id ID" % cmd)
            return self.answered("tech", tech.send(self.link, self.who, cmd, body))
        return self.answered(cmd, self.link.send(cmd, body))

    def do_send(self, rest):
        kind, _, text = rest.partition(" ")
        if not kind:
            raise Bad('send takes a kind and a JSON object, e.g. send shuf {"present": true}')
        try:
            payload = json.loads(text.strip() or "{}")
            P.encode(0, kind, payload)      # the kind, the JSON subset, the frame's length
        except ValueError as e:             # json's errors and P.ProtocolError
            raise Bad("send %s: %s" % (kind, e))
        if kind in P.ACKED:
            return self.answered(kind, self.link.send(kind, payload))
        if kind in P.QUERIES:
            got = self.ask(kind, payload)
            if kind == "hello":
                self.show((kind, got))
            return ["%s %s" % (kind, P.dumps(got))]
        self.link.send(kind, payload)
        return ["sent"]

    def answered(self, kind, why):
        """`done`, or Refused with the board's reason for its nak."""
        if why is not None:
            self.naked = (kind, why)
            raise Refused(why)
        return ["done"]

    def do_help(self, rest):
        return help_lines()

    def do_quit(self, rest):
        return []


def help_lines():
    width = max(len(u) for u, _ in COMMANDS)
    return ["  %-*s  %s" % (width, u, what) for u, what in COMMANDS] + [
        "cfg, rules, deck and clear go signed (--key) to a board whose hello says signed;",
        "each acked message is answered done, or refused: <why>."]


def _count(n, what):
    return "%d %s%s" % (n, what, "" if n == 1 else "s")


def _or_dash(v):
    return "-" if v is None else v


def _named(names, status):
    return names[status] if 0 <= status < len(names) else "unknown colour"


def _runs(statuses):
    """`0-2 waiting, 3 to act, 4-10 empty`: each seat's status, runs of seats together."""
    out, start = [], 0
    for s in range(1, len(statuses) + 1):
        if s == len(statuses) or statuses[s] != statuses[start]:
            seats = "%d" % start if s - 1 == start else "%d-%d" % (start, s - 1)
            out.append("%s %s" % (seats, seat_words(statuses[start])))
            start = s
    return ", ".join(out)


def tilt_words(t):
    return "%s: %s: %s" % (t.get("code"), t.get("file"), t.get("why"))


def state_lines(s):
    """The board's `state` answer as a few lines for a technician."""
    decks = s["decks"]
    out = ["table: %s, hand %d; deck %s in play, %s" % (
        s["state"], s["hand"], decks["in_play"],
        "retired: " + " ".join(decks["retired"]) if decks["retired"] else "none retired")]
    if s.get("locked"):
        out.append("locked: %s" % s["locked"])
    c = s["config"]
    if c is None:
        out.append("not configured: a technician sends cfg")
    else:
        out.append("game: %s, %s limit %d/%d, %d seats, rake %s" % (
            c["game"], c["structure"], c["small_bet"], c["big_bet"], c["seats"],
            c["rake"]["method"]))
    out.append("stacks: " + (" ".join("%d:%d" % sn for sn in enumerate(s["stacks"])) or "-"))
    out.append("button: %s; to act: %s; board: %s; pot %d; rake taken %d" % (
        "seat %d" % s["button"] if s["button"] >= 0 else "none",
        "seat %d" % s["to_act"] if s["to_act"] >= 0 else "nobody", s["board"] or "-",
        s["pot"], s["rake"]))
    out.append("shuffler %s; dealing shoe %s" % (
        "fitted" if s["shuffler_present"] else "removed",
        "to be removed (19:47-27.12(g))" if s["shoe_must_go"] else "ok"))
    return out


# ----- the loop -----------------------------------------------------------------------


class _LinkLost(Exception):
    """Raised in the main thread (SIGUSR1) when the worker lost the link while the main
    thread waited for the technician's next line."""


class Worker(threading.Thread):
    """Owns the link: runs the command lines it is given, one at a time, and shows the
    board's frames as they come in between."""

    def __init__(self, console):
        super().__init__(daemon=True)
        self.console = console
        self.todo = queue.Queue()
        self.done = queue.Queue()
        self.error = None
        self.reading = False    # the main thread waits for the next line

    def run(self):
        try:
            while True:
                try:
                    line = self.todo.get_nowait()
                except queue.Empty:
                    self.console.show_waiting(0.05)
                    continue
                if line is None:
                    self.console.show_waiting()
                    return
                self.done.put(self.console.run(line))
        except Exception as e:     # noqa: BLE001 - Closed, or anything: said in one line
            self.error = e
            self.done.put(False)
            # A signal that comes just before the main thread blocks in its read is not
            # seen until a line is typed: signal again until it has left the read.
            while self.reading:
                signal.pthread_kill(threading.main_thread().ident, signal.SIGUSR1)
                time.sleep(0.1)

    def lost(self, signum, frame):
        """SIGUSR1 in the main thread: the link is lost; leave the read, once."""
        if self.reading:
            raise _LinkLost


def loop(console, lines, prompt=False):
    """Run the command `lines` (an iterable: reading it may block, as a prompt does)
    while the board's frames are shown as they come.  Returns the exit status: 0, or 1
    when a command was refused or not understood (not at a prompt)."""
    worker = Worker(console)
    if prompt:
        console.say = _redrawing(worker)
    old = signal.signal(signal.SIGUSR1, worker.lost)
    worker.start()
    failed = False
    try:
        source = iter(lines)
        while worker.error is None:
            worker.reading = True
            try:
                # The link may have been lost since the loop's test, before the worker
                # could see that we read: it signals only from here on.
                line = None if worker.error is not None else next(source, None)
            finally:
                worker.reading = False
            if line is None or (line.split() or [""])[0] == "quit":
                break
            worker.todo.put(line)
            failed = not worker.done.get() or failed
    except _LinkLost:
        if prompt:
            print(flush=True)       # below what was typed
    finally:
        worker.todo.put(None)
        worker.join(2)
        signal.signal(signal.SIGUSR1, old)
    if isinstance(worker.error, BrokenPipeError):
        raise worker.error      # stdout closed early (`| head`): cli ends quietly, 141
    if worker.error is not None:
        raise cli.UserError(str(worker.error) if isinstance(worker.error, LinkError)
                        else "%s: %s" % (type(worker.error).__name__, worker.error), 1)
    return 1 if failed and not prompt else 0


def _redrawing(worker):
    """say() at a prompt: a line printed while the technician types goes above the
    prompt, which is drawn again with what was typed so far."""
    try:
        import readline
        typed = readline.get_line_buffer
    except ImportError:
        def typed():
            return ""

    def say(line):
        if worker.reading:
            sys.stdout.write("\r\x1b[K%s\n%s%s" % (line, PROMPT, typed()))
            sys.stdout.flush()
        else:
            print(line, flush=True)
    return say


def prompted():
    """Lines typed at the prompt (with readline's editing and history where it exists)
    until Ctrl-D."""
    try:
        import readline  # noqa: F401 - input() edits lines with it once imported
    except ImportError:
        pass
    while True:
        try:
            yield input(PROMPT)
        except EOFError:
            print()
            return


@cli.command(PROG)
def main(argv=None):
    ap = cli.parser(PROG, __doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                epilog="commands:\n" + "\n".join(help_lines()))
    cli.link_options(ap)
    ap.add_argument("--key", metavar="KEYFILE",
                    help="the technician's private key (felt-flash keygen): signs cfg, rules, "
                         "deck and clear for a board that trusts keys")
    tech.board_options(ap, "with --key: ", "--board-id")
    ap.add_argument("--board", metavar="NAME|FILE", type=cli.board_file,
                    help="the board definition whose LED layout reads the LED frames "
                         "(default: the one the board's hello names)")
    ap.add_argument("commands", nargs=argparse.REMAINDER, metavar="COMMAND",
                    help="run these, then exit; none: from a prompt on a terminal, else "
                         "stdin line by line")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if args.key is None and tech.board_named(args) is not None:
        ap.error("--board-id and --board-key go with --key")
    who = tech.technician(args.key, args) if args.key else None   # signing.Refused: one line
    leds = None
    if args.board:
        from felt.board import load
        leds = load(str(args.board))["leds"]
    port = cli.open_link(args.port, args.baud)
    try:
        console = Console(HostLink(port.fileno(), args.timeout), who, leds)
        try:
            console.greet()
        except LinkError as e:
            raise cli.UserError("%s: no hello from a board: %s" % (args.port, e), 1)
        if args.commands:
            return loop(console, command_lines(args.commands))
        if sys.stdin.isatty():
            return loop(console, prompted(), prompt=True)
        return loop(console, iter(sys.stdin.readline, ""))
    finally:
        port.close()


if __name__ == "__main__":
    sys.exit(main())
