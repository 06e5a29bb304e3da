// Headless CLI benchmark: scripted headless sessions (`node dist/cli.js -p …`) of Bash tool
// calls against an instant local OpenAI-compatible server, measured as a user runs them: wall
// time from spawn to exit and the CLI process's peak RSS.
//  - 10 calls with no hooks (target: whole run ≤ 0.4 s; peak memory ≤ 120 MiB);
//  - 5 PreToolUse command hooks per call: the added cost per tool call, from sessions of
//    HOOK_CALLS calls with and without the hooks (long enough that the start-up's spread, which
//    both runs pay once, does not swamp the per-call difference), against the cost of spawning
//    those 5 processes directly (concurrently), measured in the same round (target ≤ 1.2×);
//  - start-up: an empty run (`node dist/cli.js -p …` answered at once with text, no tool) and
//    the 10-call session against `node -e ''`, interleaved round by round (target for the
//    empty run ≤ 1.5×; the session is reported against the same floor).
// Each CLI process and each `node -e ''` also reports its own CPU time (user + system, read at
// exit by a preloaded reporter): on a machine shared with other jobs, CPU time moves far less than
// wall time, so the CPU ratios are printed beside the wall-time ones (never instead of them).
// Needs `node esbuild.mjs` first (npm run bench does it). Measures only.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOpenAiTestServer, textReply, toolCallsReply } from '../test/support/openAiTestServer';

const CALLS = 10;
/** Calls per session for the hooks' added cost: a 10-call pair put ±3 ms of start-up noise on a ~7 ms floor. */
const HOOK_CALLS = 40;
const ROUNDS = 15;
const cli = path.resolve('dist/cli.js');
/** Preloaded (`node -r`) into every measured process: prints its peak RSS and CPU time at exit. */
const REPORTER = `process.on('exit',()=>{const u=process.resourceUsage();require('fs').writeSync(2,'\\n@usage '+u.maxRSS+' '+(u.userCPUTime+u.systemCPUTime)+'\\n')});\n`;

/** What a measured process cost: wall time from spawn to exit, its own CPU time and peak RSS. */
interface Cost {
  readonly ms: number;
  readonly cpuMs: number;
  readonly maxRssKb: number;
}

function usageOf(stderr: string): { cpuMs: number; maxRssKb: number } {
  const m = /@usage (\d+) (\d+)/.exec(stderr);
  return { maxRssKb: Number(m?.[1] ?? NaN), cpuMs: Number(m?.[2] ?? NaN) / 1000 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function workspace(hooks: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hw-bench-'));
  mkdirSync(path.join(dir, '.claude'));
  const handlers = Array.from({ length: hooks }, (_, i) => ({ type: 'command', command: `true ${i}` }));
  writeFileSync(path.join(dir, '.claude', 'settings.json'), JSON.stringify(hooks > 0 ? { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: handlers }] } } : {}));
  return dir;
}

async function runOnce(dir: string, home: string, reporter: string, calls = CALLS): Promise<Cost> {
  const server = await startOpenAiTestServer({
    script: [...Array.from({ length: calls }, (_, i) => toolCallsReply([{ name: 'Bash', arguments: { command: `true ${i}` } }])), textReply('done')],
  });
  const env = { ...process.env, HOME: home, HOOKWISE_HOME: path.join(home, '.hookwise'), OPENAI_API_KEY: 'x' };
  const cost = await timeNode(
    ['-r', reporter, cli, '-p', 'go', '--model', 'bench', '--base-url', server.url, '--allowed-tools', 'Bash', '--max-steps', String(calls + 10)],
    dir,
    env,
  );
  await server.close();
  return cost;
}

/** Wall time of `node <args>` in `cwd` (spawn to exit), with the CPU time and RSS a preloaded reporter prints. */
async function timeNode(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Cost> {
  const started = performance.now();
  const result = await new Promise<{ stderr: string; code: number | null }>((resolve) => {
    const child = spawn(process.execPath, [...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (c) => resolve({ stderr, code: c }));
  });
  const ms = performance.now() - started;
  if (result.code !== 0) throw new Error(`node ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return { ms, ...usageOf(result.stderr) };
}

/** An empty headless run and `node -e ''`, interleaved, in `env`; returns each round's costs. */
async function startupRounds(dir: string, env: NodeJS.ProcessEnv, reporter: string): Promise<{ empty: Cost[]; node: Cost[] }> {
  const server = await startOpenAiTestServer({ script: () => textReply('done') });
  const args = ['-r', reporter, cli, '-p', 'go', '--model', 'bench', '--base-url', server.url];
  const empty: Cost[] = [];
  const node: Cost[] = [];
  await timeNode(args, dir, env); // the compile cache and the file cache
  for (let r = 0; r < ROUNDS * 2; r++) {
    node.push(await timeNode(['-r', reporter, '-e', ''], dir, env));
    empty.push(await timeNode(args, dir, env));
  }
  await server.close();
  return { empty, node };
}

/** Median of each round's ratio, for wall and CPU time. */
function pairedRatios(runs: readonly Cost[], floors: readonly Cost[]): { wall: number; cpu: number } {
  return {
    wall: median(runs.map((r, i) => r.ms / (floors[i]?.ms ?? NaN))),
    cpu: median(runs.map((r, i) => r.cpuMs / (floors[i]?.cpuMs ?? NaN))),
  };
}

function printStartup(label: string, start: { empty: Cost[]; node: Cost[] }): number {
  const r = pairedRatios(start.empty, start.node);
  const ms = (xs: Cost[], key: 'ms' | 'cpuMs'): string => median(xs.map((x) => x[key])).toFixed(0);
  console.log(
    `  start-up${label}: empty run ${ms(start.empty, 'ms')} ms vs node -e '' ${ms(start.node, 'ms')} ms: ${r.wall.toFixed(2)}× (median of ${start.empty.length} paired rounds)   target ≤ 1.5×  ${r.wall <= 1.5 ? 'OK' : 'MISSED'}`,
  );
  console.log(`    CPU time: empty run ${ms(start.empty, 'cpuMs')} ms vs node -e '' ${ms(start.node, 'cpuMs')} ms: ${r.cpu.toFixed(2)}×`);
  return r.wall;
}

function spawnFive(): Promise<void> {
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const child = spawn('/bin/sh', ['-c', 'true']);
      child.on('close', () => resolve());
    });
  return Promise.all([one(), one(), one(), one(), one()]).then(() => undefined);
}

async function main(): Promise<void> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hw-bench-home-'));
  const reporter = path.join(home, 'usageReporter.js');
  writeFileSync(reporter, REPORTER);
  const bare = workspace(0);
  const hooked = workspace(5);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, HOOKWISE_HOME: path.join(home, '.hookwise'), OPENAI_API_KEY: 'x' };
  const plain: Cost[] = [];
  const withHooks: Cost[] = [];
  const addedPerCall: number[] = [];
  const addedCpuPerCall: number[] = [];
  const floor: number[] = [];
  const floorCpu: number[] = [];
  const nodeFloor: Cost[] = [];
  const start = await startupRounds(bare, env, reporter);
  // Every Node process here parses the extra CA file at start-up (tens of ms of CPU), the floor
  // and the CLI alike, which flatters the ratios: measured once more without it.
  const { NODE_EXTRA_CA_CERTS: extraCa, ...envWithoutExtraCa } = env;
  const startWithoutExtraCa = extraCa === undefined ? undefined : await startupRounds(bare, envWithoutExtraCa, reporter);
  await runOnce(bare, home, reporter); // warm the file cache
  await runOnce(hooked, home, reporter, HOOK_CALLS); // and the compile cache's hook paths
  for (let r = 0; r < ROUNDS; r++) {
    nodeFloor.push(await timeNode(['-r', reporter, '-e', ''], bare, env));
    plain.push(await runOnce(bare, home, reporter));
    // Paired in the same round, in alternating order: machine drift and any cost of going
    // second cancel out of the difference.
    const first = await runOnce(r % 2 === 0 ? bare : hooked, home, reporter, HOOK_CALLS);
    const second = await runOnce(r % 2 === 0 ? hooked : bare, home, reporter, HOOK_CALLS);
    const [a, b] = r % 2 === 0 ? [first, second] : [second, first];
    withHooks.push(b);
    addedPerCall.push((b.ms - a.ms) / HOOK_CALLS);
    addedCpuPerCall.push((b.cpuMs - a.cpuMs) / HOOK_CALLS);
    const t = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < HOOK_CALLS; i++) await spawnFive();
    const used = process.cpuUsage(cpu);
    floor.push((performance.now() - t) / HOOK_CALLS);
    floorCpu.push((used.user + used.system) / 1000 / HOOK_CALLS);
  }
  const base = median(plain.map((x) => x.ms));
  const hookedMs = median(withHooks.map((x) => x.ms));
  const added = median(addedPerCall);
  const floorPerCall = median(floor);
  const peakMiB = Math.max(...plain.map((x) => x.maxRssKb), ...withHooks.map((x) => x.maxRssKb)) / 1024;
  console.log(`headless session, ${CALLS} Bash calls, ${ROUNDS} rounds (medians):`);
  console.log(`  no hooks: whole run ${base.toFixed(0)} ms          target ≤ 400 ms  ${base <= 400 ? 'OK' : 'MISSED'}`);
  console.log(`  5 PreToolUse hooks per call: whole run of ${HOOK_CALLS} calls ${hookedMs.toFixed(0)} ms`);
  // Each round's added cost against the floor measured in the same round, so a slow patch of
  // the machine weighs on both sides; the spread says how much to trust the median.
  const ratios = addedPerCall.map((a, i) => a / (floor[i] ?? NaN)).sort((x, y) => x - y);
  const ratio = median(ratios);
  const quartile = (q: number): string => (ratios[Math.floor(q * (ratios.length - 1))] ?? NaN).toFixed(2);
  console.log(
    `  added per tool call ${added.toFixed(2)} ms vs spawning 5 processes directly ${floorPerCall.toFixed(2)} ms (medians of ${ROUNDS} paired rounds of ${HOOK_CALLS}-call sessions)`,
  );
  console.log(
    `  ratio per round: median ${ratio.toFixed(2)}× (middle half ${quartile(0.25)}–${quartile(0.75)}×)   target ≤ 1.2×  ${ratio <= 1.2 ? 'OK' : 'MISSED'}`,
  );
  // CPU of the spawning process only (the CLI's own, the bench's own for the floor): the
  // children's CPU is the same 5 shells on both sides.
  const cpuRatio = median(addedCpuPerCall.map((a, i) => a / (floorCpu[i] ?? NaN)));
  console.log(
    `    CPU time of the spawning process per call: CLI +${median(addedCpuPerCall).toFixed(2)} ms vs ${median(floorCpu).toFixed(2)} ms spawning directly: ${cpuRatio.toFixed(2)}×`,
  );
  console.log(`  peak RSS of the CLI process ${peakMiB.toFixed(1)} MiB      target ≤ 120 MiB  ${peakMiB <= 120 ? 'OK' : 'MISSED'}`);
  // Ratios per round, each against the `node -e ''` measured beside it.
  const startupVsNode = printStartup('', start);
  if (startWithoutExtraCa !== undefined) printStartup(' without NODE_EXTRA_CA_CERTS', startWithoutExtraCa);
  const session = pairedRatios(plain, nodeFloor);
  console.log(
    `  10-call session (no hooks) vs node -e '': ${session.wall.toFixed(2)}× (median of ${ROUNDS} paired rounds); CPU time ${session.cpu.toFixed(2)}×`,
  );
  // Gathered by bench/run.mjs into its final JSON line (floor: a small Node process spawning the 5 at once, as for the host).
  console.log(
    `@bench-json ${JSON.stringify({ cliHookRatio: Math.round(ratio * 100) / 100, startupVsNode: Math.round(startupVsNode * 100) / 100, sessionVsNode: Math.round(session.wall * 100) / 100 })}`,
  );
  for (const d of [home, bare, hooked]) rmSync(d, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
