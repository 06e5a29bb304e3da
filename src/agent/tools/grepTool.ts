import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { describeFsError } from './fsErrors';
import { grepWithFallback } from './grepFallback';
import { splitGlobs } from './grepHits';
import type { GrepQuery } from './grepHits';
import { grepWithRg } from './grepRg';
import { sharedLocator } from './ripgrep';
import type { RipgrepLocator, RipgrepOptions } from './ripgrep';
import { sortNewestFirst } from './newestFirst';
import { defineTool, toolError } from './tool';
import type { AgentTool } from './tool';
import { resolveWorkspacePath } from './workspacePaths';
import { thrownMessage } from '../../shared/describeThrown';

export { GREP_MAX_FILES_SCANNED, GREP_MAX_FILE_BYTES } from './grepFallback';

/** Output lines (content), files or counts returned when the call gives no head_limit. */
export const GREP_DEFAULT_HEAD_LIMIT = 250;
/** Characters of output at most, whatever head_limit says. */
export const GREP_MAX_OUTPUT_CHARS = 30_000;
/** Characters of one matching line shown in content mode. */
export const GREP_MAX_LINE_CHARS = 500;
/** Time a search may take at most; then it stops with an error. */
export const GREP_MAX_MS = 30_000;

export const grepInputSchema = z.object({
  pattern: z.string().min(1).describe('Regular expression to search for, in ripgrep (Rust regex) syntax.'),
  path: z.string().optional().describe('File or directory to search; defaults to the working directory.'),
  glob: z
    .string()
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}" (a pattern without "/" matches file names anywhere).'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('"files_with_matches" (default): paths of matching files; "content": matching lines; "count": matches per file.'),
  type: z.string().optional().describe('ripgrep file type to search, e.g. "js", "py", "rust" (more efficient than glob for standard types).'),
  '-i': z.boolean().optional().describe('Case-insensitive search.'),
  '-n': z.boolean().optional().describe('Show line numbers in content mode (default true).'),
  '-A': z.number().int().min(0).optional().describe('Lines to show after each match (content mode).'),
  '-B': z.number().int().min(0).optional().describe('Lines to show before each match (content mode).'),
  '-C': z.number().int().min(0).optional().describe('Lines to show before and after each match (content mode).'),
  multiline: z.boolean().optional().describe('Let patterns span lines and "." match newlines (rg -U --multiline-dotall). Default false.'),
  head_limit: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(`Return at most this many lines/files/counts, after offset (default ${GREP_DEFAULT_HEAD_LIMIT}; 0 = no limit but the output cap).`),
  offset: z.number().int().min(0).optional().describe('Skip this many lines/files/counts before applying head_limit (default 0).'),
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
  /** The offset, when one was given (Claude Code's field). */
  readonly appliedOffset?: number;
  /** Which search ran: ripgrep, or the JavaScript fallback when no usable rg was found. */
  readonly engine: 'ripgrep' | 'javascript';
}

const DESCRIPTION = `A search tool built on ripgrep: searches file contents for a regular expression.
- Full regex syntax of ripgrep (Rust regex): "log.*Error", "function\\s+\\w+", "(?i)todo", "\\p{Greek}". Literal braces need escaping (interface\\{\\} finds interface{} in Go).
- output_mode: "files_with_matches" (default, newest first), "content" (path:line:text; -A/-B/-C context, -n line numbers), or "count" (path:count).
- Filter files with glob ("*.ts", "*.{ts,tsx}", "src/**/*.js") or type ("js", "py", "rust"); -i for case-insensitive; multiline: true lets a pattern span lines.
- head_limit caps the entries returned (default ${GREP_DEFAULT_HEAD_LIMIT}), offset skips entries first, for paging.
- Hidden files are searched; .git and other VCS directories are not; .gitignore (in a git repository), .ignore and .rgignore are respected; binary files are skipped; symbolic links are not followed.
- Files the permission rules deny reading are left out (the result says how many). A search stops with an error after ${GREP_MAX_MS / 1000} s.
- To find files by name, use Glob.`;

/** Options of {@link createGrepTool}. */
export interface GrepToolOptions {
  readonly timeoutMs?: number;
  /** The JavaScript fallback's cap on files examined per call (default GREP_MAX_FILES_SCANNED, 20,000). */
  readonly maxFilesScanned?: number;
  /** Where ripgrep is (see RipgrepOptions); `false` forces the JavaScript fallback. Default: `rg` on PATH. */
  readonly ripgrep?: RipgrepOptions | false | RipgrepLocator;
}

/**
 * The `Grep` tool, on ripgrep when one is usable (see RipgrepLocator), else on the JavaScript
 * fallback (grepFallback.ts, which the result names). Read-only; never asks. Stop kills rg's
 * process group at once; the time cap (default 30 s) stops either engine with an error.
 * Files the session's Read rules deny (`ctx.readDeniedBy`) are left out and counted. The
 * output is bounded (head_limit, {@link GREP_MAX_OUTPUT_CHARS}); every cut says so.
 */
export function createGrepTool(options: GrepToolOptions = {}): AgentTool<GrepInput> {
  const timeoutMs = options.timeoutMs ?? GREP_MAX_MS;
  const locator = sharedLocator(options.ripgrep);
  return defineTool({
    name: 'Grep',
    description: DESCRIPTION,
    inputSchema: grepInputSchema,
    readOnly: true,
    needsApproval: false,
    summarize: (input) => `${input.pattern}${input.glob ? ` (${input.glob})` : ''}${input.path ? ` in ${input.path}` : ''}`,
    async execute(input, ctx) {
      const mode: GrepMode = input.output_mode ?? 'files_with_matches';
      const rg = await locator.get();
      let regex: RegExp | undefined;
      if (!rg) {
        const compiled = compilePattern(input.pattern, input['-i'] === true);
        if (typeof compiled === 'string') return toolError(compiled);
        regex = compiled;
      }
      const resolved = await resolveWorkspacePath(input.path && input.path.trim() !== '' ? input.path : '.', ctx);
      if (!resolved.ok) return toolError(resolved.error);
      const root = resolved.absPath;
      let rootIsDir: boolean;
      try {
        rootIsDir = (await fs.stat(root)).isDirectory();
      } catch (err) {
        return toolError(describeFsError(err, root).replace(/^File does not exist/, 'Path does not exist'));
      }
      const headLimit = input.head_limit === 0 ? Infinity : (input.head_limit ?? GREP_DEFAULT_HEAD_LIMIT);
      const offset = input.offset ?? 0;
      const context = input['-C'] ?? 0;
      const query: GrepQuery = {
        pattern: input.pattern,
        ignoreCase: input['-i'] === true,
        mode,
        showLineNumbers: input['-n'] !== false,
        before: input['-B'] ?? context,
        after: input['-A'] ?? context,
        multiline: input.multiline === true,
        globs: splitGlobs(input.glob),
        type: input.type,
        root,
        realRoot: resolved.realPath,
        rootIsDir,
        want: offset + headLimit,
        maxLineChars: GREP_MAX_LINE_CHARS,
        timeoutMs,
        ...(options.maxFilesScanned !== undefined ? { maxFilesScanned: options.maxFilesScanned } : {}),
        signal: ctx.signal,
        readDeniedBy: ctx.readDeniedBy,
      };
      let hits;
      try {
        hits = rg ? await grepWithRg(rg, query) : await grepWithFallback(regex as RegExp, query);
      } catch (err) {
        return toolError(`Grep failed: ${thrownMessage(err)}`);
      }
      if (ctx.signal.aborted) return toolError('Grep was interrupted.');
      if ('error' in hits) return toolError(hits.error);
      const { matchedFiles, numMatches, hidden } = hits;

      let all = hits.entries;
      if (mode === 'files_with_matches') {
        all = await sortNewestFirst(matchedFiles, ctx.signal);
        if (ctx.signal.aborted) return toolError('Grep was interrupted.');
      }
      const listed = all.slice(offset, offset + headLimit);
      let hitHeadLimit = hits.moreEntries || all.length > offset + headLimit;
      let body = listed.join('\n');
      let hitCharCap = false;
      if (body.length > GREP_MAX_OUTPUT_CHARS) {
        hitCharCap = true;
        const cut = body.lastIndexOf('\n', GREP_MAX_OUTPUT_CHARS);
        body = body.slice(0, cut > 0 ? cut : GREP_MAX_OUTPUT_CHARS);
      }
      if (!Number.isFinite(headLimit)) hitHeadLimit = false;
      const data: GrepResponse = {
        mode,
        numFiles: matchedFiles.length,
        filenames: mode === 'files_with_matches' ? listed : matchedFiles,
        ...(mode === 'content' ? { content: body, numLines: listed.length } : {}),
        ...(mode === 'count' ? { numMatches } : {}),
        ...(hitHeadLimit ? { appliedLimit: headLimit } : {}),
        ...(offset > 0 ? { appliedOffset: offset } : {}),
        engine: rg ? 'ripgrep' : 'javascript',
      };
      const notes: string[] = [];
      if (hits.notSearched) notes.push(hits.notSearched);
      if (hidden > 0) notes.push(`${hidden} file(s) hidden by permission rules.`);
      if (matchedFiles.length === 0) {
        const tail = notes.length > 0 ? ` (${notes.join(' ')})` : '';
        return { content: `No matches found for ${JSON.stringify(input.pattern)} in ${root}${tail}`, isError: false, data };
      }
      const header =
        mode === 'files_with_matches'
          ? `Found ${matchedFiles.length} file(s)\n`
          : mode === 'count'
            ? `Found ${numMatches} match(es) in ${matchedFiles.length} file(s)\n`
            : '';
      if (hitHeadLimit || hitCharCap) {
        notes.unshift(
          `Results are truncated: showing entries ${offset + 1}–${offset + listed.length}${hitCharCap ? ` (cut at ${GREP_MAX_OUTPUT_CHARS} characters)` : ''}; use offset to see more, or a narrower path, glob or pattern.`,
        );
      }
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
    return `Invalid regular expression ${JSON.stringify(pattern)}: ${thrownMessage(err)}. Without ripgrep, Grep uses JavaScript RegExp syntax; escape special characters such as ( [ { . * + ? with a backslash.`;
  }
}
