// The files a run starts from: good ones load, bad ones are refused in one line.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { encodeBlock } from 'uf2';
import { ImageError, loadUf2, loadFs, loadFlash, loadBootrom, erasedFlash, FS_OFFSET, FS_BYTES } from '../images.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pico-images-'));
const file = (name, data) => { const p = path.join(dir, name); fs.writeFileSync(p, data); return p; };

function uf2(n, { at = 0x10000000, family = 0xe48bff56 } = {}) {
  const blocks = [];
  for (let k = 0; k < n; k++) {
    blocks.push(encodeBlock({ flags: 0x2000, flashAddress: at + 256 * k, payload: new Uint8Array(256).fill(k + 1), blockNumber: k, totalBlocks: n, boardFamily: family }));
  }
  return Buffer.concat(blocks);
}
const refused = (fn, pattern) => assert.throws(fn, (e) => e instanceof ImageError && pattern.test(e.message), pattern.toString());

test('a UF2 lands at its addresses', () => {
  const mem = erasedFlash();
  assert.deepEqual(loadUf2(file('ok.uf2', uf2(3)), mem), { blocks: 3 });
  assert.deepEqual([mem[0], mem[256], mem[512], mem[768]], [1, 2, 3, 0xff]);
});

test('a missing, truncated or foreign UF2 is refused', () => {
  const mem = erasedFlash();
  refused(() => loadUf2(path.join(dir, 'none.uf2'), mem), /UF2 .*none.uf2: no such file/);
  refused(() => loadUf2(file('empty.uf2', Buffer.alloc(0)), mem), /empty/);
  refused(() => loadUf2(file('cut.uf2', uf2(3).subarray(0, 1000)), mem), /not whole 512-byte blocks: truncated/);
  refused(() => loadUf2(file('short.uf2', uf2(3).subarray(0, 1024)), mem), /2 of 3 blocks: truncated/);
  refused(() => loadUf2(file('text.uf2', Buffer.alloc(512, 0x41)), mem), /not a UF2 block/);
  refused(() => loadUf2(file('other.uf2', uf2(1, { family: 0xada52840 })), mem), /not RP2040/);
  refused(() => loadUf2(file('big.uf2', uf2(1, { at: 0x10000000 + FS_OFFSET })), mem), /outside the program's flash/);
});

test('a filesystem image must be littlefs of the whole area', () => {
  const mem = erasedFlash();
  const img = Buffer.alloc(FS_BYTES, 0xff);
  img.write('littlefs', 8, 'latin1');
  loadFs(file('fs.img', img), mem);
  assert.equal(Buffer.from(mem.subarray(FS_OFFSET + 8, FS_OFFSET + 16)).toString(), 'littlefs');
  refused(() => loadFs(file('small.img', img.subarray(0, 4096)), mem), /4096 bytes, the Pico's filesystem is 1441792/);
  refused(() => loadFs(file('blank.img', Buffer.alloc(FS_BYTES, 0xff)), mem), /no littlefs superblock/);
});

test('a saved flash and a bootrom must be their whole size', () => {
  refused(() => loadFlash(file('half.flash', Buffer.alloc(1 << 20))), /a Pico's flash is 2097152/);
  assert.equal(loadFlash(file('whole.flash', Buffer.alloc(2 << 20))).length, 2 << 20);
  refused(() => loadBootrom(file('rom.bin', Buffer.alloc(100))), /an RP2040 bootrom has 16384/);
});
