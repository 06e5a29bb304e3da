import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultCompileCacheDir } from '../../../src/cli/compileCache';

// Each load runs in a fresh Node process, as the CLI does: inside one process V8's own
// compilation cache would answer before the code cache is even looked at.
const here = path.dirname(fileURLToPath(import.meta.url));
let root = '';
let loader = '';
let dir = '';
let cacheDir = '';
let bundle = '';

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'hookwise-cc-'));
  loader = path.join(root, 'loader.js');
  await esbuild.build({
    stdin: {
      contents: `import { requireWithCompileCache } from ${JSON.stringify(path.resolve(here, '../../../src/cli/compileCache.ts'))};
        const [bundle, cacheDir, native] = process.argv.slice(2);
        const onLoad = (file, status) => process.stdout.write('load:' + file.slice(file.lastIndexOf('/') + 1) + '=' + status + '\\n');
        const status = requireWithCompileCache(bundle, { cacheDir, onLoad, ...(native === 'fake-native' ? { enableNative: (d) => process.stdout.write('native:' + d + '\\n') } : native === 'none' ? { enableNative: undefined } : {}) });
        process.stdout.write('status:' + status + '\\n');`,
      resolveDir: here,
      loader: 'ts',
    },
    outfile: loader,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeEach(() => {
  dir = mkdtempSync(path.join(root, 'case-'));
  cacheDir = path.join(dir, 'cache');
  bundle = path.join(dir, 'bundle.js');
  writeFileSync(path.join(dir, 'sibling.js'), 'module.exports = { answer: 42 };');
  // Uses the CommonJS scope a bundle needs: require of a sibling, __dirname, module.exports.
  writeFileSync(
    bundle,
    "const sibling = require('./sibling');\nprocess.stdout.write('ran:' + (sibling.answer + 0) + ':' + (__dirname === " +
      JSON.stringify(dir) +
      ") + ':' + (typeof module.exports) + '\\n');\n" +
      // The code paths this run went through, as the CLI bundle reports them (COVER=a,b); `extra` is a
      // path whose function only a run that reports it compiles.
      "const cover = (process.env.COVER || '').split(',').filter(Boolean);\n" +
      `function extra() { let t = 0; ${Array.from({ length: 300 }, (_, i) => `t += String(${i}).length * ${i % 7};`).join(' ')} return t; }\n` +
      "if (cover.includes('extra')) extra();\n" +
      'exports.compileCacheCoverage = () => cover;\n' +
      // A side bundle, as the CLI requires dist/execa.js: twice, so a second require must give the same exports.
      "if (process.env.SIDE) { const a = require('./side.js'); const b = require('./side.js');\n" +
      "  process.stdout.write('side:' + a.hello() + ':' + (a === b) + '\\n'); }\n" +
      "if (process.env.MISSING) { try { require('./missing.js'); } catch (e) { process.stdout.write('missing:' + e.code + '\\n'); } }\n",
  );
  writeFileSync(
    path.join(dir, 'side.js'),
    // Its own CommonJS scope: its own __dirname and relative requires; a function compiled when called.
    "const sibling = require('./sibling.js');\n" +
      `exports.hello = () => 'hi' + sibling.answer + (__dirname === ${JSON.stringify(dir)}) + (__filename.endsWith('side.js'));\n` +
      "if (process.env.SIDE_THROWS) throw new Error('side failed to load');\n",
  );
});

/** One CLI-like process: load the bundle, exit. Returns its status line and what the bundle printed. */
function load(env: Record<string, string> = {}, native: 'none' | 'fake-native' = 'none'): { status: string; ran: string; native?: string } {
  const r = spawnSync(process.execPath, [loader, bundle, cacheDir, native], {
    encoding: 'utf8',
    env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '', ...env },
  });
  expect(r.stderr).toBe('');
  const line = (prefix: string): string | undefined =>
    r.stdout
      .split('\n')
      .find((l) => l.startsWith(prefix))
      ?.slice(prefix.length);
  return { status: line('status:') ?? '', ran: line('ran:') ?? '', ...(line('native:') ? { native: line('native:') } : {}) };
}

/** One CLI-like process that requires the side bundle; returns how each file loaded and what the side bundle said. */
function loadWithSide(env: Record<string, string> = {}): { loads: string[]; side: string; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [loader, bundle, cacheDir, 'none'], {
    encoding: 'utf8',
    env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '', SIDE: '1', ...env },
  });
  const lines = r.stdout.split('\n');
  return {
    loads: lines.filter((l) => l.startsWith('load:')).map((l) => l.slice('load:'.length)),
    side: lines.find((l) => l.startsWith('side:'))?.slice('side:'.length) ?? '',
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

const cacheFiles = (): string[] => {
  try {
    return readdirSync(cacheDir).filter((f) => f.endsWith('.bin'));
  } catch {
    return [];
  }
};

/** A cache file's first line (its format and the code paths it covers). */
const headerOf = (file: Buffer): string => file.subarray(0, file.indexOf(10)).toString();

describe('requireWithCompileCache (vm.Script cached data, every Node version)', () => {
  it('the first run writes the cache at exit, the next one uses it; both run the bundle as CommonJS', () => {
    expect(load()).toEqual({ status: 'created', ran: '42:true:object' });
    expect(cacheFiles()).toHaveLength(1);
    expect(load()).toEqual({ status: 'used', ran: '42:true:object' });
    expect(cacheFiles()).toHaveLength(1);
  });

  it('an edited bundle never meets the old cache, even at the same size, and replaces it', () => {
    load();
    const before = readFileSync(bundle, 'utf8');
    const edited = before.replace('sibling.answer + 0', 'sibling.answer + 1');
    expect(edited.length).toBe(before.length);
    const old = cacheFiles();
    writeFileSync(bundle, edited);
    expect(load()).toEqual({ status: 'created', ran: '43:true:object' });
    // The new version's cache replaced the old one.
    expect(cacheFiles()).toHaveLength(1);
    expect(cacheFiles()).not.toEqual(old);
    appendFileSync(bundle, '// longer\n');
    expect(load()).toEqual({ status: 'created', ran: '43:true:object' });
  });

  it('a corrupt cache file is rejected, the bundle still runs, and the file is rewritten', () => {
    load();
    const cachePath = path.join(cacheDir, String(cacheFiles()[0]));
    writeFileSync(cachePath, Buffer.from('definitely not V8 code cache'));
    expect(load()).toEqual({ status: 'rejected', ran: '42:true:object' });
    expect(readFileSync(cachePath).toString()).not.toContain('definitely not');
    expect(load().status).toBe('used');
  });

  it('a later run that went through code paths the cache lacks rewrites it once, with the code it compiled', () => {
    expect(load({ COVER: 'start' }).status).toBe('created');
    const cachePath = path.join(cacheDir, String(cacheFiles()[0]));
    const first = readFileSync(cachePath);
    expect(headerOf(first)).toBe('hookwise-cc1 start');
    // The same paths again: the file is left alone.
    expect(load({ COVER: 'start' }).status).toBe('used');
    expect(readFileSync(cachePath).equals(first)).toBe(true);
    // A new path: rewritten at exit, covering both, and bigger by the function that path compiled.
    expect(load({ COVER: 'start,extra' })).toEqual({ status: 'used', ran: '42:true:object' });
    const second = readFileSync(cachePath);
    expect(headerOf(second)).toBe('hookwise-cc1 extra,start');
    expect(second.length).toBeGreaterThan(first.length + 1000);
    // V8 takes the rewritten cache, and a run through fewer paths leaves it as it is.
    expect(load({ COVER: 'extra' }).status).toBe('used');
    expect(readFileSync(cachePath).equals(second)).toBe(true);
  });

  it('a cache file of the older format (no header) is still used, and gains a header at the first run through a code path', () => {
    load();
    const cachePath = path.join(cacheDir, String(cacheFiles()[0]));
    const withHeader = readFileSync(cachePath);
    const older = withHeader.subarray(withHeader.indexOf(10) + 1);
    writeFileSync(cachePath, older);
    expect(load().status).toBe('used');
    expect(readFileSync(cachePath).equals(older)).toBe(true);
    expect(load({ COVER: 'extra' }).status).toBe('used');
    const raw = readFileSync(cachePath);
    expect(headerOf(raw)).toBe('hookwise-cc1 extra');
    expect(load({ COVER: 'extra' }).status).toBe('used');
  });

  it('ignores coverage keys that are not plain names (the header stays one short line)', () => {
    load({ COVER: 'ok:1,bad key,evil\nline' });
    const raw = readFileSync(path.join(cacheDir, String(cacheFiles()[0])));
    expect(headerOf(raw)).toBe('hookwise-cc1 ok:1');
    expect(load({ COVER: 'ok:1' }).status).toBe('used');
  });

  it('a side bundle the bundle requires (./execa.js in the CLI) loads through its own cache file, once per process', () => {
    expect(loadWithSide()).toMatchObject({ loads: ['bundle.js=created', 'side.js=created'], side: `hi42truetrue:true`, stderr: '' });
    expect(
      cacheFiles()
        .map((f) => f.replace(/^[0-9a-f]{16}-[0-9a-f]{16}-/, '<hash>-'))
        .sort(),
    ).toEqual(['<hash>-bundle.bin', '<hash>-side.bin']);
    const sideCache = cacheFiles().map((f) => readFileSync(path.join(cacheDir, f)));
    expect(loadWithSide()).toMatchObject({ loads: ['bundle.js=used', 'side.js=used'], side: `hi42truetrue:true` });
    // A side bundle's cache V8 took is left as it is.
    expect(cacheFiles().map((f) => readFileSync(path.join(cacheDir, f)))).toEqual(sideCache);
    // A run that does not require it leaves its cache alone too.
    expect(load().status).toBe('used');
    expect(cacheFiles()).toHaveLength(2);
  });

  it('an edited side bundle gets a new cache that replaces the old one; a corrupt one is rejected and rewritten', () => {
    loadWithSide();
    const sidePath = path.join(dir, 'side.js');
    writeFileSync(sidePath, readFileSync(sidePath, 'utf8').replace("'hi'", "'yo'"));
    expect(loadWithSide()).toMatchObject({ loads: ['bundle.js=used', 'side.js=created'], side: 'yo42truetrue:true' });
    expect(cacheFiles()).toHaveLength(2);
    for (const f of cacheFiles()) writeFileSync(path.join(cacheDir, f), 'not V8 code cache');
    expect(loadWithSide()).toMatchObject({ loads: ['bundle.js=rejected', 'side.js=rejected'], side: 'yo42truetrue:true' });
    expect(loadWithSide().loads).toEqual(['bundle.js=used', 'side.js=used']);
  });

  it('a missing side bundle fails as require does; one that throws while loading throws to its caller', () => {
    const missing = loadWithSide({ SIDE: '', MISSING: '1' });
    expect(missing.stdout).toContain('missing:MODULE_NOT_FOUND');
    expect(missing.loads).toEqual(['bundle.js=created', 'missing.js=fallback']);
    const throwing = loadWithSide({ SIDE_THROWS: '1' });
    expect(throwing.stderr).toContain('side failed to load');
    expect(throwing.side).toBe('');
  });

  it('NODE_DISABLE_COMPILE_CACHE: a plain require, nothing written', () => {
    expect(load({ NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual({ status: 'disabled', ran: '42:true:object' });
    expect(cacheFiles()).toEqual([]);
  });

  it('an unwritable cache folder only means no cache', () => {
    writeFileSync(cacheDir, 'a file where the folder should be');
    expect(load()).toEqual({ status: 'created', ran: '42:true:object' });
    expect(load().status).toBe('created');
  });

  it("turns Node's own compile cache on where it exists (Node ≥ 22.1), for the side bundles, and still loads the bundle through its own", () => {
    expect(load({}, 'fake-native')).toEqual({ status: 'created', ran: '42:true:object', native: cacheDir });
    expect(load({}, 'fake-native')).toEqual({ status: 'used', ran: '42:true:object', native: cacheDir });
  });
});

describe('defaultCompileCacheDir', () => {
  it("follows each platform's per-user cache folder, NODE_COMPILE_CACHE first", () => {
    expect(defaultCompileCacheDir({}, 'linux', '/home/u')).toBe('/home/u/.cache/hookwise');
    expect(defaultCompileCacheDir({ XDG_CACHE_HOME: '/x' }, 'linux', '/home/u')).toBe('/x/hookwise');
    expect(defaultCompileCacheDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Caches/hookwise');
    expect(defaultCompileCacheDir({ LOCALAPPDATA: 'C:\\L' }, 'win32', 'C:\\Users\\u')).toBe(path.join('C:\\L', 'hookwise', 'Cache'));
    expect(defaultCompileCacheDir({ NODE_COMPILE_CACHE: '/n' }, 'linux', '/home/u')).toBe('/n');
  });
});
