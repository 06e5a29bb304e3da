/** Longest tool name the model APIs accept (OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`). */
export const MAX_TOOL_NAME = 64;

/** A server's name as it appears in tool names: characters outside `[a-zA-Z0-9_-]` become `_` (as Claude Code does). */
export function normalizeNamePart(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned === '' ? '_' : cleaned;
}

/** One tool to name: its server and its name on that server. */
export interface McpToolKey {
  readonly server: string;
  readonly tool: string;
}

/**
 * Gives every server tool its model-facing name `mcp__<server>__<tool>`, normalised to the
 * model APIs' alphabet and length. Deterministic: keys are named in the order given (the
 * manager passes servers sorted by name, each server's tools in its listed order); a name
 * already taken, by normalisation or by cutting to 64 characters, gets `_2`, `_3`… in place
 * of its last characters. Returns the names in the order of `keys`.
 */
export function assignToolNames(keys: readonly McpToolKey[], taken: ReadonlySet<string> = new Set()): string[] {
  const used = new Set(taken);
  return keys.map((key) => {
    const full = `mcp__${normalizeNamePart(key.server)}__${normalizeNamePart(key.tool)}`;
    let name = full.slice(0, MAX_TOOL_NAME);
    for (let n = 2; used.has(name); n++) {
      const suffix = `_${n}`;
      name = `${full.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
    }
    used.add(name);
    return name;
  });
}

/** `mcp__github__create_issue` → `{server: 'github', tool: 'create_issue'}`; undefined for any other name. */
export function mcpToolParts(toolName: string): McpToolKey | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(toolName);
  return match ? { server: match[1] as string, tool: match[2] as string } : undefined;
}
