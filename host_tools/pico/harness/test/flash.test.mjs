// The SPI flash model: commands as the bootrom sends them, program/erase timing, and
// what a power cut leaves behind.
import test from 'node:test';
import assert from 'node:assert/strict';
import { SpiFlash, TYPICAL_NS } from '../flash.mjs';

function flashAt() {
  const clock = { t: 0 };
  const mem = new Uint8Array(1 << 16).fill(0xff);
  return { clock, mem, flash: new SpiFlash(mem, { now: () => clock.t }) };
}

// One command with chip select held: returns the bytes shifted out.
function cmd(flash, bytes) {
  flash.select();
  const out = bytes.map((b) => flash.transfer(b));
  flash.deselect();
  return out;
}

const addr = (a) => [(a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff];

test('page program needs write enable and only clears bits', () => {
  const { flash, mem, clock } = flashAt();
  cmd(flash, [0x02, ...addr(0x100), 0x12]);
  assert.equal(mem[0x100], 0xff, 'no WREN, no program');
  cmd(flash, [0x06]);
  cmd(flash, [0x02, ...addr(0x100), 0xf0, 0x0f]);
  assert.deepEqual([...mem.subarray(0x100, 0x102)], [0xf0, 0x0f]);
  cmd(flash, [0x06]);
  assert.equal(flash.wel, false, 'ignored while the program runs');
  clock.t = TYPICAL_NS.page;
  cmd(flash, [0x06]);
  cmd(flash, [0x02, ...addr(0x100), 0x3c]);
  assert.equal(mem[0x100], 0x30, 'programming ANDs');
  assert.equal(flash.stats.programs, 2);
});

test('page program wraps inside its page', () => {
  const { flash, mem } = flashAt();
  cmd(flash, [0x06]);
  cmd(flash, [0x02, ...addr(0x1fe), 1, 2, 3]);
  assert.deepEqual([mem[0x1fe], mem[0x1ff], mem[0x100], mem[0x200]], [1, 2, 3, 0xff]);
});

test('sector erase sets its 4 KiB to 0xff, busy for tSE', () => {
  const { flash, mem, clock } = flashAt();
  mem.fill(0, 0x1000, 0x3000);
  cmd(flash, [0x06]);
  cmd(flash, [0x20, ...addr(0x1234)]);
  assert.ok(mem.subarray(0x1000, 0x2000).every((b) => b === 0xff));
  assert.equal(mem[0x2000], 0);
  assert.equal(cmd(flash, [0x05, 0])[1] & 1, 1, 'BUSY while erasing');
  assert.equal(cmd(flash, [0x03, ...addr(0x1000), 0])[4], 0xff, 'commands but status ignored while busy');
  clock.t = TYPICAL_NS.sector;
  assert.equal(cmd(flash, [0x05, 0])[1], 0, 'idle, WEL cleared');
});

test('a status read that finds the flash busy says until when (the chip skips its polls)', () => {
  const { flash, clock } = flashAt();
  const told = [];
  flash.onBusyPoll = (end) => told.push(end);
  assert.equal(cmd(flash, [0x05, 0])[1], 0, 'idle: nothing told');
  clock.t = 1000;
  cmd(flash, [0x06]);
  assert.equal(cmd(flash, [0x05, 0])[1], 2, 'WEL, idle: nothing told');
  cmd(flash, [0x20, ...addr(0)]);
  assert.equal(cmd(flash, [0x05, 0, 0])[2], 3, 'BUSY and WEL while erasing');
  assert.deepEqual(told, [1000 + TYPICAL_NS.sector, 1000 + TYPICAL_NS.sector]);
  clock.t = 1000 + TYPICAL_NS.sector;
  assert.equal(cmd(flash, [0x05, 0])[1], 0);
  assert.equal(told.length, 2, 'done: nothing more told');
});

test('read, JEDEC id and unique id', () => {
  const { flash, mem } = flashAt();
  mem.set([7, 8, 9], 0x40);
  assert.deepEqual(cmd(flash, [0x03, ...addr(0x40), 0, 0, 0]).slice(4), [7, 8, 9]);
  assert.deepEqual(cmd(flash, [0x0b, ...addr(0x41), 0, 0, 0]).slice(5), [8, 9]);
  assert.deepEqual(cmd(flash, [0x9f, 0, 0, 0]).slice(1), [0xef, 0x40, 0x15]);
  assert.equal(cmd(flash, [0x4b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).length, 13);
});

test('an erase is not done when chip select rises early', () => {
  const { flash, mem } = flashAt();
  mem[0] = 0;
  cmd(flash, [0x06]);
  cmd(flash, [0x20, 0, 0]);
  assert.equal(mem[0], 0);
});

test('a power cut tears a page program at the byte it reached', () => {
  const { flash, mem, clock } = flashAt();
  cmd(flash, [0x06]);
  cmd(flash, [0x02, ...addr(0x200), ...new Array(256).fill(0)]);
  clock.t = TYPICAL_NS.page / 4;   // a quarter of the way through
  const cut = flash.powerCut(true);
  assert.deepEqual(cut, { addr: 0x200, bytes: 256, done: 64 });
  assert.ok(mem.subarray(0x200, 0x240).every((b) => b === 0), 'the first 64 bytes programmed');
  assert.ok(mem.subarray(0x240, 0x300).every((b) => b === 0xff), 'the rest untouched');
  assert.equal(flash.stats.torn, 1);
});

test('a power cut tears an erase; untorn, the operation completes', () => {
  const { flash, mem, clock } = flashAt();
  mem.fill(0x55, 0, 0x1000);
  cmd(flash, [0x06]);
  cmd(flash, [0x20, ...addr(0)]);
  clock.t = TYPICAL_NS.sector / 2;
  flash.powerCut(true);
  assert.equal(mem[0x7ff], 0xff);
  assert.equal(mem[0x800], 0x55);
  cmd(flash, [0x06]);
  cmd(flash, [0x20, ...addr(0)]);
  clock.t += 1000;
  flash.powerCut(false);
  assert.ok(mem.subarray(0, 0x1000).every((b) => b === 0xff));
});

test('a power cut after the operation finished changes nothing', () => {
  const { flash, mem, clock } = flashAt();
  cmd(flash, [0x06]);
  cmd(flash, [0x02, ...addr(0), 0]);
  clock.t = TYPICAL_NS.page;
  assert.equal(flash.powerCut(true), null);
  assert.equal(mem[0], 0);
  assert.equal(flash.stats.torn, 0);
});

test('an armed cut falls inside the nth page program, at the byte asked for', () => {
  const { flash, mem, clock } = flashAt();
  const fired = [];
  flash.armCut(2, 100, (at, where) => fired.push({ at, ...where }));
  cmd(flash, [0x02, ...addr(0x100), 0]);            // no WREN: not a program, not counted
  cmd(flash, [0x06]);
  cmd(flash, [0x20, ...addr(0)]);                   // an erase is not counted either
  clock.t = TYPICAL_NS.sector;
  cmd(flash, [0x06]);
  cmd(flash, [0x02, ...addr(0x100), 0]);            // the first program
  assert.deepEqual(fired, []);
  clock.t += TYPICAL_NS.page;
  cmd(flash, [0x06]);
  cmd(flash, [0x02, ...addr(0x300), ...new Array(256).fill(0x11)]);   // the second
  assert.equal(fired.length, 1);
  assert.equal(fired[0].addr, 0x300);
  assert.equal(fired[0].program, 2);
  const perByte = TYPICAL_NS.page / 256;
  assert.ok(Math.abs(fired[0].at - (clock.t + 100.5 * perByte)) < 1e-6, 'the middle of byte 100');
  clock.t = fired[0].at + 40;                       // a few cycles late, as a chip's run is
  assert.deepEqual(flash.powerCut(true), { addr: 0x300, bytes: 256, done: 100 });
  assert.ok(mem.subarray(0x300, 0x364).every((b) => b === 0x11), 'bytes 0-99 written');
  assert.ok(mem.subarray(0x364, 0x400).every((b) => b === 0xff), 'byte 100 on: not');
  cmd(flash, [0x06]);
  cmd(flash, [0x02, ...addr(0x400), 0]);
  assert.equal(fired.length, 1, 'fired once, then disarmed');
});

test('a new arming replaces the last; null disarms', () => {
  const { flash } = flashAt();
  const fired = [];
  flash.armCut(1, 0, () => fired.push('first'));
  flash.armCut(1, 0, () => fired.push('second'));
  cmd(flash, [0x06]);
  cmd(flash, [0x02, ...addr(0), 0]);
  assert.deepEqual(fired, ['second']);
  flash.armCut(1, 0, () => fired.push('third'));
  flash.armCut(null);
  flash.powerCut(false);
  cmd(flash, [0x06]);
  cmd(flash, [0x02, ...addr(0x100), 0]);
  assert.deepEqual(fired, ['second']);
});
