// The SC16IS750 model over I2C, set up as a MicroPython driver would (divisor, 8N1,
// FIFOs, the RHR interrupt), fed by a UartFeeder as the muck op feeds it, on a
// Scheduler with a stand-in clock; then both bridges of a board wired in a Pico, fed by
// their ops (muck, shuffler_data) and read over I2C at their addresses.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Sc16is750 } from '../sc16is750.mjs';
import { UartFeeder } from '../uart.mjs';
import { Scheduler } from '../scheduler.mjs';
import { Pico } from '../pico.mjs';
import { Events } from '../control.mjs';
import { wiring } from '../board.mjs';
import { erasedFlash, loadBootrom } from '../images.mjs';
import { boot2, IDLE } from './boot2.mjs';
import { shufflerData } from './boards.mjs';

const XTAL = 14745600;
const RHR = 0, THR = 0, IER = 1, FCR = 2, IIR = 2, LCR = 3, MCR = 4, LSR = 5, SPR = 7, TXLVL = 8, RXLVL = 9, IOCONTROL = 0x0e, EFCR = 0x0f;

function bridge() {
  const clock = { t: 0 };
  const sched = new Scheduler();
  const irq = { active: null, changes: [] };
  const sent = [];
  const u = new Sc16is750(0x48, {
    crystal: XTAL, baud: 9600,
    clock: { now: () => clock.t, at: (at, fn) => sched.at(at, fn), cancel: (t) => sched.cancel(t) },
    irqLine: (a) => { irq.active = a; irq.changes.push([clock.t, a]); },
    sent: (b) => sent.push([clock.t, b]),
  });
  const feeder = new UartFeeder(sched, () => clock.t, () => u, 9600);
  // Runs the timers to `end` (ns), the clock following.
  const run = (end) => { while (sched.next <= end) { clock.t = sched.next; sched.fire(clock.t); } clock.t = end; };
  return { u, clock, irq, sent, feeder, run };
}
const sub = (reg, channel = 0) => (reg << 3) | (channel << 1);
const put = (u, reg, ...bytes) => { u.start(false); u.write(sub(reg)); for (const b of bytes) u.write(b); u.stop(); };
const get = (u, reg, n = 1) => {   // readfrom_mem_into: the sub-address, a repeated START, n bytes
  u.start(false); u.write(sub(reg)); u.start(true);
  const out = []; for (let i = 0; i < n; i++) out.push(u.read());
  u.stop();
  return n === 1 ? out[0] : out;
};
// 9600 8N1 at 14.7456 MHz (divisor 96), FIFOs on and reset, the RHR interrupt.
function setUp(u) {
  put(u, LCR, 0x80); put(u, 0, 96); put(u, 1, 0); put(u, LCR, 0x03);
  put(u, FCR, 0x07); put(u, IER, 0x01);
}
const CHAR = 10e9 / 9600;

test('reset values (table 11), read over I2C', () => {
  const { u, irq } = bridge();
  assert.deepEqual([get(u, LCR), get(u, SPR), get(u, TXLVL), get(u, RXLVL), get(u, LSR), get(u, IIR), get(u, MCR)],
    [0x1d, 0xff, 64, 0, 0x60, 0x01, 0]);
  assert.equal(irq.active, false, 'IRQ let go');
});

test('the divisor sets the baud; MCR bit 7 divides the clock by 4 only with EFR bit 4', () => {
  const { u } = bridge();
  assert.equal(u.charNs(), CHAR, 'the board\'s baud before a divisor is set');
  setUp(u);
  assert.equal(u.baudRate, 9600);
  assert.deepEqual([get(u, 0), get(u, 1)], [0, 1], 'LCR bit 7 clear: 0 and 1 are RHR (empty) and IER');
  put(u, MCR, 0x80);
  assert.equal(u.baudRate, 9600, 'MCR bit 7 is not written without EFR bit 4');
  put(u, LCR, 0xbf); put(u, 2, 0x10); put(u, LCR, 0x03);   // EFR: enhanced functions
  put(u, MCR, 0x80);
  assert.equal(u.baudRate, 2400);
  put(u, LCR, 0x80);
  assert.deepEqual([get(u, 0), get(u, 1)], [96, 0], 'DLL/DLH while LCR bit 7 is set');
  put(u, LCR, 0xbf);
  assert.equal(get(u, 2), 0x10, 'EFR at 2 when LCR is 0xBF');
});

test('bytes below the trigger raise IRQ after 4 character times (RX time-out); RXLVL then RHR reads them', () => {
  const { u, irq, feeder, run } = bridge();
  setUp(u);
  feeder.send(Buffer.from('Ah\n'));
  run(3 * CHAR);
  assert.equal(get(u, RXLVL), 3);
  assert.equal(irq.active, false, 'below the trigger (8)');
  run(7 * CHAR - 1);
  assert.equal(irq.active, false);
  run(7 * CHAR + 1);
  assert.equal(irq.active, true, '4 character times after the last byte');
  assert.equal(get(u, IIR), 0xcc, 'IIR: RX time-out, FIFOs on');
  assert.equal(get(u, LSR) & 0x01, 1, 'LSR: data ready');
  assert.equal(Buffer.from(get(u, RHR, 3)).toString(), 'Ah\n', 'a multi-byte read of RHR pops the FIFO');
  assert.equal(irq.active, false);
  assert.deepEqual([get(u, RXLVL), get(u, LSR) & 1, get(u, IIR)], [0, 0, 0xc1]);
});

test('the trigger level raises IRQ at once: FCR\'s default 8, 16 by FCR, 12 by TLR', () => {
  const { u, irq, feeder, run, clock } = bridge();
  setUp(u);
  // n bytes in: IRQ still let go after n - 1 of them, pulled low by the nth.
  const trigger = (n) => {
    const t0 = clock.t;
    feeder.send(Buffer.alloc(n, 0x41));
    run(t0 + (n - 1) * CHAR + 1);
    assert.deepEqual([get(u, RXLVL), irq.active], [n - 1, false]);
    run(t0 + n * CHAR + 1);
    assert.equal(irq.active, true);
    assert.equal(get(u, IIR), 0xc4, 'IIR: RHR, the FIFO at its trigger');
    get(u, RHR, n);
  };
  trigger(8);
  put(u, FCR, 0x41);
  trigger(16);
  put(u, LCR, 0xbf); put(u, 2, 0x10); put(u, LCR, 0x03); put(u, MCR, 0x04);   // EFR[4], MCR[2]: TLR at 7
  put(u, 7, 0x30);                      // TLR: RX trigger 3 * 4
  trigger(12);
});

test('a full RX FIFO overruns: LSR bit 1 until LSR is read; FCR bit 1 empties the FIFO', () => {
  const { u, feeder, run, irq } = bridge();
  setUp(u);
  put(u, IER, 0x05);                    // and the line status interrupt
  get(u, RHR);
  feeder.send(Buffer.alloc(66, 0x30));
  run(66 * CHAR);
  assert.equal(get(u, RXLVL), 64);
  assert.equal(u.stats.overrun, 2);
  assert.equal(get(u, IIR), 0xc6, 'IIR: receiver line status first');
  assert.equal(get(u, LSR) & 0x03, 0x03);
  assert.equal(get(u, LSR) & 0x02, 0, 'reading LSR cleared it');
  assert.equal(get(u, IIR), 0xc4);
  put(u, FCR, 0x03);
  assert.deepEqual([get(u, RXLVL), irq.active], [0, false]);
});

test('FIFOs off (the reset state): one holding register; EFCR bit 1 disables the receiver', () => {
  const { u, feeder, run, irq } = bridge();
  put(u, IER, 0x01);
  feeder.send(Buffer.from('AB'));
  run(2 * CHAR);
  assert.deepEqual([get(u, RXLVL), u.stats.overrun, irq.active, get(u, IIR)], [1, 1, true, 0x04]);
  assert.equal(get(u, RHR), 0x41);
  put(u, EFCR, 0x02);
  feeder.send(Buffer.from('C'));
  run(3 * CHAR);
  assert.equal(get(u, RXLVL), 0);
  assert.equal(feeder.stats.dropped, 1);
});

test('THR: bytes leave a character time apart; TXLVL, LSR and the THR interrupt follow', () => {
  const { u, sent, run, irq } = bridge();
  setUp(u);
  put(u, THR, 0x68, 0x69, 0x0a);       // a multi-byte write to THR fills the FIFO
  assert.equal(get(u, TXLVL), 62, 'one byte already in the shift register');
  assert.equal(get(u, LSR) & 0x60, 0);
  put(u, IER, 0x03);
  assert.equal(irq.active, true, 'room at the trigger: THR interrupt at once');
  assert.equal(get(u, IIR), 0xc2);
  assert.equal(irq.active, false, 'reading IIR cleared it');
  run(3 * CHAR);
  assert.deepEqual(sent.map(([t, b]) => [Math.round(t), b]), [[CHAR, 0x68], [2 * CHAR, 0x69], [3 * CHAR, 0x0a]].map(([t, b]) => [Math.round(t), b]));
  assert.equal(get(u, LSR) & 0x60, 0x60, 'THR and TSR empty');
});

test('loopback: what is sent is received, the RX pin cut off', () => {
  const { u, sent, feeder, run } = bridge();
  setUp(u);
  put(u, MCR, 0x10);
  feeder.send(Buffer.from('x'));
  put(u, RHR, 0x4b);
  run(2 * CHAR);
  assert.deepEqual([sent.length, get(u, RHR, 2)], [0, [0x4b, 0]]);
});

test('a register read or written again at one sub-address; channel 1 NACKed; IOControl bit 3 resets', () => {
  const { u, feeder, run } = bridge();
  put(u, SPR, 1, 2, 3);
  assert.deepEqual(get(u, SPR, 2), [3, 3]);
  u.start(false);
  assert.equal(u.write(sub(SPR, 1)), false);
  u.stop();
  setUp(u);
  feeder.send(Buffer.from('Q'));
  run(CHAR);
  put(u, 0x0a, 0x0f);
  assert.equal(get(u, 0x0a), 0x0f, 'IODir stored');
  put(u, IOCONTROL, 0x08);
  assert.deepEqual([get(u, RXLVL), get(u, LCR), get(u, SPR), get(u, 0x0a), get(u, IOCONTROL)], [0, 0x1d, 0xff, 0, 0]);
  assert.equal(u.baudDivider, 0);
});

// A board with both bridges on an idle chip: the ops feed each its own, what the
// firmware writes to THR comes out as each its own event, a power cut resets both.
test('a Pico with the muck reader and the shuffler\'s data port: each bridge its op, its event, its address', () => {
  const mem = erasedFlash();
  mem.set(boot2(IDLE), 0);
  const lines = [];
  const events = new Events((text) => lines.push(...text.trim().split('\n').map((l) => JSON.parse(l))));
  const bootrom = loadBootrom(new URL('../../../../../shared/pico/bootrom-b1.bin', import.meta.url).pathname);
  const pico = new Pico({ bootrom, mem, wiring: wiring(shufflerData()), events });
  pico.start();
  const run = (ns) => { pico.advance(pico.now + ns); events.flush(); };
  run(1e6);
  const at = (a) => pico.i2cDevices.find((d) => d.address === a);
  const muck = at(72), data = at(73);
  assert.equal(data, pico.bridge('shuffler_data').chip);
  setUp(muck); setUp(data);
  put(muck, IER, 0x00);   // the muck reader's interrupts off: only the data port's IRQ
  pico.apply({ op: 'shuffler_data', hex: Buffer.from('deck ok 52\n').toString('hex') });
  pico.apply({ op: 'muck', hex: Buffer.from('Kd\n').toString('hex') });
  run(12 * CHAR);
  assert.equal(get(data, RXLVL), 11);
  assert.equal(get(data, IIR), 0xc4, 'the data port\'s FIFO at its trigger (8)');
  assert.equal(pico.lines.driven.get(20), false, 'its IRQ pulls GP20 low');
  assert.equal(pico.lines.driven.has(19), false, 'the muck reader\'s (RHR interrupt off) lets GP19 go');
  assert.equal(Buffer.from(get(data, RHR, 11)).toString(), 'deck ok 52\n');
  assert.equal(pico.lines.driven.has(20), false, 'read: IRQ let go');
  assert.equal(Buffer.from(get(muck, RHR, 3)).toString(), 'Kd\n', 'the muck reader\'s bytes on its own bridge');
  put(data, THR, 0x3f, 0x0a);
  put(muck, THR, 0x21);
  run(3 * CHAR);
  const sent = (ev) => lines.filter((e) => e.ev === ev).map((e) => e.hex).join('');
  assert.deepEqual([sent('shuffler_data'), sent('muck')], ['3f0a', '21']);
  pico.apply({ op: 'stats' });
  run(0);
  const stats = lines.findLast((e) => e.ev === 'stats');
  assert.deepEqual([stats.shuffler_data.received, stats.shuffler_data.read, stats.shuffler_data.sent], [11, 11, 2]);
  assert.deepEqual([stats.muck.received, stats.muck.read, stats.muck.sent], [3, 3, 1]);
  pico.apply({ op: 'shuffler_data', hex: '41' });
  run(2 * CHAR);
  assert.equal(get(data, RXLVL), 1);
  pico.apply({ op: 'power_cut' });
  assert.deepEqual([get(data, RXLVL), get(data, LCR), data.baudDivider, get(muck, LCR)], [0, 0x1d, 0, 0x1d], 'both reset with the chip');
});
