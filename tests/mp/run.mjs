// Runs tests/firmware/**/test_*.py inside MicroPython itself (the WebAssembly port),
// so the firmware is checked against the VM it ships on, not only against CPython.
//
// Usage: node tests/mp/run.mjs [--tests DIR] [FILTER]
//   --tests DIR  run the tests under DIR instead of tests/firmware
//   FILTER       only tests whose id ("poker/test_cards.py::test_parse") contains it
//
// The VM sees: /fw (firmware/, so `import felt.poker.cards` works), /tests (the test
// tree; its root holds shared helpers), /hardware (hardware/), and /mp/runner.py, the
// driver that does the real work.  The working directory is "/", so a repo-relative
// path such as "hardware/boards/x.json" opens in the VM as it does under pytest.
// Prints `micropython: N passed, M failed`; exits 1 if M > 0 or N == 0.

import fs from "node:fs";
import path from "node:path";
import { root, startVM } from "./vm.mjs";

const here = path.join(root, "tests/mp");
const args = process.argv.slice(2);
let testsDir = path.join(root, "tests/firmware");
const at = args.indexOf("--tests");
if (at >= 0) testsDir = path.resolve(args.splice(at, 2)[1]);
const filter = args.join(" ");

const trees = { "/fw": path.join(root, "firmware"), "/tests": testsDir };
if (fs.existsSync(path.join(root, "hardware"))) trees["/hardware"] = path.join(root, "hardware");
const mp = await startVM({
  heapsize: 32 * 1024 * 1024, // generous: this checks the language, not the boards' RAM
  out: process.stdout,
  trees,
  files: { "/mp/runner.py": path.join(here, "runner.py") },
  syspath: ["/tests", "/fw", "/mp"],
});
const code = mp.pyimport("runner").main(filter);
process.exit(code);
