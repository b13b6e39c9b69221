// The board definition as the harness wires it: pico-11 as it is, a board with the
// dealer's place, and the faults it refuses with the place named.
import test from 'node:test';
import assert from 'node:assert/strict';
import { wiring, BoardError, uartOfPin } from '../board.mjs';
import { pico11 as board, bare, dealerPlace, shufflerData } from './boards.mjs';

test('pico-11 wires as the plan says', () => {
  const w = wiring(board());
  assert.equal(w.i2c, 0);
  assert.deepEqual(w.expanders, [{ address: 0x20, int: 10 }, { address: 0x21, int: 11 }, { address: 0x22, int: 12 }]);
  assert.deepEqual(w.link, { uart: 0, baud: 115200 });
  assert.deepEqual(w.reader, { uart: 1, baud: 9600 });
  assert.deepEqual(w.shuffler.inputs, [14, 15, 16, 17]);
  assert.equal(w.shuffler.start, 18);
  assert.equal(w.leds, 22);
  assert.deepEqual(w.keypad, { expander: null, address: 0x23, int: 13, rows: [8, 9, 10, 11], columns: [0, 1, 2, 3], keys: '123A456B789C*0#D' });
  assert.deepEqual(w.display, { address: 0x3c, width: 128, height: 64 });
  assert.deepEqual(w.bridges, [{ name: 'muck', section: 'muck_reader', what: 'muck reader', address: 0x48, crystal: 14745600, baud: 9600, irq: 19 },
    { name: 'shuffler_data', section: 'shuffler.data', what: 'shuffler data', address: 0x49, crystal: 14745600, baud: 9600, irq: 20 }]);
});

test('UART pins follow the RP2040 function table', () => {
  assert.deepEqual([0, 4, 8, 12, 16, 20, 24, 28].map(uartOfPin), [0, 1, 1, 0, 0, 1, 1, 0]);
});

const refused = (change, pattern, start = board) => {
  const b = start();
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
  refused((b) => { b.link.uart = 1; b.link.tx = 20; b.link.rx = 21; }, /share a UART/, bare);
  refused((b) => { b.leds.pin = 25; }, /leds pin 25 is not a GPIO on the Pico's header/);
  refused((b) => { b.shuffler.jam = 22; }, /leds pin GP22 is already shuffler jam/);
  refused((b) => { b.mcu = 'esp32'; }, /the harness is an RP2040/);
  refused((b) => { delete b.shuffler; }, /shuffler missing/);
  refused((b) => { b.seat_buttons[1].call = { expander: 0, pin: 0 }; }, /seat 1 button call: expander 0 pin 0 is already seat 0 button fold/);
  refused((b) => { b.expanders[1].address = 32; }, /I2C address 32 is both expander 0's and expander 1's/);
  refused((b) => { b.keypad.address = 34; }, /I2C address 34 is both expander 2's and the keypad's/);
  refused((b) => { b.keypad.address = 40; }, /keypad address 40 is not an MCP23017's/);
  refused((b) => { b.keypad.chip = 'tca8418'; }, /keypad chip "tca8418"/);
  refused((b) => { b.keypad.int = 10; }, /keypad int pin GP10 is already expander 0 int/);
  refused((b) => { b.keypad.columns[0] = 8; }, /keypad: the keypad's expander pin 8 is already keypad row/);
});

test('the dealer\'s place: keypad, display and muck reader wired', () => {
  const w = wiring(dealerPlace());
  assert.deepEqual(w.keypad, { expander: 3, rows: [8, 9, 10, 11], columns: [0, 1, 2, 3], keys: '123A456B789C*0#D' });
  assert.deepEqual(w.display, { address: 60, width: 128, height: 64 });
  assert.deepEqual(w.bridges, [{ name: 'muck', section: 'muck_reader', what: 'muck reader', address: 72, crystal: 14745600, baud: 9600, irq: 19 }]);
  assert.equal(w.expanders[3].int, 13);
  assert.equal(w.used.get(19), 'muck reader irq');
  const none = wiring(bare());
  assert.deepEqual([none.keypad, none.display, none.bridges], [null, null, []], 'a board without them is wired as before');
});

test('a dealer\'s place the harness cannot wire is refused, naming the place', () => {
  const place = (change, pattern) => refused(change, pattern, dealerPlace);
  place((b) => { b.keypad.expander = 4; }, /keypad: expander 4 is not on the bus/);
  place((b) => { b.keypad.rows[0] = 16; }, /keypad: pin 16 is not an MCP23017 pin/);
  place((b) => { b.keypad.columns[3] = 7; }, /keypad: pin 7 is output-only/);
  place((b) => { b.keypad.columns[3] = 8; }, /keypad: expander 3 pin 8 is already keypad row/);
  place((b) => { b.keypad.expander = 2; }, /keypad: expander 2 pin 8 is already seat 10 button fold/);
  place((b) => { b.keypad.keys = '123A456B789C*0#'; }, /keys must be 16 characters/);
  place((b) => { b.keypad.keys = '123A456B789C*0#1'; }, /two keys share a legend/);
  place((b) => { b.keypad.rows = []; }, /rows must be a list/);
  place((b) => { b.display.chip = 'sh1106'; }, /display chip "sh1106"/);
  place((b) => { b.display.address = 0x78; }, /display address 120 is not an SSD1306's \(60-61\)/);
  place((b) => { b.display.height = 60; }, /display height 60/);
  place((b) => { b.display.width = 0; }, /display width 0/);
  place((b) => { b.muck_reader.address = 0x20; }, /muck reader address 32 is not an SC16IS750's \(72-87\)/);
  place((b) => { b.muck_reader.irq = 13; }, /muck reader irq pin GP13 is already expander 3 int/);
  place((b) => { b.muck_reader.irq = 23; }, /muck reader irq pin 23 is not a GPIO on the Pico's header/);
  place((b) => { b.muck_reader.crystal_hz = 0; }, /muck reader crystal_hz 0/);
});

test('the shuffler\'s data port: a second SC16IS750 on the bus, checked as the muck reader\'s', () => {
  const w = wiring(shufflerData());
  assert.deepEqual(w.bridges.map(({ name, address, irq }) => [name, address, irq]), [['muck', 72, 19], ['shuffler_data', 73, 20]]);
  assert.deepEqual(w.bridges[1], { name: 'shuffler_data', section: 'shuffler.data', what: 'shuffler data', address: 73, crystal: 14745600, baud: 9600, irq: 20 });
  assert.equal(w.used.get(20), 'shuffler data irq');
  const data = (change, pattern) => refused((b) => change(b, b.shuffler.data), pattern, shufflerData);
  data((b, d) => { d.address = 72; }, /I2C address 72 is both the muck reader's and the shuffler data's/);
  data((b, d) => { d.address = 35; }, /shuffler data address 35 is not an SC16IS750's \(72-87\)/);
  data((b, d) => { d.irq = 19; }, /shuffler data irq pin GP19 is already muck reader irq/);
  data((b, d) => { d.irq = 13; }, /shuffler data irq pin GP13 is already expander 3 int/);
  data((b, d) => { d.irq = 14; }, /shuffler busy pin GP14 is already shuffler data irq/);
  data((b, d) => { d.irq = 29; }, /shuffler data irq pin 29 is not a GPIO on the Pico's header/);
  data((b, d) => { d.chip = 'sc16is752'; }, /shuffler data chip "sc16is752": only sc16is750 is modelled/);
  data((b, d) => { d.crystal_hz = 0; }, /shuffler data crystal_hz 0/);
  data((b, d) => { d.baud = -1; }, /shuffler data baud -1/);
  const alone = bare();
  alone.shuffler.data = shufflerData().shuffler.data;
  assert.deepEqual(wiring(alone).bridges.map((b) => b.name), ['shuffler_data'], 'without a muck reader');
});
