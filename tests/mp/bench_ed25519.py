"""Ed25519 verification (felt.ed25519) timed and weighed inside MicroPython's unix port.

    python tests/mp/bench_ed25519.py [REPS]     # on the PC: the whole report, one JSON line

does, with the firmware compiled into build/mpy first (as a board loads it):
  time   the unix port at the board's heap (185K) runs this file as
         `bench_ed25519.py time REPS`: one verify of a 60-byte and of a 3000-byte
         message (the size of a signed manifest), each REPS times (`verify_N`: by the
         check verify uses, Monocypher's in C in the Makefile's build; `check_pure_N`:
         by the Python one too, where it is not the first), time.ticks_us /
         ticks_diff around the call with the collector on (as a board runs it); best and
         median, in ms.
  heap   the same run: gc.collect(); gc.mem_alloc() before `import felt.ed25519` and
         after it (what the module holds while loaded).  Then, in a run with a 4 MB heap
         (`bench_ed25519.py alloc`), the bytes one verify allocates with the collector
         off: its garbage, all of it, which the collector takes back as it goes (not
         its peak, which `fit` bounds).
  fit    the smallest heap, to 1 KB, at which a few lines given with `-c` (FIT) still
         print True: make the 3000-byte message, key and signature, import
         felt.ed25519, verify; and the smallest at which the same lines without the
         import and the verify (BASE) print True.  The difference is what Ed25519 needs
         of a heap while it verifies, the module's bytecode and fragmentation included.
         (`-c`, not this file: compiling this file needs more heap than the verify.)
Each micropython command line is printed in the report, to be run again by hand (with
MICROPYPATH=build/mpy).  The messages are made by a small LCG, so the same on every VM;
the signatures below are felt-flash's kind (the `cryptography` package's), by RFC 8032's
TEST 1 key, and the PC side checks them with `cryptography` before it starts.
"""

import gc
import sys
import time

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython: only the driver runs here
    ticks_us = ticks_diff = None

KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
SIGNATURES = {
    60: "042ae448de1d9aebcaff40be7a0ab022a80919263bff08b1afdf3960a0d9ca31"
        "d45072279338a3f5eb1328c928649105273025ea89ac4ca927684731bcf9cf06",
    3000: "4f3cd880ae5af4c20667f2fec2ddc1dcfc9918114006622e13f3112b7fe9a02b"
          "dde60bb7c2e908c96b18fabf908f61cf3218d60422adf4f3b6071203922c290a",
}
BOARD_HEAP = 185 * 1024


def message(n):
    """n bytes from an LCG seeded with n: the same on every VM."""
    out = bytearray(n)
    x = n
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out[i] = x >> 16 & 255
    return bytes(out)


def median(xs):
    xs = sorted(xs)
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


# The `fit` programs (see above): the message as message() makes it, in as few lines.
BASE = ("k=bytes.fromhex(%r)\ns=bytes.fromhex(%r)\nm=bytearray(3000)\nx=3000\n"
        "for i in range(3000):\n x=(x*1103515245+12345)&0x7FFFFFFF\n m[i]=x>>16&255\n"
        % (KEY, SIGNATURES[3000]))
FIT = "from felt import ed25519\n" + BASE + "print(ed25519.verify(k,m,s))\n"
BASE += "print(True)\n"


# ----- inside MicroPython ------------------------------------------------------------------

def measure(reps):
    """One JSON line: the heap before and after the import, and the times."""
    import json
    key = bytes.fromhex(KEY)
    cases = [(n, message(n), bytes.fromhex(SIGNATURES[n])) for n in (60, 3000)]
    gc.collect()
    before = gc.mem_alloc()
    from felt import ed25519
    gc.collect()
    after = gc.mem_alloc()
    result = {"micropython": ".".join([str(x) for x in sys.implementation.version[:3]]),
              "reps": reps,
              "heap": {"before_import": before, "after_import": after,
                       "module_bytes": after - before},
              "time": "ms per verify, collector on"}
    checks = ed25519.CHECKS
    for check in checks:     # each check the VM has, the one verify uses first
        ed25519.CHECKS = (check,)
        for n, msg, sig in cases:
            times = []
            for _ in range(reps):
                gc.collect()
                t0 = ticks_us()
                ok = ed25519.verify(key, msg, sig)
                t1 = ticks_us()
                assert ok
                times.append(ticks_diff(t1, t0) / 1000)
            name = "verify_%d" % n if check is checks[0] else "%s_%d" % (check.__name__, n)
            result[name] = {"best_ms": round(min(times), 2),
                            "median_ms": round(median(times), 2),
                            "max_ms": round(max(times), 2)}
    ed25519.CHECKS = checks
    return json.dumps(result)


def allocated():
    """One JSON line: the bytes one verify allocates, collector off, each message size;
    and SHA-512 alone (the module's own) of 3000 bytes."""
    import json
    from felt import ed25519
    key = bytes.fromhex(KEY)
    out = {}
    for n in (60, 3000):
        msg, sig = message(n), bytes.fromhex(SIGNATURES[n])
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        ok = ed25519.verify(key, msg, sig)
        b = gc.mem_alloc()
        gc.enable()
        assert ok
        out["verify_%d_bytes" % n] = b - a
    msg = message(3000)
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    ed25519.sha512_pure(msg)
    b = gc.mem_alloc()
    gc.enable()
    out["sha512_pure_3000_bytes"] = b - a
    return json.dumps(out)


# ----- on the PC ---------------------------------------------------------------------------

def _drive(reps):
    """Compile the firmware, check the signatures, run the measurements in the unix port
    and bisect the heaps; returns the report as one JSON line."""
    import json
    import os
    import shlex
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root))
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from host_tools import micropython

    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(KEY))
    for n, sig in SIGNATURES.items():
        public.verify(bytes.fromhex(sig), message(n))   # raises if the file is wrong
    micropython.board_tree()
    script = Path(__file__).resolve()

    def run(heap, args):
        cmd, env = micropython.command(script, args, heap)
        if args[0] == "-c":
            cmd[3:] = args
        done = subprocess.run(cmd, env=env, cwd=str(root), capture_output=True, text=True)
        shown = "MICROPYPATH=%s %s" % (env["MICROPYPATH"], " ".join(
            [shlex.quote(os.path.relpath(c, root) if c.startswith(str(root)) else c)
             for c in cmd]))
        return done, shown

    done, shown = run(BOARD_HEAP, ["time", str(reps)])
    if done.returncode:
        raise SystemExit(done.stdout + done.stderr)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    report["command"] = shown
    done, shown = run(4 * 1024 * 1024, ["alloc"])
    if done.returncode:
        raise SystemExit(done.stdout + done.stderr)
    report["allocated_gc_off"] = json.loads(done.stdout.strip().splitlines()[-1])
    report["allocated_gc_off"]["command"] = shown

    def smallest(code):
        lo, hi = 1, BOARD_HEAP // 1024   # KB: lo fails (or is untried), hi passes
        while hi - lo > 1:
            mid = (lo + hi) // 2
            done, _ = run(mid * 1024, ["-c", code])
            if done.returncode == 0 and done.stdout.strip() == "True":
                hi = mid
            else:
                lo = mid
        return hi, run(hi * 1024, ["-c", code])[1]

    fit_kb, fit_cmd = smallest(FIT)
    base_kb, base_cmd = smallest(BASE)
    report["fit"] = {"smallest_heap_kb": fit_kb, "command": fit_cmd,
                     "without_ed25519_kb": base_kb, "baseline_command": base_cmd,
                     "ed25519_needs_kb": fit_kb - base_kb}
    return json.dumps(report)


if __name__ == "__main__":
    args = sys.argv[1:]
    if ticks_us is None:
        print(_drive(int(args[0]) if args else 5))
    elif args and args[0] == "alloc":
        print(allocated())
    else:
        print(measure(int(args[1]) if len(args) > 1 else 5))
