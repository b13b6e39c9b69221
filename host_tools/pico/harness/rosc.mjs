// The ring oscillator, for its RANDOMBIT register: rp2040js 1.4.1 leaves ROSC
// unimplemented (every read 0xffffffff), so MicroPython's os.urandom, which shifts in
// ROSC RANDOMBIT (ROSC base + 0x1c; ports/rp2/main.c rosc_random_u8), gives the same
// bytes every boot.  Here the bits come from a PRNG seeded once per harness run:
// every boot draws new bits, and a run with the same seed draws the same ones.
import { BasePeripheral } from 'rp2040js';

const CTRL = 0x00, STATUS = 0x18, RANDOMBIT = 0x1c, COUNT = 0x20;
const STATUS_STABLE = 1 << 31, STATUS_ENABLED = 1 << 12;

// sfc32 (Chris Doty-Humphrey's small fast counting generator), seeded from one integer.
export function randomBits(seed) {
  let a = 0x9e3779b9, b = 0x243f6a88, c = 0xb7e15162, d = seed >>> 0;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();   // stir the seed in
  let word = 0, left = 0;
  return () => {
    if (!left) { word = next(); left = 32; }
    left--;
    const bit = word & 1;
    word >>>= 1;
    return bit;
  };
}

export class Rosc extends BasePeripheral {
  constructor(rp2040, nextBit) {
    super(rp2040, 'ROSC');
    this.nextBit = nextBit;
    this.regs = new Map([[CTRL, 0xaa0]]);
  }

  readUint32(offset) {
    switch (offset) {
      case STATUS: return (STATUS_STABLE | STATUS_ENABLED) >>> 0;
      case RANDOMBIT: return this.nextBit();
      case COUNT: return 0;
    }
    return this.regs.get(offset) ?? 0;
  }

  writeUint32(offset, value) { this.regs.set(offset, value >>> 0); }
}
