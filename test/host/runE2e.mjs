// @ts-check
/**
 * `npm run test:e2e`: the extension as a user gets it. Builds for production, packages the
 * .vsix with @vscode/vsce, installs it into a fresh extensions dir with code-server's own
 * `--install-extension`, starts code-server on a temp copy of examples/demo-workspace, opens
 * the workbench in headless Chromium (playwright-core) and runs the mocha tests in
 * test/e2e/*.test.mjs in this process, which drive the page. Screenshots go to test-results/.
 *
 * Prints the host and VS Code version and a final line `N passed, N failed`; exits non-zero
 * on any failure and when the host could not start (never a silent skip).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';
import { ensureHost, REPO_ROOT } from './install.mjs';
import { copyWorkspace, installVsix, launchChromium, QUIET_SETTINGS, startCodeServer, tempDir } from './codeServer.mjs';
import { installLmProviderFixture } from './lmProviderFixture.mjs';
import { RESULTS_DIR, setE2eContext } from '../e2e/harness.mjs';

const DEMO_WORKSPACE = path.join(REPO_ROOT, 'examples', 'demo-workspace');
const E2E_DIR = path.join(REPO_ROOT, 'test', 'e2e');
/** What the .vsix must contain for the extension to work (the bundle carries all dependencies). */
const REQUIRED_IN_VSIX = [
  'dist/extension.js',
  'dist/cli.js',
  'dist/cliMain.js',
  // Required at run time only when used (an MCP server configured, OpenTelemetry export on,
  // a YAML frontmatter or a Codex config.toml read, a Bash command run, an OpenAI-compatible model).
  'dist/mcp.js',
  'dist/telemetry.js',
  'dist/yaml.js',
  'dist/toml.js',
  'dist/openai.js',
  'dist/execa.js',
  'dist/media/chat.js',
  'media/hookwise.svg',
  'media/playground/demo.json',
  'schemas/claude-settings.schema.json',
  'package.json',
];

/** @param {string} msg */
const say = (msg) => console.log(`[e2e] ${msg}`);
/** @param {number} t0 */
const since = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

/**
 * @param {string} what
 * @param {string} cmd
 * @param {string[]} args
 * @returns {string} stdout
 */
function run(what, cmd, args) {
  const t = Date.now();
  const r = spawnSync(cmd, args, { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.stdout)
    process.stdout.write(
      r.stdout
        .split('\n')
        .filter((l) => !l.startsWith('[watch]'))
        .join('\n'),
    );
  if (r.status !== 0) throw new Error(`${what} failed (${r.status ?? r.error}):\n${r.stdout}${r.stderr}`);
  say(`${what}: ${since(t)}`);
  return r.stdout;
}

/** Top-level entries never copied into the packaging stage (big, and never shipped). */
const NOT_STAGED = new Set(['node_modules', '.vscode-test', '.git', 'out', 'test-results']);

/**
 * Builds for production and packages the .vsix from a staging copy of the repository.
 * Why a copy: vsce globs EVERY file under its folder before applying .vscodeignore, and
 * .vscode-test/ holds ~800 MB of code-server; from the repo itself packaging takes ~20 s,
 * from the stage about 1 s. The stage keeps .vscodeignore, so what ships is what the repo says.
 * @returns {string} path of the packaged .vsix
 */
function buildAndPackage() {
  run('production build', process.execPath, ['esbuild.mjs', '--production']);
  const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const stageRoot = tempDir('vsix');
  const stage = path.join(stageRoot, 'hookwise');
  cpSync(REPO_ROOT, stage, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(REPO_ROOT, src);
      return !NOT_STAGED.has(rel.split(path.sep)[0] ?? '') && !rel.endsWith('.vsix');
    },
  });
  const out = path.join(stageRoot, 'hookwise.vsix');
  const t = Date.now();
  // README links and screenshots are relative (docs/*.md and docs/screenshots, shipped): no repository URL to rewrite them against.
  const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', out], { cwd: stage, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vsce package failed (${r.status ?? r.error}):\n${r.stdout}${r.stderr}`);
  say(`vsce package: ${since(t)} (${r.stdout.trim().split('\n').pop()})`);
  rmSync(stage, { recursive: true, force: true });
  return out;
}

/**
 * Checks the installed extension folder: a file missing from the .vsix (a .vscodeignore
 * slip) would otherwise only show up as an extension that silently fails to activate.
 * @param {string} extensionsDir
 */
function checkInstalled(extensionsDir) {
  const dir = readdirSync(extensionsDir).find((d) => d.startsWith('hookwise.hookwise-'));
  if (!dir)
    throw new Error(`hookwise.hookwise is not in ${extensionsDir} after --install-extension (found: ${readdirSync(extensionsDir).join(', ') || 'nothing'})`);
  const missing = REQUIRED_IN_VSIX.filter((f) => !existsSync(path.join(extensionsDir, dir, f)));
  if (missing.length) throw new Error(`the .vsix misses ${missing.join(', ')} (check .vscodeignore)`);
  say(`installed ${dir} with ${REQUIRED_IN_VSIX.join(', ')}`);
}

/**
 * Runs the e2e mocha files in this process (they share the page through harness.mjs).
 * @returns {Promise<{passed: number, failed: number}>}
 */
async function runMocha() {
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 90_000, color: false, bail: false });
  const grep = process.env.HOOKWISE_TEST_GREP;
  if (grep) mocha.grep(grep);
  // hookwise.test.mjs is the first-run suite (a fresh workbench, the one-time approval of the
  // project hooks): it runs first, whatever the other files are named.
  const first = 'hookwise.test.mjs';
  const files = readdirSync(E2E_DIR)
    .filter((f) => f.endsWith('.test.mjs'))
    .sort((a, b) => (a === first ? -1 : b === first ? 1 : a.localeCompare(b)));
  if (files.length === 0) throw new Error(`no test/e2e/*.test.mjs files`);
  // What a failing test leaves behind (a screenshot, the end of the chat), recorded as it fails.
  mocha.addFile(path.join(E2E_DIR, 'failureRecord.mjs'));
  for (const f of files) mocha.addFile(path.join(E2E_DIR, f));
  await mocha.loadFilesAsync();
  let passed = 0;
  let failed = 0;
  await new Promise((resolve) => {
    const runner = mocha.run(resolve);
    runner.on('pass', () => passed++);
    runner.on('fail', () => failed++);
  });
  return { passed, failed };
}

async function main() {
  const t0 = Date.now();
  await ensureHost();
  const vsix = buildAndPackage();
  const extensionsDir = tempDir('extensions');
  const t1 = Date.now();
  installVsix(vsix, extensionsDir);
  say(`code-server --install-extension ${path.basename(vsix)} into a fresh extensions dir: ${since(t1)}`);
  checkInstalled(extensionsDir);
  // Beside Hookwise: scripted vscode.lm models and a tool (test/fixtures/lmProvider), for vscodeLm.test.mjs.
  installLmProviderFixture(extensionsDir);
  const workspace = copyWorkspace(DEMO_WORKSPACE);
  // The agent's transcripts go to a temp HOOKWISE_HOME (never ~/.hookwise); tests read them
  // to check what the model was told.
  const hookwiseHome = tempDir('home');

  /** @type {import('./codeServer.mjs').CodeServer | undefined} */
  let server;
  /** @type {Awaited<ReturnType<typeof launchChromium>> | undefined} */
  let browser;
  let summary = '0 passed, 1 failed';
  let code = 1;
  try {
    const t2 = Date.now();
    server = await startCodeServer({
      folder: workspace,
      extensionsDir,
      disableWorkspaceTrust: true,
      // Each scenario reloads the workbench and reads Hook Runs from empty: no history across reloads.
      // The demo workspace selects the Playground; the user's settings do too, as a user running the demo would
      // have answered (a workspace's provider that differs from the user's is asked about once; test/integration covers that).
      settings: { ...QUIET_SETTINGS, 'hookwise.hookRuns.keepHistory': false, 'hookwise.model.provider': 'playground' },
      // The demo's slow guard-secrets.sh waits while this file exists (the slow-hook scenario holds it).
      env: { HOOKWISE_HOME: hookwiseHome, HOOKWISE_DEMO_HOLD: path.join(hookwiseHome, 'hold-guard-secrets') },
    });
    const hostLine = `host: code-server ${server.version.codeServer} (VS Code ${server.version.vscode})`;
    say(`${hostLine} on ${server.url} (started in ${since(t2)})`);
    // Wide enough for the Hookwise side bar (Hook Runs), the chat in the secondary side bar and,
    // between them, an editor and panel as wide as before the chat moved (documents and terminal
    // output are read from their rendered lines).
    browser = await launchChromium({ viewport: { width: 1840, height: 900 } });
    const url = `${server.url}?folder=${encodeURIComponent(workspace)}`;
    await browser.page.goto(url);
    setE2eContext({ page: browser.page, url, workspace, hookwiseHome, userDataDir: server.userDataDir, extensionsDir, version: server.version });
    const { passed, failed } = await runMocha();
    if (failed > 0) {
      mkdirSync(RESULTS_DIR, { recursive: true });
      const shot = path.join(RESULTS_DIR, 'e2e-failure.png');
      await browser.page.screenshot({ path: shot }).catch(() => {});
      say(`failure screenshot: ${shot}`);
    }
    console.log(hostLine);
    summary = `${passed} passed, ${failed} failed`;
    code = failed > 0 || passed === 0 ? 1 : 0;
  } catch (e) {
    console.error(`[e2e] FAILED: ${e instanceof Error ? e.message : e}`);
    if (server) console.error(`[e2e] code-server output (tail):\n${server.output().slice(-4000)}`);
  } finally {
    await browser?.close();
    await server?.stop();
    rmSync(path.dirname(workspace), { recursive: true, force: true });
    rmSync(hookwiseHome, { recursive: true, force: true });
    rmSync(extensionsDir, { recursive: true, force: true });
    rmSync(path.dirname(vsix), { recursive: true, force: true });
  }
  say(`total ${since(t0)}`);
  console.log(summary);
  return code;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`[e2e] FAILED: ${e instanceof Error ? e.message : e}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
