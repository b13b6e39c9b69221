// The harness's command line, without a MicroPython image: bad input is one error
// event, one line on stderr and a non-zero exit; a chip that locks up or hits a
// breakpoint likewise.  The chips here run a 256-byte boot2 of our own.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { harness } from './cli.mjs';
import { boot2Uf2 as boot2 } from './boot2.mjs';
import { FS_BYTES } from '../images.mjs';
import { PICO_11 as BOARD, bare, dealerPlace, shufflerData } from './boards.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pico-main-'));
const file = (name, data) => { const p = path.join(dir, name); fs.writeFileSync(p, data); return p; };

const fsImage = () => { const img = Buffer.alloc(FS_BYTES, 0xff); img.write('littlefs', 8, 'latin1'); return file('fs.img', img); };

async function fails(args, code, pattern) {
  const h = harness(args);
  h.close();
  assert.equal(await h.exited, code, h.stderr);
  const errors = h.events.filter((e) => e.ev === 'error');
  assert.equal(errors.length, 1);
  assert.match(errors[0].why, pattern);
  assert.equal(h.stderr.trim().split('\n').filter((l) => l.includes('error')).length, 1);
  assert.match(h.stderr, pattern);
}

test('missing or truncated files, a board it cannot wire: exit 2', async () => {
  const uf2 = file('spin.uf2', boot2([0xe7fe]));
  const fsimg = fsImage();
  await fails(['--uf2', path.join(dir, 'none.uf2'), '--fs', fsimg, '--board', BOARD], 2, /UF2 .*none.uf2: no such file/);
  await fails(['--uf2', file('cut.uf2', fs.readFileSync(uf2).subarray(0, 300)), '--fs', fsimg, '--board', BOARD], 2, /truncated/);
  await fails(['--uf2', uf2, '--fs', file('short.img', Buffer.alloc(4096)), '--board', BOARD], 2, /filesystem image .* 4096 bytes/);
  const board = JSON.parse(fs.readFileSync(BOARD));
  board.expanders[2].int = 29;
  await fails(['--uf2', uf2, '--fs', fsimg, '--board', file('bad.json', JSON.stringify(board))], 2, /expander 2 int pin 29/);
  await fails(['--uf2', uf2, '--fs', fsimg], 2, /--board is required/);
  await fails(['--uf2', uf2, '--fs', fsimg, '--flash-in', fsimg, '--board', BOARD], 2, /one or the other/);
  await fails(['--uf2', uf2, '--fs', fsimg, '--board', BOARD, '--bootrom', file('rom.bin', 'x')], 2, /bootrom/);
});

test('a bad op: exit 2', async () => {
  const h = harness(['--uf2', file('idle.uf2', boot2([0xbf30, 0xe7fd])), '--fs', fsImage(), '--board', BOARD]);
  await h.until((e) => e.ev === 'ready');
  h.send({ op: 'gpio', pin: 0, level: 1 });
  assert.equal(await h.exited, 2);
  assert.match(h.events.at(-1).why, /bad op: gpio 0 is the board's link tx/);
});

test('the dealer\'s place on a board without it, an unknown key, a keypad pin as a button: bad ops', async () => {
  const uf2 = file('idle.uf2', boot2([0xbf30, 0xe7fd]));
  const badOp = async (board, op, pattern) => {
    const h = harness(['--uf2', uf2, '--fs', fsImage(), '--board', board]);
    await h.until((e) => e.ev === 'ready');
    h.send(op);
    assert.equal(await h.exited, 2);
    assert.match(h.events.at(-1).why, pattern);
  };
  const place = file('place.json', JSON.stringify(dealerPlace())), none = file('bare.json', JSON.stringify(bare()));
  await badOp(none, { op: 'key', key: '5', down: true }, /bad op: the board has no keypad/);
  await badOp(none, { op: 'display' }, /bad op: the board has no display/);
  await badOp(none, { op: 'muck', hex: '41' }, /bad op: the board has no muck_reader/);
  await badOp(BOARD, { op: 'key', key: 'E', down: true }, /bad op: key "E"/);
  await badOp(place, { op: 'key', key: 'E', down: true }, /bad op: key "E": the keypad's keys are "123A456B789C\*0#D"/);
  await badOp(place, { op: 'pin', expander: 3, pin: 9, down: true }, /bad op: expander 3 pin 9 is the keypad's/);
  await badOp(place, { op: 'gpio', pin: 19, level: 0 }, /bad op: gpio 19 is the board's muck reader irq/);
  await badOp(none, { op: 'shuffler_data', hex: '41' }, /bad op: the board has no shuffler.data/);
  await badOp(place, { op: 'shuffler_data', hex: '41' }, /bad op: the board has no shuffler.data/);
  const data = file('data.json', JSON.stringify(shufflerData()));
  await badOp(data, { op: 'gpio', pin: 20, level: 0 }, /bad op: gpio 20 is the board's shuffler data irq/);
  await badOp(data, { op: 'gpio', pin: 19, level: 0 }, /bad op: gpio 19 is the board's muck reader irq/);
});

test('the dealer\'s place on an idle chip: keys, the display, the muck reader, a power cut', async () => {
  const h = harness(['--uf2', file('idle.uf2', boot2([0xbf30, 0xe7fd])), '--fs', fsImage(), '--board', file('place.json', JSON.stringify(dealerPlace()))]);
  await h.until((e) => e.ev === 'ready');
  h.send({ op: 'display' });
  const shown = await h.until((e) => e.ev === 'display');
  assert.deepEqual(shown, { ev: 'display', t: shown.t, hex: '00'.repeat(1024), on: false, invert: false });
  h.send({ op: 'key', key: '*', down: true });
  h.send({ op: 'muck', hex: '41530a' });   // the bridge's FIFOs are off: one byte held, two overrun
  h.send({ op: 'after', ms: 5, id: 'bytes' });
  await h.until((e) => e.id === 'bytes');
  h.send({ op: 'stats' });
  const { muck, display } = await h.until((e) => e.ev === 'stats');
  assert.deepEqual([muck.received, muck.overrun, muck.pending], [1, 2, 0]);
  assert.equal(display.events, 0);
  const from = h.events.length;
  h.send({ op: 'power_cut' });
  await h.until((e) => e.ev === 'reset' && e.why === 'power', 60_000, from);
  assert.ok(h.events.slice(from).some((e) => e.ev === 'display' && !e.on));
  h.send({ op: 'quit' });
  assert.equal(await h.exited, 0);
});

test('the shuffler\'s data port beside the muck reader on an idle chip: each its own op and stats', async () => {
  const h = harness(['--uf2', file('idle.uf2', boot2([0xbf30, 0xe7fd])), '--fs', fsImage(), '--board', file('data.json', JSON.stringify(shufflerData()))]);
  await h.until((e) => e.ev === 'ready');
  h.send({ op: 'shuffler_data', hex: '4f4b0a' });   // FIFOs off: one byte held, two overrun
  h.send({ op: 'muck', hex: '41' });
  h.send({ op: 'after', ms: 5, id: 'bytes' });
  await h.until((e) => e.id === 'bytes');
  h.send({ op: 'stats' });
  const { muck, shuffler_data: data } = await h.until((e) => e.ev === 'stats');
  assert.deepEqual([data.received, data.overrun, data.pending, data.dropped], [1, 2, 0, 0]);
  assert.deepEqual([muck.received, muck.overrun], [1, 0]);
  h.send({ op: 'quit' });
  assert.equal(await h.exited, 0);
});

test('a chip spinning with interrupts masked is a lockup: exit 3', async () => {
  const h = harness(['--uf2', file('lock.uf2', boot2([0xb672, 0xe7fe])), '--fs', fsImage(), '--board', BOARD]);
  assert.equal(await h.exited, 3);
  assert.match(h.events.at(-1).why, /chip: lockup: spinning at 0x20041f02/);
});

test('a breakpoint (the SDK\'s panic and fault handlers end in one): exit 3', async () => {
  const h = harness(['--uf2', file('bkpt.uf2', boot2([0xbe07])), '--fs', fsImage(), '--board', BOARD]);
  assert.equal(await h.exited, 3);
  assert.match(h.events.at(-1).why, /chip: breakpoint \(bkpt 7\)/);
});

test('a write of AIRCR.SYSRESETREQ resets the chip: why "software"', async () => {
  // ldr r0, =AIRCR; ldr r1, =VECTKEY|SYSRESETREQ; str r1, [r0]; b .
  const h = harness(['--uf2', file('aircr.uf2', boot2([0x4801, 0x4902, 0x6001, 0xe7fe, 0xed0c, 0xe000, 0x0004, 0x05fa])), '--fs', fsImage(), '--board', BOARD]);
  const reset = await h.until((e) => e.ev === 'reset');
  assert.equal(reset.why, 'software');
  h.send({ op: 'quit' });
  assert.equal(await h.exited, 0);
});

test('an idle chip: ready, heartbeats, timers on emulated time, stats, quit saves the flash', async () => {
  const out = path.join(dir, 'out.flash');
  const h = harness(['--uf2', file('wfi.uf2', boot2([0xbf30, 0xe7fd])), '--fs', fsImage(), '--board', BOARD, '--flash-out', out]);
  await h.until((e) => e.ev === 'ready');
  h.send({ op: 'after', ms: 250, id: 'a' });
  const done = await h.until((e) => e.ev === 'done' && e.id === 'a');
  const beats = h.events.filter((e) => e.ev === 'time').map((e) => e.t);
  assert.ok(beats.length >= 2 && beats.every((t, k) => k === 0 || t - beats[k - 1] === 100_000), 'a time event every 100 ms');
  h.send({ op: 'press', expander: 1, pin: 4, ms: 30, id: 7 });
  const pressed = await h.until((e) => e.ev === 'done' && e.id === 7);
  h.send({ op: 'stats' });
  const stats = await h.until((e) => e.ev === 'stats');
  assert.ok(stats.speed > 0);
  assert.ok(pressed.t > done.t);
  h.send({ op: 'quit' });
  assert.equal(await h.exited, 0);
  assert.equal(fs.statSync(out).size, 2 * 1024 * 1024);
});
