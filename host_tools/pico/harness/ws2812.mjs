// WS2812B data line decoder: edge times in, frames of wire-order bytes out.  A bit is
// one high pulse: at 800 kHz a 0 is high ~0.4 us, a 1 ~0.8 us (datasheet T0H/T1H), so a
// pulse longer than 0.6 us is a 1.  Bits go MSB first.  A low gap of 50 us or more
// latches the frame (RES).  Whatever drives the pin (MicroPython's machine.bitstream
// times it with SysTick; a PIO program would do as well) only its waveform counts.

export const ONE_ABOVE_NS = 600;
export const RESET_NS = 50_000;

export class Ws2812Decoder {
  // onFrame({bytes, start, end}): start is the first bit's rising edge, end the moment
  // the reset gap completed (ns).  later(at, fn) runs fn at time `at` (ns).
  constructor(onFrame, later) {
    this.onFrame = onFrame; this.later = later;
    this.high = false; this.riseAt = 0; this.fallAt = 0;
    this.bytes = []; this.acc = 0; this.nbits = 0;
    this.start = null;           // an open frame's first rising edge
    this.timerAt = null;         // when the armed latch check runs
    this.stats = { frames: 0, strayBits: 0 };
  }

  edge(t, high) {
    if (high === this.high) return;
    this.high = high;
    if (high) {
      if (this.start !== null && t - this.fallAt >= RESET_NS) this.latch();   // timer not yet run
      if (this.start === null) this.start = t;
      this.riseAt = t;
      return;
    }
    this.fallAt = t;
    if (this.start === null) return;   // a line that starts high and falls: no bit
    this.acc = (this.acc << 1) | (t - this.riseAt > ONE_ABOVE_NS ? 1 : 0);
    if (++this.nbits === 8) { this.bytes.push(this.acc); this.acc = 0; this.nbits = 0; }
    // One timer for the latch: it moves on lazily rather than on every edge.
    if (this.timerAt === null) this.arm(t + RESET_NS);
  }

  arm(at) {
    this.timerAt = at;
    this.later(at, () => {
      this.timerAt = null;
      if (this.start === null) return;
      const due = this.fallAt + RESET_NS;
      if (this.high) return;                    // mid-bit: the falling edge re-arms
      if (due > at) this.arm(due); else this.latch();
    });
  }

  latch() {
    const frame = { bytes: this.bytes, start: this.start, end: this.fallAt + RESET_NS };
    if (this.nbits) this.stats.strayBits += this.nbits;
    this.bytes = []; this.acc = 0; this.nbits = 0; this.start = null;
    if (frame.bytes.length) { this.stats.frames++; this.onFrame(frame); }
  }
}
