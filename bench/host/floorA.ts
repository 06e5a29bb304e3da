import { spawn } from 'node:child_process';

/**
 * Floor (a) of the host bench: a fresh small Node process spawning `n` `sh -c true` at once.
 * The child's shared part: `batch()` spawns them (n = argv[1]) and resolves when all closed.
 */
const BATCH = `
const { spawn } = require('node:child_process');
const n = Number(process.argv[1]);
const batch = () => Promise.all(Array.from({ length: n }, () => new Promise((r) => { const c = spawn('/bin/sh', ['-c', 'true']); c.on('close', r); })));`;

/** The child for {@link floorA}: 3 batches to warm up, then argv[2] timed ones, printed as one JSON array. */
const FIXED_ROUNDS = `${BATCH}
(async () => {
  const rounds = Number(process.argv[2]); const out = [];
  for (let i = 0; i < 3; i++) await batch();
  for (let i = 0; i < rounds; i++) { const t = performance.now(); await batch(); out.push(performance.now() - t); }
  process.stdout.write(JSON.stringify(out));
})();`;

/** The child for {@link floorWhile}: batches again and again until its stdin closes; one time (ms) per line. */
const UNTIL_EOF = `${BATCH}
let open = true;
process.stdin.on('end', () => (open = false));
process.stdin.resume();
(async () => {
  for (let i = 0; i < 3; i++) await batch();
  process.stdout.write('ready\\n');
  while (open) { const t = performance.now(); await batch(); process.stdout.write((performance.now() - t) + '\\n'); }
})();`;

const childEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '' });

/** Floor (a) on its own: `rounds` batches of `n` spawns; the time of each. */
export function floorA(n: number, rounds: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', FIXED_ROUNDS, String(n), String(rounds)], { env: childEnv() });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`floor (a) process exited ${code}`))));
  });
}

/**
 * Floor (a) taken while `work` runs: batches of `n` spawns again and again, competing for the
 * cores with what `work` makes busy (the host, the browser, the model server), as a hooked
 * session's shells do. Returns the times of the batches that ended while `work` ran.
 */
export async function floorWhile(n: number, work: () => Promise<unknown>): Promise<number[]> {
  const child = spawn(process.execPath, ['-e', UNTIL_EOF, String(n)], { env: childEnv(), stdio: ['pipe', 'pipe', 'ignore'] });
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
