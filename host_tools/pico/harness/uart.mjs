// UART fixes and input pacing for rp2040js 1.4.1's RPUART.

const TXINTR = 1 << 5;

// rp2040js sets TXINTR again on every interrupt check, so a driver that enables TXIM
// (MicroPython's machine.UART does) is interrupted forever and the board freezes.  On a
// PL011 the TX interrupt is an edge: raised as the TX FIFO drains through its trigger
// level, cleared by ICR.  Bytes leave this model at once, so each write drains it.
export function fixTxInterrupt(uart) {
  uart.interruptStatus &= ~TXINTR;
  uart.checkInterrupts = function checkInterrupts() {
    this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
  };
  const write = uart.writeUint32.bind(uart);
  uart.writeUint32 = function writeUint32(offset, value) {
    write(offset, value);
    if (offset === 0) { this.interruptStatus |= TXINTR; this.checkInterrupts(); }
  };
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
