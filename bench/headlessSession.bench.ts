// Headless CLI benchmark: one scripted headless session (`node dist/cli.js -p …`) of 10 Bash tool
// calls against an instant local OpenAI-compatible server, measured as a user runs it: wall
// time from spawn to exit and the CLI process's peak RSS.
//  - with no hooks (target: whole run ≤ 0.4 s; peak memory ≤ 120 MiB);
//  - with 5 PreToolUse command hooks per call: the added cost per tool call, against the
//    cost of spawning those 5 processes directly (concurrently), measured in the same run
//    (target ≤ 1.2×);
//  - start-up: an empty run (`node dist/cli.js -p …` answered at once with text, no tool) and
//    the 10-call session against `node -e ''`, interleaved round by round (target for the
//    empty run ≤ 1.5×; the session is reported against the same floor).
// Needs `node esbuild.mjs` first (npm run bench does it). Measures only.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOpenAiTestServer, textReply, toolCallsReply } from '../test/support/openAiTestServer';

const CALLS = 10;
const ROUNDS = 15;
const cli = path.resolve('dist/cli.js');

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

async function runOnce(dir: string, home: string): Promise<{ ms: number; maxRssKb: number }> {
  const server = await startOpenAiTestServer({
    script: [...Array.from({ length: CALLS }, (_, i) => toolCallsReply([{ name: 'Bash', arguments: { command: `true ${i}` } }])), textReply('done')],
  });
  const started = performance.now();
  // Preload a tiny reporter so the CLI process tells us its own peak RSS when it exits.
  const code = `process.on('exit',()=>{require('fs').writeSync(2,'\\nMAXRSS '+process.resourceUsage().maxRSS+'\\n')});require(${JSON.stringify(cli)})`;
  const result = await new Promise<{ stderr: string; code: number | null }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['-e', code, '--', '-p', 'go', '--model', 'bench', '--base-url', server.url, '--allowed-tools', 'Bash', '--max-steps', '20'],
      {
        cwd: dir,
        env: { ...process.env, HOME: home, HOOKWISE_HOME: path.join(home, '.hookwise'), OPENAI_API_KEY: 'x' },
      },
    );
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (c) => resolve({ stderr, code: c }));
  });
  const ms = performance.now() - started;
  await server.close();
  if (result.code !== 0) throw new Error(`the CLI failed (${result.code}): ${result.stderr}`);
  const maxRssKb = Number(/MAXRSS (\d+)/.exec(result.stderr)?.[1] ?? NaN);
  return { ms, maxRssKb };
}

/** Wall time of `node <args>` in `cwd` (spawn to exit). */
async function timeNode(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [...args], { cwd, env, stdio: 'ignore' });
    child.on('close', (c) => resolve(c));
  });
  if (code !== 0) throw new Error(`node ${args.join(' ')} failed (${code})`);
  return performance.now() - started;
}

/** An empty headless run and `node -e ''`, interleaved; returns each round's ratio and times. */
async function startupRounds(dir: string, home: string): Promise<{ empty: number[]; node: number[] }> {
  const server = await startOpenAiTestServer({ script: () => textReply('done') });
  const env = { ...process.env, HOME: home, HOOKWISE_HOME: path.join(home, '.hookwise'), OPENAI_API_KEY: 'x' };
  const args = [cli, '-p', 'go', '--model', 'bench', '--base-url', server.url];
  const empty: number[] = [];
  const node: number[] = [];
  await timeNode(args, dir, env); // the compile cache and the file cache
  for (let r = 0; r < ROUNDS * 2; r++) {
    node.push(await timeNode(['-e', ''], dir, env));
    empty.push(await timeNode(args, dir, env));
  }
  await server.close();
  return { empty, node };
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
  const bare = workspace(0);
  const hooked = workspace(5);
  const plain: number[] = [];
  const withHooks: number[] = [];
  const addedPerCall: number[] = [];
  const floor: number[] = [];
  const nodeFloor: number[] = [];
  const rss: number[] = [];
  const start = await startupRounds(bare, home);
  await runOnce(bare, home); // warm the file cache
  for (let r = 0; r < ROUNDS; r++) {
    nodeFloor.push(await timeNode(['-e', ''], bare, process.env));
    const a = await runOnce(bare, home);
    plain.push(a.ms);
    rss.push(a.maxRssKb);
    const b = await runOnce(hooked, home);
    withHooks.push(b.ms);
    // Paired with the run just before it: machine drift cancels out of the difference.
    addedPerCall.push((b.ms - a.ms) / CALLS);
    rss.push(b.maxRssKb);
    const t = performance.now();
    for (let i = 0; i < CALLS; i++) await spawnFive();
    floor.push((performance.now() - t) / CALLS);
  }
  const base = median(plain);
  const hookedMs = median(withHooks);
  const added = median(addedPerCall);
  const floorPerCall = median(floor);
  const peakMiB = Math.max(...rss) / 1024;
  console.log(`headless session, ${CALLS} Bash calls, ${ROUNDS} rounds (medians):`);
  console.log(`  no hooks: whole run ${base.toFixed(0)} ms          target ≤ 400 ms  ${base <= 400 ? 'OK' : 'MISSED'}`);
  console.log(`  5 PreToolUse hooks per call: whole run ${hookedMs.toFixed(0)} ms`);
  // Each round's added cost against the floor measured in the same round, so a slow patch of
  // the machine weighs on both sides; the spread says how much to trust the median.
  const ratios = addedPerCall.map((a, i) => a / (floor[i] ?? NaN)).sort((x, y) => x - y);
  const ratio = median(ratios);
  const quartile = (q: number): string => (ratios[Math.floor(q * (ratios.length - 1))] ?? NaN).toFixed(2);
  console.log(
    `  added per tool call ${added.toFixed(2)} ms vs spawning 5 processes directly ${floorPerCall.toFixed(2)} ms (medians of ${ROUNDS} paired rounds)`,
  );
  console.log(
    `  ratio per round: median ${ratio.toFixed(2)}× (middle half ${quartile(0.25)}–${quartile(0.75)}×)   target ≤ 1.2×  ${ratio <= 1.2 ? 'OK' : 'MISSED'}`,
  );
  console.log(`  peak RSS of the CLI process ${peakMiB.toFixed(1)} MiB      target ≤ 120 MiB  ${peakMiB <= 120 ? 'OK' : 'MISSED'}`);
  // Ratios per round, each against the `node -e ''` measured beside it.
  const startupVsNode = median(start.empty.map((e, i) => e / (start.node[i] ?? NaN)));
  const sessionVsNode = median(plain.map((p, i) => p / (nodeFloor[i] ?? NaN)));
  console.log(
    `  start-up: empty run ${median(start.empty).toFixed(0)} ms vs node -e '' ${median(start.node).toFixed(0)} ms: ${startupVsNode.toFixed(2)}× (median of ${start.empty.length} paired rounds)   target ≤ 1.5×  ${startupVsNode <= 1.5 ? 'OK' : 'MISSED'}`,
  );
  console.log(`  10-call session (no hooks) vs node -e '': ${sessionVsNode.toFixed(2)}× (median of ${ROUNDS} paired rounds)`);
  // Gathered by bench/run.mjs into its final JSON line (floor: a small Node process spawning the 5 at once, as for the host).
  console.log(
    `@bench-json ${JSON.stringify({ cliHookRatio: Math.round(ratio * 100) / 100, startupVsNode: Math.round(startupVsNode * 100) / 100, sessionVsNode: Math.round(sessionVsNode * 100) / 100 })}`,
  );
  for (const d of [home, bare, hooked]) rmSync(d, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
