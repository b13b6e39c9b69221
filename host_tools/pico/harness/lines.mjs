// The wires outside the chip, on its GPIO pins.  rp2040js reads an input as whatever
// level the harness last set (low unless told), pull-ups or not; here a pin nobody
// drives follows its pad's pull, as on a board, and a driven pin keeps its driver's
// level across a reset of the chip (the wire's driver is not reset with it).
// Outputs watched for the host are reported when their driven level changes.
import { GPIOPinState } from 'rp2040js';

export class Lines {
  constructor() {
    this.driven = new Map();   // pin -> level (boolean) set from outside
    this.watched = new Map();  // pin -> callback(level 0|1) for an output's changes
    this.reported = new Map(); // pin -> the level last reported
    this.mcu = null;
  }

  // Drive `pin` from outside at `level`, or release it (null).
  drive(pin, level) {
    if (level === null) this.driven.delete(pin); else this.driven.set(pin, !!level);
    if (this.mcu) this.settle(this.mcu.gpio[pin]);
  }

  watch(pin, fn) { this.watched.set(pin, fn); }

  // The chip is reset: its outputs let go, and a watched line it held high falls
  // (what a start input on the far end, with its pull-down, sees).
  released() {
    for (const [pin, fn] of this.watched) {
      if (this.reported.get(pin) === 1) { this.reported.set(pin, 0); fn(0); }
    }
  }

  // A new chip: its pins see the wires as they are.
  attach(mcu) {
    this.mcu = mcu;
    for (const g of mcu.gpio) {
      this.settle(g);
      g.addListener(() => this.changed(g));
    }
  }

  changed(g) {
    this.settle(g);
    const fn = this.watched.get(g.index);
    if (!fn) return;
    const v = g.value;
    if (v !== GPIOPinState.High && v !== GPIOPinState.Low) return;   // not driving
    const level = v === GPIOPinState.High ? 1 : 0;
    if (this.reported.get(g.index) === level) return;
    this.reported.set(g.index, level);
    fn(level);
  }

  settle(g) {
    let level = this.driven.get(g.index);
    if (level === undefined) {
      if (g.pullupEnabled && !g.pulldownEnabled) level = true;
      else if (g.pulldownEnabled && !g.pullupEnabled) level = false;
      else return;             // floating or bus keeper: it keeps its level
    }
    if (g.rawInputValue !== level) g.setInputValue(level);
  }
}
