import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { describeFsError } from './fsErrors';
import { DEFAULT_IGNORED_DIRS } from './globTool';
import { SNIFF_BYTES, hasBinaryExtension, looksBinary } from './textFiles';
import { defineTool, toolError } from './tool';
import type { AgentTool } from './tool';
import { resolveWorkspacePath } from './workspacePaths';
import { walkFiles } from './walkFiles';
import { GrepStoppedError, GrepWorker } from './grepWorker';
import { thrownMessage } from '../../shared/describeThrown';

/** Output lines (content), files or counts returned when the call gives no head_limit. */
export const GREP_DEFAULT_HEAD_LIMIT = 250;
/** Characters of output at most, whatever head_limit says. */
export const GREP_MAX_OUTPUT_CHARS = 30_000;
/** Characters of one matching line shown in content mode. */
export const GREP_MAX_LINE_CHARS = 500;
/** Files larger than this are skipped (generated bundles, logs, data). */
export const GREP_MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Files examined at most per call; a broader search says it stopped early. */
export const GREP_MAX_FILES_SCANNED = 20_000;
/** Time a search may take at most; then it stops with an error. */
export const GREP_MAX_MS = 30_000;
/** File text handed to the worker per message (characters, files). */
const BATCH_CHARS = 4 * 1024 * 1024;
const BATCH_FILES = 256;

export const grepInputSchema = z.object({
  pattern: z.string().min(1).describe("Regular expression (JavaScript syntax, close to ripgrep's) to search for, line by line."),
  path: z.string().optional().describe('File or directory to search; defaults to the working directory.'),
  glob: z
    .string()
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}" (a pattern without "/" matches file names anywhere).'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('"files_with_matches" (default): paths of matching files; "content": matching lines; "count": matches per file.'),
  '-i': z.boolean().optional().describe('Case-insensitive search.'),
  '-n': z.boolean().optional().describe('Show line numbers in content mode (default true).'),
  head_limit: z.number().int().min(1).optional().describe(`Return at most this many lines/files/counts (default ${GREP_DEFAULT_HEAD_LIMIT}).`),
});
export type GrepInput = z.infer<typeof grepInputSchema>;
type GrepMode = NonNullable<GrepInput['output_mode']>;

/** Claude Code's Grep `tool_response` shape. */
export interface GrepResponse {
  readonly mode: GrepMode;
  readonly numFiles: number;
  readonly filenames: string[];
  readonly content?: string;
  readonly numLines?: number;
  readonly numMatches?: number;
  /** The head_limit, when it cut the results (Claude Code's field). */
  readonly appliedLimit?: number;
}

const DESCRIPTION = `Searches file contents for a regular expression, line by line (JavaScript RegExp syntax: "log.*Error", "function\\s+\\w+").
- output_mode: "files_with_matches" (default, newest first), "content" (path:line:text), or "count" (path:count).
- Filter files with glob ("*.ts", "*.{ts,tsx}", "src/**/*.js"); -i for case-insensitive; head_limit caps the entries returned (default ${GREP_DEFAULT_HEAD_LIMIT}).
- node_modules, .git, binary files and files over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB are skipped; symbolic links are not followed; .gitignore is not read.
- Files the permission rules deny reading are skipped (the result says how many). A search stops with an error after ${GREP_MAX_MS / 1000} s: avoid nested quantifiers such as (a+)+.
- To find files by name, use Glob.`;

/**
 * The `Grep` tool, in pure Node: walk + JS RegExp, no ripgrep. Read-only; never asks.
 * The RegExp runs on a worker thread (see GrepWorker), so Stop ends a runaway pattern
 * promptly and a search stops with an error after `timeoutMs` (default 30 s). Files the
 * session's Read rules deny (`ctx.readDeniedBy`) are skipped and counted.
 */
export function createGrepTool(options: { readonly timeoutMs?: number } = {}): AgentTool<GrepInput> {
  const timeoutMs = options.timeoutMs ?? GREP_MAX_MS;
  return defineTool({
    name: 'Grep',
    description: DESCRIPTION,
    inputSchema: grepInputSchema,
    readOnly: true,
    needsApproval: false,
    summarize: (input) => `${input.pattern}${input.glob ? ` (${input.glob})` : ''}${input.path ? ` in ${input.path}` : ''}`,
    async execute(input, ctx) {
      const started = Date.now();
      const mode: GrepMode = input.output_mode ?? 'files_with_matches';
      const regex = compilePattern(input.pattern, input['-i'] === true);
      if (typeof regex === 'string') return toolError(regex);

      const resolved = await resolveWorkspacePath(input.path && input.path.trim() !== '' ? input.path : '.', ctx);
      if (!resolved.ok) return toolError(resolved.error);
      const root = resolved.absPath;
      let rootIsDir: boolean;
      try {
        rootIsDir = (await fs.stat(root)).isDirectory();
      } catch (err) {
        return toolError(describeFsError(err, root).replace(/^File does not exist/, 'Path does not exist'));
      }
      // ripgrep's rule: a glob without "/" matches the file name at any depth. picomatch's
      // `basename` option breaks patterns that do contain "/", so it is set only for the others.
      const matchGlob = input.glob ? picomatch(input.glob, { dot: true, basename: !input.glob.includes('/') }) : undefined;
      const skipDirs = new Set<string>(DEFAULT_IGNORED_DIRS.filter((d) => !root.split(path.sep).includes(d)));

      const headLimit = input.head_limit ?? GREP_DEFAULT_HEAD_LIMIT;
      const showLineNumbers = input['-n'] !== false;
      const matchedFiles: string[] = [];
      const entries: string[] = [];
      let numMatches = 0;
      let scanned = 0;
      let hidden = 0;
      let hitScanCap = false;
      let hitHeadLimit = false;

      // The RegExp runs on a worker thread: a catastrophically backtracking pattern cannot
      // freeze the agent, and Stop or the time cap end it by terminating the worker.
      const worker = new GrepWorker({ source: regex.source, flags: regex.flags }, ctx.signal, started + timeoutMs);
      let batch: { file: string; text: string }[] = [];
      let batchChars = 0;
      /** Matches the pending batch and folds its results in; false once head_limit is reached. */
      const flush = async (): Promise<boolean> => {
        if (batch.length === 0) return true;
        const files = batch;
        batch = [];
        batchChars = 0;
        const results = await worker.match({ texts: files.map((f) => f.text), mode, lineLimit: headLimit - entries.length, maxLineChars: GREP_MAX_LINE_CHARS });
        for (let k = 0; k < files.length; k++) {
          const { file } = files[k] as { file: string };
          const result = results[k];
          if (!result || result.count === 0) continue;
          matchedFiles.push(file);
          numMatches += result.count;
          if (mode === 'content') {
            for (const [lineNo, text] of result.lines) entries.push(showLineNumbers ? `${file}:${lineNo}:${text}` : `${file}:${text}`);
            // The worker counts the first match past the limit without showing it: there is more.
            if (result.lines.length < result.count) {
              hitHeadLimit = true;
              return false;
            }
          }
          if (mode === 'count') {
            entries.push(`${file}:${result.count}`);
            // files_with_matches is sorted by mtime afterwards, so it cannot stop at head_limit here.
            if (entries.length >= headLimit) {
              hitHeadLimit = true;
              return false;
            }
          }
        }
        return true;
      };

      try {
        const files = rootIsDir ? walkFiles(root, { skipDirs, signal: ctx.signal }) : single(root);
        for await (const file of files) {
          if (ctx.signal.aborted) throw new GrepStoppedError('aborted');
          if (Date.now() >= started + timeoutMs) throw new GrepStoppedError('timeout');
          const rel = rootIsDir ? path.relative(root, file).split(path.sep).join('/') : path.basename(file);
          if (rootIsDir && matchGlob && !matchGlob(rel)) continue;
          if (++scanned > GREP_MAX_FILES_SCANNED) {
            hitScanCap = true;
            break;
          }
          // walkFiles follows no symlink, so below the root's real path the file's real path is known.
          const knownReal = rootIsDir ? path.join(resolved.realPath, path.relative(root, file)) : resolved.realPath;
          if (ctx.readDeniedBy?.(file, knownReal) !== undefined) {
            hidden++;
            continue;
          }
          const text = await readText(file);
          if (text === undefined) continue;
          batch.push({ file, text });
          batchChars += text.length;
          if ((batchChars >= BATCH_CHARS || batch.length >= BATCH_FILES) && !(await flush())) break;
        }
        if (!hitHeadLimit) await flush();
      } catch (err) {
        if (err instanceof GrepStoppedError) {
          if (err.reason === 'aborted' || ctx.signal.aborted) return toolError('Grep was interrupted.');
          return toolError(
            `Grep stopped after ${formatSeconds(timeoutMs)}: the search took too long. The pattern may backtrack catastrophically (e.g. nested quantifiers like (a+)+); simplify it, or narrow path or glob.`,
          );
        }
        return toolError(`Grep failed: ${thrownMessage(err)}`);
      } finally {
        worker.close();
      }
      if (ctx.signal.aborted) return toolError('Grep was interrupted.');

      let listed = entries;
      if (mode === 'files_with_matches') {
        listed = await sortByMtimeDesc(matchedFiles);
        if (listed.length > headLimit) {
          hitHeadLimit = true;
          listed = listed.slice(0, headLimit);
        }
      }
      let body = listed.join('\n');
      let hitCharCap = false;
      if (body.length > GREP_MAX_OUTPUT_CHARS) {
        hitCharCap = true;
        body = body.slice(0, body.lastIndexOf('\n', GREP_MAX_OUTPUT_CHARS) > 0 ? body.lastIndexOf('\n', GREP_MAX_OUTPUT_CHARS) : GREP_MAX_OUTPUT_CHARS);
      }
      const data: GrepResponse = {
        mode,
        numFiles: matchedFiles.length,
        filenames: mode === 'files_with_matches' ? listed : matchedFiles,
        ...(mode === 'content' ? { content: body, numLines: listed.length } : {}),
        ...(mode === 'count' ? { numMatches } : {}),
        ...(hitHeadLimit ? { appliedLimit: headLimit } : {}),
      };
      if (matchedFiles.length === 0) {
        const note =
          (hitScanCap ? ` (stopped after ${GREP_MAX_FILES_SCANNED} files; narrow path or glob)` : '') +
          (hidden > 0 ? ` (${hidden} file(s) hidden by permission rules)` : '');
        return { content: `No matches found for ${JSON.stringify(input.pattern)} in ${root}${note}`, isError: false, data };
      }
      const header =
        mode === 'files_with_matches'
          ? `Found ${matchedFiles.length} file(s)\n`
          : mode === 'count'
            ? `Found ${numMatches} match(es) in ${matchedFiles.length} file(s)\n`
            : '';
      const notes: string[] = [];
      if (hitHeadLimit || hitCharCap) notes.push('Results are truncated; use head_limit, a narrower path or glob, or a more specific pattern.');
      if (hitScanCap) notes.push(`Stopped after scanning ${GREP_MAX_FILES_SCANNED} files; narrow path or glob.`);
      if (hidden > 0) notes.push(`${hidden} file(s) hidden by permission rules.`);
      return { content: header + body + (notes.length ? `\n(${notes.join(' ')})` : ''), isError: false, data };
    },
  });
}

/**
 * A RegExp for the pattern, or an error message. ripgrep's leading inline flags `(?i)`,
 * `(?s)`, `(?m)` are turned into JS flags because JS (Node 20) has no inline modifiers.
 */
export function compilePattern(pattern: string, ignoreCase: boolean): RegExp | string {
  let source = pattern;
  const flags = new Set<string>(ignoreCase ? ['i'] : []);
  const inline = /^\(\?([ims]+)\)/.exec(source);
  if (inline?.[1]) {
    for (const f of inline[1]) flags.add(f);
    source = source.slice(inline[0].length);
  }
  try {
    return new RegExp(source, [...flags].join(''));
  } catch (err) {
    return `Invalid regular expression ${JSON.stringify(pattern)}: ${thrownMessage(err)}. Grep uses JavaScript RegExp syntax; escape special characters such as ( [ { . * + ? with a backslash.`;
  }
}

async function* single(file: string): AsyncGenerator<string> {
  yield file;
}

/** The file's text, or undefined when it is binary, too big or unreadable (skipped silently, like ripgrep). */
async function readText(file: string): Promise<string | undefined> {
  if (hasBinaryExtension(file)) return undefined;
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile() || stat.size > GREP_MAX_FILE_BYTES) return undefined;
    const buf = await fs.readFile(file);
    if (looksBinary(buf.subarray(0, SNIFF_BYTES))) return undefined;
    return buf.toString('utf8');
  } catch {
    return undefined;
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

async function sortByMtimeDesc(files: readonly string[]): Promise<string[]> {
  const withTimes = await Promise.all(
    files.map(async (f) => {
      try {
        return { f, t: (await fs.stat(f)).mtimeMs };
      } catch {
        return { f, t: 0 };
      }
    }),
  );
  withTimes.sort((a, b) => b.t - a.t || (a.f < b.f ? -1 : a.f > b.f ? 1 : 0));
  return withTimes.map((e) => e.f);
}
