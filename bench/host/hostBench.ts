/**
 * The host benchmark: loaded by code-server's extension host as `extensionTestsPath` (see
 * test/host/benchHost.mjs), it drives the real extension — its AgentController, the real
 * agent loop, the real command hooks and the real Hook Runs tree — against an OpenAI test
 * server started in this same host, and writes a JSON report to HOOKWISE_BENCH_RESULTS.
 * Measures only: the runner prints the figures beside their targets.
 *
 *  - activation: `activate()` as the extension measures it, and load + activate from here;
 *  - hooked tool call: sessions of CALLS Bash calls without and with 5 PreToolUse command
 *    hooks, paired round by round, against floor (a) a fresh `node -e` spawning 5 `sh -c true`
 *    at once and floor (b) this extension host spawning them, measured in the same rounds; and
 *    floor (a) once more while sessions without hooks run (floorA.ts);
 *  - long session: LONG_CALLS Bash calls (two per model reply) with the 5 hooks: host RSS and
 *    heap growth once settled (settledMemory) and the highest RSS while it ran, tree refreshes
 *    per second, the biggest request body (compaction bounds it), then the time to expand the
 *    biggest agent node and the transcript's write cost per entry;
 *  - with HOOKWISE_BENCH_BROWSER_TRACE=<dir>: two long sessions, without and with the hooks,
 *    each traced in the browser by the runner (browserTraceSessions.ts);
 *  - with HOOKWISE_BENCH_PROFILE=<file>: a CPU profile of the hooked rounds; with
 *    HOOKWISE_BENCH_ACTIVATION_PROFILE=<file>: one of loading and activating the extension
 *    (sampled every 50 µs); with
 *    HOOKWISE_BENCH_HEAP_PROFILE=<file>: a sampling heap profile of the long session (what it
 *    allocates, collected or not), both for Chrome DevTools.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { HookwiseApi } from '../../src/extension';
import type { HookRunsNode } from '../../src/vscode/tree/hookRunNodes';
import { TranscriptWriter, type TranscriptEntry } from '../../src/agent/transcript';
import type { ModelServerStats } from './modelServer';
import { addCpu, cpuByRole, cpuSpent, describeCpu, noCpu, totalCpu, type CpuByRole } from './processCpu';
import { runTracedSessions } from './browserTraceSessions';
import { emptyWebviewMs, settledMemory, startHeapSampling, startProfile } from './hostProbes';
import { floorA, floorWhile } from './floorA';

const CALLS = 10;
const ROUNDS = Number(process.env.HOOKWISE_BENCH_ROUNDS ?? 12);
const LONG_CALLS = Number(process.env.HOOKWISE_BENCH_LONG_CALLS ?? 2000);
const HOOKS = 5;

/** What the runner reads. Figures in ms / MiB unless the name says otherwise. */
export interface HostBenchReport {
  host: { appName: string; vscodeVersion: string; node: string; cpus: number; cpuModel: string };
  figures: Record<string, number>;
  notes: string[];
  fatal?: string;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const MiB = 1024 * 1024;

/** Floor (b): this extension host doing the same spawns. */
async function floorB(iterations: number): Promise<number[]> {
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const c = spawn('/bin/sh', ['-c', 'true']);
      c.on('close', () => resolve());
    });
  const out: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    await Promise.all(Array.from({ length: HOOKS }, one));
    out.push(performance.now() - t);
  }
  return out;
}

function resultsFile(): string {
  const file = process.env.HOOKWISE_BENCH_RESULTS;
  if (!file) throw new Error('HOOKWISE_BENCH_RESULTS is not set');
  return file;
}

export async function run(): Promise<void> {
  const report: HostBenchReport = {
    host: { appName: vscode.env.appName, vscodeVersion: vscode.version, node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '?' },
    figures: {},
    notes: [
      `hook and Bash shells spawned ${process.env.HOOKWISE_SPAWN_HELPER === '0' ? 'directly by the host (HOOKWISE_SPAWN_HELPER=0)' : 'by the spawn helper'}`,
    ],
  };
  const fig = report.figures;
  const say = (line: string): void => console.log(`[hookwise-bench] ${line}`);
  try {
    // --- activation ---
    const ext = vscode.extensions.getExtension<HookwiseApi>('hookwise.hookwise');
    if (!ext) throw new Error('the extension hookwise.hookwise is not installed in this host');
    const wasActive = ext.isActive;
    const activationProfile = process.env.HOOKWISE_BENCH_ACTIVATION_PROFILE && !wasActive ? await startProfile(50) : undefined;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const api = await ext.activate();
    if (!wasActive) {
      fig.loadAndActivateMs = performance.now() - t0;
      // The window is still starting beside it on two cores: wall time moves 2× between runs, this far less.
      const cpu = process.cpuUsage(cpu0);
      fig.loadAndActivateCpuMs = (cpu.user + cpu.system) / 1000;
    }
    if (activationProfile) writeFileSync(process.env.HOOKWISE_BENCH_ACTIVATION_PROFILE as string, JSON.stringify(await activationProfile()));
    fig.activationMs = api.activationMs;
    say(`activate() ${api.activationMs.toFixed(1)} ms${wasActive ? ' (already active)' : `, load + activate ${fig.loadAndActivateMs?.toFixed(1)} ms`}`);

    // --- first chat render: the view opens, its webview loads the bundle and answers `ready` ---
    // Floor: an empty webview panel whose one inline script answers, before (the window's first
    // webview) and after the chat (the workbench's webview machinery warm).
    fig.emptyWebviewColdMs = await emptyWebviewMs();
    const chatStarted = performance.now();
    await vscode.commands.executeCommand('hookwise.openChat');
    while (!api.chat.isReady && performance.now() - chatStarted < 30_000) await new Promise((r) => setTimeout(r, 5));
    if (api.chat.isReady) fig.firstChatRenderMs = performance.now() - chatStarted;
    else report.notes.push('the chat webview never answered ready within 30 s');
    fig.emptyWebviewWarmMs = await emptyWebviewMs();

    // --- the model: bench/host/modelServer.ts in its own process (the runner started it) ---
    const modelUrl = process.env.HOOKWISE_BENCH_MODEL_URL;
    const controlUrl = process.env.HOOKWISE_BENCH_CONTROL_URL;
    if (!modelUrl || !controlUrl) throw new Error('HOOKWISE_BENCH_MODEL_URL / HOOKWISE_BENCH_CONTROL_URL are not set');
    const controlModel = async (change: object = {}): Promise<ModelServerStats> => {
      const res = await fetch(`${controlUrl}/control`, { method: 'POST', body: JSON.stringify(change), signal: AbortSignal.timeout(10_000) });
      return (await res.json()) as ModelServerStats;
    };
    const model = vscode.workspace.getConfiguration('hookwise.model');
    await model.update('provider', 'openai-compatible', vscode.ConfigurationTarget.Global);
    await model.update('name', 'bench', vscode.ConfigurationTarget.Global);
    await model.update('baseUrl', modelUrl, vscode.ConfigurationTarget.Global);
    await api.controller.reloadModel();
    if (!api.controller.model.configured) throw new Error(`no model: ${api.controller.model.configurationProblem}`);
    // Every Bash call must run: in the default mode it would ask, and the test host refuses the
    // popup, so the call would be refused instead (what earlier runs of this bench measured).
    // Set through the API like the model: a settings.json written before start is not read here.
    const hookwise = vscode.workspace.getConfiguration('hookwise');
    await hookwise.update('permissions.mode', 'bypassPermissions', vscode.ConfigurationTarget.Global);
    await hookwise.update('agent.maxSteps', 100_000, vscode.ConfigurationTarget.Global);
    if (vscode.workspace.getConfiguration('hookwise').get('permissions.mode') !== 'bypassPermissions')
      throw new Error('permissions.mode did not become bypassPermissions');

    // --- hooks: user settings (`hookwise.hooks`, trusted without approval), reloaded explicitly ---
    let hookCount: number | undefined;
    const setHooks = async (count: number): Promise<void> => {
      // An unchanged value fires no change event: nothing to wait for.
      if (count === hookCount) return;
      hookCount = count;
      // Distinct commands: identical ones are deduplicated to one run.
      const hooks = Array.from({ length: count }, (_, i) => ({ type: 'command', command: `true ${i}` }));
      const value = count ? { PreToolUse: [{ matcher: 'Bash', hooks }] } : {};
      const changed = new Promise<void>((resolve) => {
        const seen = vscode.workspace.onDidChangeConfiguration((e) => {
          if (!e.affectsConfiguration('hookwise.hooks')) return;
          seen.dispose();
          resolve();
        });
      });
      await vscode.workspace.getConfiguration('hookwise').update('hooks', value, vscode.ConfigurationTarget.Global);
      // The extension heard the change (its listener came first) and scheduled a reload: wait for
      // it too, or it runs during the next session's first calls.
      await changed;
      await api.hookConfig.reload();
      await api.hookConfig.idle();
    };
    let commandRuns = 0;
    const hookDurations: number[] = [];
    const counting = api.hookRuns.onDidChangeRun((r) => {
      if (r.event === 'PreToolUse' && r.source.kind !== 'code' && r.status === 'ok') {
        commandRuns++;
        hookDurations.push(r.durationMs ?? NaN);
      }
    });

    const session = async (calls: number, each = 1, command = 'true'): Promise<number> => {
      await api.controller.newSession();
      await controlModel({ remaining: calls, perReply: each, command });
      const t = performance.now();
      await api.controller.submit('bench');
      const ms = performance.now() - t;
      const { remaining } = await controlModel();
      if (remaining !== 0) throw new Error(`the session stopped with ${remaining} calls left (see the Hookwise log)`);
      return ms;
    };

    // --- hooked tool call, paired rounds, floors in the same rounds ---
    await setHooks(HOOKS);
    await session(CALLS); // warm-up: JIT, file cache, first session
    await setHooks(0);
    await session(CALLS);
    const added: number[] = [];
    const ratios: number[] = [];
    const floorsA: number[] = [];
    const floorsB: number[] = [];
    // CPU time of the whole machine during the paired sessions, by role (Linux /proc only).
    const cpuPlain = noCpu();
    const cpuHooked = noCpu();
    let cpuSeen = true;
    const timed = async (sum: CpuByRole): Promise<number> => {
      const before = cpuByRole();
      const ms = await session(CALLS);
      const after = cpuByRole();
      if (before && after) addCpu(sum, cpuSpent(before, after));
      else cpuSeen = false;
      return ms;
    };
    commandRuns = 0;
    hookDurations.length = 0;
    const profile = process.env.HOOKWISE_BENCH_PROFILE ? await startProfile() : undefined;
    for (let r = 0; r < ROUNDS; r++) {
      await setHooks(0);
      const plain = await timed(cpuPlain);
      await setHooks(HOOKS);
      const hooked = await timed(cpuHooked);
      const a = median(await floorA(HOOKS, CALLS));
      const b = median(await floorB(CALLS));
      const perCall = (hooked - plain) / CALLS;
      added.push(perCall);
      ratios.push(perCall / a);
      floorsA.push(a);
      floorsB.push(b);
    }
    if (profile) writeFileSync(process.env.HOOKWISE_BENCH_PROFILE as string, JSON.stringify(await profile()));
    fig.hookRunMs = median(hookDurations);
    if (commandRuns !== ROUNDS * CALLS * HOOKS) throw new Error(`expected ${ROUNDS * CALLS * HOOKS} command hook runs, saw ${commandRuns}`);
    fig.hostAddedPerCallMs = median(added);
    fig.floorAMs = median(floorsA);
    fig.floorBMs = median(floorsB);
    fig.hostHookRatio = median(ratios);
    fig.hostFloorRatio = median(floorsB.map((b, i) => b / (floorsA[i] ?? NaN)));
    if (cpuSeen) {
      const calls = ROUNDS * CALLS;
      fig.cpuPerPlainCallMs = totalCpu(cpuPlain) / calls;
      fig.cpuPerHookedCallMs = totalCpu(cpuHooked) / calls;
      report.notes.push(
        `CPU time of the whole machine per Bash call (${os.cpus().length} cores): without hooks ${describeCpu(cpuPlain, calls)}; with 5 hooks ${describeCpu(cpuHooked, calls)}`,
      );
    } else report.notes.push('no /proc: CPU time per role not measured');
    say(`hooked call: +${fig.hostAddedPerCallMs.toFixed(2)} ms/call, floor a ${fig.floorAMs.toFixed(2)} ms, floor b ${fig.floorBMs.toFixed(2)} ms`);
    // Floor (a) again while sessions without hooks run: the machine as busy as the hooks find it
    // (reported beside hostHookRatio, which keeps the idle floor the issue defines).
    await setHooks(0);
    const loaded: number[] = [];
    for (let r = 0; r < 3; r++) loaded.push(...(await floorWhile(HOOKS, () => session(CALLS))));
    fig.floorABusyMs = median(loaded);
    fig.floorABusySamples = loaded.length;
    fig.hostHookRatioBusyFloor = fig.hostAddedPerCallMs / fig.floorABusyMs;

    if (process.env.HOOKWISE_BENCH_BROWSER_TRACE) await runTracedSessions(resultsFile(), HOOKS, setHooks, (calls) => session(calls));

    // --- long session ---
    await setHooks(HOOKS);
    await api.controller.newSession();
    const refreshes: number[] = [];
    const refreshing = api.hookRuns.onDidChangeTreeData(() => refreshes.push(performance.now()));
    let runsSeen = 0;
    const allRuns = api.hookRuns.onDidChangeRun(() => runsSeen++);
    const before = settledMemory();
    const samples: { s: number; heapMiB: number; rssMiB: number; totalMiB: number; extMiB: number }[] = [];
    const longStarted = performance.now();
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      samples.push({
        s: (performance.now() - longStarted) / 1000,
        heapMiB: m.heapUsed / MiB,
        rssMiB: m.rss / MiB,
        totalMiB: m.heapTotal / MiB,
        extMiB: m.external / MiB,
      });
    }, 5000);
    await controlModel({ resetStats: true });
    const heapSampling = process.env.HOOKWISE_BENCH_HEAP_PROFILE ? await startHeapSampling() : undefined;
    // Each call prints ~600 bytes, like a short listing or test summary.
    const longMs = await session(LONG_CALLS, 2, 'seq 1000 1150');
    clearInterval(sampler);
    if (heapSampling) writeFileSync(process.env.HOOKWISE_BENCH_HEAP_PROFILE as string, JSON.stringify(await heapSampling()));
    const modelStats = await controlModel();
    const after = settledMemory();
    refreshing.dispose();
    allRuns.dispose();
    fig.longSessionMs = longMs;
    fig.longSessionHookRuns = runsSeen;
    fig.longSessionRssGrowthMiB = (after.rss - before.rss) / MiB;
    // What the session needed while it ran (young generation, pages V8 pools for reuse): shown, not judged.
    fig.longSessionRssPeakMiB = Math.max(0, ...samples.map((m) => m.rssMiB)) - before.rss / MiB;
    fig.hostHeapGrowthMiB = (after.heapUsed - before.heapUsed) / MiB;
    fig.maxRequestKiB = modelStats.maxRequestBytes / 1024;
    fig.compactions = modelStats.compactions;
    // The busiest second of the session.
    let peak = 0;
    for (let i = 0, j = 0; i < refreshes.length; i++) {
      while ((refreshes[i] ?? 0) - (refreshes[j] ?? 0) >= 1000) j++;
      peak = Math.max(peak, i - j + 1);
    }
    fig.treeRefreshPerSec = peak;
    fig.treeRefreshes = refreshes.length;
    report.notes.push(
      `heap used/heap total/external/RSS while running (MiB, every 5 s): ${samples.map((m) => `${m.heapMiB.toFixed(0)}/${m.totalMiB.toFixed(0)}/${m.extMiB.toFixed(0)}/${m.rssMiB.toFixed(0)}`).join(', ')}`,
    );
    report.notes.push(
      `settled before/after the long session (MiB): heap total ${(before.heapTotal / MiB).toFixed(0)}/${(after.heapTotal / MiB).toFixed(0)}, external ${(before.external / MiB).toFixed(0)}/${(after.external / MiB).toFixed(0)}, RSS ${(before.rss / MiB).toFixed(0)}/${(after.rss / MiB).toFixed(0)}`,
    );
    say(`long session: ${LONG_CALLS} calls in ${(longMs / 1000).toFixed(1)} s, ${runsSeen} hook runs, RSS +${fig.longSessionRssGrowthMiB.toFixed(1)} MiB`);

    // --- expanding the biggest agent node, as VS Code does: children, then an item for each ---
    const agents: HookRunsNode[] = [];
    const walk = (node?: HookRunsNode): void => {
      for (const child of api.hookRuns.getChildren(node)) {
        if (child.kind === 'agent') agents.push(child);
        if (child.kind === 'session' || child.kind === 'agent') walk(child);
      }
    };
    walk();
    const biggest = agents.sort((x, y) => api.hookRuns.getChildren(y).length - api.hookRuns.getChildren(x).length)[0];
    if (!biggest) throw new Error('the tree has no agent node');
    const expand = (): number => {
      const t = performance.now();
      for (const child of api.hookRuns.getChildren(biggest)) api.hookRuns.getTreeItem(child);
      return performance.now() - t;
    };
    expand();
    fig.treeExpandMs = median(Array.from({ length: 15 }, expand));
    fig.treeExpandChildren = api.hookRuns.getChildren(biggest).length;

    // --- transcript write cost: the long session's own entries, written again by the real writer ---
    const dir = path.join(process.env.HOOKWISE_HOME ?? path.join(os.homedir(), '.hookwise'), 'projects');
    const newest = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => path.join(dir, f))
      .sort((x, y) => statSync(y).mtimeMs - statSync(x).mtimeMs)[0];
    if (newest) {
      const entries = readFileSync(newest, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as TranscriptEntry);
      const scratch = path.join(os.tmpdir(), `hookwise-bench-transcript-${process.pid}`);
      const writer = new TranscriptWriter(path.join(scratch, 't.jsonl'));
      const t = performance.now();
      for (const e of entries) writer.write(e);
      fig.transcriptWriteUs = ((performance.now() - t) / entries.length) * 1000;
      fig.transcriptEntries = entries.length;
      writer.close();
      rmSync(scratch, { recursive: true, force: true });
    } else report.notes.push(`no transcript found under ${dir}`);

    // Who holds the growth: the Hook Runs tree, then the session (conversation, chat log). Measured
    // from just before the clear: the expand and transcript steps above leave items and code of their own.
    const withTree = settledMemory();
    api.hookRuns.clear();
    const withoutTree = settledMemory();
    await api.controller.newSession();
    const withoutSession = settledMemory();
    fig.treeRetainedMiB = (withTree.heapUsed - withoutTree.heapUsed) / MiB;
    fig.sessionRetainedMiB = (withoutTree.heapUsed - withoutSession.heapUsed) / MiB;
    counting.dispose();
  } catch (e) {
    report.fatal = e instanceof Error ? (e.stack ?? e.message) : String(e);
  }
  const file = resultsFile();
  writeFileSync(`${file}.tmp`, JSON.stringify(report, null, 2));
  renameSync(`${file}.tmp`, file);
}
