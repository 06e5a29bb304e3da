/**
 * The spawn helper's own program (run as `node -e HELPER_SCRIPT [warm]`; the host side and the
 * protocol are in spawnHelper.ts). Plain JavaScript in a string: the helper must start in a
 * fresh, small Node process, without the bundle.
 *
 * With `warm`, a `/bin/sh -c <command>` run is served, when it can be, by a shell the helper
 * forked in advance (after the previous run with the same cwd and environment closed): that
 * shell waits on its stdin for the command, sent as lines up to a random token, then execs
 * `/bin/sh -c <command>` with the rest of its stdin (the hook's input) untouched. The fork and
 * exec of a shell thus happen between hook runs, not on their path; what the command sees is
 * the same (same program, arguments, environment, cwd, process group of its own, pipes). Only
 * short commands without NUL, in a cwd that still exists, take that path; any other run, and the
 * first of each cwd and environment, is spawned as before. Idle shells are few (at most
 * WARM_MAX_IDLE for each of the WARM_MAX_KEYS newest cwd + environment pairs); they end when
 * their stdin closes (the helper died) and are killed when the helper exits.
 */
export const HELPER_SCRIPT = `
'use strict';
const { spawn } = require('node:child_process');
const { existsSync } = require('node:fs');
const { randomBytes } = require('node:crypto');
const kids = new Map();
// Environments by id ({op:'env'} defines one, {op:'dropEnv'} forgets it); a run names its own.
const envs = new Map();
// Events of one turn of the loop go out as one write (one wake-up of the host, not one per
// event); a spawn goes at once, so the host knows the group to kill as early as before.
let outbox = '';
const send = (m, now) => {
  if (outbox === '' && !now) setImmediate(flush);
  outbox += JSON.stringify(m) + '\\n';
  if (now) flush();
};
function flush() {
  const text = outbox;
  outbox = '';
  if (text !== '') process.stdout.write(text);
}
function forward(id, stream, ev, cap) {
  let sent = 0;
  stream.on('data', (d) => {
    if (sent > cap) return;
    const part = d.length > cap + 1 - sent ? d.subarray(0, cap + 1 - sent) : d;
    sent += part.length;
    send({ id, ev, data: part.toString('base64') });
  });
  stream.on('error', () => {});
}
const WARM = process.argv[1] === 'warm';
const WARM_MAX_IDLE = 8;
const WARM_MAX_KEYS = 2;
const WARM_MAX_COMMAND = 2048;
const TOKEN = randomBytes(12).toString('hex');
// $1 = the token. read -r reads a pipe byte by byte, so the hook's input stays in stdin.
const WARM_SHELL = 'c=; while IFS= read -r l; do [ "$l" = "$1" ] && break; c="$c$l\\n"; done; exec /bin/sh -c "\${c%?}"';
const pools = new Map();
function warmPool(m) {
  if (!WARM || m.file !== '/bin/sh' || m.args.length !== 2 || m.args[0] !== '-c') return undefined;
  const command = m.args[1];
  if (typeof command !== 'string' || command.length > WARM_MAX_COMMAND || command.includes('\\0')) return undefined;
  const key = m.cwd + '\\0' + m.env;
  let pool = pools.get(key);
  if (pool) pools.delete(key);
  else pool = { key, cwd: m.cwd, env: envs.get(m.env), idle: [], used: 0 };
  pools.set(key, pool);
  for (const [k, old] of pools) {
    if (pools.size <= WARM_MAX_KEYS) break;
    pools.delete(k);
    for (const c of old.idle) killGroup(c);
  }
  return pool;
}
function takeWarm(pool, command) {
  if (!existsSync(pool.cwd)) return undefined;
  for (let c = pool.idle.pop(); c; c = pool.idle.pop()) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    c.stdin.write(command + '\\n' + TOKEN + '\\n');
    return c;
  }
  return undefined;
}
function warmUp(pool) {
  if (pools.get(pool.key) !== pool || pool.idle.length >= WARM_MAX_IDLE) return;
  let c;
  try {
    c = spawn('/bin/sh', ['-c', WARM_SHELL, 'hookwise-warm-shell', TOKEN], { cwd: pool.cwd, env: pool.env, stdio: 'pipe', detached: true });
  } catch {
    return;
  }
  c.on('error', () => {});
  if (c.pid === undefined) return;
  c.stdin.on('error', () => {});
  pool.idle.push(c);
  c.once('exit', () => {
    const i = pool.idle.indexOf(c);
    if (i >= 0) pool.idle.splice(i, 1);
  });
}
// A fork blocks the helper's loop until the child has exec'd, and the new shell takes CPU:
// forked while other runs of the same burst (five hooks of one tool call) are still going,
// it delays their exits. So shells are replaced once no run is in flight, or after
// WARM_QUIET_MS without a run starting or ending (a long hook must not keep the pools empty).
const WARM_QUIET_MS = 20;
let refillTimer;
function armRefill() {
  clearTimeout(refillTimer);
  refillTimer = setTimeout(refill, kids.size === 0 ? 0 : WARM_QUIET_MS);
}
function refill() {
  refillTimer = undefined;
  for (const pool of pools.values()) for (; pool.used > 0; pool.used--) warmUp(pool);
}
function killGroup(c) {
  try { process.kill(-c.pid, 'SIGKILL'); } catch {}
}
function run(m) {
  if (!envs.has(m.env)) return send({ id: m.id, ev: 'error', code: 'EHELPER', message: 'the spawn helper has no environment ' + m.env });
  const pool = warmPool(m);
  let c = pool && takeWarm(pool, m.args[1]);
  if (!c) {
    try {
      c = spawn(m.file, m.args, { cwd: m.cwd, env: envs.get(m.env), stdio: 'pipe', detached: true });
    } catch (e) {
      return send({ id: m.id, ev: 'error', code: e && e.code, message: String(e && e.message) });
    }
  }
  kids.set(m.id, c);
  if (refillTimer !== undefined) armRefill();
  c.on('error', (e) => send({ id: m.id, ev: 'error', code: e && e.code, message: String(e && e.message) }));
  if (c.pid === undefined) return;
  send({ id: m.id, ev: 'spawn', pid: c.pid }, true);
  forward(m.id, c.stdout, 'out', m.cap);
  forward(m.id, c.stderr, 'err', m.cap);
  c.stdin.on('error', () => {});
  c.on('exit', (code, signal) => send({ id: m.id, ev: 'exit', code, signal }));
  c.on('close', () => {
    kids.delete(m.id);
    send({ id: m.id, ev: 'close' });
    // The next run like this one finds its shell ready (forked between runs, see armRefill).
    // Any other close only moves a refill already waiting for the runs in flight to end.
    if (pool) pool.used++;
    if (pool || refillTimer !== undefined) armRefill();
  });
}
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  for (let i = buf.indexOf('\\n'); i >= 0; i = buf.indexOf('\\n')) {
    const m = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    const c = kids.get(m.id);
    if (m.op === 'run') run(m);
    else if (m.op === 'env') envs.set(m.id, m.env);
    else if (m.op === 'dropEnv') envs.delete(m.id);
    else if (m.op === 'stdin' && c) c.stdin.write(Buffer.from(m.data, 'base64'));
    else if (m.op === 'end' && c) c.stdin.end();
    else if (m.op === 'release' && c) {
      kids.delete(m.id);
      c.stdout.destroy();
      c.stderr.destroy();
      if (refillTimer !== undefined) armRefill();
    }
  }
});
process.stdin.on('end', () => {
  for (const c of kids.values()) killGroup(c);
  for (const pool of pools.values()) for (const c of pool.idle) killGroup(c);
  flush();
  process.exit(0);
});
process.stdout.on('error', () => process.exit(0));
`;
