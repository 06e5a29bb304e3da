import path from 'node:path';

/**
 * Codex's tool vocabulary: Bash stays `Bash`, file edits are one `apply_patch` tool whose input is
 * the patch text in `command`, the Agent tool is `spawn_agent`, MCP tools keep `mcp__server__tool`.
 * Codex's matchers treat `Edit` and `Write` as names of `apply_patch`, and `Agent` of `spawn_agent`.
 */

/** Codex's name of a Hookwise tool. */
export function codexToolName(hookwiseName: string): string {
  if (hookwiseName === 'Edit' || hookwiseName === 'Write' || hookwiseName === 'MultiEdit') return 'apply_patch';
  if (hookwiseName === 'Agent') return 'spawn_agent';
  return hookwiseName;
}

/** The names a Codex matcher may use for a Hookwise tool (its own name first). */
export function codexMatchNames(hookwiseName: string): readonly string[] {
  const name = codexToolName(hookwiseName);
  if (name === 'apply_patch') return ['apply_patch', 'Edit', 'Write'];
  if (name === 'spawn_agent') return ['spawn_agent', 'Agent'];
  return [name];
}

/** The tool input as Codex sends it: an edit becomes `{command: <apply_patch text>}`. */
export function codexToolInput(hookwiseName: string, args: Readonly<Record<string, unknown>>, cwd: string): Record<string, unknown> {
  if (codexToolName(hookwiseName) !== 'apply_patch') return { ...args };
  const file = typeof args.file_path === 'string' ? args.file_path : '';
  const shown = path.isAbsolute(file) && !path.relative(cwd, file).startsWith('..') ? path.relative(cwd, file) : file;
  const lines = (text: unknown, mark: string): string[] => (typeof text === 'string' ? text.split('\n').map((l) => `${mark}${l}`) : []);
  if (hookwiseName === 'Write') return { command: ['*** Begin Patch', `*** Add File: ${shown}`, ...lines(args.content, '+'), '*** End Patch'].join('\n') };
  const edits = Array.isArray(args.edits) ? (args.edits as Record<string, unknown>[]) : [args];
  const hunks = edits.flatMap((e) => ['@@', ...lines(e.old_string, '-'), ...lines(e.new_string, '+')]);
  return { command: ['*** Begin Patch', `*** Update File: ${shown}`, ...hunks, '*** End Patch'].join('\n') };
}
