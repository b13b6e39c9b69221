"""The test driver that runs inside the MicroPython VM (see run.mjs, which copies
firmware/ to /fw and tests/firmware/ to /tests and then calls main()).

It is deliberately tiny and pytest-free: it imports every tests/firmware/**/test_*.py
and calls each module-level callable named test_* with no arguments.  A test passes
when it returns None without raising.  Plain MicroPython only: this file must not
use anything CPython-specific.
"""

import gc
import os
import sys
import time

TESTS = "/tests"


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


def _asyncio_run(coro):
    """asyncio.run for the VM.  The webassembly port's asyncio has no run(): its loop is
    driven by JS timers, and those cannot fire while Python code is running.  Tests call
    asyncio.run() as they would on CPython or a board, so drive the port's loop by hand,
    sleeping until the next task is due."""
    import asyncio
    import js

    core = asyncio.core
    asyncio.new_event_loop()  # start from an empty queue, like a fresh CPython loop
    box = []

    async def main():
        try:
            box.append((True, await coro))
        except BaseException as e:  # noqa: B036 - handed back to the caller below
            box.append((False, e))

    asyncio.create_task(main())
    try:
        while not box:
            t = core._task_queue.peek()
            if not t:
                raise RuntimeError("asyncio.run: every task waits and nothing can wake one")
            dt = time.ticks_diff(t.ph_key, time.ticks_ms())
            if dt > 0:
                time.sleep_ms(dt)
            core._run_iter()
    finally:
        # Drop the JS timer the port armed and any task left behind (CPython cancels them).
        if core.asyncio_timer is not None:
            js.clearTimeout(core.asyncio_timer)
            core.asyncio_timer = None
        asyncio.new_event_loop()
    ok, value = box[0]
    if ok:
        return value
    raise value


def _install_asyncio_run():
    try:
        import asyncio
    except ImportError:
        return
    if not hasattr(asyncio, "run") and hasattr(asyncio, "core"):
        asyncio.run = _asyncio_run


def _fail(test_id, exc):
    print("FAILED " + test_id)
    sys.print_exception(exc)


def main(pattern=""):
    """Run the tests whose id ("poker/test_cards.py::test_parse") contains pattern.
    Prints a line per module and a closing summary; returns the process exit code."""
    _install_asyncio_run()
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
