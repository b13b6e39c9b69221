// A 256-byte boot2 of the tests' own, for chips that run no MicroPython: a few Thumb
// instructions (an idle loop, a lockup, a breakpoint) the bootrom runs from SRAM.
import { encodeBlock } from 'uf2';

// The bootrom checks boot2's CRC-32 (poly 0x04c11db7, MSB first, init ~0, no final
// xor) over its first 252 bytes, then runs it from SRAM.
export function boot2(thumb) {
  const b = Buffer.alloc(256);
  thumb.forEach((op, k) => b.writeUInt16LE(op, 2 * k));
  let crc = 0xffffffff;
  for (let i = 0; i < 252; i++) {
    crc ^= b[i] << 24;
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  b.writeUInt32LE(crc >>> 0, 252);
  return b;
}

// The same as a one-block UF2 at the flash's start.
export const boot2Uf2 = (thumb) => Buffer.from(encodeBlock({ flags: 0x2000, flashAddress: 0x10000000, payload: boot2(thumb), blockNumber: 0, totalBlocks: 1, boardFamily: 0xe48bff56 }));

export const IDLE = [0xbf30, 0xe7fd];   // wfi; b back to it
