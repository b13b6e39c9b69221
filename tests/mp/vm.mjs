// The MicroPython VM (the WebAssembly port from npm) with host folders copied in, for
// the test runner (run.mjs) and the showdown benchmark (bench_showdown.mjs).
//
// startVM({ heapsize, out, trees, files, syspath }):
//   heapsize  bytes of the VM's heap
//   out       where the VM's stdout lines go (stderr always goes to stderr)
//   trees     { "/fw": "host/folder", ... } copied in whole (no __pycache__, dot files)
//   files     { "/mp/x.py": "host/file", ... }
//   syspath   folders put first on sys.path; the working directory is "/"

import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export async function startVM({ heapsize, out, trees = {}, files = {}, syspath = [] }) {
  const mp = await loadMicroPython({
    stdout: (line) => out.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
    heapsize,
  });
  const made = new Set(["/"]);
  function mkdir(dir) {
    if (made.has(dir)) return;
    mkdir(path.posix.dirname(dir));
    mp.FS.mkdir(dir);
    made.add(dir);
  }
  function copyTree(from, to) {
    mkdir(to);
    for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
      if (entry.name === "__pycache__" || entry.name.startsWith(".")) continue;
      const src = path.join(from, entry.name);
      if (entry.isDirectory()) copyTree(src, `${to}/${entry.name}`);
      else mp.FS.writeFile(`${to}/${entry.name}`, fs.readFileSync(src));
    }
  }
  for (const [to, from] of Object.entries(trees)) copyTree(from, to);
  for (const [to, from] of Object.entries(files)) {
    mkdir(path.posix.dirname(to));
    mp.FS.writeFile(to, fs.readFileSync(from));
  }
  mp.runPython(`
import os, sys
os.chdir("/")
sys.path[:0] = ${JSON.stringify(syspath)}
`);
  return mp;
}
