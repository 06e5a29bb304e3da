import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describeFsError, errnoCode } from './fsErrors';
import { defineTool, toolError } from './tool';
import type { AgentTool } from './tool';
import { structuredPatch } from './structuredPatch';
import type { PatchHunk } from './structuredPatch';
import { resolveWorkspacePath } from './workspacePaths';

export const writeInputSchema = z.object({
  file_path: z.string().describe('Path of the file to write; absolute, or relative to the working directory.'),
  content: z.string().describe('The complete new content of the file.'),
});
export type WriteInput = z.infer<typeof writeInputSchema>;

/** Claude Code's Write `tool_response`, key for key (`originalFile` null and no hunks for a new file). */
export interface WriteResponse {
  readonly type: 'create' | 'update';
  readonly filePath: string;
  readonly content: string;
  readonly structuredPatch: PatchHunk[];
  readonly originalFile: string | null;
  /** Whether the user changed the content before it was written: Hookwise writes it as given, so false. */
  readonly userModified: false;
}

const DESCRIPTION = `Writes a file in the workspace, replacing it entirely if it exists; missing parent directories are created.
- file_path may be absolute or relative to the working directory; paths outside the workspace are refused unless the user approves.
- Prefer Edit for changing part of an existing file: it sends only the change.`;

/** The `Write` tool: whole-file write with `mkdir -p` of the parent. Asks by default. */
export function createWriteTool(): AgentTool<WriteInput> {
  return defineTool({
    name: 'Write',
    description: DESCRIPTION,
    inputSchema: writeInputSchema,
    readOnly: false,
    needsApproval: true,
    summarize: (input) => input.file_path,
    async execute(input, ctx) {
      const resolved = await resolveWorkspacePath(input.file_path, ctx);
      if (!resolved.ok) return toolError(resolved.error);
      const absPath = resolved.absPath;

      let existed = false;
      let originalFile: string | null = null;
      try {
        const stat = await fs.stat(absPath);
        if (stat.isDirectory()) return toolError(`${absPath} is a directory; give the path of a file to write.`);
        if (!stat.isFile()) return toolError(`${absPath} is not a regular file; Write only writes files.`);
        existed = true;
        // Kept for the hook input (originalFile, structuredPatch), as Claude Code reports them;
        // never for a file the Read rules deny: overwriting it must not disclose it.
        if (ctx.readDeniedBy?.(absPath) === undefined) originalFile = await fs.readFile(absPath, 'utf8');
      } catch (err) {
        if (errnoCode(err) !== 'ENOENT') return toolError(describeFsError(err, absPath));
      }
      try {
        await fs.mkdir(path.dirname(absPath), { recursive: true });
      } catch (err) {
        const code = errnoCode(err);
        if (code === 'EEXIST' || code === 'ENOTDIR') return toolError(`Cannot create ${absPath}: a parent path exists and is a file, not a directory.`);
        return toolError(describeFsError(err, path.dirname(absPath)));
      }
      if (ctx.signal.aborted) return toolError('Write was interrupted before writing.');
      try {
        await fs.writeFile(absPath, input.content, 'utf8');
      } catch (err) {
        return toolError(describeFsError(err, absPath));
      }
      const data: WriteResponse = {
        type: existed ? 'update' : 'create',
        filePath: absPath,
        content: input.content,
        structuredPatch: originalFile === null ? [] : structuredPatch(originalFile, input.content),
        originalFile,
        userModified: false,
      };
      const lines = input.content === '' ? 0 : input.content.split('\n').length - (input.content.endsWith('\n') ? 1 : 0);
      const content = existed ? `The file ${absPath} has been overwritten (${lines} line(s)).` : `File created successfully at: ${absPath} (${lines} line(s)).`;
      return { content, isError: false, data };
    },
  });
}
