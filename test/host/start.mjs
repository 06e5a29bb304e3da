// @ts-check
/**
 * `npm start`: builds, then opens Hookwise on examples/demo-workspace in a real VS Code.
 *
 * - Desktop VS Code when `code` is on PATH: `code --extensionDevelopmentPath=<repo> <demo>`
 *   (a new window; the extension loads from this folder, no packaging).
 * - Otherwise code-server (installed once by test/host/install.mjs, offline-capable) on
 *   127.0.0.1:8080 or the next free port, with a fresh extensions dir whose only entry is a
 *   symlink to this repository, so Hookwise runs from dist/ as built (rebuild or `npm run
 *   watch`, then reload the page). Prints the URL and keeps running until Ctrl+C.
 *
 *   Why not the `extensionDevelopmentPath` URL payload the integration tests use: code-server
 *   honours it only with `--vscode-option enable-smoke-test-driver` (checked on 4.139.1), and
 *   in that mode VS Code refuses to show dialogs, which Hookwise's permission popups need.
 *
 * Options: `--code-server` forces code-server even when `code` exists; `--port N`.
 * The demo workspace is opened in place (it is a sample to play with; `git checkout
 * examples/demo-workspace` restores it).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { ensureHost, REPO_ROOT } from './install.mjs';
import { startCodeServer, tempDir } from './codeServer.mjs';

const DEMO = path.join(REPO_ROOT, 'examples', 'demo-workspace');

/** @param {string} msg */
const say = (msg) => console.log(`[start] ${msg}`);

function parseArgs() {
  const argv = process.argv.slice(2);
  let forceCodeServer = false;
  let port = Number(process.env.PORT ?? 8080);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--code-server') forceCodeServer = true;
    else if (a === '--port') port = Number(argv[++i]);
    else throw new Error(`unknown argument ${a} (usage: start.mjs [--code-server] [--port N])`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port needs a port number');
  return { forceCodeServer, port };
}

/** @returns {string | undefined} the desktop `code` CLI, if any */
function findCode() {
  const r = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  const p = r.stdout.trim();
  // code-server installs may put a `code` shim on PATH that is not the desktop app; the
  // desktop CLI answers --version with three lines (version, commit, arch).
  if (r.status !== 0 || !p) return undefined;
  const v = spawnSync(p, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  return v.status === 0 && v.stdout.trim().split('\n').length >= 2 ? p : undefined;
}

async function main() {
  const { forceCodeServer, port } = parseArgs();
  // esbuild.mjs prints the build's one line (or its errors).
  const b = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('build failed');

  const code = forceCodeServer ? undefined : findCode();
  if (code) {
    say(`opening desktop VS Code: ${code} --extensionDevelopmentPath=${REPO_ROOT} ${DEMO}`);
    const r = spawnSync(code, ['--new-window', `--extensionDevelopmentPath=${REPO_ROOT}`, DEMO], { stdio: 'inherit' });
    process.exit(r.status ?? 1);
  }

  say('no desktop `code` on PATH: using code-server (first run installs it, a few minutes)');
  await ensureHost({ browser: false });
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const extensionsDir = tempDir('start-extensions');
  symlinkSync(REPO_ROOT, path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`));
  // The demo's .vscode/settings.json selects the Playground; a workspace's choice of model is
  // asked about once, so this fresh profile makes it the user's own choice too (desktop VS Code asks).
  const server = await startCodeServer({ folder: DEMO, port, extensionsDir, settings: { 'hookwise.model.provider': 'playground' } });
  const url = `${server.url}?folder=${encodeURIComponent(DEMO)}`;
  console.log('');
  console.log(`  Hookwise is running in code-server ${server.version.codeServer} (VS Code ${server.version.vscode}).`);
  console.log(`  Open this URL in a browser (on this machine, or forward port ${server.port}):`);
  console.log('');
  console.log(`    ${url}`);
  console.log('');
  console.log('  The Hookwise icon is in the activity bar. code-server asks nothing about trust: the folder opens in');
  console.log('  Restricted Mode (its banner and status bar say so), where the project hooks in .claude/ are off.');
  console.log('  The Hookwise chat says so: its Trust… button lists the hooks, allows them, and opens Workspace Trust,');
  console.log('  whose Trust button turns them on. "Hookwise: Restart Tour" opens the walkthrough again.');
  console.log('  Rebuild with `npm run build` (or keep `npm run watch` running) and reload the page to see changes.');
  console.log('  Press Ctrl+C to stop.');
  // Keep the server's log visible after startup (errors from the extension host show up here);
  // this interval also keeps the process alive. Ctrl+C is handled in codeServer.mjs, which
  // kills the server's process tree before exiting.
  let printed = server.output().length;
  const pump = setInterval(() => {
    const out = server.output();
    if (out.length > printed) process.stdout.write(out.slice(printed));
    printed = out.length;
    const why = server.exited();
    if (why) {
      console.error(`[start] ${why.split('\n')[0]}`);
      process.exit(1);
    }
  }, 500);
  process.once('SIGINT', () => {
    clearInterval(pump);
    say('stopping code-server');
    rmSync(extensionsDir, { recursive: true, force: true });
  });
}

main().catch((e) => {
  console.error(`[start] FAILED: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
});
