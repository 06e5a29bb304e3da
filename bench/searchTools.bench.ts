// Grep and Glob against bare ripgrep on the same query, in the same run, interleaved round by
// round so machine noise hits both sides alike, on two trees generated in a temp folder for
// this run and removed at its end:
//  - a large tree: ≥ 30,000 files, ≥ 300 MB, no ignore file;
//  - a git repository whose node_modules is listed in .gitignore.
// Grep in each output mode (head_limit 0, so the whole answer is built) and Glob `**/*.d.ts`;
// each checks that its results are rg's (Glob: its ≤ 100 newest of rg's list, and the count),
// and the bench fails if one is not. Target: ≤ 1.3× rg + 30 ms. `grepVsRg` is the worst Grep
// ratio, `globVsRg` the worst Glob ratio. HOOKWISE_BENCH_SEARCH_FILES=3000 makes a small tree.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGlobTool, GLOB_MAX_RESULTS } from '../src/agent/tools/globTool';
import type { GlobResponse } from '../src/agent/tools/globTool';
import { createGrepTool } from '../src/agent/tools/grepTool';
import type { GrepResponse } from '../src/agent/tools/grepTool';
import { RipgrepLocator } from '../src/agent/tools/ripgrep';
import type { ToolContext } from '../src/agent/tools/tool';
import { createTodoStore } from '../src/agent/tools/todoStore';

const FILES = Number(process.env.HOOKWISE_BENCH_SEARCH_FILES ?? 30_000);
const FILE_BYTES = 10_500;
const ROUNDS = 5;
const NEEDLE = 'NEEDLE_4242';

/** Deterministic text: words from a small LCG, a needle in every 97th file. */
function fileText(i: number): string {
  let seed = i * 2654435761;
  const words = ['const', 'value', 'return', 'function', 'import', 'export', 'string', 'number', 'await', 'yield', 'class', 'type'];
  const lines: string[] = [];
  let size = 0;
  while (size < FILE_BYTES) {
    let line = '';
    for (let w = 0; w < 10; w++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      line += `${words[seed % words.length]}${seed % 1000} `;
    }
    lines.push(line);
    size += line.length + 1;
  }
  if (i % 97 === 0) lines.splice(lines.length >> 1, 0, `// ${NEEDLE} here`);
  return lines.join('\n');
}

/** Writes `files` files laid out by `layout` under `root`, then `extra()`; returns the bytes written. */
function makeTree(root: string, files: number, layout: (i: number) => string, extra: () => void): number {
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const file = path.join(root, layout(i));
    mkdirSync(path.dirname(file), { recursive: true });
    const text = fileText(i);
    writeFileSync(file, text);
    bytes += text.length;
  }
  extra();
  return bytes;
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'hookwise-bench-search-'));
const removeScratch = (): void => rmSync(scratch, { recursive: true, force: true });
process.once('exit', removeScratch);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
const bigRoot = path.join(scratch, 'large');
const repoRoot = path.join(scratch, 'repo');

function generateTrees(): string {
  const started = performance.now();
  const bigBytes = makeTree(
    bigRoot,
    FILES,
    (i) => `pkg${i % 300}/lib/${Math.floor(i / 300) % 10}/file${i}.${i % 5 === 0 ? 'd.ts' : 'js'}`,
    () => undefined,
  );
  const repoFiles = Math.max(1000, Math.floor(FILES / 3));
  makeTree(
    repoRoot,
    repoFiles,
    (i) => (i % 4 === 0 ? `src/m${i % 50}/f${i}.ts` : `node_modules/p${i % 200}/dist/f${i}.${i % 5 === 0 ? 'd.ts' : 'js'}`),
    () => {
      mkdirSync(path.join(repoRoot, '.git'), { recursive: true });
      writeFileSync(path.join(repoRoot, '.gitignore'), 'node_modules/\n');
    },
  );
  return `large tree ${FILES} files, ${(bigBytes / 1e6).toFixed(0)} MB; git repo ${repoFiles} files (node_modules ignored); generated in ${((performance.now() - started) / 1000).toFixed(1)} s`;
}

function ctxFor(root: string): ToolContext {
  return { cwd: root, workspaceRoot: root, signal: new AbortController().signal, sessionId: 'bench', agentId: 'main', todos: createTodoStore() };
}

/** Runs bare rg and resolves with its stdout. */
function bareRg(rg: string, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, [...args], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

interface Case {
  readonly name: string;
  readonly kind: 'grep' | 'glob';
  readonly tool: () => Promise<string[]>;
  readonly rg: () => Promise<string[]>;
  /** Whether the tool's answer is rg's; default: the same lines in any order. */
  readonly same?: (tool: string[], rg: string[]) => boolean;
}

/** The same lines in any order (rg's own order depends on its threads). */
function sameLines(a: readonly string[], b: readonly string[]): boolean {
  const norm = (xs: readonly string[]): string =>
    [...xs]
      .map((x) => x.replace('\0', ':'))
      .sort()
      .join('\n');
  return norm(a) === norm(b);
}

/**
 * Glob lists the newest GLOB_MAX_RESULTS of the matches: `tool` is [truncated, ...paths], `rg`
 * all of rg's paths. Same when the listed paths are rg's newest (ties in mtime either way),
 * as many as rg found up to the cap, and the cut is reported exactly when rg found more.
 */
function sameGlob(tool: string[], rg: string[]): boolean {
  const [truncated, ...listed] = tool;
  if (listed.length !== Math.min(rg.length, GLOB_MAX_RESULTS) || (truncated === 'true') !== rg.length > GLOB_MAX_RESULTS) return false;
  const all = new Set(rg);
  if (!listed.every((f) => all.has(f))) return false;
  const newest = rg.map((f) => statSync(f).mtimeMs).sort((a, b) => b - a);
  const floor = newest[listed.length - 1] ?? -Infinity;
  return listed.every((f) => statSync(f).mtimeMs >= floor);
}

async function main(): Promise<void> {
  const rg = await new RipgrepLocator({ searchPath: true }).get();
  if (!rg) {
    console.log('ripgrep (rg) is not installed: nothing to compare against.');
    console.log(`@bench-json ${JSON.stringify({ grepVsRg: null, globVsRg: null })}`);
    return;
  }
  const grep = createGrepTool({ ripgrep: new RipgrepLocator({ candidates: [rg.path], searchPath: false }) });
  const glob = createGlobTool({ ripgrep: new RipgrepLocator({ candidates: [rg.path], searchPath: false }) });
  const lines = (s: string): string[] => s.split('\n').filter((l) => l !== '');
  const cases: Case[] = [];
  for (const [label, root] of [
    ['large tree', bigRoot],
    ['git repo, node_modules ignored', repoRoot],
  ] as const) {
    const vcs = ['--glob', '!.git'];
    cases.push(
      {
        name: `Grep files_with_matches (${label})`,
        kind: 'grep',
        tool: async () => ((await grep.execute({ pattern: NEEDLE, head_limit: 0 }, ctxFor(root))).data as GrepResponse).filenames,
        rg: async () => lines(await bareRg(rg.path, ['--hidden', ...vcs, '-l', NEEDLE, root], root)),
      },
      {
        name: `Grep content (${label})`,
        kind: 'grep',
        tool: async () =>
          lines(((await grep.execute({ pattern: NEEDLE, output_mode: 'content', head_limit: 0 }, ctxFor(root))).data as GrepResponse).content ?? ''),
        rg: async () => lines(await bareRg(rg.path, ['--hidden', ...vcs, '-n', NEEDLE, root], root)),
      },
      {
        name: `Grep count (${label})`,
        kind: 'grep',
        tool: async () => {
          const r = await grep.execute({ pattern: NEEDLE, output_mode: 'count', head_limit: 0 }, ctxFor(root));
          return r.content.split('\n').slice(1);
        },
        rg: async () => lines(await bareRg(rg.path, ['--hidden', ...vcs, '-c', NEEDLE, root], root)),
      },
      {
        name: `Glob **/*.d.ts (${label})`,
        kind: 'glob',
        tool: async () => {
          const r = await glob.execute({ pattern: '**/*.d.ts' }, ctxFor(root));
          const data = r.data as GlobResponse;
          return [String(data.truncated), ...data.filenames];
        },
        rg: async () =>
          lines(await bareRg(rg.path, ['--files', '--hidden', '--no-ignore', '--glob', '**/*.d.ts', '--glob', '!.git', '--glob', '!node_modules', root], root)),
        same: sameGlob,
      },
    );
  }
  console.log(`${generateTrees()}; ${rg.version}; median of ${ROUNDS} rounds, interleaved`);
  const worst = { grep: 0, glob: 0 };
  for (const c of cases) {
    const toolMs: number[] = [];
    const rgMs: number[] = [];
    let same = true;
    await c.tool(); // warm the page cache and the JIT
    for (let i = 0; i < ROUNDS; i++) {
      const a = await time(c.tool);
      const b = await time(c.rg);
      toolMs.push(a.ms);
      rgMs.push(b.ms);
      if (i === 0) same = (c.same ?? sameLines)(a.value, b.value);
    }
    const t = median(toolMs);
    const r = median(rgMs);
    const ratio = t / r;
    worst[c.kind] = Math.max(worst[c.kind], ratio);
    const ok = t <= 1.3 * r + 30 ? 'ok' : 'OVER';
    if (!same) process.exitCode = 1;
    console.log(
      `${c.name.padEnd(52)} tool ${t.toFixed(1).padStart(7)} ms  rg ${r.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}×  (target ≤ 1.3× rg + 30 ms: ${ok})  results ${same ? 'identical' : 'DIFFER'}`,
    );
  }
  console.log(`@bench-json ${JSON.stringify({ grepVsRg: Math.round(worst.grep * 100) / 100, globVsRg: Math.round(worst.glob * 100) / 100 })}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
