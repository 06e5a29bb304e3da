import path from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';
import * as esbuild from 'esbuild';

/** The repository's root (where esbuild.mjs is). */
export const REPO_ROOT = path.resolve(__dirname, '../..');

/**
 * Builds `options` (one of esbuild.mjs's configs) as shipped, minified, in memory: which files
 * went in, the output text, and what the output still loads with a real `import()`. Real
 * esbuild; nothing is written.
 */
export async function analyseBuild(options: BuildOptions): Promise<{ inputs: string[]; text: string; dynamicImports: string[] }> {
  const result = await esbuild.build({
    ...options,
    plugins: (options.plugins ?? []).filter((p: Plugin) => p.name !== 'esbuild-problem-matcher'),
    absWorkingDir: REPO_ROOT,
    minify: true,
    sourcemap: false,
    write: false,
    metafile: true,
  });
  const dynamicImports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
  return { inputs: Object.keys(result.metafile.inputs), text: result.outputFiles[0]?.text ?? '', dynamicImports };
}
