// The SSD1306 model, driven as micropython-lib's ssd1306.py drives it over I2C (each
// command its own [0x80, cmd] transaction, the picture as [0x40, ...]), and the control
// byte's other forms.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Ssd1306 } from '../ssd1306.mjs';

function oled(width = 128, height = 64) {
  const shown = [], said = [];
  const d = new Ssd1306(0x3c, { width, height, show: (ev) => shown.push(ev), log: (l) => said.push(l) });
  return { d, shown, said };
}
const tx = (d, bytes) => { d.start(false); for (const b of bytes) assert.equal(d.write(b), true); d.stop(); };
const cmd = (d, ...cmds) => { for (const c of cmds) tx(d, [0x80, c]); };   // ssd1306.py's write_cmd

// SSD1306.init_display() with external_vcc False, then show() of `buffer`.
function driverInit(d, width, height, buffer) {
  cmd(d, 0xae, 0x20, 0x00, 0x40, 0xa1, 0xa8, height - 1, 0xc8, 0xd3, 0x00, 0xda, width > 2 * height ? 0x02 : 0x12,
    0xd5, 0x80, 0xd9, 0xf1, 0xdb, 0x30, 0x81, 0xff, 0xa4, 0xa6, 0xad, 0x30, 0x8d, 0x14, 0xaf);
  show(d, width, height, buffer);
}
function show(d, width, height, buffer) {
  const x0 = width === 128 ? 0 : (128 - width) >> 1;
  cmd(d, 0x21, x0, x0 + width - 1, 0x22, 0, height / 8 - 1);
  tx(d, [0x40, ...buffer]);
}
// A picture with something in every byte that differs from byte to byte.
const picture = (n) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) & 0xff);

test('the driver\'s init and show: the event at the data\'s STOP is the buffer, upright', () => {
  const { d, shown, said } = oled();
  const buf = picture(1024);
  driverInit(d, 128, 64, buf);
  const last = shown.at(-1);
  assert.deepEqual(last, { hex: Buffer.from(buf).toString('hex'), on: true, invert: false });
  assert.equal(shown.filter((e) => e.hex === last.hex).length, 1, 'one event for the 1024 data bytes');
  assert.deepEqual(said, [], 'nothing the model leaves out');
  assert.equal(d.contrast, 0xff);
  assert.deepEqual(d.settings.get(0xda), [0x12, undefined]);
});

test('an event only for a transaction that changes the picture, on or invert', () => {
  const { d, shown } = oled();
  driverInit(d, 128, 64, new Uint8Array(1024));
  const n = shown.length;
  cmd(d, 0x81, 0x10, 0xa6, 0xaf);      // contrast, and on / normal as they were
  assert.equal(shown.length, n);
  cmd(d, 0xa7);
  assert.equal(shown.length, n + 1);
  assert.equal(shown.at(-1).invert, true);
  cmd(d, 0xae);
  assert.equal(shown.at(-1).on, false);
});

test('control bytes: a command stream (0x00), Co=1 pairs in one transaction, arguments across transactions', () => {
  const { d, shown } = oled();
  tx(d, [0x00, 0x20, 0x00, 0x21, 10, 12, 0x22, 2, 3]);
  assert.deepEqual([d.mode, d.columns, d.pages], [0, [10, 12], [2, 3]]);
  tx(d, [0x80, 0xaf, 0x80, 0xa7, 0xc0, 0x55]);   // two commands, then a data byte (0xC0: Co=1, D/C=1)
  assert.deepEqual([d.on, d.invert, d.ram[2 * 128 + 10]], [true, true, 0x55]);
  assert.equal(shown.length, 1, 'one event at the STOP');
  tx(d, [0x80, 0x21]);
  tx(d, [0x80, 0x05]);
  tx(d, [0x00, 0x06, 0xe3]);          // the last argument, then a NOP
  assert.deepEqual(d.columns, [5, 6]);
});

test('horizontal addressing wraps within the window, page by page, then to its start', () => {
  const { d } = oled();
  tx(d, [0x00, 0x20, 0x00, 0x21, 10, 12, 0x22, 2, 3]);
  tx(d, [0x40, 1, 2, 3, 4, 5, 6, 7]);
  const at = (p, c) => d.ram[p * 128 + c];
  assert.deepEqual([at(2, 10), at(2, 11), at(2, 12), at(3, 10), at(3, 11), at(3, 12)], [7, 2, 3, 4, 5, 6]);
  assert.deepEqual([d.page, d.column], [2, 11]);
});

test('vertical addressing goes down the pages, then to the next column; page addressing stays on its page', () => {
  const { d } = oled();
  tx(d, [0x00, 0x20, 0x01, 0x21, 0, 127, 0x22, 6, 7]);
  tx(d, [0x40, 1, 2, 3]);
  assert.deepEqual([d.ram[6 * 128], d.ram[7 * 128], d.ram[6 * 128 + 1]], [1, 2, 3]);
  tx(d, [0x00, 0x20, 0x02, 0xb3, 0x0e, 0x17]);   // page 3, column 0x7e
  tx(d, [0x40, 9, 8, 7]);
  assert.deepEqual([d.ram[3 * 128 + 126], d.ram[3 * 128 + 127], d.ram[3 * 128 + 126]], [7, 8, 7]);
  tx(d, [0x00, 0x20, 0x03]);
  assert.equal(d.mode, 2, 'mode 3 is invalid: ignored');
});

test('the event is as the dealer sees it: 0xA0 mirrors left to right, 0xC0 top to bottom, the start line scrolls', () => {
  const { d } = oled();
  tx(d, [0x00, 0xa1, 0xc8, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7]);
  tx(d, [0x40, 0x01]);                 // the top left pixel of the GDDRAM
  const lit = () => {
    const p = d.picture(), out = [];
    p.forEach((b, i) => { for (let k = 0; k < 8; k++) if (b >> k & 1) out.push([i % 128, (i >> 7) * 8 + k]); });
    return out;
  };
  assert.deepEqual(lit(), [[0, 0]]);
  tx(d, [0x80, 0xa0]);
  assert.deepEqual(lit(), [[127, 0]]);
  tx(d, [0x80, 0xc0]);
  assert.deepEqual(lit(), [[127, 63]]);
  tx(d, [0x00, 0xa1, 0xc8, 0x41]);    // start line 1: row 0 of the GDDRAM leaves the top
  assert.deepEqual(lit(), [[0, 63]]);
});

test('a narrow panel shows the middle columns, as the driver writes them', () => {
  const { d, shown } = oled(64, 32);
  const buf = picture(256);
  driverInit(d, 64, 32, buf);
  assert.equal(shown.at(-1).hex, Buffer.from(buf).toString('hex'));
  assert.equal(d.ram[32], buf[0]);
});

test('offset, multiplex and scrolling the model leaves out are said once; a reset blanks it', () => {
  const { d, said } = oled();
  cmd(d, 0xd3, 4, 0xd3, 5, 0xa8, 31, 0x2f, 0xa5);
  assert.equal(said.length, 4);
  assert.equal(d.read(), 0x40, 'status: display off');
  cmd(d, 0xaf);
  tx(d, [0x40, 0xff]);
  d.reset();
  assert.deepEqual([d.on, d.ram.some((b) => b), d.mode], [false, false, 2]);
});
