// UART input pacing and the TX interrupt fix, on stand-in UARTs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { UartFeeder, baudOf, fixTxInterrupt } from '../uart.mjs';
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

test('TX interrupt: raised by a write, cleared by ICR, not re-raised by checks', () => {
  const irqs = [];
  const u = {
    interruptStatus: 1 << 5, interruptMask: 1 << 5, irq: 21,
    rp2040: { setInterrupt: (n, v) => irqs.push(v) },
    writeUint32(offset, value) { if (offset === 0x44) { this.interruptStatus &= ~value; this.checkInterrupts(); } },
    checkInterrupts() { this.interruptStatus |= 1 << 5; },
  };
  fixTxInterrupt(u);
  assert.equal(u.interruptStatus & (1 << 5), 0);
  u.writeUint32(0x00, 0x41);
  assert.equal(irqs.at(-1), true);
  u.writeUint32(0x44, 1 << 5);
  assert.equal(irqs.at(-1), false);
  u.checkInterrupts();
  assert.equal(irqs.at(-1), false);
});
