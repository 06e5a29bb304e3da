// @ts-check
/**
 * `npm run test:integration`: runs the mocha suite in test/integration/ INSIDE a real VS Code
 * extension host.
 *
 * Default host: code-server (offline-installable, see docs/development.md, 'Offline VS Code host').
 * The extension is loaded the development-host way (no packaging): the workbench URL carries
 * a payload with `extensionDevelopmentPath` and `extensionTestsPath`, and VS Code calls the
 * tests module's `run()` in the extension host. The page never closes by itself, so `run()`
 * writes a JSON report to the file named by HOOKWISE_TEST_RESULTS, an env var set on the
 * code-server process and inherited by its extension host; this script waits for it.
 *
 * `--host electron`: the same suite through @vscode/test-electron (downloads VS Code; for
 * machines that can reach Microsoft's update server).
 *
 * Prints every test, the host and VS Code version, and a final line `N passed, N failed`.
 * Exits non-zero on any failure, and when the host did not start or no results came.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureHost, REPO_ROOT } from './install.mjs';
import { copyWorkspace, launchChromium, QUIET_SETTINGS, startCodeServer, tempDir, workbenchUrl } from './codeServer.mjs';
import { installLmProviderFixture, LM_PROVIDER_FIXTURE } from './lmProviderFixture.mjs';

const FIXTURE_WORKSPACE = path.join(REPO_ROOT, 'test', 'fixtures', 'workspace');
const TESTS_ENTRY = path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');
const RESULTS_TIMEOUT_MS = Number(process.env.HOOKWISE_INTEGRATION_TIMEOUT_MS ?? 5 * 60_000);

/**
 * @typedef {object} Report
 * @property {number} passed
 * @property {number} failed
 * @property {number} pending
 * @property {{title: string, state: string, durationMs: number, error?: string}[]} tests
 * @property {{appName: string, appHost: string, vscodeVersion: string, node: string, pid: number}} host
 * @property {string} [fatal]
 */

/** @param {string} msg */
const say = (msg) => console.log(`[integration] ${msg}`);

function parseArgs() {
  const argv = process.argv.slice(2);
  let host = 'code-server';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--host') host = argv[++i] ?? '';
    else if (a?.startsWith('--host=')) host = a.slice('--host='.length);
    else throw new Error(`unknown argument ${a} (usage: runIntegration.mjs [--host code-server|electron])`);
  }
  if (host !== 'code-server' && host !== 'electron') throw new Error(`--host must be code-server or electron, not "${host}"`);
  return { host };
}

function build() {
  const t = Date.now();
  say('building (node esbuild.mjs)');
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build failed');
  if (!existsSync(TESTS_ENTRY)) throw new Error(`build did not produce ${path.relative(REPO_ROOT, TESTS_ENTRY)}`);
  say(`built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

/**
 * Waits for the report file; fails fast if `failed()` says the host died.
 * @param {string} file
 * @param {number} timeoutMs
 * @param {() => string | undefined} failed
 * @returns {Promise<Report>}
 */
async function waitForReport(file, timeoutMs, failed) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
    const why = failed();
    if (why) throw new Error(why);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no test results after ${timeoutMs / 1000} s: the extension host never ran the suite (see the output above)`);
}

/**
 * Prints the report the way mocha's spec reporter would and the host line; returns the count line.
 * @param {Report} report
 * @param {string} hostLine
 * @returns {string}
 */
function printReport(report, hostLine) {
  for (const t of report.tests) {
    const mark = t.state === 'passed' ? '✔' : t.state === 'failed' ? '✘' : '-';
    console.log(`  ${mark} ${t.title}${t.state === 'passed' ? ` (${t.durationMs} ms)` : ''}`);
  }
  for (const t of report.tests.filter((x) => x.state === 'failed')) {
    console.log(`\nFAILED: ${t.title}\n${t.error ?? ''}`);
  }
  if (report.fatal) console.log(`\nFATAL (suite did not run): ${report.fatal}`);
  console.log(`\n${hostLine}`);
  return `${report.passed} passed, ${report.failed} failed`;
}

/**
 * One code-server host the suite runs in. `folder`: the fixture folder, workspace trust off
 * (those tests are not about trust). `untrusted`: Workspace Trust on and never granted (Restricted
 * Mode), opened on a repository's own `.code-workspace` whose first folder is `..` (what stands
 * for $HOME holds `outside-secret.txt`); it runs only the `*.untrusted.test.ts` files.
 * @typedef {object} HostSpec
 * @property {'folder' | 'untrusted'} name
 * @property {() => {open: string, cleanup: string}} workspace What to open, and the folder to delete afterwards.
 * @property {boolean} disableWorkspaceTrust
 * @property {Record<string, unknown>} settings
 */

/** @type {HostSpec} */
const FOLDER_HOST = {
  name: 'folder',
  workspace: () => {
    const open = copyWorkspace(FIXTURE_WORKSPACE);
    return { open, cleanup: path.dirname(open) };
  },
  disableWorkspaceTrust: true,
  settings: QUIET_SETTINGS,
};

/** @type {HostSpec} */
const UNTRUSTED_HOST = {
  name: 'untrusted',
  workspace: () => {
    const home = tempDir('untrusted-home');
    writeFileSync(path.join(home, 'outside-secret.txt'), 'HOOKWISE-OUTSIDE-SECRET\n');
    const repo = path.join(home, 'repo');
    mkdirSync(repo);
    writeFileSync(path.join(repo, 'README.md'), '# a cloned repository\n');
    const open = path.join(repo, 'evil.code-workspace');
    // Its own model settings too: an endpoint of its choosing and the Playground (both must be ignored).
    const settings = { 'hookwise.model.baseUrl': 'http://127.0.0.1:9/v1', 'hookwise.model.provider': 'playground' };
    writeFileSync(open, JSON.stringify({ folders: [{ path: '..' }, { path: '.' }], settings }, null, 2));
    return { open, cleanup: home };
  },
  disableWorkspaceTrust: false,
  // Restricted Mode without the startup question (nobody would answer it).
  settings: { ...QUIET_SETTINGS, 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' },
};

/**
 * Whether a host has a test to run: one of its files (`*.untrusted.test.js` for the untrusted
 * host, the other `*.test.js` for the folder host) whose text matches HOOKWISE_TEST_GREP (titles
 * are literal strings in it), so a grep for one host's tests does not start the other.
 * @param {HostSpec} spec
 */
function hostSelected(spec) {
  const dir = path.dirname(TESTS_ENTRY);
  const files = readdirSync(dir).filter((f) => f.endsWith('.test.js') && f.endsWith('.untrusted.test.js') === (spec.name === 'untrusted'));
  const grep = process.env.HOOKWISE_TEST_GREP;
  if (!grep) return files.length > 0;
  const re = new RegExp(grep);
  return files.some((f) => re.test(readFileSync(path.join(dir, f), 'utf8')));
}

/**
 * @param {HostSpec} spec
 * @returns {Promise<{code: number, summary: string, passed: number, failed: number}>} exit code, the count line and the counts
 */
async function runInCodeServer(spec) {
  await ensureHost();
  const resultsDir = tempDir('integration');
  const resultsFile = path.join(resultsDir, 'results.json');
  const { open: workspace, cleanup } = spec.workspace();
  say(`host ${spec.name}: ${workspace}${spec.disableWorkspaceTrust ? '' : ' (Workspace Trust on, untrusted)'}`);
  // Beside Hookwise: an installed extension with scripted vscode.lm models and a tool (lm*.test.ts).
  const extensionsDir = tempDir('extensions');
  /** @type {import('./codeServer.mjs').CodeServer | undefined} */
  let server;
  /** @type {Awaited<ReturnType<typeof launchChromium>> | undefined} */
  let browser;
  /** @type {string[]} */
  const consoleLines = [];
  try {
    installLmProviderFixture(extensionsDir);
    const t0 = Date.now();
    server = await startCodeServer({
      folder: workspace,
      extensionsDir,
      smokeTestDriver: true, // required for the extensionTestsPath payload to be honoured
      disableWorkspaceTrust: spec.disableWorkspaceTrust,
      env: { HOOKWISE_TEST_RESULTS: resultsFile, HOOKWISE_TEST_HOST: spec.name },
      settings: spec.settings,
    });
    const hostLine = `host: code-server ${server.version.codeServer} (VS Code ${server.version.vscode})`;
    say(`${hostLine} on ${server.url} (started in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    const url = workbenchUrl(server, workspace, { extensionDevelopmentPath: REPO_ROOT, extensionTestsPath: TESTS_ENTRY });
    browser = await launchChromium();
    browser.page.on('console', (m) => consoleLines.push(`[page ${m.type()}] ${m.text()}`));
    browser.page.on('pageerror', (e) => consoleLines.push(`[page error] ${e.message}`));
    say(`opening ${url}`);
    await browser.page.goto(url);
    const report = await waitForReport(resultsFile, RESULTS_TIMEOUT_MS, /** @type {import('./codeServer.mjs').CodeServer} */ (server).exited);
    say(
      `suite finished ${((Date.now() - t0) / 1000).toFixed(1)} s after the server started, in ${report.host.appName} ${report.host.vscodeVersion} (${report.host.appHost}, extension host ${report.host.node})`,
    );
    if (report.host.vscodeVersion !== server.version.vscode) {
      report.failed++;
      report.fatal = `the suite ran in VS Code ${report.host.vscodeVersion}, expected ${server.version.vscode}`;
    }
    const summary = printReport(report, hostLine);
    return { code: report.failed > 0 || report.passed === 0 ? 1 : 0, summary, passed: report.passed, failed: report.failed };
  } catch (e) {
    console.error(`[integration] FAILED: ${e instanceof Error ? e.message : e}`);
    if (browser) {
      const shot = path.join(REPO_ROOT, 'test-results', 'integration-failure.png');
      mkdirSync(path.dirname(shot), { recursive: true });
      await browser.page
        .screenshot({ path: shot })
        .then(() => console.error(`[integration] screenshot: ${shot}`))
        .catch(() => {});
    }
    if (consoleLines.length) console.error(`[integration] last page console lines:\n${consoleLines.slice(-40).join('\n')}`);
    if (server) console.error(`[integration] code-server output (tail):\n${server.output().slice(-4000)}`);
    return { code: 1, summary: '0 passed, 1 failed', passed: 0, failed: 1 };
  } finally {
    await browser?.close();
    await server?.stop();
    rmSync(resultsDir, { recursive: true, force: true });
    rmSync(cleanup, { recursive: true, force: true });
    rmSync(extensionsDir, { recursive: true, force: true });
  }
}

/**
 * The folder host, then the untrusted one when it has a selected test. A host whose grep matched
 * nothing counts as 0 passed; the run fails only if something failed or nothing passed anywhere.
 * @returns {Promise<{code: number, summary: string}>}
 */
async function runAllInCodeServer() {
  const hosts = [FOLDER_HOST, UNTRUSTED_HOST].filter(hostSelected);
  const runs = [];
  // Nothing selected anywhere: the folder host runs and reports 0 passed (a failure, as before).
  for (const spec of hosts.length > 0 ? hosts : [FOLDER_HOST]) runs.push(await runInCodeServer(spec));
  const passed = runs.reduce((n, r) => n + r.passed, 0);
  const failed = runs.reduce((n, r) => n + r.failed, 0);
  // A host where the grep selected nothing reports 0 passed: not a failure when another host passed.
  return { code: failed > 0 || passed === 0 ? 1 : 0, summary: `${passed} passed, ${failed} failed` };
}

/** @returns {Promise<{code: number, summary: string}>} exit code and the count line */
async function runInElectron() {
  const { runTests, downloadAndUnzipVSCode } = await import('@vscode/test-electron');
  const resultsDir = tempDir('integration');
  const resultsFile = path.join(resultsDir, 'results.json');
  const workspace = copyWorkspace(FIXTURE_WORKSPACE);
  const cachePath = path.join(REPO_ROOT, '.vscode-test');
  const version = process.env.HOOKWISE_VSCODE_VERSION ?? 'stable';
  try {
    say(`downloading VS Code ${version} (needs Microsoft's update server; fails here when offline)`);
    // The download is the step that cannot work offline: bound it, so it fails clearly instead of hanging.
    const downloadTimeoutMs = Number(process.env.HOOKWISE_DOWNLOAD_TIMEOUT_MS ?? 120_000);
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const vscodeExecutablePath = await Promise.race([
      downloadAndUnzipVSCode({ version, cachePath, timeout: 30_000 }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`VS Code download did not finish in ${downloadTimeoutMs / 1000} s`)), downloadTimeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    say(`VS Code at ${vscodeExecutablePath}`);
    const exitCode = await runTests({
      vscodeExecutablePath: /** @type {string} */ (vscodeExecutablePath),
      // Desktop VS Code takes several development paths on its command line.
      extensionDevelopmentPath: [REPO_ROOT, LM_PROVIDER_FIXTURE],
      extensionTestsPath: TESTS_ENTRY,
      extensionTestsEnv: { HOOKWISE_TEST_RESULTS: resultsFile },
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    }).catch((e) => {
      // runTests rejects with "Test run failed with code 1" when run() throws; the report says why.
      say(String(e instanceof Error ? e.message : e));
      return 1;
    });
    if (!existsSync(resultsFile)) throw new Error(`VS Code exited with ${exitCode} and wrote no test results`);
    /** @type {Report} */
    const report = JSON.parse(readFileSync(resultsFile, 'utf8'));
    const summary = printReport(report, `host: VS Code desktop (electron) ${report.host.vscodeVersion}`);
    return { code: report.failed > 0 || report.passed === 0 || exitCode !== 0 ? 1 : 0, summary };
  } catch (e) {
    console.error(`[integration] FAILED (--host electron): ${e instanceof Error ? e.message : e}`);
    console.error('[integration] @vscode/test-electron needs to download VS Code; on an offline machine use the default host (code-server).');
    return { code: 1, summary: '0 passed, 1 failed' };
  } finally {
    rmSync(resultsDir, { recursive: true, force: true });
    rmSync(path.dirname(workspace), { recursive: true, force: true });
  }
}

async function main() {
  const { host } = parseArgs();
  const t = Date.now();
  build();
  const { code, summary } = host === 'electron' ? await runInElectron() : await runAllInCodeServer();
  say(`total ${((Date.now() - t) / 1000).toFixed(1)} s`);
  // The count line is always the last line: CI logs and people grep for it.
  console.log(summary);
  return code;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`[integration] FAILED: ${e instanceof Error ? e.message : e}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
