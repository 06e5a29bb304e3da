import { spawn } from 'node:child_process';

/** The child: `n` `sh -c true` at once, again and again until its stdin closes; one time (ms) per line. */
const SPAWNS_UNTIL_EOF = `
const { spawn } = require('node:child_process');
const n = Number(process.argv[1]);
const batch = () => Promise.all(Array.from({ length: n }, () => new Promise((r) => { const c = spawn('/bin/sh', ['-c', 'true']); c.on('close', r); })));
let open = true;
process.stdin.on('end', () => (open = false));
process.stdin.resume();
(async () => {
  for (let i = 0; i < 3; i++) await batch();
  process.stdout.write('ready\\n');
  while (open) { const t = performance.now(); await batch(); process.stdout.write((performance.now() - t) + '\\n'); }
})();`;

/**
 * Floor (a) taken while `work` runs: a fresh small Node spawning `n` `sh -c true` at once, again
 * and again, competing for the cores with what `work` makes busy (the host, the browser, the
 * model server), as a hooked session's shells do. Returns the times of the batches that ended
 * while `work` ran.
 */
export async function floorWhile(n: number, work: () => Promise<unknown>): Promise<number[]> {
  const child = spawn(process.execPath, ['-e', SPAWNS_UNTIL_EOF, String(n)], { env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'ignore'] });
  const closed = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve());
  });
  const times: number[] = [];
  let measuring = false;
  let buffered = '';
  const ready = new Promise<void>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 1);
        if (line === 'ready') resolve();
        else if (measuring) times.push(Number(line));
      }
    });
  });
  try {
    await Promise.race([ready, closed.then(() => Promise.reject(new Error('the loaded floor process ended before it was ready')))]);
    measuring = true;
    await work();
    measuring = false;
  } finally {
    child.stdin.end();
    await closed;
  }
  return times;
}
