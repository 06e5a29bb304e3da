/**
 * Gemini CLI's tool vocabulary (packages/core/src/tools/definitions/base-declarations.ts): the
 * name a Gemini hook sees for a Hookwise tool, and the argument keys renamed on the way (Hookwise
 * key → Gemini key). MCP tools are `mcp_<server>_<tool>` in Gemini's matchers and input.
 */
const TOOLS: Readonly<Record<string, { readonly name: string; readonly args?: Readonly<Record<string, string>> }>> = {
  Bash: { name: 'run_shell_command' },
  Read: { name: 'read_file' },
  Write: { name: 'write_file' },
  Edit: { name: 'replace', args: { replace_all: 'allow_multiple' } },
  Glob: { name: 'glob', args: { path: 'dir_path' } },
  Grep: { name: 'grep_search', args: { path: 'dir_path', glob: 'include_pattern' } },
  WebFetch: { name: 'web_fetch' },
  WebSearch: { name: 'google_web_search' },
  TodoWrite: { name: 'write_todos' },
  Agent: { name: 'invoke_agent' },
  AskUserQuestion: { name: 'ask_user' },
  Skill: { name: 'activate_skill', args: { skill: 'name' } },
};

/** Gemini's name of a Hookwise tool: `Bash` → `run_shell_command`, `mcp__github__get_issue` → `mcp_github_get_issue`. */
export function geminiToolName(hookwiseName: string): string {
  const known = TOOLS[hookwiseName]?.name;
  if (known !== undefined) return known;
  const mcp = /^mcp__(.+?)__(.+)$/.exec(hookwiseName);
  return mcp ? `mcp_${mcp[1]}_${mcp[2]}` : hookwiseName;
}

/**
 * The arguments as Gemini names them. Read's `offset`/`limit` become Gemini's 1-based
 * `start_line`/`end_line`; the rest are renamed key by key.
 */
export function geminiToolArgs(toolName: string, args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (toolName === 'Read') {
    const { offset, limit, ...rest } = args;
    const out: Record<string, unknown> = { ...rest };
    if (typeof offset === 'number') out.start_line = offset;
    if (typeof limit === 'number') out.end_line = (typeof offset === 'number' ? offset : 1) + limit - 1;
    return out;
  }
  const renames = TOOLS[toolName]?.args;
  if (renames === undefined) return { ...args };
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [renames[k] ?? k, v]));
}

/** A Gemini hook's `tool_input` back in Hookwise's key names (the inverse of {@link geminiToolArgs}). */
export function hookwiseToolArgs(toolName: string, args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (toolName === 'Read') {
    const { start_line, end_line, ...rest } = args;
    const out: Record<string, unknown> = { ...rest };
    if (typeof start_line === 'number') out.offset = start_line;
    if (typeof end_line === 'number') out.limit = end_line - (typeof start_line === 'number' ? start_line : 1) + 1;
    return out;
  }
  const renames = TOOLS[toolName]?.args;
  if (renames === undefined) return { ...args };
  const back = Object.fromEntries(Object.entries(renames).map(([from, to]) => [to, from]));
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [back[k] ?? k, v]));
}

/** Hookwise's name of a Gemini tool name (the inverse of {@link geminiToolName}); an unknown name is kept. */
export function hookwiseToolName(geminiName: string): string {
  for (const [ours, tool] of Object.entries(TOOLS)) if (tool.name === geminiName) return ours;
  const mcp = /^mcp_([^_]+)_(.+)$/.exec(geminiName);
  return mcp ? `mcp__${mcp[1]}__${mcp[2]}` : geminiName;
}
