// What the harness wires, read from a board definition (hardware/boards/SCHEMA.md):
// the pins checked against what a Pico can carry them on, so a board the harness
// cannot wire is refused with the place named, before anything runs.

// The RP2040's pin functions (datasheet 2.19.2): UART0 TX on GP0/12/16/28 (RX one up),
// UART1 TX on GP4/8/20/24; I2C0 SDA on GP0/4/8/.../28 (SCL one up), I2C1 SDA on GP2/6/...
export function uartOfPin(gp) { return ((gp + 4) >> 3) & 1; }
const HEADER = new Set([...Array(23).keys(), 26, 27, 28]);   // GP0-22, GP26-28 reach the header

export class BoardError extends Error {}

// The SC16IS750 I2C-to-UART bridges a board may have, each behind its own op and event
// (`name`): the muck reader's, and the shuffler's data port (its card recognition's
// report of each deck check, a line of text).  `of(board)`: its section, or nothing.
export const BRIDGES = [
  { name: 'muck', section: 'muck_reader', what: 'muck reader', of: (b) => b.muck_reader },
  { name: 'shuffler_data', section: 'shuffler.data', what: 'shuffler data', of: (b) => b.shuffler?.data },
];

export function wiring(board) {
  const name = board?.name ?? '?';
  const fail = (msg) => { throw new BoardError(`board ${name}: ${msg}`); };
  const used = new Map();
  const pin = (gp, what) => {
    if (!Number.isInteger(gp) || !HEADER.has(gp)) fail(`${what} pin ${JSON.stringify(gp)} is not a GPIO on the Pico's header`);
    if (used.has(gp)) fail(`${what} pin GP${gp} is already ${used.get(gp)}`);
    used.set(gp, what);
    return gp;
  };
  const need = (obj, key) => obj?.[key] ?? fail(`${key} missing`);
  if (board?.mcu !== 'rp2040') fail(`mcu ${JSON.stringify(board?.mcu)}: the harness is an RP2040`);

  const i2c = need(board, 'i2c');
  if (i2c.id !== 0 && i2c.id !== 1) fail(`i2c id ${JSON.stringify(i2c.id)}: an RP2040 has I2C0 and I2C1`);
  pin(i2c.sda, 'i2c sda'); pin(i2c.scl, 'i2c scl');
  if (i2c.sda % 4 !== 2 * i2c.id || i2c.scl % 4 !== 2 * i2c.id + 1) fail(`i2c pins GP${i2c.sda}/GP${i2c.scl} are not I2C${i2c.id} SDA/SCL`);

  const expanders = need(board, 'expanders').map((x, k) => {
    if (x.chip !== 'mcp23017') fail(`expander ${k} chip ${JSON.stringify(x.chip)}: only mcp23017 is modelled`);
    if (!Number.isInteger(x.address) || x.address < 0x20 || x.address > 0x27) fail(`expander ${k} address ${x.address} is not an MCP23017's (32-39)`);
    return { address: x.address, int: x.int == null ? null : pin(x.int, `expander ${k} int`) };
  });
  const onExpander = new Map();   // "expander k pin p" -> what is wired to that pin
  const expanderPin = (chip, p, what, where) => {
    if (!Number.isInteger(p) || p < 0 || p > 15) fail(`${where}: pin ${JSON.stringify(p)} is not an MCP23017 pin (0-15)`);
    const key = `${chip} pin ${p}`;
    if (onExpander.has(key)) fail(`${where}: ${key} is already ${onExpander.get(key)}`);
    onExpander.set(key, what);
    return p;
  };
  const button = (b, where) => {
    if (!expanders[b?.expander]) fail(`${where}: expander ${JSON.stringify(b?.expander)} is not on the bus`);
    expanderPin(`expander ${b.expander}`, b.pin, where, where);
  };
  (board.seat_buttons ?? []).forEach((s, k) => Object.entries(s).forEach(([n, b]) => button(b, `seat ${k} button ${n}`)));
  Object.entries(board.dealer_buttons ?? {}).forEach(([n, b]) => button(b, `dealer button ${n}`));
  const keypad = board.keypad == null ? null : keypadOf(board.keypad, { expanders, expanderPin, pin, fail });

  // The dealer's display and the SC16IS750 bridges (BRIDGES), on the expanders' bus.
  const device = (d, chip, [lo, hi], what) => {
    if (d == null) return null;
    if (d.chip !== chip) fail(`${what} chip ${JSON.stringify(d.chip)}: only ${chip} is modelled`);
    if (!Number.isInteger(d.address) || d.address < lo || d.address > hi) fail(`${what} address ${JSON.stringify(d.address)} is not an ${chip.toUpperCase()}'s (${lo}-${hi})`);
    return d;
  };
  const d = device(board.display, 'ssd1306', [0x3c, 0x3d], 'display');
  if (d && !(Number.isInteger(d.width) && d.width >= 1 && d.width <= 128)) fail(`display width ${JSON.stringify(d.width)}: 1-128 columns`);
  if (d && !(Number.isInteger(d.height) && d.height >= 8 && d.height <= 64 && d.height % 8 === 0)) fail(`display height ${JSON.stringify(d.height)}: 8-64 rows, whole pages of 8`);
  const display = d && { address: d.address, width: d.width, height: d.height };
  const bridges = BRIDGES.flatMap(({ name, section, what, of }) => {
    const m = device(of(board), 'sc16is750', [0x48, 0x57], what);
    if (!m) return [];
    if (!(m.crystal_hz > 0)) fail(`${what} crystal_hz ${JSON.stringify(m.crystal_hz)}`);
    if (!(m.baud > 0)) fail(`${what} baud ${JSON.stringify(m.baud)}`);
    return [{ name, section, what, address: m.address, crystal: m.crystal_hz, baud: m.baud, irq: pin(m.irq, `${what} irq`) }];
  });
  const owners = new Map();
  const addresses = [...expanders.map((x, k) => [x.address, `expander ${k}`]), [keypad?.address, 'the keypad'],
    [display?.address, 'the display'], ...bridges.map((b) => [b.address, `the ${b.what}`])];
  for (const [a, what] of addresses) {
    if (a === undefined) continue;
    if (owners.has(a)) fail(`I2C address ${a} is both ${owners.get(a)}'s and ${what}'s`);
    owners.set(a, what);
  }

  const uart = (cfg, what) => {
    pin(cfg.tx, `${what} tx`); pin(cfg.rx, `${what} rx`);
    if (cfg.tx % 4 !== 0 || cfg.rx !== cfg.tx + 1 || uartOfPin(cfg.tx) !== cfg.uart) {
      fail(`${what} pins GP${cfg.tx}/GP${cfg.rx} are not UART${cfg.uart} TX/RX`);
    }
    if (!(cfg.baud > 0)) fail(`${what} baud ${JSON.stringify(cfg.baud)}`);
    return { uart: cfg.uart, baud: cfg.baud };
  };
  const link = uart(need(board, 'link'), 'link');
  const reader = uart(need(board, 'card_reader'), 'card reader');
  if (link.uart === reader.uart) fail('link and card reader share a UART');

  const sh = need(board, 'shuffler');
  const inputs = ['busy', 'done', 'jam', 'present'].map((n) => pin(sh[n], `shuffler ${n}`));
  const start = pin(sh.start, 'shuffler start');
  const leds = pin(need(board, 'leds').pin, 'leds');
  return { i2c: i2c.id, expanders, keypad, display, bridges, link, reader, shuffler: { inputs, start, activeLow: !!sh.active_low }, leds, used };
}

// The dealer's key matrix: on an MCP23017 of its own ({chip, address, int}, as
// SCHEMA.md has it), or on expander `expander` of the board's list.  Rows and columns
// are its pins, none a button's, none twice, none of the output-only GPA7/GPB7
// (datasheet rev. D); `keys` one distinct legend a key, row-major.
function keypadOf(k, { expanders, expanderPin, pin, fail }) {
  let chip, own = {};
  if (k.expander !== undefined) {
    if (!Number.isInteger(k.expander) || !expanders[k.expander]) fail(`keypad: expander ${JSON.stringify(k.expander)} is not on the bus`);
    chip = `expander ${k.expander}`;
  } else {
    if (k.chip !== 'mcp23017') fail(`keypad chip ${JSON.stringify(k.chip)}: only mcp23017 is modelled`);
    if (!Number.isInteger(k.address) || k.address < 0x20 || k.address > 0x27) fail(`keypad address ${JSON.stringify(k.address)} is not an MCP23017's (32-39)`);
    chip = "the keypad's expander";
    own = { address: k.address, int: k.int == null ? null : pin(k.int, 'keypad int') };
  }
  const list = (name) => {
    const v = k[name];
    if (!Array.isArray(v) || !v.length) fail(`keypad: ${name} must be a list of expander pins`);
    return v.map((p) => {
      if (p === 7 || p === 15) fail(`keypad: pin ${p} is output-only on the MCP23017 (GPA7/GPB7, datasheet rev. D)`);
      return expanderPin(chip, p, `keypad ${name.slice(0, -1)}`, 'keypad');
    });
  };
  const rows = list('rows'), columns = list('columns');
  const keys = typeof k.keys === 'string' ? [...k.keys] : [];
  if (keys.length !== rows.length * columns.length) fail(`keypad: keys must be ${rows.length * columns.length} characters, one a key (row-major)`);
  if (new Set(keys).size !== keys.length) fail('keypad: two keys share a legend');
  return { expander: k.expander ?? null, ...own, rows, columns, keys: keys.join('') };
}
