// A W25Q16JV-style SPI NOR flash (2 MiB), the chip a Pico carries, at the level of
// its SPI commands.  rp2040js 1.4.1 serves XIP reads from an array and drops every
// write; this model is what the bootrom's flash_range_erase/program (and the SDK's
// flash_do_cmd) talk to, through the SSI and IO_QSPI models in qspi.mjs.
//
// Program and erase take the datasheet's typical time, with BUSY set meanwhile, so a
// power cut can fall inside one.  The array is changed at once and the old bytes are
// kept: a cut then puts back the bytes the operation had not reached yet (the flash
// works through them in address order), or, untorn, lets the operation complete.

export const FLASH_BYTES = 2 * 1024 * 1024;
const PAGE = 256;

// W25Q16JV typical times (datasheet rev. H, table 9.6), in nanoseconds.
export const TYPICAL_NS = { page: 0.4e6, sector: 45e6, block32: 120e6, block64: 150e6, chip: 5e9 };

const JEDEC_ID = [0xef, 0x40, 0x15];   // Winbond, SPI NOR, 16 Mbit
const SR2_QE = 0x02;                   // quad enable, set in the -IQ parts: boot2 then skips writing SR2

export class SpiFlash {
  // mem: the array (its length a power of two); now(): emulated time in ns.
  constructor(mem, { now = () => 0, timing = TYPICAL_NS, uid = [0xe6, 0x61, 0x38, 0x50, 0x43, 0x2a, 0x11, 0x2c] } = {}) {
    this.mem = mem; this.now = now; this.timing = timing; this.uid = uid;
    this.mask = mem.length - 1;
    this.wel = false;          // write enable latch
    this.op = null;            // the program/erase in progress: {addr, old, start, end}
    this.cmd = null;           // bytes shifted in since chip select fell, or null when deselected
    this.armed = null;         // a power cut waiting for its page program: {left, byte, fire}
    this.stats = { erases: 0, programs: 0, reads: 0, torn: 0 };
    // Told the end (ns) of the program or erase in progress when its status is read
    // BUSY: the reader is waiting for it (Chip.spinUntil).
    this.onBusyPoll = null;
  }

  get busy() {
    if (this.op && this.now() >= this.op.end) this.op = null;
    return this.op !== null;
  }

  select() { this.cmd = []; }

  // One byte in, one byte out (full duplex).
  transfer(b) {
    const t = this.cmd;
    if (!t) return 0xff;       // not selected: nobody drives the data line
    const i = t.length;
    t.push(b & 0xff);
    if (i === 0) return 0xff;
    const c = t[0];
    if (this.busy && c !== 0x05 && c !== 0x35) return 0xff;   // busy: only status answers
    switch (c) {
      case 0x05:
        if (!this.busy) return this.wel ? 2 : 0;
        this.onBusyPoll?.(this.op.end);
        return 3;
      case 0x35: return SR2_QE;
      case 0x9f: return JEDEC_ID[i - 1] ?? 0xff;
      case 0x90: return i >= 4 ? [0xef, 0x14][(i - 4) & 1] : 0xff;
      case 0xab: return i >= 4 ? 0x14 : 0xff;
      case 0x4b: return i >= 5 ? this.uid[(i - 5) & 7] : 0xff;
      case 0x03: return this.readAt(t, i, 4);
      case 0x0b: return this.readAt(t, i, 5);
    }
    return 0xff;
  }

  readAt(t, i, first) {
    if (i < first) return 0xff;
    if (i === first) this.stats.reads++;
    return this.mem[(addrOf(t) + i - first) & this.mask];
  }

  // Chip select rises: a write or erase command starts only now (datasheet 8.2).
  deselect() {
    const t = this.cmd;
    this.cmd = null;
    if (!t || !t.length || this.busy) return;
    switch (t[0]) {
      case 0x06: this.wel = true; return;
      case 0x04: this.wel = false; return;
      case 0x66: case 0x99: this.wel = false; return;
      case 0x02: if (t.length >= 5) this.program(addrOf(t), t.slice(4)); return;
      case 0x20: if (t.length === 4) this.erase(addrOf(t), 4096, this.timing.sector); return;
      case 0x52: if (t.length === 4) this.erase(addrOf(t), 32768, this.timing.block32); return;
      case 0xd8: if (t.length === 4) this.erase(addrOf(t), 65536, this.timing.block64); return;
      case 0x60: case 0xc7: if (t.length === 1) this.erase(0, this.mem.length, this.timing.chip); return;
    }
  }

  // Page program: bits only go from 1 to 0; the address wraps inside its page and, past
  // 256 data bytes, the last 256 are kept (datasheet 8.2.15).
  program(addr, data) {
    if (!this.wel) return;
    this.wel = false;
    const page = addr & this.mask & ~(PAGE - 1);
    const buf = new Int16Array(PAGE).fill(-1);
    const skip = Math.max(0, data.length - PAGE);
    for (let k = skip; k < data.length; k++) buf[(addr + k) & (PAGE - 1)] = data[k];
    const old = this.mem.slice(page, page + PAGE);
    for (let k = 0; k < PAGE; k++) if (buf[k] >= 0) this.mem[page + k] &= buf[k];
    this.start(page, old, this.timing.page);
    this.stats.programs++;
    const a = this.armed;
    if (a && --a.left === 0) {
      this.armed = null;
      const { start, end } = this.op;
      a.fire(start + (a.byte + 0.5) * (end - start) / PAGE, { addr: page, program: a.nth });
    }
  }

  // A power cut armed for the `nth` page program from now (1: the next one), to fall
  // in the middle of its byte `byte` (0-255): the first `byte` bytes of the page are
  // written then, the rest not.  When that program starts, fire(at, {addr, program})
  // is told the time (ns) the cut must come at; the caller cuts the power then
  // (powerCut).  A new arming replaces the last; null disarms.
  armCut(nth, byte, fire) {
    this.armed = nth === null ? null : { left: nth, nth, byte, fire };
  }

  erase(addr, size, ns) {
    if (!this.wel) return;
    this.wel = false;
    const base = addr & this.mask & ~(size - 1);
    const old = this.mem.slice(base, base + size);
    this.mem.fill(0xff, base, base + size);
    this.start(base, old, ns);
    this.stats.erases++;
  }

  start(addr, old, ns) {
    const start = this.now();
    this.op = { addr, old, start, end: start + ns };
  }

  // The power fails now.  Torn: the bytes the operation in progress had not reached
  // get their old values back.  Either way the chip comes back idle, deselected.
  // Returns the operation the cut fell in, {addr, bytes, done: the bytes it had
  // reached}, or null when none was in progress.
  powerCut(torn) {
    const op = this.busy ? this.op : null;
    let done = 0;
    if (op) {
      done = Math.floor(op.old.length * (this.now() - op.start) / (op.end - op.start));
      if (torn) {
        this.mem.set(op.old.subarray(done), op.addr + done);
        this.stats.torn++;
      }
    }
    this.op = null; this.cmd = null; this.wel = false;
    return op ? { addr: op.addr, bytes: op.old.length, done } : null;
  }
}

function addrOf(t) { return (t[1] << 16) | (t[2] << 8) | t[3]; }
