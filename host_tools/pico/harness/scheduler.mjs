// The harness's own timers, on emulated time in nanoseconds since the first reset.
// They live outside the chip (rp2040js keeps its alarms in the chip's clock, which a
// reset replaces), so an `after` op, a button's release or a byte on its way into a
// UART outlives a watchdog reset or a power cut, as it would on the bench.

export class Scheduler {
  constructor() {
    this.timers = [];      // sorted by `at`, then by insertion order
    this.seq = 0;
    this.onEarlier = null; // called with `at` when a new timer is due before all others
  }

  // Runs fn at absolute time `at` (ns); returns a handle for cancel().
  at(at, fn) {
    const t = { at, fn, seq: this.seq++ };
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1].at > at) i--;
    this.timers.splice(i, 0, t);
    if (i === 0) this.onEarlier?.(at);
    return t;
  }

  cancel(t) {
    const i = this.timers.indexOf(t);
    if (i >= 0) this.timers.splice(i, 1);
  }

  get next() { return this.timers.length ? this.timers[0].at : Infinity; }

  // Fires every timer due at or before `now`, in time order (a timer may add more).
  fire(now) {
    while (this.timers.length && this.timers[0].at <= now) {
      const t = this.timers.shift();
      t.fn(t.at);
    }
  }
}
