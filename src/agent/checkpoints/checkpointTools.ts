import type { AnyAgentTool, ToolContext, ToolResult } from '../tools/tool';
import { toAbsolute } from '../tools/workspacePaths';
import type { CheckpointStore } from './checkpointStore';
import { readSnapshot } from './fileSnapshot';

/** The tools whose changes checkpoints record: they name the one file they write in `file_path`. */
export const CHECKPOINTED_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit']);

/**
 * `tools` with Write and Edit recording into `store`: the file is copied just before the
 * call and just after it succeeds (a failed call changed nothing and records nothing).
 * Other tools pass through untouched, so they cost nothing.
 */
export function withCheckpoints(tools: readonly AnyAgentTool[], store: CheckpointStore): AnyAgentTool[] {
  return tools.map((tool) => (CHECKPOINTED_TOOLS.has(tool.name) ? recording(tool, store) : tool));
}

function recording(tool: AnyAgentTool, store: CheckpointStore): AnyAgentTool {
  return {
    ...tool,
    summarize: (input) => tool.summarize(input),
    async execute(input: unknown, ctx: ToolContext): Promise<ToolResult> {
      const filePath = (input as { file_path?: unknown }).file_path;
      // The same resolution the tool makes (lexical; reads and writes then follow symlinks alike).
      const absPath = typeof filePath === 'string' && filePath.trim() !== '' && !filePath.includes('\0') ? toAbsolute(filePath, ctx) : undefined;
      const budget = store.snapshotBudget();
      const before = absPath && store.current ? await readSnapshot(absPath, budget) : undefined;
      const result = await tool.execute(input, ctx);
      if (result.isError || !absPath || !before) return result;
      const after = await readSnapshot(absPath, budget);
      store.record({ toolUseId: ctx.toolUseId ?? `${tool.name}:${absPath}`, toolName: tool.name, path: absPath, before, after });
      return result;
    },
  };
}
