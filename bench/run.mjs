// Runs every bench/*.bench.ts (or only those whose name contains argv[2]): each is bundled
// with esbuild into out/bench/ and run in its own Node process, so one benchmark's garbage
// and JIT state never skew another's. Benchmarks print their own report; they measure,
// they never fail the build (targets are printed beside the numbers).
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const filter = process.argv[2] ?? '';
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches "${filter}"`);
  process.exit(2);
}
await esbuild.build({
  entryPoints: files.map((f) => path.join('bench', f)),
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
let failed = 0;
for (const f of files) {
  const js = path.join('out/bench', f.replace(/\.ts$/, '.js'));
  console.log(`\n=== ${f} ===`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', js], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
