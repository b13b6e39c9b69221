// The NXP SC16IS750 I2C-to-UART bridge (datasheet SC16IS740/750/760 rev. 7) as the muck
// reader's and the shuffler's data port's receiver (board.mjs's BRIDGES, one instance
// each): its registers over I2C, the 64-byte RX and TX FIFOs paced at the
// baud its divisor sets, and the IRQ output (active low, open drain).
//
// I2C: after the address a sub-address byte, (register << 3) | (channel << 1); the
// SC16IS750 has channel 0 only (another is NACKed).  The sub-address does not move on:
// a multi-byte write or read stays at its register, so THR takes successive bytes into
// the TX FIFO and RHR gives successive bytes of the RX FIFO; any other register is
// written or read again.  Registers by LCR (table 10): DLL/DLH at 0/1 while LCR bit 7 is
// set; EFR at 2 and XON1/2, XOFF1/2 at 4-7 when LCR is 0xBF; TCR/TLR at 6/7 while MCR
// bit 2 and EFR bit 4 are set.  IER[7:4], FCR[5:4] and MCR[7:5, 2] can be changed only
// while EFR bit 4 (enhanced functions) is set, as the datasheet says.
import { baudOf } from './uart.mjs';

const DEPTH = 64;
const BITS = 10;   // a character: 8N1 (the word length and parity of LCR are not applied)
const RX_TRIGGER = [8, 16, 56, 60], TX_TRIGGER = [8, 16, 32, 56];
const IIR_NONE = 0x01, IIR_LINE = 0x06, IIR_TIMEOUT = 0x0c, IIR_RHR = 0x04, IIR_THR = 0x02;
const LOOPBACK = 0x10, PRESCALER = 0x80, TCR_TLR = 0x04, ENHANCED = 0x10;
const RX_OFF = 0x02, TX_OFF = 0x04;

export class Sc16is750 {
  // crystal: Hz at XTAL1; baud: the line's before the firmware sets a divisor;
  // irqLine(active): IRQ pulled low (true) or let go (false); sent(byte): a byte left
  // TX (its stop bit ended); clock: {now() ns, at(ns, fn) -> handle, cancel(handle)}.
  constructor(address, { crystal, baud, clock, irqLine = () => {}, sent = () => {} }) {
    this.address = address; this.crystal = crystal; this.boardBaud = baud;
    this.clock = clock; this.irqLine = irqLine; this.sent = sent;
    this.name = 'SC16IS750';
    this.stats = { received: 0, overrun: 0, read: 0, sent: 0, tx_lost: 0 };
    this.irq = null;
    this.txTimer = null; this.timeoutTimer = null;
    this.reset();
  }

  // Power-on, the RESET pin, or IOControl bit 3: registers to their reset values
  // (table 11), both FIFOs empty, nothing on the line.
  reset() {
    this.ier = 0; this.fcr = 0; this.lcr = 0x1d; this.mcr = 0; this.spr = 0xff;
    this.dll = 0; this.dlh = 0;   // undefined at reset: 0 here, "not set" (the board's baud)
    this.efr = 0; this.xonoff = [0, 0, 0, 0]; this.tcr = 0; this.tlr = 0;
    this.io = [0, 0, 0, 0, 0];    // IODir, IOState, IOIntEna, reserved, IOControl
    this.efcr = 0;
    this.rx = []; this.tx = [];
    this.lineErrors = 0;          // LSR bits 1-4 (overrun only, here)
    this.thrInt = false;
    this.timedOut = false;
    if (this.txTimer) this.clock.cancel(this.txTimer);
    if (this.timeoutTimer) this.clock.cancel(this.timeoutTimer);
    this.txTimer = this.timeoutTimer = null;
    this.reg = 0; this.expectSub = false;
    this.update();
  }

  // The line: baud = crystal / prescaler (MCR bit 7: 4, else 1) / (16 * divisor).
  // baudDivider/baudRate as uart.mjs's baudOf reads a PL011's (a UartFeeder paces the
  // bytes of the bridge's op by them).
  get baudDivider() { return this.dll | (this.dlh << 8); }
  get baudRate() { return this.crystal / ((this.mcr & PRESCALER ? 4 : 1) * 16 * this.baudDivider); }
  charNs() { return (BITS * 1e9) / baudOf(this, this.boardBaud); }

  // What a UartFeeder asks of its UART: the receiver is on unless EFCR bit 1 disables
  // it; the sender is never held (a full FIFO overruns).
  get enabled() { return true; }
  get rxEnabled() { return !(this.efcr & RX_OFF); }
  get rxFIFO() { return { full: false }; }

  fifoOn() { return !!(this.fcr & 1); }
  // FIFOs off (FCR bit 0, the reset state): RX holds one character, as a 16C450's; TX
  // still takes 64 (TXLVL says 64 free at reset), its interrupt at an empty THR.
  rxDepth() { return this.fifoOn() ? DEPTH : 1; }
  enhanced() { return !!(this.efr & ENHANCED); }
  rxTrigger() { return !this.fifoOn() ? 1 : (this.tlr >> 4) * 4 || RX_TRIGGER[this.fcr >> 6]; }
  txTrigger() { return !this.fifoOn() ? DEPTH : (this.tlr & 0x0f) * 4 || TX_TRIGGER[(this.fcr >> 4) & 3]; }
  txRoom() { return DEPTH - this.tx.length; }

  // A byte from the muck reader on RX (in loopback the RX pin is cut off).
  feedByte(b) { if (!(this.mcr & LOOPBACK)) this.receive(b); }

  receive(b) {
    if (this.efcr & RX_OFF) return;
    if (this.rx.length >= this.rxDepth()) { this.lineErrors |= 0x02; this.stats.overrun++; }
    else { this.rx.push(b); this.stats.received++; }
    this.restartTimeout();
    this.update();
  }

  // The RX time-out: characters in the FIFO, none received or read for 4 character
  // times.  Restarted by each character received and each read of RHR.
  restartTimeout() {
    this.timedOut = false;
    if (this.timeoutTimer) this.clock.cancel(this.timeoutTimer);
    this.timeoutTimer = null;
    if (!this.rx.length) return;
    this.timeoutTimer = this.clock.at(this.clock.now() + 4 * this.charNs(), () => {
      this.timeoutTimer = null;
      this.timedOut = true;
      this.update();
    });
  }

  // The interrupt pending, by priority (table 13): IIR bits 5:0.
  source() {
    if (this.ier & 0x04 && this.lineErrors) return IIR_LINE;
    if (this.ier & 0x01 && this.rx.length) {
      if (this.fifoOn() && this.timedOut) return IIR_TIMEOUT;
      if (this.rx.length >= this.rxTrigger()) return IIR_RHR;
    }
    if (this.ier & 0x02 && this.thrInt) return IIR_THR;
    return IIR_NONE;
  }

  update() {
    const active = this.source() !== IIR_NONE;
    if (active !== this.irq) { this.irq = active; this.irqLine(active); }
  }

  // THR: into the TX FIFO (a write to a full one is lost); writing THR clears the THR
  // interrupt.
  send(b) {
    this.thrInt = false;
    if (this.tx.length >= DEPTH) this.stats.tx_lost++;
    else this.tx.push(b);
    this.shift();
  }

  // The next byte moves from the FIFO to the shift register and leaves a character time
  // later.  The THR interrupt is raised as the FIFO's free room reaches the trigger.
  shift() {
    if (this.txTimer || !this.tx.length || this.efcr & TX_OFF) return;
    const before = this.txRoom();
    const b = this.tx.shift();
    if (before < this.txTrigger() && this.txRoom() >= this.txTrigger()) this.thrInt = true;
    this.txTimer = this.clock.at(this.clock.now() + this.charNs(), () => {
      this.txTimer = null;
      this.stats.sent++;
      if (this.mcr & LOOPBACK) this.receive(b); else this.sent(b);
      this.shift();
      this.update();
    });
  }

  // The register a sub-address reaches under the current LCR, MCR and EFR.
  registerAt(reg) {
    const lcr = this.lcr;
    if (lcr & 0x80 && reg <= 1) return reg ? 'DLH' : 'DLL';
    if (lcr === 0xbf && reg === 2) return 'EFR';
    if (lcr === 0xbf && reg >= 4 && reg <= 7) return 'XONOFF';
    if ((reg === 6 || reg === 7) && this.mcr & TCR_TLR && this.enhanced()) return reg === 6 ? 'TCR' : 'TLR';
    return ['RHR', 'IER', 'FCR', 'LCR', 'MCR', 'LSR', 'MSR', 'SPR', 'TXLVL', 'RXLVL', 'IO', 'IO', 'IO', 'IO', 'IO', 'EFCR'][reg];
  }

  writeReg(reg, v) {
    const keep = (old, mask) => (this.enhanced() ? v : (v & ~mask) | (old & mask)) & 0xff;
    switch (this.registerAt(reg)) {
      case 'DLL': this.dll = v; break;
      case 'DLH': this.dlh = v; break;
      case 'EFR': this.efr = v; break;
      case 'XONOFF': this.xonoff[reg - 4] = v; break;
      case 'TCR': this.tcr = v; break;
      case 'TLR': this.tlr = v; break;
      case 'RHR': this.send(v); break;
      case 'IER': {
        const was = this.ier;
        this.ier = keep(was, 0xf0);
        // Enabling the THR interrupt with room at the trigger raises it at once.
        if (this.ier & 0x02 && !(was & 0x02) && this.txRoom() >= this.txTrigger()) this.thrInt = true;
        break;
      }
      case 'FCR':
        this.fcr = keep(this.fcr, 0x30) & 0xf1;   // bits 1-2 act and read back 0
        if (v & 0x02) { this.rx = []; this.restartTimeout(); }
        if (v & 0x04) this.tx = [];
        break;
      case 'LCR': this.lcr = v; break;
      case 'MCR': this.mcr = keep(this.mcr, 0xe4); break;
      case 'SPR': this.spr = v; break;
      case 'IO':
        if (reg === 0x0e && v & 0x08) { this.reset(); return; }   // software reset, self-clearing
        this.io[reg - 0x0a] = reg === 0x0e ? v & 0x07 : v;
        break;
      case 'EFCR': this.efcr = v; this.shift(); break;
      default: break;   // LSR, MSR, TXLVL, RXLVL: read only
    }
    this.update();
  }

  readReg(reg) {
    let v = 0;
    switch (this.registerAt(reg)) {
      case 'DLL': v = this.dll; break;
      case 'DLH': v = this.dlh; break;
      case 'EFR': v = this.efr; break;
      case 'XONOFF': v = this.xonoff[reg - 4]; break;
      case 'TCR': v = this.tcr; break;
      case 'TLR': v = this.tlr; break;
      case 'RHR':
        if (this.rx.length) { v = this.rx.shift(); this.stats.read++; }
        this.restartTimeout();
        break;
      case 'IER': v = this.ier; break;
      case 'FCR': {   // IIR; reading it when the THR interrupt is the one it names clears it
        const s = this.source();
        if (s === IIR_THR) this.thrInt = false;
        v = (this.fifoOn() ? 0xc0 : 0) | s;
        break;
      }
      case 'LCR': v = this.lcr; break;
      case 'MCR': v = this.mcr; break;
      case 'LSR':
        v = (this.rx.length ? 0x01 : 0) | this.lineErrors | (this.tx.length ? 0 : 0x20) | (this.tx.length || this.txTimer ? 0 : 0x40);
        this.lineErrors = 0;      // reading LSR clears its error bits
        break;
      case 'MSR': v = 0; break;   // no modem lines wired: CTS, DSR, RI, CD inactive, no change
      case 'SPR': v = this.spr; break;
      case 'TXLVL': v = this.txRoom(); break;
      case 'RXLVL': v = this.rx.length; break;
      case 'IO': v = this.io[reg - 0x0a]; break;
      case 'EFCR': v = this.efcr; break;
      default: break;
    }
    this.update();
    return v;
  }

  // I2C.
  start(read) { this.expectSub = !read; return true; }

  write(b) {
    if (this.expectSub) {
      if ((b >> 1) & 3) return false;   // channel 1-3: the SC16IS750 has one channel
      this.reg = (b >> 3) & 0x0f;
      this.expectSub = false;
      return true;
    }
    this.writeReg(this.reg, b);
    return true;
  }

  read() { return this.readReg(this.reg); }

  stop() {}
}
