// UART output and input at the line's pace, for rp2040js 1.4.1's RPUART.

const UARTDR = 0x00, UARTFR = 0x18, UARTIFLS = 0x34;
const TXINTR = 1 << 5;
const FR_BUSY = 1 << 3, FR_RXFE = 1 << 4, FR_TXFF = 1 << 5, FR_RXFF = 1 << 6, FR_TXFE = 1 << 7;
const TX_DEPTH = 32;
const TX_LEVELS = [4, 8, 16, 24, 28];   // UARTIFLS.TXIFLSEL: 1/8 .. 7/8 of the FIFO

// The transmit side of a PL011, paced: rp2040js 1.4.1 sends every byte the instant it is
// written, its TX FIFO always empty, and sets TXINTR again on every interrupt check, so
// MicroPython's UART handler (which enables TXIM) is interrupted for ever.  Here bytes
// wait in a 32-byte FIFO and leave one character time (8N1) apart; UARTFR says TXFF,
// TXFE and BUSY; TXINTR is raised as the FIFO drains through its trigger level (UARTIFLS)
// and cleared by ICR, as on the silicon.  A write to a full FIFO is lost, as there.
// later(ns, fn) runs fn ns from now on the chip's clock; sent(byte) is told as each
// byte's stop bit ends; baud() is the line's rate.
//
// hold: {stalled} shared with the harness (a UART's stall outlives a reset).  While
// `stalled`, the transmitter takes nothing more from the FIFO, as a PL011 with CTS flow
// control does while CTS is held high: the byte on the line finishes, the FIFO fills
// (TXFF, BUSY), a write to it is lost, TXINTR is not raised.  pacedTx sets hold.kick:
// called after `stalled` is cleared, the FIFO drains again.
export function pacedTx(uart, { later, baud, sent, stats = { sent: 0, overrun: 0 }, hold = { stalled: false } }) {
  const fifo = [];
  let shifting = false;
  let ifls = 0x12;                          // reset value: both trigger levels at 1/2
  const depth = () => (uart.fifosEnabled ? TX_DEPTH : 1);
  const level = () => (uart.fifosEnabled ? TX_LEVELS[ifls & 7] ?? 16 : 0);

  const raise = () => { uart.interruptStatus |= TXINTR; uart.checkInterrupts(); };
  // The next byte moves from the FIFO to the shift register.
  const shift = () => {
    const before = fifo.length;
    const byte = fifo.shift();
    shifting = true;
    if (before > level() && fifo.length <= level()) raise();
    later(10e9 / baud(), () => {
      shifting = false;
      stats.sent++;
      sent(byte);
      if (fifo.length && !hold.stalled) shift();
    });
  };
  hold.kick = () => { if (!shifting && fifo.length && !hold.stalled) shift(); };

  uart.interruptStatus &= ~TXINTR;
  uart.checkInterrupts = function checkInterrupts() {
    this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
  };
  const read = uart.readUint32.bind(uart), write = uart.writeUint32.bind(uart);
  uart.readUint32 = (offset) => {
    if (offset === UARTFR) {
      const rx = uart.rxFIFO;
      return (rx.full ? FR_RXFF : 0) | (rx.empty ? FR_RXFE : 0) | (fifo.length >= depth() ? FR_TXFF : 0)
        | (fifo.length ? 0 : FR_TXFE) | (shifting || fifo.length ? FR_BUSY : 0);
    }
    if (offset === UARTIFLS) return ifls;
    return read(offset);
  };
  uart.writeUint32 = (offset, value) => {
    if (offset === UARTDR) {
      if (fifo.length >= depth()) { stats.overrun++; return; }
      fifo.push(value & 0xff);
      if (!shifting && !hold.stalled) shift();
    } else if (offset === UARTIFLS) ifls = value & 0x3f;
    else write(offset, value);
  };
  return stats;
}

// The baud a UART runs at: its divisors once the firmware has set them, else `fallback`.
export function baudOf(uart, fallback) {
  const b = uart.baudDivider ? uart.baudRate : 0;
  return Number.isFinite(b) && b > 0 ? b : fallback;
}

// Bytes on their way into a UART's RX line, one character time apart (8N1: 10 bits),
// held while the RX FIFO is full so none is lost there.  A UART the firmware has not
// enabled drops what arrives, as the silicon does.  `uart()` gives the current chip's
// UART (a reset replaces it); `sched` is the harness's Scheduler; `now()` in ns.
export class UartFeeder {
  constructor(sched, now, uart, fallbackBaud, log = () => {}) {
    this.sched = sched; this.now = now; this.uart = uart;
    this.fallbackBaud = fallbackBaud; this.log = log;
    this.queue = [];
    this.timer = null;
    this.stats = { fed: 0, dropped: 0, held: 0 };
    this.dropping = false;
  }

  charNanos() { return 10e9 / baudOf(this.uart(), this.fallbackBaud); }

  send(bytes) {
    for (const b of bytes) this.queue.push(b);
    if (!this.timer && this.queue.length) this.arm();
  }

  arm() { this.timer = this.sched.at(this.now() + this.charNanos(), () => this.step()); }

  step() {
    this.timer = null;
    const u = this.uart();
    if (!u.enabled || !u.rxEnabled) {
      this.stats.dropped++;
      if (!this.dropping) this.log(`${u.name}: input dropped, the UART is not enabled`);
      this.dropping = true;
      this.queue.shift();
    } else if (u.rxFIFO.full) {
      this.stats.held++;
    } else {
      this.dropping = false;
      u.feedByte(this.queue.shift());
      this.stats.fed++;
    }
    if (this.queue.length) this.arm();
  }

  // What is still on its way (a power cut leaves the sender sending).
  get pending() { return this.queue.length; }
}
