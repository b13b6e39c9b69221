// The boards the tests wire: pico-11 as it is; pico-11 without the dealer's place of
// issue 36; a board of the tests' own with all of it (a keypad on a fourth expander
// of the board's list, a display, the muck reader's UART bridge), built on pico-11's
// first three expanders and its pins; and that board with the shuffler's data port
// behind a second SC16IS750.
import fs from 'fs';

export const PICO_11 = new URL('../../../../hardware/boards/pico-11.json', import.meta.url).pathname;
export const pico11 = () => JSON.parse(fs.readFileSync(PICO_11));

export function bare() {
  const b = pico11();
  b.name = 'bare';
  for (const k of ['keypad', 'display', 'muck_reader']) delete b[k];
  delete b.shuffler.data;
  return b;
}

export function dealerPlace() {
  const b = bare();
  b.name = 'dealer-place';
  b.expanders = [...b.expanders.slice(0, 3), { chip: 'mcp23017', address: 35, int: 13 }];
  b.keypad = { expander: 3, rows: [8, 9, 10, 11], columns: [0, 1, 2, 3], keys: '123A456B789C*0#D' };
  b.display = { chip: 'ssd1306', address: 60, width: 128, height: 64 };
  b.muck_reader = { chip: 'sc16is750', address: 72, crystal_hz: 14745600, baud: 9600, irq: 19, max_line: 16 };
  return b;
}

export function shufflerData() {
  const b = dealerPlace();
  b.name = 'shuffler-data';
  b.shuffler.data = { chip: 'sc16is750', address: 73, crystal_hz: 14745600, baud: 9600, irq: 20 };
  return b;
}
