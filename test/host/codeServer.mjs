// @ts-check
/**
 * Helpers to run the offline VS Code host: code-server (on Node 24) and headless Debian
 * Chromium driven by playwright-core. Used by runIntegration.mjs, runE2e.mjs and start.mjs.
 * The recipe (flags, why Node 24, why these Chromium switches) is in
 * docs/development.md, 'Offline VS Code host'.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM, CODE_SERVER_ENTRY, NODE24, NODE24_BIN_DIR } from './install.mjs';

/** Chromium switches from the notes: without the networking ones Chromium keeps dialling Google through a closed network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** @type {Set<() => Promise<void>>} Everything still running, stopped on exit or Ctrl+C so nothing outlives the runner. */
const live = new Set();
let exitHooked = false;
function hookExit() {
  if (exitHooked) return;
  exitHooked = true;
  const stopAll = async () => {
    await Promise.allSettled([...live].map((s) => s()));
  };
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.once(sig, () => {
      void stopAll().finally(() => process.exit(130));
    });
  }
  // Last resort on a synchronous exit: kill the server process groups without waiting.
  process.once('exit', () => {
    for (const s of live) void s();
  });
}

/**
 * A fresh temporary folder (removed by the caller or on stop).
 * @param {string} prefix
 */
export function tempDir(prefix) {
  return mkdtempSync(path.join(os.tmpdir(), `hookwise-${prefix}-`));
}

/**
 * Copies a workspace to a temp folder so a test run never dirties the repository.
 * @param {string} src
 * @returns {string}
 */
export function copyWorkspace(src) {
  const dst = path.join(tempDir('ws'), path.basename(src));
  cpSync(src, dst, { recursive: true, verbatimSymlinks: true });
  return dst;
}

/**
 * Resolves a free TCP port on 127.0.0.1, trying `preferred` first and then the next ones.
 * @param {number} [preferred] 0 (default) lets the OS pick.
 * @returns {Promise<number>}
 */
export async function freePort(preferred = 0) {
  /** @param {number} p @returns {Promise<number>} */
  const tryPort = (p) =>
    new Promise((resolve, reject) => {
      const srv = net.createServer();
      srv.once('error', reject);
      srv.listen(p, '127.0.0.1', () => {
        const addr = srv.address();
        const port = typeof addr === 'object' && addr ? addr.port : p;
        srv.close(() => resolve(port));
      });
    });
  if (preferred === 0) return tryPort(0);
  for (let p = preferred; p < preferred + 50; p++) {
    try {
      return await tryPort(p);
    } catch {
      /* taken; try the next one */
    }
  }
  return tryPort(0);
}

/**
 * `code-server --version` prints e.g. "4.139.1 8c7c3f8... with Code 1.106.2".
 * @returns {{codeServer: string, vscode: string, raw: string}}
 */
export function codeServerVersion() {
  const r = spawnSync(NODE24, [CODE_SERVER_ENTRY, '--version'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`code-server --version failed: ${r.stderr || r.error}`);
  // It may print a log line first ("Wrote default config file ..."): take the version line.
  const raw =
    r.stdout
      .split('\n')
      .find((l) => /^\d+\.\d+\.\d+\s/.test(l))
      ?.trim() ?? r.stdout.trim();
  const m = /^(\S+).*with Code (\S+)/.exec(raw);
  return { codeServer: m?.[1] ?? raw, vscode: m?.[2] ?? 'unknown', raw };
}

/** @param {string} url @param {number} timeoutMs @param {() => string | undefined} [failed] */
async function waitForHttp(url, timeoutMs, failed) {
  const deadline = Date.now() + timeoutMs;
  let lastErr = '';
  while (Date.now() < deadline) {
    const why = failed?.();
    if (why) throw new Error(why);
    try {
      const res = await fetch(url, { redirect: 'manual', signal: globalThis.AbortSignal.timeout(2000) });
      if (res.status < 500) return;
      lastErr = `HTTP ${res.status}`;
    } catch (e) {
      lastErr = e instanceof Error ? e.message : String(e);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer at ${url} within ${timeoutMs / 1000} s (last: ${lastErr})`);
}

/**
 * @typedef {object} CodeServerOptions
 * @property {string} [folder] Workspace folder opened by default.
 * @property {number} [port] Preferred port (next free one is used when taken); default: any free port.
 * @property {string} [userDataDir] Default: a fresh temp folder.
 * @property {string} [extensionsDir] Default: a fresh (empty) temp folder.
 * @property {boolean} [smokeTestDriver] Pass `--vscode-option enable-smoke-test-driver` (needed for the extensionTestsPath payload).
 * @property {boolean} [disableWorkspaceTrust] Opt-in: only where a test is not about trust.
 * @property {Record<string, unknown>} [settings] User settings written to <userDataDir>/User/settings.json before start.
 * @property {NodeJS.ProcessEnv} [env] Extra environment for the server (the extension host inherits it).
 * @property {boolean} [inheritOutput] Stream the server's output to ours (npm start) instead of buffering it.
 * @property {number} [startTimeoutMs] Default 60 s.
 */

/**
 * @typedef {object} CodeServer
 * @property {string} url Base URL, e.g. http://127.0.0.1:34567/
 * @property {number} port
 * @property {{codeServer: string, vscode: string, raw: string}} version
 * @property {string} userDataDir
 * @property {string} extensionsDir
 * @property {() => string} output What the server printed so far (for failure reports).
 * @property {() => string | undefined} exited Why the server is gone, once it exited on its own.
 * @property {() => Promise<void>} stop Kills the server's whole process tree (extension host, pty host, watchers).
 */

/**
 * Starts code-server with Node 24 on 127.0.0.1 and waits until it answers HTTP.
 * @param {CodeServerOptions} [opts]
 * @returns {Promise<CodeServer>}
 */
export async function startCodeServer(opts = {}) {
  hookExit();
  const version = codeServerVersion();
  const port = await freePort(opts.port ?? 0);
  const ownedDirs = [];
  const userDataDir = opts.userDataDir ?? (ownedDirs.push(tempDir('user-data')), ownedDirs[ownedDirs.length - 1]);
  const extensionsDir = opts.extensionsDir ?? (ownedDirs.push(tempDir('extensions')), ownedDirs[ownedDirs.length - 1]);
  if (opts.settings) {
    mkdirSync(path.join(/** @type {string} */ (userDataDir), 'User'), { recursive: true });
    writeFileSync(path.join(/** @type {string} */ (userDataDir), 'User', 'settings.json'), JSON.stringify(opts.settings, null, 2));
  }
  const args = [
    CODE_SERVER_ENTRY,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--user-data-dir',
    /** @type {string} */ (userDataDir),
    '--extensions-dir',
    /** @type {string} */ (extensionsDir),
  ];
  if (opts.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (opts.disableWorkspaceTrust) args.push('--disable-workspace-trust');
  if (opts.folder) args.push(opts.folder);

  // detached: the server gets its own process group, so stop() can kill the whole tree
  // (extension host, file watcher, pty host) with one signal to -pid.
  const child = spawn(NODE24, args, {
    detached: true,
    stdio: ['ignore', opts.inheritOutput ? 'inherit' : 'pipe', opts.inheritOutput ? 'inherit' : 'pipe'],
    env: { ...process.env, ...opts.env, PATH: `${NODE24_BIN_DIR}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  /** @type {string | undefined} */
  let exited;
  child.once('exit', (code, sig) => (exited = `code-server exited early (code ${code ?? sig}):\n${out}`));
  const exitPromise = new Promise((resolve) => child.once('exit', resolve));

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    live.delete(stop);
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const timer = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 5000);
      await exitPromise;
      clearTimeout(timer);
    }
    // Children that ignored SIGTERM (the group outlives its leader): make sure they are gone.
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* group empty */
    }
    for (const d of ownedDirs) rmSync(/** @type {string} */ (d), { recursive: true, force: true });
  };
  live.add(stop);

  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitForHttp(`${url}healthz`, opts.startTimeoutMs ?? 60_000, () => exited);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url,
    port,
    version,
    userDataDir: /** @type {string} */ (userDataDir),
    extensionsDir: /** @type {string} */ (extensionsDir),
    output: () => out,
    exited: () => (stopped ? undefined : exited),
    stop,
  };
}

/**
 * Settings that keep the test workbench quiet and screenshots about Hookwise: no welcome
 * tab, no built-in AI chat panel, no tips. They change nothing Hookwise relies on.
 */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
};

/**
 * Installs a .vsix into an extensions dir with code-server's own CLI (what a user would do).
 * @param {string} vsix
 * @param {string} extensionsDir
 */
export function installVsix(vsix, extensionsDir) {
  const r = spawnSync(NODE24, [CODE_SERVER_ENTRY, '--extensions-dir', extensionsDir, '--install-extension', vsix], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${NODE24_BIN_DIR}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  if (r.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (${r.status}):\n${r.stdout}${r.stderr}`);
  return r.stdout.trim();
}

/**
 * The workbench URL for a folder or a `.code-workspace` file, optionally with a development-host payload
 * (extensionDevelopmentPath / extensionTestsPath) as `vscode-remote://` URIs.
 * @param {CodeServer} server
 * @param {string} folder
 * @param {{extensionDevelopmentPath?: string, extensionTestsPath?: string}} [payload]
 */
export function workbenchUrl(server, folder, payload = {}) {
  const u = new URL(server.url);
  // A .code-workspace file opens as a (multi-root) workspace, anything else as a folder.
  u.searchParams.set(folder.endsWith('.code-workspace') ? 'workspace' : 'folder', folder);
  const remote = (/** @type {string} */ p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  /** @type {[string, string][]} */
  const entries = [];
  if (payload.extensionDevelopmentPath) entries.push(['extensionDevelopmentPath', remote(payload.extensionDevelopmentPath)]);
  if (payload.extensionTestsPath) entries.push(['extensionTestsPath', remote(payload.extensionTestsPath)]);
  if (entries.length > 0) u.searchParams.set('payload', JSON.stringify(entries));
  return u.toString();
}

/**
 * Launches Debian's Chromium headless with a fresh profile (persistent context, since
 * playwright refuses --user-data-dir in plain launch()).
 * @param {{headless?: boolean, viewport?: {width: number, height: number}}} [opts]
 * @returns {Promise<{context: import('playwright-core').BrowserContext, page: import('playwright-core').Page, close: () => Promise<void>}>}
 */
export async function launchChromium(opts = {}) {
  hookExit();
  const { chromium } = await import('playwright-core');
  const profile = tempDir('chromium');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: opts.headless ?? true,
    args: CHROMIUM_ARGS,
    viewport: opts.viewport ?? { width: 1400, height: 900 },
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    live.delete(close);
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  };
  live.add(close);
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page, close };
}
