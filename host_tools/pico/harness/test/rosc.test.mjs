// The ROSC's random bits: new every read, the same for the same seed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { randomBits } from '../rosc.mjs';

const draw = (next, n) => Array.from({ length: n }, next).join('');

test('the same seed draws the same bits, another seed others', () => {
  assert.equal(draw(randomBits(7), 256), draw(randomBits(7), 256));
  assert.notEqual(draw(randomBits(7), 256), draw(randomBits(8), 256));
});

test('the bits are balanced and go on changing', () => {
  const bits = draw(randomBits(1), 4096);
  const ones = [...bits].filter((b) => b === '1').length;
  assert.ok(ones > 1900 && ones < 2200, `${ones} ones in 4096`);
  assert.notEqual(bits.slice(0, 64), bits.slice(64, 128));
});
