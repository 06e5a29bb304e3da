import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

/**
 * How the bundle was loaded: `used` = V8 accepted our cached code; `created` = no usable cache
 * yet, one is written at exit; `rejected` = the cache did not fit this Node/V8 and is rewritten;
 * `disabled` = by NODE_DISABLE_COMPILE_CACHE; `fallback` = the cache path failed before the
 * bundle ran, plain require.
 */
export type CompileCacheStatus = 'used' | 'created' | 'rejected' | 'disabled' | 'fallback';

/** Options of {@link requireWithCompileCache}. */
export interface CompileCacheOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where cache files go; default: {@link defaultCompileCacheDir}. */
  readonly cacheDir?: string;
  /** Registers the cache writer; default `process.once('exit')`, so functions compiled during the run are in it. */
  readonly onExit?: (write: () => void) => void;
  /** Node's `module.enableCompileCache` (Node ≥ 22.1), injectable so tests can see it called. */
  readonly enableNative?: ((dir: string) => unknown) | undefined;
  /** Told how each file went: the bundle, then each side bundle as it is first required. */
  readonly onLoad?: (file: string, status: CompileCacheStatus) => void;
}

/** A side bundle: a sibling `.js` file the bundle requires by a plain relative name (`./execa.js`). */
const SIDE_BUNDLE = /^\.\/[A-Za-z0-9_-]+\.js$/;

/**
 * The per-user cache folder (never a shared /tmp: cached code is executed):
 * `NODE_COMPILE_CACHE` if set, else `$XDG_CACHE_HOME/hookwise` or `~/.cache/hookwise` on Linux,
 * `~/Library/Caches/hookwise` on macOS, `%LOCALAPPDATA%\hookwise\Cache` on Windows.
 */
export function defaultCompileCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE;
  if (platform === 'win32') return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'hookwise', 'Cache');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'hookwise');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'hookwise');
}

/**
 * Runs the CommonJS bundle `file` like `require(file)`, but with V8's code cache, so a CLI run
 * does not parse ~1 MB of JavaScript again (measured: ~40 ms and ~10 MiB of RSS saved per run,
 * which also makes every hook spawn cheaper: fork cost grows with the parent's RSS).
 * The cache is `vm.Script` cached data keyed by the file (path, inode, size, change times) and
 * the Node version, written at exit, so it holds the functions this run compiled; when a later run
 * went through code paths the cache does not cover yet (the bundle's optional
 * `compileCacheCoverage(): string[]` export names them), it is rewritten at that run's exit.
 * The side bundles it requires (`./execa.js`, `./mcp.js`, …: siblings split out of the bundle)
 * load through the same cache, each with its own file written at the exit of the run that
 * compiled it (Node 20: requiring dist/execa.js in the CLI took 15–22 ms, ~10 ms less cached).
 * Node's own compile cache (`module.enableCompileCache`, Node ≥ 22.1) is turned on too, for
 * anything else; not for the bundles: Node's cache holds only what was compiled before the
 * module ran (Node 24, an empty run: 219 ms of CPU with it, 182 with ours).
 * Never fails because of the cache: any problem with it means a plain `require`.
 */
export function requireWithCompileCache(file: string, options: CompileCacheOptions = {}): CompileCacheStatus {
  const env = options.env ?? process.env;
  const requireFile = createRequire(file);
  if (env.NODE_DISABLE_COMPILE_CACHE) {
    requireFile(file);
    return 'disabled';
  }
  const cacheDir = options.cacheDir ?? defaultCompileCacheDir(env);
  const enableNative = 'enableNative' in options ? options.enableNative : nativeEnable();
  if (enableNative) {
    try {
      enableNative(cacheDir);
    } catch {
      // A cache that cannot be enabled is only slower.
    }
  }

  const onExit = options.onExit ?? ((write: () => void) => process.once('exit', write));
  let prepared: Prepared;
  try {
    prepared = prepare(file, bundleRequire(file, requireFile, cacheDir, onExit, options.onLoad), cacheDir, onExit, true);
  } catch {
    requireFile(file);
    options.onLoad?.(file, 'fallback');
    return 'fallback';
  }
  options.onLoad?.(file, prepared.status);
  prepared.run();
  return prepared.status;
}

/**
 * The `require` the bundle runs with: its side bundles go through the cache (once each, like
 * `require`: later calls get the same exports), everything else to Node's `require`.
 */
function bundleRequire(
  file: string,
  requireFile: NodeJS.Require,
  cacheDir: string,
  onExit: (write: () => void) => void,
  onLoad: CompileCacheOptions['onLoad'],
): NodeJS.Require {
  const loaded = new Map<string, unknown>();
  const load = (id: string): unknown => {
    if (!SIDE_BUNDLE.test(id)) return requireFile(id);
    const target = path.join(path.dirname(file), id);
    if (loaded.has(target)) return loaded.get(target);
    let prepared: Prepared;
    try {
      prepared = prepare(target, createRequire(target), cacheDir, onExit, false);
    } catch {
      onLoad?.(target, 'fallback');
      return requireFile(id);
    }
    onLoad?.(target, prepared.status);
    // A side bundle that throws while loading is not kept, as with `require`.
    const exports = prepared.run();
    loaded.set(target, exports);
    return exports;
  };
  return Object.assign(load, {
    resolve: requireFile.resolve,
    cache: requireFile.cache,
    extensions: requireFile.extensions,
    main: requireFile.main,
  }) as NodeJS.Require;
}

function nativeEnable(): ((dir: string) => unknown) | undefined {
  const candidate = (Module as unknown as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  return typeof candidate === 'function' ? (dir) => candidate(dir) : undefined;
}

/** A compiled file ready to run; `run` returns its exports. */
interface Prepared {
  readonly status: CompileCacheStatus;
  readonly run: () => unknown;
}

/**
 * Compiles `file` with its cached data and registers the writer of its cache at exit. With
 * `tracksCoverage` (the bundle) a cache V8 took is rewritten for code paths it lacks; a side
 * bundle's cache is written by the run that compiled it, and kept while V8 takes it.
 */
function prepare(file: string, requireFile: NodeJS.Require, cacheDir: string, onExit: (write: () => void) => void, tracksCoverage: boolean): Prepared {
  // Keyed by the file's identity and change times, not mtime alone: V8 checks only the
  // source's length, so a same-sized edit must never meet an old cache. Any write (or a
  // reinstall, even one that restores mtime) changes ctime or the inode. No node:crypto: its
  // load alone cost more than the rest of this function.
  // `<this bundle and runtime>-<this version of it>-<its name>.bin`: a new version replaces the
  // old file (same first part); the name only tells the files apart to a person.
  const stat = statSync(file, { bigint: true });
  const owner = shortHash(`${file}\0${process.version}\0${process.arch}`);
  const content = shortHash(`${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`);
  const source = readFileSync(file, 'utf8');
  const cachePath = path.join(cacheDir, `${owner}-${content}-${path.basename(file, '.js').replace(/[^A-Za-z0-9_-]/g, '_')}.bin`);
  const cached = readCacheFile(cachePath);
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached?.data });
  const status: CompileCacheStatus = cached === undefined ? 'created' : script.cachedDataRejected ? 'rejected' : 'used';
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  const module = { exports: {} as Record<string, unknown>, filename: file, id: file, loaded: false, children: [], paths: [] };
  const covered = status === 'used' ? (cached?.covers ?? []) : [];
  onExit(() => {
    const now = tracksCoverage ? coverageOf(module.exports) : [];
    if (status !== 'used') {
      writeCache(cacheDir, cachePath, `${owner}-`, now, script.createCachedData());
      return;
    }
    if (!tracksCoverage) return;
    // A cache V8 took is rewritten only for code paths it does not cover yet, once per path.
    if (covered.length >= MAX_KEYS || now.every((key) => covered.includes(key))) return;
    const fresh = script.createCachedData();
    const covers = [...new Set([...covered, ...now])].sort();
    // A long run may have flushed the bytecode of functions it ran only at start: never trade
    // a bigger cache for a smaller one; the new paths are recorded so this is not tried again.
    writeCache(cacheDir, cachePath, `${owner}-`, covers, fresh.length >= (cached?.data.length ?? 0) ? fresh : (cached?.data ?? fresh));
  });
  return {
    status,
    run: () => {
      wrapper.call(module.exports, module.exports, requireFile, module, file, path.dirname(file));
      module.loaded = true;
      return module.exports;
    },
  };
}

/**
 * A cache file: one header line (`hookwise-cc1 ` and the code paths the cached code covers,
 * comma-separated), then V8's cached data. A file without the header is handed to V8 whole:
 * V8 takes one of the older format (it covers no paths yet) and rejects a corrupt one.
 */
const HEADER = 'hookwise-cc1 ';
const MAX_HEADER_BYTES = 4096;
/** Past this many keys the cache is not rewritten for new ones (each rewrite costs ~20 ms once). */
const MAX_KEYS = 200;
const KEY = /^[A-Za-z0-9_:.-]{1,80}$/;

function readCacheFile(cachePath: string): { data: Buffer; covers: readonly string[] } | undefined {
  let raw: Buffer;
  try {
    raw = readFileSync(cachePath);
  } catch {
    return undefined;
  }
  const end = raw.indexOf(0x0a);
  if (end < 0 || end > MAX_HEADER_BYTES || raw.toString('latin1', 0, HEADER.length) !== HEADER) return { data: raw, covers: [] };
  const covers = raw
    .toString('latin1', HEADER.length, end)
    .split(',')
    .filter((key) => KEY.test(key));
  return { data: raw.subarray(end + 1), covers };
}

/** The code paths the bundle says this run went through (its optional `compileCacheCoverage` export), checked. */
function coverageOf(exports: Record<string, unknown>): readonly string[] {
  try {
    const read = exports.compileCacheCoverage;
    const keys = typeof read === 'function' ? (read() as unknown) : [];
    return Array.isArray(keys) ? keys.filter((key): key is string => typeof key === 'string' && KEY.test(key)).slice(0, MAX_KEYS) : [];
  } catch {
    return [];
  }
}

function writeCache(cacheDir: string, cachePath: string, ownerPrefix: string, covers: readonly string[], data: Uint8Array): void {
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    // Write then rename, so a concurrent run never reads half a file.
    const temp = `${cachePath}.${process.pid}.tmp`;
    writeFileSync(temp, Buffer.concat([Buffer.from(`${HEADER}${covers.slice(0, MAX_KEYS).join(',')}\n`, 'latin1'), data]), { mode: 0o600 });
    renameSync(temp, cachePath);
    // Caches of earlier versions of this bundle are dead weight (~1 MB each).
    for (const name of readdirSync(cacheDir)) {
      if (name.startsWith(ownerPrefix) && name.endsWith('.bin') && path.join(cacheDir, name) !== cachePath) rmSync(path.join(cacheDir, name), { force: true });
    }
  } catch {
    // Read-only home, full disk: the next run compiles again, nothing else changes.
  }
}

/** 16 hex digits of two FNV-1a hashes (different offsets) of `text`: a file name, not a security check. */
function shortHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
