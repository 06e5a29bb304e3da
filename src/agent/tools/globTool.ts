import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describeFsError } from './fsErrors';
import { defineTool, toolError } from './tool';
import type { AgentTool, ToolContext } from './tool';
import { isInsideDir, realpathLenient, resolveWorkspacePath } from './workspacePaths';
import { listWithRg } from './globRg';
import { sharedLocator } from './ripgrep';
import type { Ripgrep, RipgrepLocator, RipgrepOptions } from './ripgrep';
import { thrownMessage } from '../../shared/describeThrown';

/** Paths returned at most (Claude Code's cap); the rest are counted, not listed. */
export const GLOB_MAX_RESULTS = 100;
/** Matches beyond this are not even stat'ed for sorting: the pattern is too broad to be useful. */
const GLOB_MAX_CANDIDATES = 20_000;
/** Directories skipped unless the pattern or path names them. */
export const DEFAULT_IGNORED_DIRS = ['node_modules', '.git'] as const;

export const globInputSchema = z.object({
  pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/**/*.{js,jsx}", relative to path.'),
  path: z.string().optional().describe('Directory to search in; defaults to the working directory. Omit it rather than passing "undefined" or "null".'),
});
export type GlobInput = z.infer<typeof globInputSchema>;

/** Claude Code's Glob `tool_response` shape. */
export interface GlobResponse {
  readonly filenames: string[];
  readonly numFiles: number;
  readonly truncated: boolean;
  readonly durationMs: number;
  /** Which search ran: ripgrep, or the JavaScript fallback when no usable rg was found. */
  readonly engine: 'ripgrep' | 'javascript';
}

const DESCRIPTION = `Finds files by glob pattern (e.g. "**/*.ts", "src/**/*.test.{ts,tsx}") and returns absolute paths, most recently modified first.
- Searches path (default: the working directory); a pattern without "/" matches file names at any depth. node_modules and .git are skipped unless the pattern or path names them; .gitignore does not hide files here. Dotfiles are included.
- Symbolic links are not followed; files the permission rules deny reading are left out (the result says how many). At most ${GLOB_MAX_RESULTS} paths are returned; narrow the pattern if the result is truncated.
- To search file contents, use Grep.`;

/** Options of {@link createGlobTool}. */
export interface GlobToolOptions {
  /** Time a listing may take at most (ripgrep); default 30 s. */
  readonly timeoutMs?: number;
  /** Where ripgrep is (see RipgrepOptions); `false` forces the JavaScript fallback. Default: `rg` on PATH. */
  readonly ripgrep?: RipgrepOptions | false | RipgrepLocator;
}

/**
 * The `Glob` tool: `rg --files` when a usable ripgrep is found (see globRg.ts), else
 * tinyglobby; the response names the engine. Results are sorted by modification time,
 * newest first — recently touched files are the likely targets. Read-only; never asks.
 */
export function createGlobTool(options: GlobToolOptions = {}): AgentTool<GlobInput> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const locator = sharedLocator(options.ripgrep);
  return defineTool({
    name: 'Glob',
    description: DESCRIPTION,
    inputSchema: globInputSchema,
    readOnly: true,
    needsApproval: false,
    summarize: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
    async execute(input, ctx) {
      const started = Date.now();
      let pattern = input.pattern;
      let dirArg = input.path && input.path.trim() !== '' ? input.path : '.';
      // Models often pass an absolute pattern; split it into the directory and the glob below it.
      if (path.isAbsolute(pattern)) {
        const split = splitAbsolutePattern(pattern);
        if (!split) return toolError(`Pattern ${pattern} has no wildcard; use Read to open a file, or give a pattern like "**/*.ts".`);
        dirArg = split.dir;
        pattern = split.rest;
      }
      if (pattern.split(/[\\/]/).includes('..')) {
        return toolError('Pattern must not contain ".." segments; pass the directory to search as path instead.');
      }
      const resolved = await resolveWorkspacePath(dirArg, ctx);
      if (!resolved.ok) return toolError(resolved.error);
      const dir = resolved.absPath;
      try {
        if (!(await fs.stat(dir)).isDirectory()) return toolError(`${dir} is not a directory; path must be a directory to search in.`);
      } catch (err) {
        return toolError(describeFsError(err, dir).replace(/^File does not exist/, 'Directory does not exist'));
      }

      // Compared by path segment: a workspace under ~/.git-work/ must still skip .git.
      const mentioned = new Set([...pattern.split('/'), ...dir.split(path.sep)]);
      const excludeDirs = DEFAULT_IGNORED_DIRS.filter((d) => !mentioned.has(d));
      const rg = await locator.get();
      const found = rg
        ? await listOnRg(rg, pattern, dir, resolved.realPath, excludeDirs, ctx, timeoutMs)
        : await listOnJs(pattern, dir, resolved.realPath, excludeDirs, ctx);
      if ('error' in found) return toolError(found.error);
      const { admitted, hidden, escaped, tooMany } = found;
      const total = admitted.length;
      const filenames = admitted.slice(0, GLOB_MAX_RESULTS);
      const truncated = total > filenames.length;
      const data: GlobResponse = { filenames, numFiles: filenames.length, truncated, durationMs: Date.now() - started, engine: rg ? 'ripgrep' : 'javascript' };
      const notes: string[] = [];
      if (hidden > 0) notes.push(`${hidden} file(s) hidden by permission rules.`);
      if (escaped > 0) notes.push(`${escaped} match(es) outside ${dir} left out.`);
      if (found.notListed) notes.push(found.notListed);
      const tail = notes.length > 0 ? `\n(${notes.join(' ')})` : '';
      if (filenames.length === 0) return { content: `No files found matching ${JSON.stringify(pattern)} in ${dir}${tail}`, isError: false, data };
      const note = truncated
        ? `\n(Results are truncated: showing ${filenames.length} of ${total}${tooMany ? '+' : ''} matches. Use a more specific pattern or path.)`
        : '';
      return { content: filenames.join('\n') + note + tail, isError: false, data };
    },
  });
}

interface Listed {
  /** Admitted paths, newest first. */
  readonly admitted: string[];
  readonly hidden: number;
  readonly escaped: number;
  readonly tooMany: boolean;
  readonly notListed?: string;
}

async function listOnRg(
  rg: Ripgrep,
  pattern: string,
  dir: string,
  dirReal: string,
  excludeDirs: readonly string[],
  ctx: ToolContext,
  timeoutMs: number,
): Promise<Listed | { readonly error: string }> {
  const list = await listWithRg(rg, pattern, dir, { excludeDirs, signal: ctx.signal, timeoutMs });
  if ('error' in list) return list;
  const admitted: string[] = [];
  let hidden = 0;
  for (const p of list.files) {
    // rg follows no symlink and lists none: the real path is the directory's plus the rest.
    if (ctx.readDeniedBy?.(p, path.join(dirReal, path.relative(dir, p))) !== undefined) hidden++;
    else admitted.push(p);
  }
  return { admitted, hidden, escaped: 0, tooMany: false, ...(list.notListed ? { notListed: list.notListed } : {}) };
}

async function listOnJs(
  pattern: string,
  dir: string,
  dirReal: string,
  excludeDirs: readonly string[],
  ctx: ToolContext,
): Promise<Listed | { readonly error: string }> {
  let relPaths: string[];
  try {
    // ripgrep's rule (and so Claude Code's): a glob without "/" matches the name at any depth.
    // Loaded on first use: only the fallback needs it, and its module set-up is not free.
    const { glob } = await import('tinyglobby');
    relPaths = await glob(pattern.includes('/') ? pattern : `**/${pattern}`, {
      cwd: dir,
      dot: true,
      ignore: excludeDirs.map((d) => `**/${d}/**`),
      onlyFiles: true,
      followSymbolicLinks: false,
      expandDirectories: false,
      signal: ctx.signal,
    });
  } catch (err) {
    if (ctx.signal.aborted) return { error: 'Glob was interrupted.' };
    return { error: `Glob failed for pattern ${JSON.stringify(pattern)}: ${thrownMessage(err)}` };
  }
  if (ctx.signal.aborted) return { error: 'Glob was interrupted.' };
  const tooMany = relPaths.length > GLOB_MAX_CANDIDATES;
  const candidates = (tooMany ? [...relPaths].sort().slice(0, GLOB_MAX_CANDIDATES) : relPaths).map((rel) => path.join(dir, rel));
  // Extglob can step out of the search root (`..*/x`, `..?(y)/**`) although no segment is
  // "..", and a listed symlink may point anywhere: every result is checked where it really
  // lands, after matching, and files the session's Read rules deny are hidden.
  const checked = await Promise.all(candidates.map((p) => admit(p, dir, dirReal, ctx)));
  const files = checked.filter((c): c is Admitted => c.kind === 'file');
  files.sort((a, b) => b.mtime - a.mtime || (a.p < b.p ? -1 : a.p > b.p ? 1 : 0));
  const hidden = checked.filter((c) => c.kind === 'denied').length;
  const escaped = checked.filter((c) => c.kind === 'outside').length;
  const notListed = tooMany
    ? `Only ${GLOB_MAX_CANDIDATES} of ${relPaths.length} matches (the first by path) were sorted by time: the rest are not listed. Narrow path or pattern.`
    : undefined;
  return { admitted: files.map((f) => f.p), hidden, escaped, tooMany, ...(notListed ? { notListed } : {}) };
}

/** `/ws/src/**\/*.ts` → `{dir: '/ws/src', rest: '**\/*.ts'}`; null when nothing is a wildcard. */
function splitAbsolutePattern(pattern: string): { dir: string; rest: string } | null {
  const segments = pattern.split('/');
  const firstGlob = segments.findIndex((s) => /[*?[\]{}()!]/.test(s));
  if (firstGlob <= 0) return null;
  return { dir: segments.slice(0, firstGlob).join('/') || '/', rest: segments.slice(firstGlob).join('/') };
}

interface Admitted {
  readonly kind: 'file';
  readonly p: string;
  readonly mtime: number;
}

/**
 * One match, checked: inside the search directory both as a path and where it really
 * lands (path-boundary aware, not a string prefix), not hidden by a Read rule, with its
 * modification time for sorting. A file that vanished since the glob sorts last.
 */
async function admit(p: string, dir: string, dirReal: string, ctx: ToolContext): Promise<Admitted | { kind: 'outside' | 'denied' }> {
  if (!isInsideDir(dir, p)) return { kind: 'outside' };
  let real: string;
  try {
    real = await fs.realpath(p);
  } catch {
    real = await realpathLenient(p);
  }
  if (!isInsideDir(dirReal, real)) return { kind: 'outside' };
  if (ctx.readDeniedBy?.(p, real) !== undefined) return { kind: 'denied' };
  return { kind: 'file', p, mtime: await mtimeOf(p) };
}

async function mtimeOf(p: string): Promise<number> {
  try {
    return (await fs.stat(p)).mtimeMs;
  } catch {
    return 0; // vanished since the glob: sorts last
  }
}
