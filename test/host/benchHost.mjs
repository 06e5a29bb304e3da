// @ts-check
/**
 * The host benchmark (part of `npm run bench`, never of `npm test`): bundles
 * bench/host/hostBench.ts, opens code-server with the built extension (dist/extension.js,
 * as `npm run bench` builds it: minified) and that module as `extensionTestsPath`, the way
 * runIntegration.mjs runs the integration suite, and waits for the JSON report it writes.
 * Prints each figure beside its target, then one line `@bench-json {...}` that bench/run.mjs
 * gathers into its final JSON line. Exits non-zero when the benchmark could not run.
 */
import * as esbuild from 'esbuild';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureHost, REPO_ROOT } from './install.mjs';
import { launchChromium, QUIET_SETTINGS, startCodeServer, tempDir, workbenchUrl } from './codeServer.mjs';
import { browserTracer } from './browserTrace.mjs';

const ENTRY = path.join(REPO_ROOT, 'out', 'bench', 'host', 'index.js');
const MODEL_SERVER = path.join(REPO_ROOT, 'out', 'bench', 'host', 'modelServer.js');
const TIMEOUT_MS = Number(process.env.HOOKWISE_BENCH_TIMEOUT_MS ?? 15 * 60_000);
/** Where browser traces go (HOOKWISE_BENCH_BROWSER_TRACE, see browserTrace.mjs); unset = no trace. */
const TRACE_DIR = process.env.HOOKWISE_BENCH_BROWSER_TRACE ? path.resolve(process.env.HOOKWISE_BENCH_BROWSER_TRACE) : undefined;

/** @param {string} msg */
const say = (msg) => console.log(`[host bench] ${msg}`);

async function main() {
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run `node esbuild.mjs --production` first');
  const bundle = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
    mainFields: ['module', 'main'],
    define: { 'import.meta.url': '__hookwiseImportMetaUrl' },
    banner: { js: "const __hookwiseImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
  };
  await esbuild.build({ ...bundle, entryPoints: [path.join(REPO_ROOT, 'bench', 'host', 'hostBench.ts')], outfile: ENTRY });
  await esbuild.build({ ...bundle, entryPoints: [path.join(REPO_ROOT, 'bench', 'host', 'modelServer.ts')], outfile: MODEL_SERVER });
  await ensureHost();
  const model = await startModelServer();
  const scratch = tempDir('bench');
  const workspace = path.join(scratch, 'workspace');
  const resultsFile = path.join(scratch, 'results.json');
  mkdirSync(workspace);
  /** @type {import('./codeServer.mjs').CodeServer | undefined} */
  let server;
  /** @type {Awaited<ReturnType<typeof launchChromium>> | undefined} */
  let browser;
  try {
    server = await startCodeServer({
      folder: workspace,
      smokeTestDriver: true,
      disableWorkspaceTrust: true,
      env: {
        HOOKWISE_BENCH_RESULTS: resultsFile,
        HOOKWISE_HOME: path.join(scratch, 'hookwise-home'),
        HOOKWISE_BENCH_MODEL_URL: model.modelUrl,
        HOOKWISE_BENCH_CONTROL_URL: model.controlUrl,
        ...(TRACE_DIR ? { HOOKWISE_BENCH_BROWSER_TRACE: TRACE_DIR } : {}),
      },
      settings: {
        ...QUIET_SETTINGS,
        'hookwise.permissions.mode': 'bypassPermissions',
        'hookwise.agent.maxSteps': 100_000,
        'hookwise.notifications.idleSeconds': 0,
      },
    });
    say(`code-server ${server.version.codeServer} (VS Code ${server.version.vscode})`);
    browser = await launchChromium();
    await browser.page.goto(workbenchUrl(server, workspace, { extensionDevelopmentPath: REPO_ROOT, extensionTestsPath: ENTRY }));
    const deadline = Date.now() + TIMEOUT_MS;
    const tracer = TRACE_DIR ? browserTracer(browser.page, `${resultsFile}.trace`, TRACE_DIR, say) : undefined;
    while (!existsSync(resultsFile)) {
      await tracer?.poll();
      const why = server.exited();
      if (why) throw new Error(why);
      if (Date.now() > deadline) throw new Error(`no report after ${TIMEOUT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, tracer ? 20 : 500));
    }
    /** @type {import('../../bench/host/hostBench').HostBenchReport} */
    const report = JSON.parse(readFileSync(resultsFile, 'utf8'));
    if (report.fatal) throw new Error(`the benchmark failed in the host: ${report.fatal}`);
    print(report);
  } catch (e) {
    console.error(`[host bench] FAILED: ${e instanceof Error ? e.message : e}`);
    if (server) console.error(`[host bench] code-server output (tail):\n${server.output().slice(-3000)}`);
    process.exitCode = 1;
  } finally {
    await browser?.close();
    await server?.stop();
    model.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Starts bench/host/modelServer.ts (bundled) in its own Node process; it exits when we close its stdin.
 * @returns {Promise<{modelUrl: string, controlUrl: string, stop: () => void}>}
 */
function startModelServer() {
  const child = spawn(process.execPath, [MODEL_SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the model server exited (${code}) before it was ready`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      out += text;
      const m = /READY (\S+) (\S+)/.exec(out);
      if (m) resolve({ modelUrl: /** @type {string} */ (m[1]), controlUrl: /** @type {string} */ (m[2]), stop: () => child.stdin.end() });
    });
  });
}

/** @param {import('../../bench/host/hostBench').HostBenchReport} report */
function print(report) {
  const f = report.figures;
  const h = report.host;
  console.log(`extension host: ${h.appName} (VS Code ${h.vscodeVersion}), Node ${h.node}, ${h.cpus} × ${h.cpuModel}`);
  /** @param {string} label @param {number | undefined} value @param {string} unit @param {number} [target] */
  const row = (label, value, unit, target) => {
    const shown = value === undefined ? 'n/a' : `${value.toFixed(2)} ${unit}`;
    const verdict = target === undefined || value === undefined ? '' : `   target ≤ ${target} ${unit}  ${value <= target ? 'OK' : 'MISSED'}`;
    console.log(`  ${label.padEnd(58)} ${shown.padStart(14)}${verdict}`);
  };
  row('activate() wall time', f.activationMs, 'ms', 30);
  row('load + activate (from the bench)', f.loadAndActivateMs, 'ms');
  row('  CPU time of the host process meanwhile', f.loadAndActivateCpuMs, 'ms');
  row("an empty webview panel → its script answers (the window's first webview)", f.emptyWebviewColdMs, 'ms');
  row('chat render, after that (open the view → webview ready)', f.firstChatRenderMs, 'ms');
  row('an empty webview panel → its script answers, after the chat', f.emptyWebviewWarmMs, 'ms');
  row('floor (a): fresh node -e, 5 × sh -c true at once', f.floorAMs, 'ms');
  row('floor (b): the extension host, 5 × sh -c true at once', f.floorBMs, 'ms');
  row('hostFloorRatio (b / a)', f.hostFloorRatio, '×');
  row('one command hook run, as its record says (median)', f.hookRunMs, 'ms');
  row('added per Bash call by 5 PreToolUse hooks (host)', f.hostAddedPerCallMs, 'ms');
  row('hostHookRatio (added / floor a)', f.hostHookRatio, '×', 1.5);
  row(`floor (a) while sessions without hooks run (${f.floorABusySamples} samples)`, f.floorABusyMs, 'ms');
  row('  added / that floor (not tracked: the issue defines floor a idle)', f.hostHookRatioBusyFloor, '×');
  row('CPU time, all processes, per Bash call without hooks', f.cpuPerPlainCallMs, 'ms');
  row('CPU time, all processes, per Bash call with 5 hooks', f.cpuPerHookedCallMs, 'ms');
  row(`long session: ${f.longSessionHookRuns} hook runs, wall time`, f.longSessionMs !== undefined ? f.longSessionMs / 1000 : undefined, 's');
  row('long session: host RSS growth, settled (V8 pools released)', f.longSessionRssGrowthMiB, 'MiB', 50);
  row('long session: highest RSS while running, above the start', f.longSessionRssPeakMiB, 'MiB');
  row('long session: host heap growth', f.hostHeapGrowthMiB, 'MiB', 50);
  row('  of which the Hook Runs tree holds', f.treeRetainedMiB, 'MiB');
  row('  of which the ended session held (conversation, chat log)', f.sessionRetainedMiB, 'MiB');
  row('Hook Runs tree refreshes, busiest second', f.treeRefreshPerSec, '/s', 10);
  row(`expand the biggest agent node (${f.treeExpandChildren} children)`, f.treeExpandMs, 'ms', 100);
  row(`biggest model request (${f.compactions} compactions)`, f.maxRequestKiB, 'KiB');
  row(`transcript write per entry (${f.transcriptEntries} entries)`, f.transcriptWriteUs, 'µs');
  for (const note of report.notes) console.log(`  note: ${note}`);
  const pick = ['hostHookRatio', 'hostFloorRatio', 'activationMs', 'treeRefreshPerSec', 'treeExpandMs', 'hostHeapGrowthMiB', 'longSessionRssGrowthMiB'];
  console.log(`@bench-json ${JSON.stringify(Object.fromEntries(pick.map((k) => [k, round(f[k])])))}`);
}

/** @param {number | undefined} x */
const round = (x) => (x === undefined ? null : Math.round(x * 100) / 100);

await main();
