"""Runs tests/firmware/**/test_*.py inside MicroPython's unix port (runner.py does the
work there), so the firmware is checked on the VM it ships on, not only on CPython.

    python tests/mp/run.py [FILTER]    # only tests whose id contains FILTER

The tests import the felt package as a board does, from the `.mpy` files in build/mpy
(compiled first if stale); they run from the repository's root, so a repo-relative path
such as "hardware/boards/x.json" opens as it does under pytest.  Prints
`micropython: N passed, M failed`; exits 1 if M > 0 or N == 0.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from host_tools import micropython  # noqa: E402

# Generous: this checks the language and the firmware's logic; the board's budget is
# checked where the whole table runs at the board's heap (compare.py, the emulator).
HEAP = 4 * 1024 * 1024


def main(argv):
    micropython.board_tree()
    cmd, env = micropython.command(ROOT / "tests" / "mp" / "runner.py",
                                   [str(ROOT / "tests" / "firmware"), " ".join(argv)], HEAP,
                                   [ROOT / "tests" / "firmware"])
    # The tests' files go in a folder of this run's (table_fakes.scratch_dir), so two
    # runs at once never share one.
    with tempfile.TemporaryDirectory(prefix="felt-mp-") as scratch:
        env["FELT_SCRATCH"] = scratch
        return subprocess.run(cmd, env=env, cwd=str(ROOT)).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
