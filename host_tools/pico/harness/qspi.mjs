// The SSI (0x18000000) and IO_QSPI (0x40018000) as the flash sees them: rp2040js 1.4.1
// has a stub SSI and no IO_QSPI, so flash commands never reach a flash.  These models
// carry the bootrom's and the SDK's SPI commands to a SpiFlash (flash.mjs).
//
// Chip select: the ROM and the SDK force it through IO_QSPI GPIO_QSPI_SS_CTRL's output
// override (2 = low, selected; 3 = high).  Left to the SSI ("normal", 0: boot2's status
// reads), the SSI holds it low while it shifts what was queued: with bytes that shift
// out at once, the writes queued back to back before the next read form one command.
import { BasePeripheral } from 'rp2040js';

const CTRLR0 = 0x00, SSIENR = 0x08, TXFLR = 0x20, RXFLR = 0x24, SR = 0x28, IDR = 0x58,
  VERSION_ID = 0x5c, DR0 = 0x60;
const SR_TFNF = 0x2, SR_TFE = 0x4, SR_RFNE = 0x8;
const RX_DEPTH = 16;
const SS_STATUS = 0x08, SS_CTRL = 0x0c;
const STATUS_IN = (1 << 17) | (1 << 19);   // INFROMPAD, INTOPERI
const OEOVER_DISABLE = 2;
const OUTOVER_NORMAL = 0, OUTOVER_LOW = 2;

export class Ssi extends BasePeripheral {
  constructor(rp2040, flash) {
    super(rp2040, 'SSI');
    this.flash = flash;
    this.regs = new Map();
    this.rx = [];
    this.frameOpen = false;   // normal mode: a command in progress
    this.io = null;           // the IoQspi, for the chip select override
  }

  // Standard SPI, 8-bit frames: the only way the ROM speaks to the flash byte by byte.
  // (XIP set-up writes quad, 32-bit frames; they change nothing in the flash.)
  get byteMode() {
    const c = this.regs.get(CTRLR0) ?? 0;
    return ((c >> 21) & 3) === 0 && ((c >> 16) & 0x1f) === 7;
  }

  readUint32(offset) {
    switch (offset) {
      case TXFLR: return 0;                      // bytes shift out as they are written
      case RXFLR: return this.rx.length;
      case SR: return SR_TFNF | SR_TFE | (this.rx.length ? SR_RFNE : 0);
      case IDR: return 0x51535049;
      case VERSION_ID: return 0x3430312a;
      case DR0:
        if (this.io?.outover === OUTOVER_NORMAL && this.frameOpen) this.endFrame();
        return this.rx.length ? this.rx.shift() : 0;
    }
    return this.regs.get(offset) ?? 0;
  }

  writeUint32(offset, value) {
    if (offset === DR0) { this.shift(value); return; }
    if (offset === SSIENR) {                     // enabling or disabling clears the FIFOs
      this.rx.length = 0;
      if (this.frameOpen) this.endFrame();
    }
    this.regs.set(offset, value >>> 0);
  }

  shift(value) {
    let out = 0;
    const over = this.io?.outover ?? OUTOVER_NORMAL;
    if (over === OUTOVER_LOW) out = this.flash.transfer(value);
    else if (over === OUTOVER_NORMAL && this.byteMode) {
      if (!this.frameOpen) { this.flash.select(); this.frameOpen = true; }
      out = this.flash.transfer(value);
    }
    if (this.rx.length < RX_DEPTH) this.rx.push(out);
  }

  endFrame() { this.frameOpen = false; this.flash.deselect(); }
}

export class IoQspi extends BasePeripheral {
  constructor(rp2040, flash, ssi) {
    super(rp2040, 'IO_QSPI');
    this.flash = flash; this.ssi = ssi;
    this.regs = new Map();
    ssi.io = this;
  }

  get outover() { return ((this.regs.get(SS_CTRL) ?? 0) >> 8) & 3; }

  // The SS pad reads high (its pull-up) unless the chip itself drives it low: the
  // bootrom samples it with the output off to see whether BOOTSEL is held (it is not).
  readUint32(offset) {
    if (offset === SS_STATUS) {
      const oeover = ((this.regs.get(SS_CTRL) ?? 0) >> 12) & 3;
      return this.outover === OUTOVER_LOW && oeover !== OEOVER_DISABLE ? 0 : STATUS_IN;
    }
    return this.regs.get(offset) ?? 0;
  }

  writeUint32(offset, value) {
    const before = this.outover;
    this.regs.set(offset, value >>> 0);
    if (offset !== SS_CTRL) return;
    const after = this.outover;
    if (before === after) return;
    if (this.ssi.frameOpen) this.ssi.endFrame();
    if (before === OUTOVER_LOW) this.flash.deselect();
    if (after === OUTOVER_LOW) this.flash.select();
  }
}

// Puts the flash behind a chip's SSI and IO_QSPI, and the flash's array in its XIP window.
export function attachFlash(mcu, flash) {
  mcu.flash = flash.mem;
  mcu.flash16 = new Uint16Array(flash.mem.buffer, flash.mem.byteOffset, flash.mem.length >> 1);
  mcu.flashView = new DataView(flash.mem.buffer, flash.mem.byteOffset, flash.mem.length);
  const ssi = new Ssi(mcu, flash);
  mcu.peripherals[0x18000] = ssi;
  mcu.peripherals[0x40018] = new IoQspi(mcu, flash, ssi);
  // Nobody holds BOOTSEL: the SS pad reads high (the bootrom samples it through SIO
  // GPIO_HI_IN; rp2040js's QSPI pads start with input disabled, so it would read low).
  const ss = mcu.qspi[1];
  ss.padValue |= 0x40 | 0x08;   // IE, PUE
  ss.setInputValue(true);
}
