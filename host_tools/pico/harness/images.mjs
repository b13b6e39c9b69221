// The files a run starts from, checked before anything runs: a file that is missing,
// truncated or of the wrong kind is refused with one line naming it.
import fs from 'fs';
import { decodeBlock, isUF2Block, blockSize, UF2Flags } from 'uf2';
import { FLASH_BYTES } from './flash.mjs';

export const XIP_BASE = 0x10000000;
// The rp2 port's filesystem on RPI_PICO: the last 1408 KiB of the 2 MiB flash
// (MICROPY_HW_FLASH_STORAGE_BYTES; its base is PICO_FLASH_SIZE_BYTES minus that).
export const FS_OFFSET = 0xa0000;
export const FS_BYTES = FLASH_BYTES - FS_OFFSET;
export const BOOTROM_BYTES = 16384;
const RP2040_FAMILY = 0xe48bff56;

export class ImageError extends Error {}

function read(path, what) {
  try {
    return fs.readFileSync(path);
  } catch (e) {
    throw new ImageError(`${what} ${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
}

export function loadBootrom(path) {
  const rom = read(path, 'bootrom');
  if (rom.length !== BOOTROM_BYTES) throw new ImageError(`bootrom ${path}: ${rom.length} bytes, an RP2040 bootrom has ${BOOTROM_BYTES}`);
  return new Uint32Array(rom.buffer.slice(rom.byteOffset, rom.byteOffset + rom.length));
}

export function erasedFlash() { return new Uint8Array(FLASH_BYTES).fill(0xff); }

// Writes a UF2's RP2040 blocks into `mem`: every block of the file must be there
// (block numbers 0..total-1, once each) and land below the filesystem.
export function loadUf2(path, mem) {
  const data = read(path, 'UF2');
  const bad = (why) => new ImageError(`UF2 ${path}: ${why}`);
  if (!data.length) throw bad('empty');
  if (data.length % blockSize) throw bad(`${data.length} bytes is not whole 512-byte blocks: truncated`);
  let total = null;
  const seen = new Set();
  for (let off = 0; off < data.length; off += blockSize) {
    // A copy: uf2 2.0.0's isUF2Block reads its argument's whole buffer from byte 0.
    const raw = new Uint8Array(data.subarray(off, off + blockSize));
    if (!isUF2Block(raw)) throw bad(`block at byte ${off} is not a UF2 block`);
    const b = decodeBlock(raw);
    if (b.flags & UF2Flags.notMainFlash) continue;
    if (b.flags & UF2Flags.familyIDPresent && b.boardFamily !== RP2040_FAMILY) {
      throw bad(`block ${b.blockNumber} is for family 0x${b.boardFamily.toString(16)}, not RP2040`);
    }
    total ??= b.totalBlocks;
    if (b.totalBlocks !== total || b.blockNumber >= total) throw bad(`block ${b.blockNumber} of ${b.totalBlocks} does not fit the file's ${total}`);
    const at = b.flashAddress - XIP_BASE;
    if (at < 0 || at + b.payload.length > FS_OFFSET) throw bad(`block ${b.blockNumber} at 0x${b.flashAddress.toString(16)} is outside the program's flash (below 0x${(XIP_BASE + FS_OFFSET).toString(16)})`);
    mem.set(b.payload, at);
    seen.add(b.blockNumber);
  }
  if (total === null) throw bad('no blocks for the main flash');
  if (seen.size !== total) throw bad(`${seen.size} of ${total} blocks: truncated`);
  return { blocks: total };
}

// A littlefs image of the whole filesystem area; its superblock names itself
// "littlefs" at byte 8 of block 0 or 1 (the superblock's metadata pair).
export function loadFs(path, mem) {
  const img = read(path, 'filesystem image');
  if (img.length !== FS_BYTES) throw new ImageError(`filesystem image ${path}: ${img.length} bytes, the Pico's filesystem is ${FS_BYTES} (352 blocks of 4096)`);
  const magic = (at) => img.subarray(at + 8, at + 16).toString('latin1') === 'littlefs';
  if (!magic(0) && !magic(4096)) throw new ImageError(`filesystem image ${path}: no littlefs superblock`);
  mem.set(img, FS_OFFSET);
}

// A whole flash saved by --flash-out.
export function loadFlash(path) {
  const img = read(path, 'flash image');
  if (img.length !== FLASH_BYTES) throw new ImageError(`flash image ${path}: ${img.length} bytes, a Pico's flash is ${FLASH_BYTES}`);
  return new Uint8Array(img.buffer.slice(img.byteOffset, img.byteOffset + img.length));
}

export function saveFlash(path, mem) { fs.writeFileSync(path, mem); }
