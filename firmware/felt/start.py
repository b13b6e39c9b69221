"""The boot's first steps (felt.boot), loaded for them and forgotten: the program check
(felt.image), the board definition, and, when the check failed, the tilt shown in place
of the table (felt.tilted).  Like felt.boot and felt.image, this is the checker: it runs
before the check has said whether the flash's other files may.
"""

import sys

from felt import lazy
from felt.runtime import arg, open_hal, reset_plainly

TILT_EXIT = 3   # the firmware process's exit code when its program check failed

# The files a tilted board runs to show its tilt: when one of them failed the check,
# the board says why on its console only (its bytes could crash the VM).
TILT_PATH = ("felt/__init__.", "felt/lazy.", "felt/board.", "felt/hal/", "felt/tilted.",
             "felt/table/__init__.", "felt/table/scenes.", "felt/table/eventlog",
             "felt/table/journal.", "felt/protocol.", "felt/check.", "board.json")
# The code a `verify` answer runs: felt.verify and what it imports from the flash, as a
# module or a package planted in its place.
VERIFY_CODE = ("felt/verify.", "felt/verify/", "felt/image.", "felt/image/")


def start(argv):
    """(board, journal path, trust, image, took) for the table to play on: `trust` the
    file of keys and `image` the folder checked, None when nothing was (a developer's
    table over the link); `took` (summary, ms) of the check, or None.  A failed check
    never returns: the tilt is shown, or said on the console only, then the firmware
    exits with TILT_EXIT."""
    port = arg(argv, "--port")
    # The program check before anything else is loaded: on a board always, from its
    # root; over the link when the emulator runs an image (--image DIR).
    image = arg(argv, "--image", None if port else "")
    problems = trust = took = None
    if image is not None:
        trust = arg(argv, "--trust", join(image, "trust.json"))     # felt.image.TRUST
        problems, took, shown = check_program(image, trust)
    if problems:
        tilt = said(problems)
        if not shown:
            sys.exit(TILT_EXIT)     # the console has said it
    else:
        lazy.warm(lazy.COLD)     # a tilted board runs none of it
    # The board definition first, and its checker forgotten before the table's code
    # is loaded: boot's peak of heap is then the table's, not the two together.
    try:
        board = lazy.load("felt.board").load(arg(argv, "--board", "/board.json"))
    except MemoryError:
        # No board yet, so no HAL and no note: reboot the plain way.  A board
        # definition in error stays at the REPL, where a technician reads why (the
        # Pico image, whose REPL is shut, resets: firmware/pico/boot.py).
        reset_plainly()
    lazy.forget("felt.board")   # checked: its code is not needed again
    # On a board the journal is the board's (a power cut resumes from it); over the
    # link it is kept only when asked for.
    path = arg(argv, "--journal", None if port else board["journal"])
    if problems:
        try:
            show_tilt(argv, board, path, tilt, image, checked_verify(problems))
        except Exception as e:  # noqa: BLE001 - the console has said it
            print("felt: the tilt could not be shown: %s" % type(e).__name__, file=sys.stderr)
        sys.exit(TILT_EXIT)
    return board, path, trust, image, took


def check_program(root, trust):
    """(problems, (summary, ms), shown) of felt.image.check, loaded for it and forgotten,
    its garbage collected: what the table loads next is not cut up by it.  `shown`:
    whether the board may run its own files to show a tilt: frozen into the firmware,
    or on the flash as a manifest whose signature holds lists them (with the signature
    broken, a rewritten felt/tilted.py listed anew ran at boot: issue 21, item 2; nor
    where the trust document was not taken, and nothing was checked: issue 38)."""
    import gc
    from felt.hal.clock import ticks_ms
    from felt.protocol import ticks_diff
    start = ticks_ms()
    image = lazy.load("felt.image")
    problems, summary = image.check(root, trust, image.flash if image.frozen() else None)
    if not problems:
        try:
            image.remember(root, trust)     # anti-rollback: the newest image and trust
        except OSError as e:
            print("felt: the newest image could not be noted: %s" % e, file=sys.stderr)
    took = ticks_diff(ticks_ms(), start)
    # A trust document not taken (named by its file) leaves no file checked at all.
    unchecked = (image.MANIFEST, trust.split("/")[-1])
    shown = image.frozen() or not [p for p in problems if p[0] in unchecked or
                                   [t for t in TILT_PATH if p[0].startswith(t)]]
    lazy.forget("felt.image")
    lazy.forget("felt.ed25519")
    gc.collect()
    return problems, (summary, took), shown


def said(problems):
    """The program check failed: the tilt naming the first file that failed, said on
    the console (the event log, the LEDs and the link say it too when they can)."""
    name, why = problems[0]
    if len(problems) > 1:
        why += " (and %d more files)" % (len(problems) - 1)
    print("felt: tilt program_check_failed: %s: %s" % (name, why), file=sys.stderr)
    return {"code": "program_check_failed", "file": name, "why": why}


def checked_verify(problems):
    """felt.verify for a tilted board's `verify` answers, imported only when the check
    found it and what it imports intact (a planted felt/verify.py answered the lab:
    issue 38, item 6); else why not, a string.  Imported now, right after the check:
    nothing is imported from the flash once the tilt is decided."""
    for name, why in problems:
        if [t for t in VERIFY_CODE if name.startswith(t)]:
            return "%s failed the program check: %s" % (name, why)
    return lazy.load("felt.verify")


def show_tilt(argv, board, path, tilt, image, verify):
    """The table never starts: the tilt goes to the event log, the LEDs and the link
    (felt.tilted), and stays until a signed image is installed.  `verify`: felt.verify,
    checked, or why a `verify` is refused."""
    try:
        import asyncio
    except ImportError:
        import uasyncio as asyncio
    if path is not None:
        from felt.table.eventlog import EventLog
        EventLog(path + ".events").add(None, None, tilt["code"],
                                       "%s: %s" % (tilt["file"], tilt["why"]))
    from felt import tilted
    # It shows its tilt and answers questions, no more: the dealer's devices stay off.
    board = dict(board, keypad=None, display=None, muck_reader=None,
                 shuffler=dict(board["shuffler"], data=None))
    asyncio.run(tilted.run(open_hal(argv, board), board, tilt, image, verify))


def join(root, name):
    return root + "/" + name if root else name
