"""The test driver that runs inside MicroPython's unix port (see run.py, which starts it
as `runner.py TESTS [FILTER]` with the firmware's .mpy files on the path).

It is deliberately tiny and pytest-free: it imports every tests/firmware/**/test_*.py
and calls each module-level callable named test_* with no arguments.  A test passes
when it returns None without raising.  Plain MicroPython only: this file must not
use anything CPython-specific.
"""

import gc
import os
import sys
import time

TESTS = "tests/firmware"  # set from the command line


def _find(top):
    """Every test_*.py under top, as (directory, module name, path relative to top)."""
    found = []
    for name, kind, *_ in sorted(os.ilistdir(top)):
        path = top + "/" + name
        if kind == 0x4000:  # a directory
            if name != "__pycache__":
                found += _find(path)
        elif name.startswith("test_") and name.endswith(".py"):
            found.append((top, name[:-3], path[len(TESTS) + 1 :]))
    return found


def _fail(test_id, exc):
    print("FAILED " + test_id)
    sys.print_exception(exc)


def main(tests, pattern=""):
    """Run the tests under `tests` whose id ("poker/test_cards.py::test_parse") contains
    pattern.  Prints a line per module and a closing summary; returns the exit code."""
    global TESTS
    TESTS = tests
    passed = failed = 0
    for directory, name, rel in _find(TESTS):
        # Like pytest's default import mode: the test's own folder goes on sys.path,
        # which is why test basenames must be unique across tests/.
        if directory not in sys.path:
            sys.path.insert(0, directory)
        try:
            module = __import__(name)
        except BaseException as e:  # noqa: B036 - a broken module is one failure
            if pattern in rel:
                failed += 1
                _fail(rel, e)
                print(rel[:-3] + ": import failed")
            continue
        # MicroPython dicts are unordered: sort so runs are repeatable.
        tests = sorted(n for n in dir(module) if n.startswith("test_") and callable(getattr(module, n)))
        mod_passed = mod_failed = 0
        for test in tests:
            test_id = rel + "::" + test
            if pattern not in test_id:
                continue
            try:
                result = getattr(module, test)()
                if result is not None:
                    # e.g. an `async def` or generator test: its body never ran.
                    raise AssertionError("test returned %r instead of None" % (result,))
                mod_passed += 1
            except BaseException as e:  # noqa: B036 - report everything, keep going
                mod_failed += 1
                _fail(test_id, e)
        if mod_passed or mod_failed:
            line = "%s: %d passed" % (rel[:-3], mod_passed)
            print(line + (", %d failed" % mod_failed if mod_failed else ""))
        passed += mod_passed
        failed += mod_failed
        gc.collect()
    print("micropython: %d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""))
