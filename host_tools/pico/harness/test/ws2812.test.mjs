// The WS2812 decoder on synthetic edge timings.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Ws2812Decoder, RESET_NS } from '../ws2812.mjs';
import { Scheduler } from '../scheduler.mjs';

// A line driven with `bytes` at 800 kHz from time t0: [time, high] edges.
function waveform(bytes, t0, { t0h = 400, t1h = 800, period = 1250 } = {}) {
  const edges = [];
  let t = t0;
  for (const byte of bytes) {
    for (let bit = 7; bit >= 0; bit--) {
      const high = (byte >> bit) & 1 ? t1h : t0h;
      edges.push([t, true], [t + high, false]);
      t += period;
    }
  }
  return edges;
}

// Plays edges through a decoder on a Scheduler, then runs time on to `end`.
function decode(edges, end) {
  const sched = new Scheduler();
  const frames = [];
  const d = new Ws2812Decoder((f) => frames.push(f), (at, fn) => sched.at(at, fn));
  for (const [t, high] of edges) { sched.fire(t); d.edge(t, high); }
  sched.fire(end);
  return { frames, d };
}

test('bytes in wire order, latched 50 us after the last fall', () => {
  const edges = waveform([0x02, 0x01, 0x03, 0x00, 0xff, 0x80], 1000);
  const { frames } = decode(edges, 1e6);
  assert.equal(frames.length, 1);
  assert.deepEqual(frames[0].bytes, [0x02, 0x01, 0x03, 0x00, 0xff, 0x80]);
  assert.equal(frames[0].start, 1000);
  assert.equal(frames[0].end, edges.at(-1)[0] + RESET_NS);
});

test('no frame before the reset gap has passed', () => {
  const edges = waveform([0xaa], 0);
  const { frames } = decode(edges, edges.at(-1)[0] + RESET_NS - 1);
  assert.equal(frames.length, 0);
});

test('a gap shorter than the reset time continues the frame; a longer one splits it', () => {
  const a = waveform([0x11], 0);
  const b = waveform([0x22], a.at(-1)[0] + 20_000);
  const c = waveform([0x33], b.at(-1)[0] + 60_000);
  const { frames } = decode([...a, ...b, ...c], 1e7);
  assert.deepEqual(frames.map((f) => f.bytes), [[0x11, 0x22], [0x33]]);
});

test('timings at the datasheet limits still decode; 0.6 us is the threshold', () => {
  const slow = waveform([0xa5], 0, { t0h: 550, t1h: 650, period: 1500 });
  assert.deepEqual(decode(slow, 1e6).frames[0].bytes, [0xa5]);
  const fast = waveform([0x5a], 0, { t0h: 250, t1h: 700, period: 1000 });
  assert.deepEqual(decode(fast, 1e6).frames[0].bytes, [0x5a]);
});

test('a partial byte is counted as stray bits, not reported', () => {
  const edges = waveform([0xf0], 0).slice(0, 8);   // four bits
  const { frames, d } = decode(edges, 1e6);
  assert.equal(frames.length, 0);
  assert.equal(d.stats.strayBits, 4);
});
