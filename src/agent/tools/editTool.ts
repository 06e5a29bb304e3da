import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describeFsError, errnoCode } from './fsErrors';
import { numberLine } from './textFiles';
import { defineTool, toolError } from './tool';
import type { AgentTool, ToolResult } from './tool';
import { structuredPatch } from './structuredPatch';
import type { PatchHunk } from './structuredPatch';
import { resolveWorkspacePath } from './workspacePaths';

export const editInputSchema = z.object({
  file_path: z.string().describe('Path of the file to edit; absolute, or relative to the working directory.'),
  old_string: z.string().describe('The exact text to replace, including whitespace and indentation. Empty only to create a new file.'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  // Filled in when the model leaves it out, so hooks see `replace_all: false` as in Claude Code.
  replace_all: z.boolean().default(false).describe('Replace every occurrence of old_string instead of requiring exactly one (default false).'),
});
/** The Edit input as a caller may give it (`replace_all` may be left out; the schema fills it). */
export type EditInput = z.input<typeof editInputSchema>;

/** Claude Code's Edit `tool_response`, key for key. */
export interface EditResponse {
  readonly filePath: string;
  readonly oldString: string;
  readonly newString: string;
  readonly originalFile: string;
  readonly structuredPatch: PatchHunk[];
  /** True when the person changed the proposed edit before accepting it (never, here). */
  readonly userModified: boolean;
  readonly replaceAll: boolean;
}

/** Lines of context shown around the first change. */
const SNIPPET_CONTEXT = 3;
const SNIPPET_MAX_LINES = 30;

const DESCRIPTION = `Replaces exact text in a file: old_string must occur exactly once (or set replace_all to change every occurrence).
- Read the file first; copy old_string exactly as it appears, without Read's line-number prefix, keeping indentation.
- If old_string occurs several times, add surrounding lines to make it unique.
- An empty old_string creates a new file (or fills an empty one) with new_string.
- Paths outside the workspace are refused unless the user approves.`;

/** The `Edit` tool: exact-string replacement that fails clearly on zero or ambiguous matches. Asks by default. */
export function createEditTool(): AgentTool<EditInput> {
  return defineTool({
    name: 'Edit',
    description: DESCRIPTION,
    inputSchema: editInputSchema,
    readOnly: false,
    needsApproval: true,
    summarize: (input) => input.file_path,
    async execute(input, ctx) {
      const resolved = await resolveWorkspacePath(input.file_path, ctx);
      if (!resolved.ok) return toolError(resolved.error);
      const absPath = resolved.absPath;
      if (input.old_string === input.new_string) {
        return toolError('old_string and new_string are identical, so there is nothing to change; give the new text in new_string.');
      }

      let original: string;
      try {
        const stat = await fs.stat(absPath);
        if (stat.isDirectory()) return toolError(`${absPath} is a directory; Edit changes files.`);
        original = await fs.readFile(absPath, 'utf8');
      } catch (err) {
        if (errnoCode(err) === 'ENOENT' && input.old_string === '') return createFile(absPath, input, ctx.signal);
        if (errnoCode(err) === 'ENOENT') {
          return toolError(`File does not exist: ${absPath}. Check the path with Glob, or create the file with Write (or Edit with an empty old_string).`);
        }
        return toolError(describeFsError(err, absPath));
      }
      if (original.includes('\0')) return toolError(`${absPath} is a binary file; Edit changes text files only.`);
      if (input.old_string === '') {
        if (original !== '')
          return toolError(`old_string is empty but ${absPath} already has content; give the exact text to replace, or use Write to replace the whole file.`);
        return writeEdit(absPath, original, input.new_string, input.new_string, input, 1, 0, ctx.signal);
      }

      let oldString = input.old_string;
      let newString = input.new_string;
      let indexes = findAll(original, oldString);
      // Models write "\n"; a CRLF file has "\r\n". Match it in the file's own line endings.
      if (indexes.length === 0 && original.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r\n')) {
        oldString = oldString.replace(/\n/g, '\r\n');
        newString = newString.replace(/\r?\n/g, '\r\n');
        indexes = findAll(original, oldString);
      }
      if (indexes.length === 0) {
        const hint =
          original.includes(input.old_string.trim()) && input.old_string.trim() !== ''
            ? ' The text occurs with different surrounding whitespace; copy it exactly, including indentation and line breaks.'
            : ' Read the file to see its current content; old_string must match exactly, including whitespace and indentation.';
        return toolError(`old_string was not found in ${absPath}.${hint}`);
      }
      if (indexes.length > 1 && input.replace_all !== true) {
        return toolError(`old_string is not unique (${indexes.length} matches); add context or set replace_all to true. (File: ${absPath})`);
      }

      let updated = '';
      let last = 0;
      for (const i of indexes) {
        updated += original.slice(last, i) + newString; // concatenation, not String.replace: "$&" in new_string stays literal
        last = i + oldString.length;
      }
      updated += original.slice(last);
      return writeEdit(absPath, original, updated, newString, input, indexes.length, indexes[0] ?? 0, ctx.signal);
    },
  });
}

/** Non-overlapping start indexes of `needle` in `haystack`. */
function findAll(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

async function createFile(absPath: string, input: EditInput, signal: AbortSignal): Promise<ToolResult> {
  try {
    await fs.mkdir(path.dirname(absPath), { recursive: true });
  } catch (err) {
    return toolError(describeFsError(err, path.dirname(absPath)));
  }
  return writeEdit(absPath, '', input.new_string, input.new_string, input, 1, 0, signal);
}

async function writeEdit(
  absPath: string,
  original: string,
  updated: string,
  newString: string,
  input: EditInput,
  replacements: number,
  firstIndex: number,
  signal: AbortSignal,
): Promise<ToolResult> {
  if (signal.aborted) return toolError('Edit was interrupted before writing.');
  try {
    await fs.writeFile(absPath, updated, 'utf8');
  } catch (err) {
    return toolError(describeFsError(err, absPath));
  }
  const data: EditResponse = {
    filePath: absPath,
    oldString: input.old_string,
    newString: input.new_string,
    originalFile: original,
    structuredPatch: structuredPatch(original, updated),
    userModified: false,
    replaceAll: input.replace_all === true,
  };
  const what = replacements === 1 ? '1 replacement' : `${replacements} replacements`;
  const content = `The file ${absPath} has been updated (${what}). Around the ${replacements === 1 ? 'change' : 'first change'}:\n${snippet(updated, firstIndex, newString)}`;
  return { content, isError: false, data };
}

/** Numbered lines around the inserted text, so the model sees the result without re-reading. */
function snippet(text: string, index: number, inserted: string): string {
  const lines = text.split(/\r?\n/);
  const firstLine = text.slice(0, index).split('\n').length; // 1-based
  const insertedLines = inserted.split('\n').length;
  const from = Math.max(1, firstLine - SNIPPET_CONTEXT);
  const to = Math.min(lines.length, firstLine + insertedLines - 1 + SNIPPET_CONTEXT, from + SNIPPET_MAX_LINES - 1);
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(numberLine(n, lines[n - 1] ?? ''));
  return out.join('\n');
}
