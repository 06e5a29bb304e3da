// Hookwise's headless CLI and Claude Code side by side, on the same machine, in the same run:
// a 10-call session (10 Bash calls, then a text reply) from a scripted local model, without
// hooks and with the same 5 PreToolUse command hooks in the same `.claude/settings.json`,
// interleaved round by round. Claude Code is not installed by the project: this runs only when
// HOOKWISE_BENCH_CLAUDE names its executable (e.g. `npm i @anthropic-ai/claude-code` into a
// scratch folder, then node_modules/.bin/claude), and says it skipped otherwise.
// Target (issue 29): the 10-call session ≤ 0.2× Claude Code's.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startOpenAiTestServer, textReply, toolCallsReply } from '../test/support/openAiTestServer';
// @ts-expect-error: plain JavaScript, shared with scripts/recordClaudeCodeSamples.mjs.
import { createMessagesServer } from '../scripts/messagesStubServer.mjs';

const claude = process.env.HOOKWISE_BENCH_CLAUDE;
const ROUNDS = Number(process.env.HOOKWISE_BENCH_ROUNDS ?? 10);
const CALLS = 10;
const HOOKS = 5;
const cli = path.resolve('dist/cli.js');
/** /usr/bin/time counts the agent's CPU time with its children's (its tools and hooks) and its peak RSS. */
const timeBin = '/usr/bin/time';

interface Cost {
  readonly ms: number;
  readonly stdout: string;
  /** User + system CPU of the agent and every child it waited for; NaN without /usr/bin/time. */
  readonly cpuMs: number;
  readonly maxRssKb: number;
}

interface Project {
  readonly root: string;
  readonly home: string;
  readonly project: string;
}

function project(hooks: number): Project {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hw-vs-cc-')));
  const p = { root, home: path.join(root, 'home'), project: path.join(root, 'project') };
  for (const d of [p.home, path.join(p.project, '.claude')]) mkdirSync(d, { recursive: true });
  const handlers = Array.from({ length: hooks }, (_, i) => ({ type: 'command', command: `true ${i}` }));
  writeFileSync(
    path.join(p.project, '.claude', 'settings.json'),
    JSON.stringify(hooks > 0 ? { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: handlers }] } } : {}),
  );
  return p;
}

/** Runs `argv` in `cwd` under /usr/bin/time (when present); wall time from spawn to exit. */
function timed(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Cost> {
  const withTime = existsSync(timeBin);
  const [file, ...args] = withTime ? [timeBin, '-f', '@time %U %S %M', ...argv] : argv;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file ?? '', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      const ms = performance.now() - started;
      const m = /@time ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      if (code !== 0) {
        reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr.slice(-2000)} ${stdout.slice(-500)}`));
        return;
      }
      resolve({ ms, stdout, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN, maxRssKb: m ? Number(m[3]) : NaN });
    });
  });
}

async function runHookwise(p: Project): Promise<Cost> {
  const server = await startOpenAiTestServer({
    script: [...Array.from({ length: CALLS }, (_, i) => toolCallsReply([{ name: 'Bash', arguments: { command: `true ${i}` } }])), textReply('done')],
  });
  try {
    const env = { ...process.env, HOME: p.home, HOOKWISE_HOME: path.join(p.home, '.hookwise'), OPENAI_API_KEY: 'x' };
    const argv = [process.execPath, cli, '-p', 'go', '--model', 'bench', '--base-url', server.url, '--permission-mode', 'bypassPermissions'];
    const cost = await timed([...argv, '--max-steps', String(CALLS + 10)], p.project, env);
    // Both agents must have run the whole script: every Bash call, then the closing reply.
    if (server.requests.length !== CALLS + 1 || !cost.stdout.includes('done')) throw new Error(`Hookwise stopped early: ${cost.stdout}`);
    return cost;
  } finally {
    await server.close();
  }
}

/** The scripted Messages API's shared state (scripts/messagesStubServer.mjs reads it per request). */
const messagesState: { script: unknown; requestLog: unknown[] } = { script: null, requestLog: [] };

async function runClaude(p: Project, port: number, executable: string): Promise<Cost> {
  const turns = [
    ...Array.from({ length: CALLS }, (_, i) => ({ idPrefix: `c${i}`, tools: [{ name: 'Bash', input: { command: `true ${i}`, description: `Call ${i}` } }] })),
    { text: 'done' },
  ];
  messagesState.requestLog = [];
  messagesState.script = { turns, next: 0, subNext: 0, cwd: p.project };
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: p.home,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    ANTHROPIC_API_KEY: 'x',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // Claude Code refuses bypassPermissions as root outside a sandbox it recognises.
    IS_SANDBOX: '1',
    ...(process.env.NODE_EXTRA_CA_CERTS === undefined ? {} : { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS }),
  };
  const cost = await timed([executable, '-p', 'go', '--model', 'claude-sonnet-4-5', '--permission-mode', 'bypassPermissions'], p.project, env);
  const script = messagesState.script as { next: number };
  if (script.next !== CALLS + 1 || !cost.stdout.includes('done')) throw new Error(`Claude Code stopped early (turn ${script.next}): ${cost.stdout}`);
  return cost;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  if (claude === undefined || claude === '') {
    console.log('versusClaudeCode: skipped (set HOOKWISE_BENCH_CLAUDE to a Claude Code executable to time both agents)');
    return;
  }
  const server = (createMessagesServer as (s: typeof messagesState) => Server)(messagesState);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const projects = { bare: project(0), hooked: project(HOOKS) };
  const costs: Record<string, Cost[]> = {};
  const add = (k: string, c: Cost): void => void (costs[k] ??= []).push(c);
  try {
    for (const p of Object.values(projects)) {
      await runHookwise(p); // compile caches and file caches, for both agents
      await runClaude(p, port, claude);
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (const [kind, p] of r % 2 === 0 ? Object.entries(projects) : Object.entries(projects).reverse()) {
        if (r % 2 === 0) {
          add(`hookwise ${kind}`, await runHookwise(p));
          add(`claude ${kind}`, await runClaude(p, port, claude));
        } else {
          add(`claude ${kind}`, await runClaude(p, port, claude));
          add(`hookwise ${kind}`, await runHookwise(p));
        }
      }
    }
  } finally {
    server.close();
    for (const p of Object.values(projects)) rmSync(p.root, { recursive: true, force: true });
  }
  const m = (k: string, key: 'ms' | 'cpuMs' | 'maxRssKb'): number => median((costs[k] ?? []).map((c) => c[key]));
  console.log(`versusClaudeCode: ${CALLS}-call sessions, medians of ${ROUNDS} interleaved rounds (Claude Code: ${claude})`);
  for (const kind of ['bare', 'hooked']) {
    const label = kind === 'bare' ? 'no hooks' : `${HOOKS} PreToolUse command hooks`;
    const ratios = (costs[`hookwise ${kind}`] ?? []).map((c, i) => c.ms / (costs[`claude ${kind}`]?.[i]?.ms ?? NaN));
    const ratio = median(ratios);
    console.log(
      `  ${label}: Hookwise ${m(`hookwise ${kind}`, 'ms').toFixed(0)} ms (CPU ${m(`hookwise ${kind}`, 'cpuMs').toFixed(0)} ms, peak RSS ${(m(`hookwise ${kind}`, 'maxRssKb') / 1024).toFixed(0)} MiB)` +
        ` vs Claude Code ${m(`claude ${kind}`, 'ms').toFixed(0)} ms (CPU ${m(`claude ${kind}`, 'cpuMs').toFixed(0)} ms, peak RSS ${(m(`claude ${kind}`, 'maxRssKb') / 1024).toFixed(0)} MiB):` +
        ` ${ratio.toFixed(2)}×   target ≤ 0.2×  ${ratio <= 0.2 ? 'OK' : 'MISSED'}`,
    );
    if (kind === 'hooked') {
      const added = (agent: string): number => (m(`${agent} hooked`, 'ms') - m(`${agent} bare`, 'ms')) / CALLS;
      console.log(`    added per Bash call by the hooks: Hookwise ${added('hookwise').toFixed(1)} ms, Claude Code ${added('claude').toFixed(1)} ms`);
    }
  }
  const bareRatio = median((costs['hookwise bare'] ?? []).map((c, i) => c.ms / (costs['claude bare']?.[i]?.ms ?? NaN)));
  console.log(`@bench-json ${JSON.stringify({ sessionVsClaudeCode: Math.round(bareRatio * 100) / 100 })}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
