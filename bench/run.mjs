// `npm run bench` (after `node esbuild.mjs --production`): runs every benchmark, each in its own
// process so one's garbage and JIT state never skew another's, and prints what each reports.
//  - bench/*.bench.ts: bundled with esbuild into out/bench/ and run with Node (--expose-gc);
//  - bench/*.bench.mjs: run as they are (the bundle size, the chat webview in Chromium);
//  - the host benchmark: test/host/benchHost.mjs, inside code-server's extension host.
// `node bench/run.mjs <filter>` runs only those whose name contains <filter> ("host" for the
// host one). Benchmarks measure, they never fail the build: targets are printed beside the
// numbers. A line `@bench-json {...}` from a benchmark is gathered, and the last line printed
// is one JSON object with the tracked figures (null for any benchmark that did not run).
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';

const TRACKED = [
  'hostHookRatio',
  'cliHookRatio',
  'hostFloorRatio',
  'activationMs',
  'bundleKiB',
  'treeRefreshPerSec',
  'treeExpandMs',
  'hostHeapGrowthMiB',
  'chatAppendMs',
  'longSessionRssGrowthMiB',
  'grepVsRg',
  'globVsRg',
  'startupVsNode',
  'sessionVsNode',
  'modelHookRatio',
  'sessionVsClaudeCode',
];

const filter = process.argv[2] ?? '';
const all = readdirSync('bench').filter((f) => /\.bench\.(ts|mjs)$/.test(f));
const files = all.filter((f) => f.includes(filter)).sort();
const withHost = 'host'.includes(filter) || filter === '';
if (files.length === 0 && !withHost) {
  console.error(`no benchmark matches "${filter}"`);
  process.exit(2);
}
const tsFiles = files.filter((f) => f.endsWith('.ts'));
if (tsFiles.length > 0) {
  await esbuild.build({
    entryPoints: tsFiles.map((f) => path.join('bench', f)),
    outdir: 'out/bench',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    // ESM dependencies read import.meta.url; give the CJS bundle its own file URL.
    mainFields: ['module', 'main'],
    define: { 'import.meta.url': '__hookwiseImportMetaUrl' },
    banner: { js: "const __hookwiseImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
  });
}

/** Runs one benchmark, echoing its output; resolves with its exit code and gathered figures. */
function runOne(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const figures = {};
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      pending += text;
      for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
        const line = pending.slice(0, i);
        pending = pending.slice(i + 1);
        if (line.startsWith('@bench-json ')) Object.assign(figures, JSON.parse(line.slice('@bench-json '.length)));
        else console.log(line);
      }
    });
    child.on('close', (code) => {
      if (pending) console.log(pending);
      resolve({ code, figures });
    });
  });
}

const figures = {};
let failed = 0;
const runs = [
  ...files.map((f) => ({
    name: f,
    args: f.endsWith('.ts') ? ['--expose-gc', '--enable-source-maps', path.join('out/bench', f.replace(/\.ts$/, '.js'))] : [path.join('bench', f)],
  })),
  ...(withHost ? [{ name: 'extension host (test/host/benchHost.mjs)', args: ['test/host/benchHost.mjs'] }] : []),
];
for (const { name, args } of runs) {
  console.log(`\n=== ${name} ===`);
  const r = await runOne(args);
  if (r.code !== 0) failed++;
  Object.assign(figures, r.figures);
}
console.log('');
console.log(JSON.stringify(Object.fromEntries(TRACKED.map((k) => [k, figures[k] ?? null]))));
process.exit(failed ? 1 : 0);
