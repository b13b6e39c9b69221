// The control channel: ops as JSON lines on stdin, events as JSON lines on stdout.
// Every event carries "t", emulated microseconds since the first reset.  Nothing but
// events goes to stdout.

export class OpError extends Error {}

const isInt = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;
// A contact's bounces end within a few ms; longer than this is a second press, not a bounce.
export const MAX_BOUNCE_MS = 20;
// A `pin` op's bounce: the ms after the op at which the contact opens and closes again,
// in turn, ending as the op left it (an even number of edges).
const isBounce = (v) => Array.isArray(v) && v.length % 2 === 0 &&
  v.every((ms, i) => typeof ms === 'number' && ms > 0 && ms <= MAX_BOUNCE_MS && (i === 0 || ms > v[i - 1]));

// Checks one op line; returns the op.  The fields each op needs, and their ranges.
export function parseOp(line) {
  let op;
  try { op = JSON.parse(line); } catch { throw new OpError(`not JSON: ${line.slice(0, 80)}`); }
  if (!op || typeof op !== 'object' || Array.isArray(op)) throw new OpError(`not an object: ${line.slice(0, 80)}`);
  const need = (key, ok, what) => { if (!ok(op[key])) throw new OpError(`${op.op}: ${key} must be ${what}`); };
  const ms = () => need('ms', (v) => typeof v === 'number' && v >= 0 && Number.isFinite(v), 'a number of ms >= 0');
  const id = () => need('id', (v) => v !== undefined, 'given');
  switch (op.op) {
    case 'uart':
      need('n', (v) => v === 0 || v === 1, '0 or 1');
      need('hex', (v) => typeof v === 'string' && HEX.test(v), 'a hex string');
      break;
    case 'usb': need('hex', (v) => typeof v === 'string' && HEX.test(v), 'a hex string'); break;
    case 'pin':
      need('expander', (v) => isInt(v, 0, 7), 'an expander index'); need('pin', (v) => isInt(v, 0, 15), '0-15'); need('down', (v) => typeof v === 'boolean', 'true or false');
      need('bounce', (v) => v === undefined || isBounce(v), `an even number of ascending ms after the op, each above 0 and at most ${MAX_BOUNCE_MS}`);
      break;
    case 'press': need('expander', (v) => isInt(v, 0, 7), 'an expander index'); need('pin', (v) => isInt(v, 0, 15), '0-15'); ms(); id(); break;
    case 'key': need('key', (v) => typeof v === 'string' && [...v].length === 1, 'one character, a key\'s legend'); need('down', (v) => typeof v === 'boolean', 'true or false'); break;
    case 'display': break;
    case 'muck': case 'shuffler_data': need('hex', (v) => typeof v === 'string' && HEX.test(v), 'a hex string'); break;
    case 'gpio': need('pin', (v) => isInt(v, 0, 29), 'a GPIO 0-29'); need('level', (v) => v === 0 || v === 1, '0 or 1'); break;
    case 'after': ms(); id(); break;
    case 'power_cut': need('torn', (v) => v === undefined || typeof v === 'boolean', 'true or false'); break;
    case 'arm_cut':
      need('program', (v) => v === undefined || isInt(v, 1, 1e6), 'a count of page programs >= 1');
      need('byte', (v) => v === undefined || isInt(v, 0, 255), 'a byte of the page, 0-255');
      break;
    case 'uart_stall':
      need('n', (v) => v === 0 || v === 1, '0 or 1');
      need('stalled', (v) => typeof v === 'boolean', 'true or false');
      break;
    case 'stats': case 'quit': break;
    default: throw new OpError(`unknown op ${JSON.stringify(op.op)}`);
  }
  return op;
}

export const micros = (ns) => Math.round(ns) / 1000;

// Events waiting for the end of the slice.  Bytes off a line (a UART's, a UART
// bridge's: the muck reader's, the shuffler's data port's) join the event before them when it is the same line's, so a burst is one
// event; everything stays in time order.
export class Events {
  constructor(write) { this.write = write; this.queue = []; }

  emit(ns, ev) { this.queue.push({ ev: ev.ev, t: micros(ns), ...ev }); }

  // line: the event's fields but t and hex ({ev: 'uart', n}, {ev: 'muck'} or {ev: 'shuffler_data'}).
  bytes(ns, line, byte) {
    const last = this.queue.at(-1);
    if (last?.bytes && last.ev === line.ev && last.n === line.n) last.bytes.push(byte);
    else this.queue.push({ ev: line.ev, t: micros(ns), ...line, bytes: [byte] });
  }

  uart(ns, n, byte) { this.bytes(ns, { ev: 'uart', n }, byte); }

  flush() {
    if (!this.queue.length) return;
    const lines = this.queue.map((e) => {
      if (e.bytes) { const { bytes, ...rest } = e; return JSON.stringify({ ...rest, hex: Buffer.from(bytes).toString('hex') }); }
      return JSON.stringify(e);
    });
    this.queue = [];
    this.write(lines.join('\n') + '\n');
  }
}
