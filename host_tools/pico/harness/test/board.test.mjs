// The board definition as the harness wires it: pico-11 as it is, and the faults it
// refuses with the place named.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'fs';
import { wiring, BoardError, uartOfPin } from '../board.mjs';

const PICO_11 = new URL('../../../../hardware/boards/pico-11.json', import.meta.url);
const board = () => JSON.parse(fs.readFileSync(PICO_11));

test('pico-11 wires as the plan says', () => {
  const w = wiring(board());
  assert.equal(w.i2c, 0);
  assert.deepEqual(w.expanders, [{ address: 0x20, int: 10 }, { address: 0x21, int: 11 }, { address: 0x22, int: 12 }]);
  assert.deepEqual(w.link, { uart: 0, baud: 115200 });
  assert.deepEqual(w.reader, { uart: 1, baud: 9600 });
  assert.deepEqual(w.shuffler.inputs, [14, 15, 16, 17]);
  assert.equal(w.shuffler.start, 18);
  assert.equal(w.leds, 22);
});

test('UART pins follow the RP2040 function table', () => {
  assert.deepEqual([0, 4, 8, 12, 16, 20, 24, 28].map(uartOfPin), [0, 1, 1, 0, 0, 1, 1, 0]);
});

const refused = (change, pattern) => {
  const b = board();
  change(b);
  assert.throws(() => wiring(b), (e) => e instanceof BoardError && pattern.test(e.message), pattern.toString());
};

test('boards the harness cannot wire are refused, naming the place', () => {
  refused((b) => { b.expanders[1].int = 10; }, /expander 1 int pin GP10 is already expander 0 int/);
  refused((b) => { b.expanders[2].chip = 'pcf8574'; }, /expander 2 chip "pcf8574"/);
  refused((b) => { b.expanders[0].address = 0x40; }, /expander 0 address 64/);
  refused((b) => { b.seat_buttons[3].fold.expander = 5; }, /seat 3 button fold: expander 5 is not on the bus/);
  refused((b) => { b.dealer_buttons.deal.pin = 16; }, /dealer button deal: pin 16/);
  refused((b) => { b.i2c.sda = 10; b.expanders[0].int = 13; }, /i2c pins GP10\/GP9 are not I2C0/);
  refused((b) => { b.link.tx = 2; b.link.rx = 3; }, /link pins GP2\/GP3 are not UART0/);
  refused((b) => { b.link.uart = 1; b.link.tx = 20; b.link.rx = 21; }, /share a UART/);
  refused((b) => { b.leds.pin = 25; }, /leds pin 25 is not a GPIO on the Pico's header/);
  refused((b) => { b.shuffler.jam = 22; }, /leds pin GP22 is already shuffler jam/);
  refused((b) => { b.mcu = 'esp32'; }, /the harness is an RP2040/);
  refused((b) => { delete b.shuffler; }, /shuffler missing/);
});
