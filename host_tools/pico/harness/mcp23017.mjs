// The MCP23017 16-bit I/O expander as its registers (Microchip DS20001952C), for
// buttons: inputs pulled to ground by a press, interrupt-on-change, the INT output.
// Register addresses are IOCON.BANK = 0's (A and B side by side); BANK = 1 is mapped
// onto them.  Felt's driver (felt/hal/mp.py) sets MIRROR and reads GPIOA+B in one go.

const IODIR = 0x00, IPOL = 0x02, GPINTEN = 0x04, DEFVAL = 0x06, INTCON = 0x08, IOCON = 0x0a,
  GPPU = 0x0c, INTF = 0x0e, INTCAP = 0x10, GPIO = 0x12, OLAT = 0x14;
const NREGS = 0x16;
const BANK = 0x80, MIRROR = 0x40, SEQOP = 0x20, ODR = 0x04, INTPOL = 0x02;

export class Mcp23017 {
  // intLine(level): drives the chip's INTA wire: true/false, or null when released
  // (open drain, inactive).  A board wires INTA only; with MIRROR it carries both ports.
  constructor(address, intLine = () => {}) {
    this.address = address;
    this.intLine = intLine;
    this.regs = new Uint8Array(NREGS);
    this.regs[IODIR] = this.regs[IODIR + 1] = 0xff;   // power-on: all inputs
    this.low = [0, 0];          // pins pulled to ground from outside (a pressed button)
    this.last = [this.pins(0), this.pins(1)];
    this.ptr = 0;
    this.expectPtr = false;
    this.stats = { reads: 0, writes: 0 };
    // Called after every register write, before the pins are sensed: something wired to
    // the pins (a key matrix) may pull some of them low as the chip now drives them.
    this.onWrite = null;
    this.driveInt();
  }

  // The level on each pin of a port: an output follows OLAT; an input is low when
  // pulled down from outside, else high (pulled up, or floating with nothing on it).
  pins(port) {
    const r = this.regs, dir = r[IODIR + port];
    return ((~this.low[port] & dir) | (r[OLAT + port] & ~dir)) & 0xff;
  }

  // Whether pin 0-15 is an output driving low (IODIR bit 0, OLAT bit 0).
  drivesLow(pin) {
    const port = pin >> 3, bit = 1 << (pin & 7);
    return !(this.regs[IODIR + port] & bit) && !(this.pins(port) & bit);
  }

  gpio(port) { return this.pins(port) ^ (this.regs[IPOL + port] & this.regs[IODIR + port]); }

  // pin 0-15 (GPA0-7, GPB0-7); down: pulled to ground.  pull() leaves the sensing to
  // its caller (which may pull several pins at once); setPin() senses at once.
  pull(pin, down) {
    const port = pin >> 3, bit = 1 << (pin & 7);
    this.low[port] = down ? this.low[port] | bit : this.low[port] & ~bit;
  }

  setPin(pin, down) { this.pull(pin, down); this.sense(); }

  // Interrupt-on-change: a pin enabled in GPINTEN interrupts when it differs from its
  // previous level (INTCON = 0) or from DEFVAL (INTCON = 1).  INTCAP holds the port as
  // it was at the first interrupt until the interrupt is cleared.
  sense() {
    const r = this.regs;
    for (const p of [0, 1]) {
      const now = this.pins(p);
      const ref = (r[INTCON + p] & r[DEFVAL + p]) | (~r[INTCON + p] & this.last[p]);
      const hit = (now ^ ref) & r[GPINTEN + p] & r[IODIR + p] & 0xff;
      if (hit) {
        if (!r[INTF + p]) r[INTCAP + p] = now ^ (r[IPOL + p] & r[IODIR + p]);
        r[INTF + p] |= hit;
      }
      this.last[p] = now;
    }
    this.driveInt();
  }

  driveInt() {
    const r = this.regs, c = r[IOCON];
    const active = c & MIRROR ? (r[INTF] | r[INTF + 1]) !== 0 : r[INTF] !== 0;
    if (c & ODR) this.intLine(active ? false : null);
    else this.intLine(c & INTPOL ? active : !active);
  }

  // Reading GPIO or INTCAP clears the port's interrupt; a DEFVAL comparison still
  // true raises it again at once.
  clearInt(port) {
    this.regs[INTF + port] = 0;
    this.last[port] = this.pins(port);
    const r = this.regs, now = this.pins(port);
    const hit = (now ^ r[DEFVAL + port]) & r[INTCON + port] & r[GPINTEN + port] & r[IODIR + port];
    if (hit) { r[INTF + port] = hit; r[INTCAP + port] = this.gpio(port); }
    this.driveInt();
  }

  // BANK = 1 puts port B's registers 0x10 above port A's: the same registers.
  index(addr) {
    if (!(this.regs[IOCON] & BANK)) return addr < NREGS ? addr : -1;
    const reg = addr & 0x0f, port = addr >> 4;
    return reg <= 0x0a && port <= 1 ? reg * 2 + port : -1;
  }

  // After each byte the pointer moves on (SEQOP = 0), or toggles between the pair of
  // A and B registers (SEQOP = 1, BANK = 0), or stays (SEQOP = 1, BANK = 1).
  advance() {
    const c = this.regs[IOCON];
    if (!(c & SEQOP)) {
      this.ptr = c & BANK ? (this.ptr + 1) & 0x1f : (this.ptr + 1) % NREGS;
    } else if (!(c & BANK)) this.ptr ^= 1;
  }

  // I2C: a write transaction's first byte sets the register pointer; reads start there.
  start(read) { this.expectPtr = !read; return true; }

  write(b) {
    if (this.expectPtr) { this.ptr = b; this.expectPtr = false; return true; }
    const i = this.index(this.ptr);
    if (i >= 0 && i !== INTF && i !== INTF + 1 && i !== INTCAP && i !== INTCAP + 1) {
      if (i === IOCON || i === IOCON + 1) this.regs[IOCON] = this.regs[IOCON + 1] = b & 0xfe;
      else if (i === GPIO || i === GPIO + 1) this.regs[OLAT + (i & 1)] = b;
      else this.regs[i] = b;
      this.onWrite?.();
      this.sense();
    }
    this.stats.writes++;
    this.advance();
    return true;
  }

  read() {
    const i = this.index(this.ptr);
    let v = 0;
    if (i >= 0) {
      v = this.regs[i];
      if (i === GPIO || i === GPIO + 1) { v = this.gpio(i & 1); this.clearInt(i & 1); }
      else if (i === INTCAP || i === INTCAP + 1) this.clearInt(i & 1);
    }
    this.stats.reads++;
    this.advance();
    return v;
  }

  stop() {}

  // A power cut leaves the expander powered (it is the board's, not the Pico's), but
  // nobody is holding a button any more.
  releaseAll() { this.low = [0, 0]; this.sense(); }
}
