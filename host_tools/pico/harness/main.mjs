#!/usr/bin/env node
// Felt's emulated Raspberry Pi Pico: the real MicroPython UF2 on rp2040js, with the
// board's devices at the pins its definition names.  The interface (ops in, events
// out) is described in ../README.md.
//
//   node main.mjs --uf2 FILE (--fs FILE | --flash-in FILE) --board BOARD.json
//                 [--flash-out FILE] [--seed N] [--bootrom FILE]
//
// PICO_USB=1 in the environment plugs a USB host in: what the firmware prints on its
// USB serial (the REPL, tracebacks) comes out on stderr, at a cost in speed.
//
// Exit status: 0 after `quit` or the end of stdin; 2 for bad input (a file, the board,
// an op); 3 when the chip faults.  Either error is one `error` event and one line on
// stderr.
import fs from 'fs';
import readline from 'readline';
import { fileURLToPath } from 'url';
import { parseArgs } from 'util';
import { Pico } from './pico.mjs';
import { Events, OpError, parseOp } from './control.mjs';
import { wiring, BoardError } from './board.mjs';
import { ChipFault } from './chip.mjs';
import { ImageError, erasedFlash, loadBootrom, loadFlash, loadFs, loadUf2, saveFlash } from './images.mjs';

// ../shared/pico beside the checkout (host_tools/pico/harness -> repo root -> ..).
const SHARED_BOOTROM = fileURLToPath(new URL('../../../../shared/pico/bootrom-b1.bin', import.meta.url));
const SLICE_NS = 1e6;     // run 1 ms of emulated time, then let Node read stdin

const events = new Events((s) => process.stdout.write(s));
// The reader went away (EPIPE): nobody is left to drive the board.
process.stdout.on('error', () => process.exit(0));
const log = (line) => process.stderr.write(`pico: ${line}\n`);
let pico = null;

function fail(code, why) {
  events.emit(pico ? pico.now : 0, { ev: 'error', why });
  events.flush();
  log(`error: ${why}`);
  process.exitCode = code;
  // stdout may be a pipe: exit once what was written has gone.
  process.stdout.write('', () => process.exit(code));
}

function options() {
  const { values } = parseArgs({
    options: {
      uf2: { type: 'string' }, fs: { type: 'string' }, board: { type: 'string' },
      'flash-in': { type: 'string' }, 'flash-out': { type: 'string' },
      seed: { type: 'string', default: '1' }, bootrom: { type: 'string', default: SHARED_BOOTROM },
    },
    strict: true,
  });
  if (!values.board) throw new ImageError('--board is required');
  if (!values['flash-in'] && !values.uf2) throw new ImageError('--uf2 (or --flash-in) is required');
  if (!values['flash-in'] && !values.fs) throw new ImageError('--fs (or --flash-in) is required');
  if (values['flash-in'] && values.fs) throw new ImageError('--fs and --flash-in: one or the other (a saved flash holds its filesystem)');
  if (!/^\d+$/.test(values.seed)) throw new ImageError(`--seed ${values.seed}: a whole number`);
  return values;
}

function readBoard(path) {
  let text;
  try { text = fs.readFileSync(path, 'utf8'); } catch (e) { throw new ImageError(`board ${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`); }
  try { return JSON.parse(text); } catch (e) { throw new ImageError(`board ${path}: not JSON (${e.message})`); }
}

function setUp() {
  const o = options();
  const board = wiring(readBoard(o.board));
  const bootrom = loadBootrom(o.bootrom);
  let mem;
  if (o['flash-in']) {
    mem = loadFlash(o['flash-in']);
    if (o.uf2) loadUf2(o.uf2, mem);      // a new program over a saved board's filesystem
  } else {
    mem = erasedFlash();
    loadUf2(o.uf2, mem);
    loadFs(o.fs, mem);
  }
  pico = new Pico({ bootrom, mem, wiring: board, seed: Number(o.seed), events, log, usb: !!process.env.PICO_USB });
  return o;
}

async function main() {
  let o;
  try { o = setUp(); } catch (e) {
    if (e instanceof ImageError || e instanceof BoardError || e.code?.startsWith?.('ERR_PARSE_ARGS')) return fail(2, e.message);
    throw e;
  }
  let quitting = false;
  const ops = [];
  const input = readline.createInterface({ input: process.stdin });
  input.on('line', (line) => { if (line.trim()) ops.push(line); });
  input.on('close', () => ops.push('{"op":"quit"}'));

  pico.start();
  events.emit(0, { ev: 'ready' });
  const wall0 = process.hrtime.bigint();
  const speed = () => pico.now / Number(process.hrtime.bigint() - wall0);
  try {
    while (!quitting) {
      while (ops.length) {
        const op = parseOp(ops.shift());
        if (op.op === 'quit') { quitting = true; break; }
        pico.apply(op);
        if (op.op === 'stats') events.queue.at(-1).speed = +speed().toFixed(4);
      }
      if (quitting) break;
      pico.advance(pico.now + SLICE_NS);
      events.flush();
      await new Promise((r) => setImmediate(r));
    }
  } catch (e) {
    if (e instanceof OpError) return fail(2, `bad op: ${e.message}`);
    if (e instanceof ChipFault) return fail(3, `chip: ${e.message}`);
    return fail(3, `harness: ${e.stack ?? e}`);
  }
  input.close();
  events.flush();
  if (o['flash-out']) saveFlash(o['flash-out'], pico.flash.mem);
  log(`quit at ${(pico.now / 1e9).toFixed(3)} s emulated, speed ${speed().toFixed(3)} emulated s per wall s`);
  process.stdout.write('', () => process.exit(0));
}

main();
