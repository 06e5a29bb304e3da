import { createReadStream, promises as fs } from 'node:fs';
import { z } from 'zod';
import { describeFsError } from './fsErrors';
import { isBinaryFile, numberLine } from './textFiles';
import { defineTool, toolError } from './tool';
import type { AgentTool } from './tool';
import { resolveWorkspacePath } from './workspacePaths';
import { readline } from '../../shared/lazyBuiltins';

/** Lines returned when the call gives no `limit` (Claude Code's default). */
export const READ_DEFAULT_LIMIT = 2000;
/** Characters kept of one line; the rest is replaced by a marker. */
export const READ_MAX_LINE_CHARS = 2000;
/** Characters of numbered output at most; reading stops at the line that would pass it. */
export const READ_MAX_OUTPUT_CHARS = 100_000;
/** Files up to this size are read to the end to report their total line count. */
const COUNT_ALL_LINES_MAX_BYTES = 10 * 1024 * 1024;

export const readInputSchema = z.object({
  file_path: z.string().describe('Path of the file to read; absolute, or relative to the working directory.'),
  offset: z.number().int().min(0).optional().describe('1-based line number to start reading from. Only for files too large to read at once.'),
  limit: z.number().int().min(1).optional().describe(`Number of lines to read (default ${READ_DEFAULT_LIMIT}).`),
});
export type ReadInput = z.infer<typeof readInputSchema>;

/** Claude Code's Read `tool_response` shape. */
export interface ReadResponse {
  readonly type: 'text';
  readonly file: { filePath: string; content: string; numLines: number; startLine: number; totalLines: number | null };
}

const DESCRIPTION = `Reads a text file from the workspace and returns its lines numbered like \`cat -n\` (line number, tab, text).
- file_path may be absolute or relative to the working directory; paths outside the workspace are refused unless the user approves.
- By default up to ${READ_DEFAULT_LIMIT} lines from the start; use offset (1-based line number) and limit to page through long files.
- Lines longer than ${READ_MAX_LINE_CHARS} characters are truncated.
- Binary files are refused, and so are directories: use Glob to list a directory.
- The line-number prefix is not part of the file: leave it out of Edit's old_string.`;

/** The `Read` tool: numbered lines of a text file, paged by offset/limit. Read-only; never asks. */
export function createReadTool(): AgentTool<ReadInput> {
  return defineTool({
    name: 'Read',
    description: DESCRIPTION,
    inputSchema: readInputSchema,
    readOnly: true,
    needsApproval: false,
    summarize: (input) => input.file_path,
    async execute(input, ctx) {
      const resolved = await resolveWorkspacePath(input.file_path, ctx);
      if (!resolved.ok) return toolError(resolved.error);
      const absPath = resolved.absPath;

      let stat;
      try {
        stat = await fs.stat(absPath);
      } catch (err) {
        return toolError(describeFsError(err, absPath));
      }
      if (stat.isDirectory()) {
        return toolError(`${absPath} is a directory, not a file. Use Glob (e.g. pattern "*" with path "${absPath}") to list it, then Read a file inside it.`);
      }
      if (!stat.isFile()) return toolError(`${absPath} is not a regular file (device, socket or pipe); Read only reads files.`);
      try {
        if (await isBinaryFile(absPath)) {
          return toolError(`${absPath} is a binary file (${stat.size} bytes); Read shows text files only.`);
        }
      } catch (err) {
        return toolError(describeFsError(err, absPath));
      }

      const startLine = Math.max(1, input.offset ?? 1);
      const limit = input.limit ?? READ_DEFAULT_LIMIT;
      let window;
      try {
        window = await readWindow(absPath, startLine, limit, stat.size <= COUNT_ALL_LINES_MAX_BYTES, ctx.signal);
      } catch (err) {
        if (ctx.signal.aborted) return toolError('Read was interrupted.');
        return toolError(describeFsError(err, absPath));
      }
      if (ctx.signal.aborted) return toolError('Read was interrupted.');

      let endsWithNewline = false;
      try {
        endsWithNewline = stat.size > 0 && (await lastByte(absPath, stat.size)) === 0x0a;
      } catch {
        // Unreadable tail: count as Hookwise does; the model's view is unaffected.
      }
      const data: ReadResponse = { type: 'text', file: claudeFileView(absPath, window, startLine, limit, endsWithNewline || stat.size === 0) };
      if (window.totalLines === 0) return { content: `(${absPath} exists but is empty.)`, isError: false, data };
      if (window.raw.length === 0) {
        const total = window.totalLines === null ? 'fewer lines' : `${window.totalLines} line(s)`;
        return { content: `(${absPath} has ${total}; offset ${startLine} is past the end.)`, isError: false, data };
      }
      const notes: string[] = [];
      const lastShown = startLine + window.raw.length - 1;
      if (window.stoppedForSize) {
        notes.push(`Output stopped at line ${lastShown} to stay under ${READ_MAX_OUTPUT_CHARS} characters; continue with offset ${lastShown + 1}.`);
      } else if (window.totalLines === null || lastShown < window.totalLines) {
        const of = window.totalLines === null ? '' : ` of ${window.totalLines}`;
        notes.push(`Showing lines ${startLine}-${lastShown}${of}; continue with offset ${lastShown + 1}.`);
      }
      if (window.truncatedLines > 0) notes.push(`${window.truncatedLines} line(s) longer than ${READ_MAX_LINE_CHARS} characters were truncated.`);
      const body = window.numbered.join('\n');
      return { content: notes.length ? `${body}\n\n(${notes.join(' ')})` : body, isError: false, data };
    },
  });
}

interface Window {
  readonly raw: string[];
  readonly numbered: string[];
  /** Null when the file was too big to count to the end. */
  readonly totalLines: number | null;
  readonly truncatedLines: number;
  readonly stoppedForSize: boolean;
}

/** Streams the file once: collects lines [start, start+limit) and counts the rest if asked. */
/**
 * The `file` of Read's `tool_response` counted as Claude Code counts: the text split on
 * `\n`, so a final newline starts one more (empty) line, which `totalLines` counts and a
 * window reaching the end includes (`content` then ends with `\n`).
 */
function claudeFileView(filePath: string, window: Window, startLine: number, limit: number, emptyLastLine: boolean): ReadResponse['file'] {
  const totalLines = window.totalLines === null ? null : window.totalLines + (emptyLastLine ? 1 : 0);
  const reachesEnd =
    emptyLastLine &&
    window.totalLines !== null &&
    !window.stoppedForSize &&
    startLine + window.raw.length === window.totalLines + 1 &&
    window.raw.length < limit;
  const lines = reachesEnd ? [...window.raw, ''] : window.raw;
  return { filePath, content: lines.join('\n'), numLines: lines.length, startLine, totalLines };
}

async function lastByte(absPath: string, size: number): Promise<number | undefined> {
  const handle = await fs.open(absPath, 'r');
  try {
    const buffer = Buffer.alloc(1);
    await handle.read(buffer, 0, 1, size - 1);
    return buffer[0];
  } finally {
    await handle.close();
  }
}

async function readWindow(absPath: string, start: number, limit: number, countAll: boolean, signal: AbortSignal): Promise<Window> {
  const stream = createReadStream(absPath, { encoding: 'utf8' });
  const lines = readline().createInterface({ input: stream, crlfDelay: Infinity });
  const raw: string[] = [];
  const numbered: string[] = [];
  let lineNo = 0;
  let chars = 0;
  let truncatedLines = 0;
  let stoppedForSize = false;
  let reachedEnd = true;
  const onAbort = (): void => void stream.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for await (let line of lines) {
      lineNo++;
      if (lineNo === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1); // BOM is not content
      const inWindow = lineNo >= start && lineNo < start + limit && !stoppedForSize;
      if (inWindow) {
        let shown = line;
        if (shown.length > READ_MAX_LINE_CHARS) {
          shown = `${shown.slice(0, READ_MAX_LINE_CHARS)}… [line truncated, ${line.length} characters]`;
          truncatedLines++;
        }
        const entry = numberLine(lineNo, shown);
        if (chars + entry.length + 1 > READ_MAX_OUTPUT_CHARS && numbered.length > 0) {
          stoppedForSize = true;
        } else {
          chars += entry.length + 1;
          raw.push(line);
          numbered.push(entry);
        }
      }
      const pastWindow = lineNo >= start + limit - 1 || stoppedForSize;
      if (pastWindow && !countAll) {
        reachedEnd = false;
        break;
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    lines.close();
    stream.destroy();
  }
  return { raw, numbered, totalLines: reachedEnd ? lineNo : null, truncatedLines, stoppedForSize };
}
