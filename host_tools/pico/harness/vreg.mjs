// VREG_AND_CHIP_RESET (0x40064000), unimplemented in rp2040js 1.4.1: its reads of
// 0xffffffff set CHIP_RESET.PSM_RESTART_FLAG, which sends the bootrom into the
// debugger's rescue sleep.  Here CHIP_RESET says what a Pico's would: the last chip
// reset was the power-on reset (a watchdog reset is not a chip-level reset).
import { BasePeripheral } from 'rp2040js';

const VREG = 0x0, BOD = 0x4, CHIP_RESET = 0x8;
const HAD_POR = 1 << 8;

export class VregAndChipReset extends BasePeripheral {
  constructor(rp2040) {
    super(rp2040, 'VREG_AND_CHIP_RESET');
    this.regs = new Map([[VREG, 0xb1], [BOD, 0x91], [CHIP_RESET, HAD_POR]]);   // datasheet reset values
  }

  readUint32(offset) { return this.regs.get(offset) ?? 0; }

  // The core's supply as VREG.VSEL sets it (datasheet: 0.80 V at 0b0101 and below, then
  // 50 mV a step; 1.10 V at reset).
  get millivolts() {
    const vsel = (this.regs.get(VREG) >>> 4) & 0xf;
    return vsel <= 5 ? 800 : 800 + (vsel - 5) * 50;
  }

  writeUint32(offset, value) {
    // CHIP_RESET's HAD_* bits are read-only; its one writable flag is never set here.
    if (offset !== CHIP_RESET) this.regs.set(offset, value >>> 0);
  }
}
