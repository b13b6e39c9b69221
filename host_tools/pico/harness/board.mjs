// What the harness wires, read from a board definition (hardware/boards/SCHEMA.md):
// the pins checked against what a Pico can carry them on, so a board the harness
// cannot wire is refused with the place named, before anything runs.

// The RP2040's pin functions (datasheet 2.19.2): UART0 TX on GP0/12/16/28 (RX one up),
// UART1 TX on GP4/8/20/24; I2C0 SDA on GP0/4/8/.../28 (SCL one up), I2C1 SDA on GP2/6/...
export function uartOfPin(gp) { return ((gp + 4) >> 3) & 1; }
const HEADER = new Set([...Array(23).keys(), 26, 27, 28]);   // GP0-22, GP26-28 reach the header

export class BoardError extends Error {}

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
  if (new Set(expanders.map((x) => x.address)).size !== expanders.length) fail('two expanders share an address');
  const button = (b, where) => {
    if (!expanders[b?.expander]) fail(`${where}: expander ${JSON.stringify(b?.expander)} is not on the bus`);
    if (!Number.isInteger(b.pin) || b.pin < 0 || b.pin > 15) fail(`${where}: pin ${JSON.stringify(b.pin)} is not an MCP23017 pin (0-15)`);
  };
  (board.seat_buttons ?? []).forEach((s, k) => Object.entries(s).forEach(([n, b]) => button(b, `seat ${k} button ${n}`)));
  Object.entries(board.dealer_buttons ?? {}).forEach(([n, b]) => button(b, `dealer button ${n}`));

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
  return { i2c: i2c.id, expanders, link, reader, shuffler: { inputs, start, activeLow: !!sh.active_low }, leds, used };
}
