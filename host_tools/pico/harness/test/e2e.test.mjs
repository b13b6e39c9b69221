// End to end on a real MicroPython image: PICO_UF2 names a stock RPI_PICO UF2 (the
// rp2 port built by ../shared/pico/README.md's recipe), which runs main.py from its
// filesystem: test/fixtures/stock_main.py, put on a littlefs image by a Python with
// littlefs-python (PICO_PYTHON, else the checkout's .venv, else python3).  Without
// them the test is skipped.  It drives every device the harness wires on pico-11.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { execFileSync } from 'child_process';
import { harness, uartText, uartEventAt } from './cli.mjs';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const BOARD = path.join(ROOT, 'hardware/boards/pico-11.json');
const MAIN_PY = new URL('./fixtures/stock_main.py', import.meta.url).pathname;
const UF2 = process.env.PICO_UF2;

// A littlefs image (4096-byte blocks x 352, prog 256: the rp2 port's) holding main.py.
function fsImage(dir) {
  const out = path.join(dir, 'stock.img');
  const script = `import sys
from littlefs import LittleFS
fs = LittleFS(block_size=4096, block_count=352, prog_size=256)
with open(sys.argv[2], "rb") as s, fs.open("main.py", "wb") as d:
    d.write(s.read())
open(sys.argv[1], "wb").write(fs.context.buffer)
`;
  for (const py of [process.env.PICO_PYTHON, path.join(ROOT, '.venv/bin/python'), 'python3']) {
    if (!py) continue;
    try { execFileSync(py, ['-c', script, out, MAIN_PY], { stdio: 'pipe' }); return out; } catch { /* next */ }
  }
  return null;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pico-e2e-'));
const FS = UF2 ? fsImage(dir) : null;
const skip = !UF2 ? 'PICO_UF2 is not set' : !FS ? 'no Python with littlefs-python' : false;
const args = (...more) => ['--uf2', UF2, '--fs', FS, '--board', BOARD, ...more];
const line = (h, n, re, from = 0) => h.until(() => re.test(uartText(h.events.slice(from), n)), 120_000);

test('a stock MicroPython image on the emulated pico-11', { skip }, async () => {
  const saved = path.join(dir, 'saved.flash');
  const h = harness(args('--seed', '5', '--flash-out', saved));
  await h.until((e) => e.ev === 'ready');
  await line(h, 0, /int 1 busy 1\n/);
  const text0 = uartText(h.events, 0);
  assert.match(text0, /^boot 1 cause 1 rand [0-9a-f]{16}\nfound \[32, 33, 34, 35\]\n/, 'the expanders answer at 0x20-0x22, the keypad\'s at 0x23');
  await line(h, 1, /want hole 0\n/);
  const u1 = h.events.filter((e) => e.ev === 'uart' && e.n === 1);
  assert.equal(uartText(h.events, 1), 'want hole 0\n');
  const span = u1.at(-1).t - u1[0].t;   // from the first byte's stop bit to the last's
  assert.ok(Math.abs(span - 11 * 1e7 / 9600) < 50, `12 bytes at 9600 baud took ${span} us after the first`);
  const leds = h.events.find((e) => e.ev === 'leds');
  assert.equal(leds.hex, '02010300ff80000000', 'NeoPixel bytes in wire order (GRB)');
  assert.ok(leds.t - leds.start > 3 * 24 * 1.2 && leds.t - leds.start < 3 * 24 * 1.4 + 60, 'about 1.25 us a bit, then the 50 us latch');
  const start = h.events.filter((e) => e.ev === 'gpio' && e.pin === 18);
  assert.deepEqual(start.map((e) => e.level), [0, 1, 0]);
  assert.ok(Math.abs(start[2].t - start[1].t - 5000) < 500, 'a 5 ms pulse on GP18');

  let from = h.events.length;
  h.send({ op: 'uart', n: 0, hex: '414243' });
  await line(h, 0, /echo 414243\n/, from);
  h.send({ op: 'pin', expander: 0, pin: 3, down: true });
  await line(h, 0, /pins f7ff\n/, from);
  h.send({ op: 'gpio', pin: 14, level: 0 });
  await line(h, 0, /busy 0\n/, from);
  from = h.events.length;
  h.send({ op: 'uart', n: 1, hex: '41730a' });
  await line(h, 0, /u1 41730a\n/, from);
  h.send({ op: 'press', expander: 0, pin: 5, ms: 40, id: 'p' });
  await h.until((e) => e.ev === 'done' && e.id === 'p');

  from = h.events.length;
  h.send({ op: 'uart', n: 0, hex: '66' });                     // f: write a 16 KB file
  await line(h, 0, /file 16384\n/, from);
  h.send({ op: 'power_cut', torn: true });
  await h.until((e) => e.ev === 'reset' && e.why === 'power');
  await line(h, 0, /boot 2 cause 1 /, from);
  h.send({ op: 'uart', n: 0, hex: '77' });                     // w: a 200 ms watchdog, never fed
  await h.until((e) => e.ev === 'reset' && e.why === 'watchdog', 120_000, from);
  await line(h, 0, /boot 3 cause 3 /, from);
  h.send({ op: 'uart', n: 0, hex: '72' });                     // r: machine.reset()
  await h.until((e) => e.ev === 'reset' && e.why === 'software', 120_000, from);
  await line(h, 0, /boot 4 cause 3 /, from);
  const wd = h.events.find((e) => e.ev === 'reset' && e.why === 'watchdog');
  const asked = uartEventAt(h.events, 0, /wdt\n/);
  assert.ok(wd.t - asked.t > 190_000 && wd.t - asked.t < 260_000, `the watchdog fired ${wd.t - asked.t} us after it was started`);

  h.send({ op: 'stats' });
  const stats = await h.until((e) => e.ev === 'stats');
  h.send({ op: 'quit' });
  assert.equal(await h.exited, 0);
  const rands = [...uartText(h.events, 0).matchAll(/rand ([0-9a-f]+)/g)].map((m) => m[1]);
  assert.equal(new Set(rands).size, 4, 'os.urandom differs at every boot');
  assert.deepEqual(stats.resets, { watchdog: 1, software: 1, power: 1 });
  assert.ok(stats.flash.programs > 60, 'the file and the boot counter were programmed');
  process.stderr.write(`# stock image: ${stats.emulated_s.toFixed(2)} s emulated at ${stats.speed} emulated s per wall s\n`);

  // The saved flash boots again with its files; the seed repeats the random bits.
  const again = harness(['--uf2', UF2, '--flash-in', saved, '--board', BOARD, '--seed', '5']);
  await line(again, 0, /found/);
  again.send({ op: 'quit' });
  assert.equal(await again.exited, 0);
  assert.match(uartText(again.events, 0), new RegExp(`^boot 5 cause 1 rand ${rands[0]}\\n`));
});
