/**
 * What `node esbuild.mjs` (run by `npm start` and the host test runners) prints: one line for
 * the whole build, not a started/finished pair per bundle; a failed bundle shows esbuild's
 * error, then a line that says the build failed. Real esbuild, on small entries in a temp dir.
 */
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

interface BuildScript {
  readonly buildOnce: (configs: BuildOptions[], options: { log: (line: string) => void; error: (line: string) => void }) => Promise<boolean>;
}

const ROOT = path.resolve(__dirname, '../../..');
let dir = '';

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'hookwise-build-output-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function build(sources: Record<string, string>): Promise<{ ok: boolean; out: string[]; err: string[] }> {
  const script = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as BuildScript;
  const configs = Object.entries(sources).map(([name, text]): BuildOptions => {
    writeFileSync(path.join(dir, `${name}.ts`), text);
    return { entryPoints: [path.join(dir, `${name}.ts`)], outfile: path.join(dir, 'out', `${name}.js`), bundle: true, logLevel: 'silent', platform: 'node' };
  });
  const out: string[] = [];
  const err: string[] = [];
  const ok = await script.buildOnce(configs, { log: (l) => out.push(l), error: (l) => err.push(l) });
  return { ok, out, err };
}

describe('the build prints one line', () => {
  it('three bundles built: one line saying so, nothing else', async () => {
    const { ok, out, err } = await build({ a: 'export const a = 1;', b: 'export const b = 2;', c: 'export const c = 3;' });
    expect(ok).toBe(true);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^\[build\] built 3 bundles in \d+\.\d s$/);
    expect(err).toEqual([]);
    for (const name of ['a', 'b', 'c']) expect(existsSync(path.join(dir, 'out', `${name}.js`))).toBe(true);
  });

  it('a bundle that does not build: its error with the place, then one line that the build failed', async () => {
    const { ok, out, err } = await build({ good: 'export const a = 1;', bad: 'export const b = ;' });
    expect(ok).toBe(false);
    expect(out).toEqual([]);
    expect(err[0]).toMatch(/^✘ \[ERROR\] /);
    expect(err[1]).toMatch(/bad\.ts:1:\d+:$/);
    expect(err.at(-1)).toMatch(/^\[build\] failed: 1 of 2 bundles did not build \(\d+\.\d s\)$/);
  });
});
