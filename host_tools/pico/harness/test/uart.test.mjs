// UART input and output pacing and the TX interrupt, on stand-in UARTs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { UartFeeder, baudOf, pacedTx } from '../uart.mjs';
import { Scheduler } from '../scheduler.mjs';

function fakeUart({ enabled = true, depth = 32, baud = 0 } = {}) {
  const u = {
    name: 'UART1', enabled, rxEnabled: true, got: [],
    rxFIFO: { items: [], get full() { return this.items.length >= depth; } },
    feedByte(b) { this.rxFIFO.items.push(b); this.got.push([clock.t, b]); },
    baudDivider: baud ? 1 : 0, baudRate: baud,
  };
  return u;
}
const clock = { t: 0 };

// Runs the scheduler to `end`, one timer at a time, with the clock following.
function runTo(sched, end) {
  while (sched.next <= end) { clock.t = sched.next; sched.fire(clock.t); }
  clock.t = end;
}

test('bytes arrive one character time apart at the board baud', () => {
  clock.t = 0;
  const sched = new Scheduler();
  const u = fakeUart();
  const f = new UartFeeder(sched, () => clock.t, () => u, 9600);
  f.send([0x41, 0x42, 0x43]);
  runTo(sched, 1e7);
  const char = 10e9 / 9600;   // 8N1: ten bits
  assert.deepEqual(u.got.map(([t]) => Math.round(t)), [1, 2, 3].map((k) => Math.round(k * char)));
  assert.deepEqual(u.got.map(([, b]) => b), [0x41, 0x42, 0x43]);
});

test('the baud the firmware set wins over the board\'s', () => {
  assert.equal(baudOf({ baudDivider: 0, baudRate: Infinity }, 9600), 9600);
  assert.equal(baudOf({ baudDivider: 33.9, baudRate: 115200 }, 9600), 115200);
});

test('a full RX FIFO holds the line; nothing is lost', () => {
  clock.t = 0;
  const sched = new Scheduler();
  const u = fakeUart({ depth: 2 });
  const f = new UartFeeder(sched, () => clock.t, () => u, 115200);
  f.send([1, 2, 3, 4]);
  runTo(sched, 1e6);
  assert.deepEqual(u.rxFIFO.items, [1, 2]);
  assert.ok(f.stats.held > 0);
  u.rxFIFO.items.length = 0;   // the firmware reads
  runTo(sched, 2e6);
  assert.deepEqual(u.rxFIFO.items, [3, 4]);
  assert.equal(f.pending, 0);
});

test('a UART not enabled drops what arrives, as the silicon does', () => {
  clock.t = 0;
  const sched = new Scheduler();
  const u = fakeUart({ enabled: false });
  const logged = [];
  const f = new UartFeeder(sched, () => clock.t, () => u, 115200, (l) => logged.push(l));
  f.send([1, 2]);
  runTo(sched, 1e6);
  assert.deepEqual(u.got, []);
  assert.equal(f.stats.dropped, 2);
  assert.equal(logged.length, 1, 'one line per run of drops');
});

// A stand-in RPUART with just what pacedTx touches, on a Scheduler for a clock.
function txUart({ fifos = true, hold = { stalled: false } } = {}) {
  const irqs = [];
  const u = {
    interruptStatus: 1 << 5, interruptMask: 1 << 5, irq: 21, fifosEnabled: fifos,
    rxFIFO: { full: false, empty: true },
    rp2040: { setInterrupt: (n, v) => irqs.push(v) },
    readUint32: () => 0,
    writeUint32(offset, value) { if (offset === 0x44) { this.interruptStatus &= ~value; this.checkInterrupts(); } },
    checkInterrupts() { this.interruptStatus |= 1 << 5; },
  };
  const sched = new Scheduler();
  const out = [];
  const stats = pacedTx(u, { later: (ns, fn) => sched.at(clock.t + ns, fn), baud: () => 115200, sent: (b) => out.push([clock.t, b]), hold });
  return { u, sched, out, irqs, stats, hold };
}
const CHAR = 10e9 / 115200;

test('TX: bytes leave one character time apart, UARTFR telling the FIFO\'s state', () => {
  clock.t = 0;
  const { u, sched, out } = txUart();
  assert.equal(u.readUint32(0x18) & 0xa8, 0x80, 'idle: TXFE, not BUSY, not TXFF');
  for (const b of [1, 2, 3]) u.writeUint32(0, b);
  assert.equal(u.readUint32(0x18) & 0xa8, 0x08, 'two waiting, one shifting: BUSY');
  runTo(sched, 1.5 * CHAR);
  assert.deepEqual(out.map(([, b]) => b), [1]);
  runTo(sched, 10 * CHAR);
  assert.deepEqual(out.map(([t, b]) => [Math.round(t), b]), [1, 2, 3].map((b) => [Math.round(b * CHAR), b]));
  assert.equal(u.readUint32(0x18) & 0xa8, 0x80);
});

test('TX: a full FIFO says TXFF and loses what is written to it', () => {
  clock.t = 0;
  const { u, stats } = txUart();
  for (let k = 0; k < 40; k++) u.writeUint32(0, k);
  assert.ok(u.readUint32(0x18) & 0x20);
  assert.equal(stats.overrun, 40 - 33, 'one in the shift register, 32 in the FIFO');
});

test('TX interrupt: raised as the FIFO drains through its level, cleared by ICR, never by itself', () => {
  clock.t = 0;
  const { u, sched, irqs } = txUart();
  assert.equal(u.interruptStatus & 0x20, 0);
  for (let k = 0; k < 20; k++) u.writeUint32(0, k);
  assert.equal(u.interruptStatus & 0x20, 0, '19 waiting: above the 1/2 level');
  runTo(sched, 3.5 * CHAR);
  assert.equal(u.interruptStatus & 0x20, 0x20, 'down to 16: raised');
  assert.equal(irqs.at(-1), true);
  u.writeUint32(0x44, 0x20);
  assert.equal(irqs.at(-1), false);
  u.checkInterrupts();
  assert.equal(irqs.at(-1), false, 'a check does not raise it again');
  assert.equal(u.readUint32(0x34), 0x12, 'UARTIFLS reads its reset value');
});

test('TX with the FIFO off: one byte held, the interrupt as it moves to the shifter', () => {
  clock.t = 0;
  const { u, sched, stats } = txUart({ fifos: false });
  u.writeUint32(0, 1);
  u.writeUint32(0, 2);
  u.writeUint32(0, 3);
  assert.equal(stats.overrun, 1);
  runTo(sched, 1.5 * CHAR);
  assert.equal(u.interruptStatus & 0x20, 0x20);
});

test('TX stalled: the byte on the line finishes, the FIFO fills and waits; released, it drains', () => {
  clock.t = 0;
  const { u, sched, out, stats, hold } = txUart();
  u.writeUint32(0, 0);
  u.writeUint32(0, 1);
  hold.stalled = true;
  runTo(sched, 5 * CHAR);
  assert.deepEqual(out.map(([, b]) => b), [0], 'the byte shifting when it stalled');
  for (let k = 2; k < 40; k++) u.writeUint32(0, k);
  assert.equal(u.readUint32(0x18) & 0xa8, 0x28, 'TXFF and BUSY');
  assert.equal(stats.overrun, 40 - 1 - 32);
  u.interruptStatus = 0;
  runTo(sched, 100 * CHAR);
  assert.equal(out.length, 1, 'nothing leaves while stalled');
  assert.equal(u.interruptStatus & 0x20, 0, 'no TX interrupt: the FIFO does not drain');
  hold.stalled = false;
  hold.kick();
  const t0 = clock.t;
  runTo(sched, t0 + 33 * CHAR);
  assert.deepEqual(out.map(([, b]) => b), Array.from({ length: 33 }, (_, k) => k), 'the 32 held, in order');
  assert.equal(u.readUint32(0x18) & 0xa8, 0x80);
});

test('TX stalled before anything is written: nothing starts until released', () => {
  clock.t = 0;
  const { u, sched, out, hold } = txUart({ hold: { stalled: true } });
  u.writeUint32(0, 7);
  runTo(sched, 10 * CHAR);
  assert.deepEqual(out, []);
  hold.stalled = false;
  hold.kick();
  runTo(sched, 12 * CHAR);
  assert.deepEqual(out.map(([, b]) => b), [7]);
});
