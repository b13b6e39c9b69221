// Runs the harness as the bridge does (node main.mjs ... with ops on stdin, events on
// stdout), for the tests: send ops, wait for events by predicate.
import { spawn } from 'child_process';
import readline from 'readline';
import { after } from 'node:test';

// A test that fails half way must not leave an emulator running: node --test would
// wait for it for ever.
const children = new Set();
after(() => { for (const c of children) c.kill(); });

const MAIN = new URL('../main.mjs', import.meta.url).pathname;

export function harness(args, { env = {} } = {}) {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const events = [];
  let stderr = '';
  let waiters = [];
  const notify = () => { waiters = waiters.filter((w) => !w()); };
  readline.createInterface({ input: child.stdout }).on('line', (line) => { events.push(JSON.parse(line)); notify(); });
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.on('close', (code) => { children.delete(child); notify(); resolve(code); }));
  children.add(child);
  return {
    events,
    get stderr() { return stderr; },
    exited,
    send(op) { child.stdin.write(JSON.stringify(op) + '\n'); },
    close() { child.stdin.end(); },
    kill() { child.kill(); },
    // The first event from index `from` on that satisfies pred; rejects after `ms` of wall time.
    until(pred, ms = 60_000, from = 0) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such event in ${ms} ms; last: ${JSON.stringify(events.slice(-3))}; stderr: ${stderr.slice(-500)}`)), ms);
        const check = () => {
          const e = events.slice(from).find(pred);
          if (e) { clearTimeout(timer); resolve(e); return true; }
          return false;
        };
        if (!check()) waiters.push(check);
      });
    },
  };
}

// UART text (latin1) of the events in order, for one UART.
export function uartText(events, n) {
  return events.filter((e) => e.ev === 'uart' && e.n === n).map((e) => Buffer.from(e.hex, 'hex').toString('latin1')).join('');
}

// The UART event whose bytes complete the first match of `re` (a line may come in
// several events: bytes leave at the line's pace).
export function uartEventAt(events, n, re) {
  let text = '';
  for (const e of events) {
    if (e.ev !== 'uart' || e.n !== n) continue;
    text += Buffer.from(e.hex, 'hex').toString('latin1');
    if (re.test(text)) return e;
  }
  return undefined;
}
