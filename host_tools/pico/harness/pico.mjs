// The emulated board: a Chip with the board's devices at its pins, the harness's
// timers, and the ops that drive it.  main.mjs feeds it ops and runs it in slices.
import { GPIOPinState } from 'rp2040js';
import { Chip } from './chip.mjs';
import { SpiFlash } from './flash.mjs';
import { Scheduler } from './scheduler.mjs';
import { Lines } from './lines.mjs';
import { Mcp23017 } from './mcp23017.mjs';
import { Keypad } from './keypad.mjs';
import { Ssd1306 } from './ssd1306.mjs';
import { Sc16is750 } from './sc16is750.mjs';
import { attachI2c } from './i2c.mjs';
import { Ws2812Decoder } from './ws2812.mjs';
import { UartFeeder, baudOf, pacedTx } from './uart.mjs';
import { randomBits } from './rosc.mjs';
import { OpError, micros } from './control.mjs';
import { BRIDGES } from './board.mjs';

const MS = 1e6;
const HEARTBEAT_NS = 100 * MS;
const ROUNDING_NS = 1e-3;

export class Pico {
  // wiring: board.mjs's wiring(board); mem: the 2 MiB flash array; events: an Events;
  // log(line): diagnostics (stderr).
  constructor({ bootrom, mem, wiring, seed = 1, events, log = () => {}, usb = false }) {
    this.wiring = wiring; this.events = events; this.log = log;
    this.sched = new Scheduler();
    this.sched.onEarlier = (at) => this.chip?.clamp(at);
    this.flash = new SpiFlash(mem, { now: () => this.now });
    this.flash.onBusyPoll = (end) => this.chip.spinUntil(end);
    this.lines = new Lines();
    this.i2cStats = { transactions: 0, nacks: 0 };
    const expander = (x) => new Mcp23017(x.address, x.int === null ? () => {} : (level) => this.lines.drive(x.int, level));
    this.expanders = wiring.expanders.map(expander);
    // The dealer's place (issue 36): a keypad on an expander's pins (one of the board's
    // expanders, or its own); a display on the bus; and the SC16IS750 UART bridges
    // (the muck reader's, the shuffler's data port), each with its op and event.
    const { keypad, display } = wiring;
    const keypadChip = keypad && (keypad.expander === null ? expander(keypad) : null);
    this.keypad = keypad && new Keypad(keypadChip ?? this.expanders[keypad.expander], keypad);
    this.display = display && new Ssd1306(display.address, {
      width: display.width, height: display.height, log,
      show: (ev) => this.events.emit(this.now, { ev: 'display', ...ev }),
    });
    const clock = { now: () => this.now, at: (at, fn) => this.sched.at(at, fn), cancel: (t) => this.sched.cancel(t) };
    this.bridges = new Map(wiring.bridges.map((w) => {
      const chip = new Sc16is750(w.address, {
        crystal: w.crystal, baud: w.baud, clock,
        irqLine: (active) => this.lines.drive(w.irq, active ? false : null),   // open drain, the Pico's pull-up
        sent: (b) => this.events.bytes(this.now, { ev: w.name }, b),
      });
      return [w.name, { chip, feeder: new UartFeeder(this.sched, () => this.now, () => chip, w.baud, log) }];
    }));
    this.i2cDevices = [...this.expanders, keypadChip, this.display, ...[...this.bridges.values()].map((b) => b.chip)].filter(Boolean);
    this.leds = new Ws2812Decoder((f) => this.events.emit(f.end, { ev: 'leds', hex: Buffer.from(f.bytes).toString('hex'), start: micros(f.start) }),
      (at, fn) => this.sched.at(at, fn));
    // The board's baud for each UART, until the firmware sets its own.
    this.baud = [0, 1].map((n) => [wiring.link, wiring.reader].find((u) => u.uart === n)?.baud ?? 115200);
    this.uartOut = [0, 1].map(() => ({ sent: 0, overrun: 0 }));   // over every boot
    this.txHold = [0, 1].map(() => ({ stalled: false, kick: null }));   // uart_stall, over every boot
    this.feeders = [0, 1].map((n) => new UartFeeder(this.sched, () => this.now, () => this.chip.mcu.uart[n], this.baud[n], log));
    this.lines.watch(wiring.shuffler.start, (level) => this.events.emit(this.now, { ev: 'gpio', pin: wiring.shuffler.start, level }));
    this.resets = { watchdog: 0, software: 0, power: 0 };
    let cdcLine = '';
    this.chip = new Chip({
      bootrom, flash: this.flash, nextBit: randomBits(seed), usb,
      wire: (mcu) => this.wire(mcu),
      onReset: (why) => this.resetDone(why),
      cdc: (bytes) => {   // the firmware's USB serial (its REPL): an event, and lines on stderr
        this.events.emit(this.now, { ev: 'usb', hex: bytes.toString('hex') });
        cdcLine += bytes.toString('latin1');
        const parts = cdcLine.split('\n');
        cdcLine = parts.pop();
        for (const p of parts) this.log(`cdc: ${p.replace(/\r$/, '')}`);
      },
    });
  }

  get now() { return this.chip?.mcu ? this.chip.now : 0; }

  start() {
    this.chip.boot();
    const beat = (at) => { this.events.emit(at, { ev: 'time' }); this.sched.at(at + HEARTBEAT_NS, beat); };
    this.sched.at(HEARTBEAT_NS, beat);
  }

  // Connects the devices to a (new) chip.
  wire(mcu) {
    [0, 1].forEach((n) => pacedTx(mcu.uart[n], {
      later: (ns, fn) => mcu.clock.createAlarm(fn).schedule(ns),
      baud: () => baudOf(mcu.uart[n], this.baud[n]),
      sent: (b) => this.events.uart(this.now, n, b),
      stats: this.uartOut[n],
      hold: this.txHold[n],
    }));
    attachI2c(mcu.i2c[this.wiring.i2c], this.i2cDevices, this.i2cStats);
    this.lines.attach(mcu);
    const led = mcu.gpio[this.wiring.leds];
    led.addListener((v) => this.leds.edge(this.now, v === GPIOPinState.High));
  }

  resetDone(why) {
    this.resets[why]++;
    this.lines.released();
    this.events.emit(this.now, { ev: 'reset', why });
  }

  // Emulated time moves on to `until` (ns): the chip runs, the harness's timers fire.
  // The chip's clock counts from its epoch (its last reset), the harness's from the
  // first: a run can end a float's rounding short of its end (after a power cut at
  // 3.3 s, 7694017940.408913 for ...914), and asked again it runs nothing, for ever.
  // Within ROUNDING_NS, far below a cycle (5 ns at 200 MHz), it has arrived.
  advance(until) {
    while (until - this.now > ROUNDING_NS) {
      this.chip.run(Math.min(until, this.sched.next));
      this.sched.fire(this.now + ROUNDING_NS);
    }
  }

  expander(k) {
    const x = this.expanders[k];
    if (!x) throw new OpError(`expander ${k}: the board has ${this.expanders.length}`);
    return x;
  }

  // The expander of a `pin` or `press` op, whose pin is not the keypad's.
  button(op) {
    const x = this.expander(op.expander), k = this.keypad;
    if (k?.chip === x && [...k.rows, ...k.columns].includes(op.pin)) throw new OpError(`expander ${op.expander} pin ${op.pin} is the keypad's (a key op)`);
    return x;
  }

  // A device of the dealer's place; `section` names it in the board definition.
  device(name, section = name) {
    if (!this[name]) throw new OpError(`the board has no ${section}`);
    return this[name];
  }

  // The SC16IS750 bridge of op `name` (board.mjs's BRIDGES): {chip, feeder}.
  bridge(name) {
    const b = this.bridges.get(name);
    if (!b) throw new OpError(`the board has no ${BRIDGES.find((x) => x.name === name).section}`);
    return b;
  }

  apply(op) {
    const now = this.now;
    switch (op.op) {
      case 'uart': this.feeders[op.n].send(Buffer.from(op.hex, 'hex')); break;
      case 'usb':
        if (!this.chip.usb) throw new OpError('usb: no USB host is plugged in (PICO_USB=1)');
        this.chip.typeUsb(Buffer.from(op.hex, 'hex'));
        break;
      case 'pin': {
        const x = this.button(op);
        x.setPin(op.pin, op.down);
        // A bouncing contact: back and forth at each instant given, ending at op.down.
        (op.bounce ?? []).forEach((ms, i) => this.sched.at(now + ms * MS, () => x.setPin(op.pin, i % 2 ? op.down : !op.down)));
        break;
      }
      case 'press': {
        const x = this.button(op);
        x.setPin(op.pin, true);
        this.sched.at(now + op.ms * MS, (at) => { x.setPin(op.pin, false); this.events.emit(at, { ev: 'done', id: op.id }); });
        break;
      }
      case 'key': {
        const k = this.device('keypad');
        if (!k.has(op.key)) throw new OpError(`key ${JSON.stringify(op.key)}: the keypad's keys are ${JSON.stringify(k.keys)}`);
        k.key(op.key, op.down);
        break;
      }
      case 'display': this.events.emit(now, { ev: 'display', ...this.device('display').event() }); break;
      case 'muck': case 'shuffler_data': this.bridge(op.op).feeder.send(Buffer.from(op.hex, 'hex')); break;
      case 'gpio':
        if (!this.wiring.shuffler.inputs.includes(op.pin) && this.wiring.used.has(op.pin)) {
          throw new OpError(`gpio ${op.pin} is the board's ${this.wiring.used.get(op.pin)}, not an input the harness drives`);
        }
        this.lines.drive(op.pin, op.level === 1);
        break;
      case 'after': this.sched.at(now + op.ms * MS, (at) => this.events.emit(at, { ev: 'done', id: op.id })); break;
      case 'power_cut': this.powerCut(op.torn ?? false); break;
      case 'arm_cut': this.armCut(op.program ?? 1, op.byte ?? 128); break;
      case 'uart_stall': {
        const h = this.txHold[op.n];
        h.stalled = op.stalled;
        if (!h.stalled) h.kick?.();
        break;
      }
      case 'stats': this.events.emit(now, { ev: 'stats', ...this.stats() }); break;
    }
  }

  // The supply fails and comes back: the flash keeps what it holds (an operation in
  // progress torn or completed), nobody holds a button, the chip starts from reset.
  // `armed` ({program}): the cut an arm_cut op set up, reported in a `cut` event.
  powerCut(torn, armed = null) {
    const op = this.flash.powerCut(torn);
    const kind = op && (op.bytes === 256 ? 'program' : 'erase');
    if (op) this.log(`power cut during a flash ${kind} at 0x${op.addr.toString(16)}${torn ? `, torn at byte ${op.done}` : ''}`);
    if (armed) {
      this.events.emit(this.now, op
        ? { ev: 'cut', program: armed.program, in: kind, addr: op.addr, byte: op.done, of: op.bytes }
        : { ev: 'cut', program: armed.program, in: null });
    }
    for (const x of this.expanders) x.releaseAll();
    this.keypad?.releaseAll();
    // The display and the UART bridges run on the Pico's 3.3 V: they reset with it.
    for (const b of this.bridges.values()) b.chip.reset();
    if (this.display) {
      this.display.reset();
      this.events.emit(this.now, { ev: 'display', ...this.display.event() });
    }
    this.chip.reset('power');
    this.resetDone('power');
  }

  // The power fails during the nth page program from now, once `byte` of its 256
  // bytes are written (flash.armCut): torn there, then as power_cut.
  armCut(nth, byte) {
    this.flash.armCut(nth, byte, (at, where) => this.sched.at(at, () => this.powerCut(true, where)));
  }

  stats() {
    return {
      emulated_s: this.now / 1e9,
      cycles: this.chip.cycles,
      clk_sys_hz: this.chip.mcu.clkSys,
      core_mv: this.chip.coreMillivolts,
      boots: this.chip.boots,
      resets: this.resets,
      flash: this.flash.stats,
      i2c: this.i2cStats,
      uart_in: this.feeders.map((f) => ({ ...f.stats, pending: f.pending })),
      uart_out: this.uartOut,
      leds: this.leds.stats,
      ...(this.display && { display: this.display.stats }),
      ...Object.fromEntries([...this.bridges].map(([name, { chip, feeder }]) =>
        [name, { ...chip.stats, pending: feeder.pending, dropped: feeder.stats.dropped }])),
    };
  }
}
