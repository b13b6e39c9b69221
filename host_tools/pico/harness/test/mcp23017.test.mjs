// The MCP23017 register model, driven as Felt's driver (felt/hal/mp.py) drives it, over
// the I2C glue with a stand-in controller; a key matrix on its pins, scanned as QMK does.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Mcp23017 } from '../mcp23017.mjs';
import { attachI2c } from '../i2c.mjs';
import { Keypad } from '../keypad.mjs';

function chip() {
  const int = { level: null, changes: 0 };
  const x = new Mcp23017(0x20, (level) => { if (level !== int.level) int.changes++; int.level = level; });
  return { x, int };
}
const writeMem = (x, reg, bytes) => { x.start(false); x.write(reg); for (const b of bytes) x.write(b); x.stop(); };
const readMem = (x, reg, n) => { x.start(false); x.write(reg); x.start(true); const out = []; for (let i = 0; i < n; i++) out.push(x.read()); x.stop(); return out; };

// felt/hal/mp.py Mcp23017.configure(), inputs on pins 0-6 of each port.
function configure(x) {
  writeMem(x, 0x0a, [0x40]);
  writeMem(x, 0x14, [0, 0]);
  writeMem(x, 0x00, [0x7f, 0x7f]);
  writeMem(x, 0x02, [0, 0]);
  writeMem(x, 0x0c, [0x7f, 0x7f]);
  writeMem(x, 0x08, [0, 0]);
  writeMem(x, 0x04, [0x7f, 0x7f]);
}

test('power-on: all inputs, INT inactive (high)', () => {
  const { x, int } = chip();
  assert.deepEqual(readMem(x, 0x00, 2), [0xff, 0xff]);
  assert.equal(int.level, true);
});

test('sequential reads step through A then B; IOCON is one register at two addresses', () => {
  const { x } = chip();
  writeMem(x, 0x0c, [0x12, 0x34]);
  assert.deepEqual(readMem(x, 0x0c, 2), [0x12, 0x34]);
  writeMem(x, 0x0b, [0x44]);
  assert.deepEqual(readMem(x, 0x0a, 2), [0x44, 0x44]);
});

test('a press pulls its pin low, INT falls, reading GPIO clears it', () => {
  const { x, int } = chip();
  configure(x);
  assert.deepEqual(readMem(x, 0x12, 2), [0x7f, 0x7f], 'pins 7 and 15 are outputs driven low');
  x.setPin(9, true);                   // GPB1
  assert.equal(int.level, false);
  assert.deepEqual(readMem(x, 0x0e, 2), [0x00, 0x02], 'INTF names the pin');
  assert.deepEqual(readMem(x, 0x10, 2), [0x00, 0x7d], 'INTCAP: port B as it was at its interrupt');
  assert.equal(int.level, true, 'reading INTCAP cleared it');
  x.setPin(9, false);
  assert.equal(int.level, false, 'the release interrupts too (compare with previous)');
  assert.deepEqual(readMem(x, 0x12, 2), [0x7f, 0x7f]);
  assert.equal(int.level, true);
});

test('a bouncing contact: INT falls at its first edge, stays low until read, falls again at an edge after', () => {
  const { x, int } = chip();
  configure(x);
  int.changes = 0;
  x.setPin(3, true);                   // the contact closes
  x.setPin(3, false);                  // bounces open, closes again, before any read
  x.setPin(3, true);
  assert.equal(int.level, false);
  assert.equal(int.changes, 1, 'one fall for the edges before the read');
  assert.deepEqual(readMem(x, 0x12, 2), [0x77, 0x7f], 'the read sees the pin as it is now');
  assert.equal(int.level, true);
  x.setPin(3, false);                  // a bounce after the read: a new change
  assert.equal(int.level, false);
  assert.deepEqual(readMem(x, 0x12, 2), [0x7f, 0x7f]);
  x.setPin(3, true);
  x.setPin(3, false);                  // a change and its undoing before the read: INT stays low
  assert.equal(int.level, false, 'a latched interrupt outlives the level that raised it');
  readMem(x, 0x12, 2);
  assert.equal(int.level, true);
});

test('MIRROR off: INTA tells of port A only', () => {
  const { x, int } = chip();
  configure(x);
  writeMem(x, 0x0a, [0x00]);
  x.setPin(8, true);
  assert.equal(int.level, true, 'a port B change leaves INTA alone');
  x.setPin(0, true);
  assert.equal(int.level, false);
});

test('INTCON compares with DEFVAL and interrupts again while the pin differs', () => {
  const { x, int } = chip();
  configure(x);
  writeMem(x, 0x06, [0x7f, 0x7f]);     // DEFVAL: released
  writeMem(x, 0x08, [0x01, 0x00]);     // INTCON on GPA0
  x.setPin(0, true);
  assert.equal(int.level, false);
  readMem(x, 0x12, 2);
  assert.equal(int.level, false, 'still pressed: still interrupting');
  x.setPin(0, false);
  readMem(x, 0x12, 2);
  assert.equal(int.level, true);
});

test('open-drain INT lets go of the line; INTPOL makes it active high', () => {
  const { x, int } = chip();
  configure(x);
  writeMem(x, 0x0a, [0x44]);           // MIRROR, ODR
  assert.equal(int.level, null);
  x.setPin(1, true);
  assert.equal(int.level, false);
  readMem(x, 0x12, 2);
  writeMem(x, 0x0a, [0x42]);           // MIRROR, INTPOL, push-pull
  assert.equal(int.level, false);
  x.setPin(1, false);
  assert.equal(int.level, true);
});

test('a pin without its pull-up still reads high (floating: nothing pulls it down)', () => {
  const { x } = chip();
  assert.deepEqual(readMem(x, 0x12, 2), [0xff, 0xff]);
});

test('releaseAll lets every button go (power cut)', () => {
  const { x } = chip();
  configure(x);
  x.setPin(3, true);
  x.releaseAll();
  assert.deepEqual(readMem(x, 0x12, 2), [0x7f, 0x7f]);
});

test('the I2C glue NACKs an address nobody answers and raises TX_EMPTY', () => {
  const calls = [];
  const i2c = {
    txFIFO: { empty: true },
    completeStart: () => calls.push('start'),
    completeConnect: (ack) => calls.push(`connect ${ack}`),
    completeWrite: (ack) => calls.push(`write ${ack}`),
    completeRead: (v) => calls.push(`read ${v}`),
    completeStop: () => calls.push('stop'),
    setInterrupts: (m) => calls.push(`irq ${m}`),
  };
  const { x } = chip();
  const stats = attachI2c(i2c, [x]);
  i2c.onConnect(0x23, 0);
  assert.deepEqual(calls, ['connect false', 'irq 16']);
  calls.length = 0;
  i2c.onConnect(0x20, 0);
  i2c.onWriteByte(0x0c);
  i2c.onWriteByte(0x55);
  i2c.onStop();
  i2c.onConnect(0x20, 1);
  i2c.onReadByte();
  assert.deepEqual(calls, ['connect true', 'write true', 'write true', 'stop', 'connect true', 'read 0']);
  assert.deepEqual(stats, { transactions: 3, nacks: 1 });
  assert.equal(x.regs[0x0c], 0x55);
});

// The dealer's keypad on the fourth expander: columns GPA0-3 inputs with pull-ups and
// interrupt-on-change, rows GPB0-3 with OLAT 0, scanned by making one row an output.
const KEYPAD = { rows: [8, 9, 10, 11], columns: [0, 1, 2, 3], keys: '123A456B789C*0#D' };

function keypad() {
  const { x, int } = chip();
  const k = new Keypad(x, KEYPAD);
  writeMem(x, 0x0a, [0x40]);           // MIRROR
  writeMem(x, 0x14, [0, 0]);           // OLAT 0
  writeMem(x, 0x0c, [0x0f, 0x00]);     // pull-ups on the columns
  writeMem(x, 0x04, [0x0f, 0x00]);     // interrupt-on-change on the columns
  writeMem(x, 0x00, [0xff, 0xf0]);     // idle: every row an output, low
  readMem(x, 0x12, 2);
  return { x, int, k };
}
const selectRow = (x, r) => writeMem(x, 0x01, [0xff & ~(1 << r)]);   // IODIRB: row r the only output

test('keypad: a press at idle pulls its column low and raises INT', () => {
  const { x, int, k } = keypad();
  assert.equal(int.level, true);
  k.key('5', true);                    // row 1, column 1
  assert.equal(int.level, false);
  assert.deepEqual(readMem(x, 0x12, 1), [0xfd]);
  assert.equal(int.level, true, 'reading GPIO cleared it');
});

test('keypad: a scan finds the key on the selected row only', () => {
  const { x, k } = keypad();
  k.key('5', true);
  k.key('C', true);                    // row 2, column 3
  const seen = [0, 1, 2, 3].map((r) => { selectRow(x, r); return readMem(x, 0x12, 1)[0] & 0x0f; });
  assert.deepEqual(seen, [0x0f, 0x0d, 0x07, 0x0f]);
  writeMem(x, 0x01, [0xff]);           // no row selected: nothing pulls a column
  assert.deepEqual(readMem(x, 0x12, 1), [0xff]);
});

test('keypad: a row output driven high, or an input, selects nothing; a release lets go', () => {
  const { x, int, k } = keypad();
  writeMem(x, 0x15, [0x02]);           // OLATB: row 1 high
  k.key('5', true);
  assert.equal(int.level, true);
  assert.deepEqual(readMem(x, 0x12, 1), [0xff]);
  writeMem(x, 0x13, [0x00]);           // GPIOB written: OLAT 0 again, row 1 drives low
  assert.equal(int.level, false, 'the write itself moves the column');
  assert.deepEqual(readMem(x, 0x12, 1), [0xfd]);
  k.key('5', false);
  assert.equal(int.level, false, 'the release interrupts too');
  assert.deepEqual(readMem(x, 0x12, 1), [0xff]);
});

test('keypad: releaseAll lets every key go (power cut)', () => {
  const { x, k } = keypad();
  k.key('*', true);
  k.key('D', true);
  k.releaseAll();
  assert.deepEqual(readMem(x, 0x12, 1), [0xff]);
  assert.ok(k.has('#') && !k.has('E'));
});
