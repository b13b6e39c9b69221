// The RP2040 and its run loop.  rp2040js 1.4.1 cannot reset a chip in place (its
// reset() restarts the core only), so a reset builds a new RP2040 around the same
// flash array: every peripheral then starts from its power-on state, as on silicon.
// The watchdog's REASON and SCRATCH registers survive a watchdog or software reset
// (the bootrom and machine.reset_cause() read them) but not a power cut.
import { RP2040, USBCDC } from 'rp2040js';
import { attachFlash } from './qspi.mjs';
import { Rosc } from './rosc.mjs';
import { VregAndChipReset } from './vreg.mjs';

// A cycle lasts 1/clk_sys: rp2040js follows the PLL and CLOCKS registers the firmware
// sets (the SDK's 125 MHz at reset, Felt's image 200 MHz: hardware/micropython).
const WATCHDOG = 0x40058, ROSC = 0x40060, VREG = 0x40064;
const REASON_TIMER = 1;                  // RP2040 WATCHDOG_REASON: TIMER; FORCE is 2
const AIRCR = 0xd0c, AIRCR_VECTKEY = 0x05fa, AIRCR_SYSRESETREQ = 1 << 2;
const B_SELF = 0xe7fe;                   // `b .`: a branch to itself

export class ChipFault extends Error {}

export class Chip {
  // bootrom: Uint32Array; flash: SpiFlash; nextBit: the ROSC's bit source;
  // wire(mcu): connects the board's devices to a new chip; onReset(why) is told of a
  // reset the chip asked for; usb: a USB host is plugged in, and cdc(bytes) is told
  // what the firmware prints on its USB serial (the REPL); typeUsb(bytes) types on it.
  // Off by default: rp2040js's USB host keeps the controller's interrupt busy, and the
  // chip never idles.
  constructor({ bootrom, flash, nextBit, wire, onReset, usb = false, cdc = () => {} }) {
    Object.assign(this, { bootrom, flash, nextBit, wire, onReset, usb, cdc });
    this.epoch = 0;                      // harness time (ns) at which this chip's clock started
    this.boots = 0;
    this.cycles = 0;                     // executed, over all boots
    this.cycleNs = 0;                    // one cycle of clk_sys, now (ns)
    this.fault = null;
    this.resetWhy = null;                // a reset asked for from inside a run
    this.lastPC = -1;
    this.spin = 0;                       // spinUntil's end, in this chip's clock (ns)
  }

  get now() { return this.epoch + (this.mcu ? this.mcu.clock.nanos : 0); }

  get coreMillivolts() { return this.mcu.peripherals[VREG].millivolts; }

  // Power-on (watchdog = null) or a watchdog-driven restart ({reason, scratch}).
  boot(watchdog = null) {
    const now = this.now;
    const mcu = new RP2040();
    mcu.logger = this.logger();
    mcu.loadBootrom(this.bootrom);       // also resets the core: PC at the bootrom's reset vector
    this.cycleNs = 1e9 / mcu.clkSys;
    mcu.addClockListener((hz) => { this.cycleNs = 1e9 / hz; });
    attachFlash(mcu, this.flash);
    mcu.peripherals[ROSC] = new Rosc(mcu, this.nextBit);
    mcu.peripherals[VREG] = new VregAndChipReset(mcu);
    const wd = mcu.peripherals[WATCHDOG];
    if (watchdog) { wd.reason = watchdog.reason; wd.scratchData.set(watchdog.scratch); }
    wd.onWatchdogTrigger = () => {
      // The chip resets: stop the counter, or rp2040js's periodic alarm, its count at
      // zero, fires again at the same instant for ever.
      wd.alarm.enable = false;
      wd.timer.enable = false;
      this.requestReset(wd.reason === REASON_TIMER ? 'watchdog' : 'software');
    };
    const ppbWrite = mcu.ppb.writeUint32.bind(mcu.ppb);
    mcu.ppb.writeUint32 = (offset, value) => {
      if (offset === AIRCR && value >>> 16 === AIRCR_VECTKEY && value & AIRCR_SYSRESETREQ) this.requestReset('software');
      else ppbWrite(offset, value);
    };
    mcu.onBreak = (code) => this.faulted(`breakpoint (bkpt ${code}) at 0x${(mcu.core.PC >>> 0).toString(16)}`);
    this.host = null;
    if (this.usb) {
      this.host = new USBCDC(mcu.usbCtrl);
      this.host.onSerialData = (bytes) => this.cdc(Buffer.from(bytes));
    }
    this.mcu = mcu;
    this.epoch = now;
    this.boots++;
    this.resetWhy = null;
    this.wire(mcu);
  }

  // A reset: the chip starts again from the bootrom, the flash as it is.
  reset(why) {
    const wd = this.mcu.peripherals[WATCHDOG];
    this.boot(why === 'power' ? null : { reason: why === 'watchdog' ? REASON_TIMER : 2, scratch: wd.scratchData });
  }

  // Bytes typed on the USB serial (the host's side of the CDC line); a reset loses
  // those the firmware has not read, as unplugging would.
  typeUsb(bytes) { for (const b of bytes) this.host.sendSerialByte(b); }

  requestReset(why) { this.resetWhy ??= why; this.limit = -1; }

  faulted(why) { this.fault ??= why; this.limit = -1; }

  logger() {
    const fault = (m) => this.faulted(m);
    const trace = process.env.PICO_TRACE ? (c, m) => process.stderr.write(`pico: trace ${c}: ${m}\n`) : () => {};
    return {
      debug() {}, info() {},
      warn(component, msg) {
        trace(component, msg);
        if (component === 'CortexM0Core' && /not implemented/.test(msg)) fault(`undefined instruction: ${msg}`); },
      error(component, msg) { fault(`${component}: ${msg}`); },
    };
  }

  // The core is polling for something that cannot change before harness time `ns`
  // (the flash's BUSY bit: the ROM's flash routines spin on it, with interrupts off,
  // for the 45 ms of a sector erase): the run skips ahead to then, or to the next
  // alarm, whichever is first, as it does for WFI/WFE.  The emulated time is the same;
  // only the identical polls in between are not executed one by one.
  spinUntil(ns) { this.spin = ns - this.epoch; }

  // Lower the end of the run in progress (a harness timer now falls before it).
  clamp(harnessNs) { this.limit = Math.min(this.limit, harnessNs - this.epoch); }

  // Runs until harness time `until` (ns), a reset asked for by the firmware, or a
  // fault.  Idle time (WFI/WFE with nothing pending) jumps to the next alarm.
  // Returns 'reset' (then onReset has been told and the new chip is running) or null.
  run(until) {
    const { core, clock } = this.mcu;
    this.limit = until - this.epoch;
    let cycles = 0;
    while (clock.nanosCounter < this.limit) {
      if (core.waiting) {
        const next = clock.nextAlarm ? clock.nextAlarm.nanos : Infinity;
        clock.tick(Math.min(next, this.limit) - clock.nanosCounter);
      } else {
        // clock.tick() for every instruction is a fifth of the run time: move the
        // counter here, and tick only when an alarm is due.
        const c = core.executeInstruction();
        cycles += c;
        clock.nanosCounter += c * this.cycleNs;
        const alarm = clock.nextAlarm;
        if (alarm !== null && alarm.nanos <= clock.nanosCounter) clock.tick(0);
        if (this.spin > clock.nanosCounter) {
          const next = clock.nextAlarm ? clock.nextAlarm.nanos : Infinity;
          const d = Math.min(next, this.spin, this.limit) - clock.nanosCounter;
          if (d > 0) clock.tick(d);
        }
        this.spin = 0;
      }
    }
    this.cycles += cycles;
    if (this.fault) throw new ChipFault(this.fault);
    this.checkLockup();
    if (this.resetWhy) {
      const why = this.resetWhy;
      this.reset(why);
      this.onReset(why);
      return 'reset';
    }
    return null;
  }

  // A core spinning on `b .` with interrupts masked can never leave: the end of a
  // HardFault or a panic.  (Cortex-M0 lockup itself is not modelled by rp2040js.)
  checkLockup() {
    const { core } = this.mcu;
    const pc = core.PC >>> 0;
    if (pc === this.lastPC && core.PM && !core.waiting && this.mcu.readUint16(pc) === B_SELF) {
      throw new ChipFault(`lockup: spinning at 0x${pc.toString(16)} with interrupts masked`);
    }
    this.lastPC = pc;
  }
}
