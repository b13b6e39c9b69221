// The worst showdowns inside MicroPython (the WebAssembly port): time and heap of the
// step that settles a 10-handed Omaha high-low and an 11-handed hold 'em showdown.
// felt-bench (host_tools/bench.py) runs this and reads the one JSON line it prints.
//
// Usage: node tests/mp/bench_showdown.mjs [--reps N] [--batch N]
//   --reps N    timed batches per deal, the median kept (default 5)
//   --batch N   showdowns per timed batch (default 40): the port's ticks_us counts ms
//
// The VM sees /fw (firmware/, so `import felt.poker.round` works) and /mp, holding
// bench_showdown.py, which does the measuring (see its docstring).  Anything the VM
// prints goes to stderr, so stdout holds only the JSON line.

import path from "node:path";
import { root, startVM } from "./vm.mjs";

const args = process.argv.slice(2);
function option(name, fallback) {
  const at = args.indexOf(name);
  return at >= 0 ? parseInt(args[at + 1], 10) : fallback;
}
const reps = option("--reps", 5);
const batch = option("--batch", 40);

const mp = await startVM({
  // Room enough for the replays; the figures are bytes allocated, not this size.
  heapsize: 8 * 1024 * 1024,
  out: process.stderr,
  trees: { "/fw": path.join(root, "firmware") },
  files: { "/mp/bench_showdown.py": path.join(root, "tests/mp/bench_showdown.py") },
  syspath: ["/fw", "/mp"],
});
const line = mp.pyimport("bench_showdown").main(reps, batch);
process.stdout.write(line + "\n");
