// Ops in, events out.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseOp, OpError, Events } from '../control.mjs';

test('every op of the interface parses', () => {
  for (const line of [
    '{"op":"uart","n":0,"hex":"40310a"}', '{"op":"pin","expander":2,"pin":11,"down":true}',
    '{"op":"press","expander":0,"pin":3,"ms":80,"id":7}', '{"op":"gpio","pin":14,"level":0}',
    '{"op":"after","ms":500,"id":"k"}', '{"op":"power_cut","torn":true}', '{"op":"power_cut"}',
    '{"op":"stats"}', '{"op":"quit"}', '{"op":"arm_cut","program":3,"byte":17}', '{"op":"arm_cut"}',
    '{"op":"uart_stall","n":0,"stalled":true}', '{"op":"usb","hex":"030d"}',
    '{"op":"key","key":"5","down":true}', '{"op":"key","key":"#","down":false}', '{"op":"display"}', '{"op":"muck","hex":"41530a"}',
    '{"op":"shuffler_data","hex":"6f6b0a"}', '{"op":"pin","expander":0,"pin":3,"down":true,"bounce":[0.2,0.5,1,2.5]}',
  ]) assert.equal(parseOp(line).op, JSON.parse(line).op);
});

test('bad ops are refused with the reason', () => {
  const bad = (line, pattern) => assert.throws(() => parseOp(line), (e) => e instanceof OpError && pattern.test(e.message));
  bad('nonsense', /not JSON/);
  bad('[1]', /not an object/);
  bad('{"op":"fly"}', /unknown op "fly"/);
  bad('{"op":"uart","n":2,"hex":""}', /n must be 0 or 1/);
  bad('{"op":"uart","n":0,"hex":"4"}', /hex must be a hex string/);
  bad('{"op":"pin","expander":0,"pin":16,"down":true}', /pin must be 0-15/);
  bad('{"op":"press","expander":0,"pin":1,"ms":-1,"id":1}', /ms must be/);
  for (const bounce of ['[0.5]', '[1,0.5]', '[0,1]', '[1,21]', '"1,2"', '[1,1]']) {
    bad(`{"op":"pin","expander":0,"pin":1,"down":true,"bounce":${bounce}}`, /bounce must be an even number of ascending ms/);
  }
  bad('{"op":"after","ms":5}', /id must be given/);
  bad('{"op":"gpio","pin":3,"level":2}', /level must be 0 or 1/);
  bad('{"op":"arm_cut","program":0}', /program must be a count/);
  bad('{"op":"arm_cut","byte":256}', /byte must be a byte of the page/);
  bad('{"op":"uart_stall","n":0}', /stalled must be true or false/);
  bad('{"op":"usb","hex":"0"}', /hex must be a hex string/);
  bad('{"op":"key","key":"12","down":true}', /key must be one character/);
  bad('{"op":"key","key":"1"}', /down must be true or false/);
  bad('{"op":"muck","hex":"zz"}', /hex must be a hex string/);
  bad('{"op":"shuffler_data"}', /shuffler_data: hex must be a hex string/);
});

test('events carry t in microseconds; a UART\'s or a bridge\'s burst is one event, in time order', () => {
  const out = [];
  const ev = new Events((s) => out.push(s));
  ev.emit(1500, { ev: 'ready' });
  ev.uart(2000, 0, 0x41);
  ev.uart(2087, 0, 0x42);
  ev.uart(2100, 1, 0x0a);
  ev.uart(2200, 0, 0x43);
  ev.bytes(2300, { ev: 'muck' }, 0x51);
  ev.bytes(2400, { ev: 'muck' }, 0x0a);
  ev.bytes(2500, { ev: 'shuffler_data' }, 0x6f);
  ev.bytes(2600, { ev: 'muck' }, 0x0a);
  ev.flush();
  ev.flush();
  assert.equal(out.length, 1, 'nothing written when nothing happened');
  assert.deepEqual(out[0].trim().split('\n').map((l) => JSON.parse(l)), [
    { ev: 'ready', t: 1.5 },
    { ev: 'uart', t: 2, n: 0, hex: '4142' },
    { ev: 'uart', t: 2.1, n: 1, hex: '0a' },
    { ev: 'uart', t: 2.2, n: 0, hex: '43' },
    { ev: 'muck', t: 2.3, hex: '510a' },
    { ev: 'shuffler_data', t: 2.5, hex: '6f' },
    { ev: 'muck', t: 2.6, hex: '0a' },
  ]);
});
