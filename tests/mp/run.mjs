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

import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

const args = process.argv.slice(2);
let testsDir = path.join(root, "tests/firmware");
const at = args.indexOf("--tests");
if (at >= 0) testsDir = path.resolve(args.splice(at, 2)[1]);
const filter = args.join(" ");

const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
  heapsize: 32 * 1024 * 1024, // generous: this checks the language, not the boards' RAM
});

// Copy a host folder into the VM's in-memory file system.
function copyTree(from, to) {
  mp.FS.mkdir(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.name === "__pycache__" || entry.name.startsWith(".")) continue;
    const src = path.join(from, entry.name);
    if (entry.isDirectory()) copyTree(src, `${to}/${entry.name}`);
    else mp.FS.writeFile(`${to}/${entry.name}`, fs.readFileSync(src));
  }
}

copyTree(path.join(root, "firmware"), "/fw");
copyTree(testsDir, "/tests");
if (fs.existsSync(path.join(root, "hardware"))) copyTree(path.join(root, "hardware"), "/hardware");
mp.FS.mkdir("/mp");
mp.FS.writeFile("/mp/runner.py", fs.readFileSync(path.join(here, "runner.py")));

mp.runPython(`
import os, sys
os.chdir("/")
sys.path[:0] = ["/tests", "/fw"]
sys.path.append("/mp")
`);
const code = mp.pyimport("runner").main(filter);
process.exit(code);
