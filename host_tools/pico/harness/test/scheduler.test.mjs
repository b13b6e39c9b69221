// The harness's timers.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Scheduler } from '../scheduler.mjs';
import { Pico } from '../pico.mjs';

test('timers fire in time order, ties in the order they were set, each at its time', () => {
  const s = new Scheduler();
  const got = [];
  s.at(30, (t) => got.push(['c', t]));
  s.at(10, (t) => got.push(['a', t]));
  s.at(10, (t) => got.push(['b', t]));
  s.fire(20);
  assert.deepEqual(got, [['a', 10], ['b', 10]]);
  assert.equal(s.next, 30);
});

test('an earlier timer is announced (the chip must stop there); cancel removes one', () => {
  const s = new Scheduler();
  const told = [];
  s.onEarlier = (at) => told.push(at);
  s.at(50, () => {});
  const h = s.at(20, () => assert.fail('cancelled'));
  s.at(40, () => {});
  assert.deepEqual(told, [50, 20]);
  s.cancel(h);
  s.fire(100);
  assert.equal(s.next, Infinity);
});

test('a timer may set another that is already due', () => {
  const s = new Scheduler();
  const got = [];
  s.at(5, (t) => { got.push(t); s.at(t, (u) => got.push(u + 1)); });
  s.fire(5);
  assert.deepEqual(got, [5, 6]);
});

test('a run that ends a rounding short of its end has arrived: the timer due there fires, the slice ends', () => {
  // A chip whose clock, read in the harness's time, always stops a millionth of a ns
  // short of where it was asked to run to (a float's rounding after a reset's epoch).
  const sched = new Scheduler();
  let now = 0, runs = 0;
  const board = {
    sched,
    get now() { return now; },
    chip: { run(to) { if (++runs > 100) throw new Error('the slice never ends'); now = Math.max(now, to - 1e-6); } },
  };
  const fired = [];
  sched.at(400, (at) => fired.push(at));
  Pico.prototype.advance.call(board, 1000);
  assert.deepEqual(fired, [400]);
  assert.ok(runs <= 3 && 1000 - now < 1e-3, `${runs} runs, at ${now}`);
});
