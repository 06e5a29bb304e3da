/**
 * Which tools of `vscode.lm.tools` the agent is offered, and under which name. Pure functions
 * (no `vscode` import) so the rules are unit-tested; vscodeTools.ts applies them to the host.
 */
import { HOOKWISE_SETTINGS } from '../../settings/hookwiseSettingsSchema';

/** Prefix of every VS Code tool's name as the model, hooks and permission rules see it. */
export const VSCODE_TOOL_PREFIX = 'vscode__';

/** Longest tool name OpenAI-compatible endpoints accept. */
const MAX_TOOL_NAME = 64;

/**
 * The stable agent-side name of the VS Code tool `lmName`: `vscode__<lmName>`, with characters
 * outside `[A-Za-z0-9_-]` replaced by `_` and cut to 64 characters (what model endpoints accept).
 * E.g. `runTests` → `vscode__runTests`, `mcp_github_get_issue` → `vscode__mcp_github_get_issue`.
 */
export function agentToolName(lmName: string): string {
  return `${VSCODE_TOOL_PREFIX}${lmName.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, MAX_TOOL_NAME);
}

/** A tool in `vscode.lm.tools`, with the extension that contributes it when known. */
export interface LmToolEntry {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>> | undefined;
  readonly tags: readonly string[];
  /** `publisher.name` of the extension whose package.json declares the tool; undefined for VS Code's own and MCP tools. */
  readonly extensionId: string | undefined;
}

/** `hookwise.vscodeTools.enabled`: bounded list of patterns (a setting is outside input); the contributed setting's own schema. */
export const enabledPatternsSchema = HOOKWISE_SETTINGS['hookwise.vscodeTools.enabled'].schema;

/**
 * Whether a pattern enables `tool`. Patterns (case-insensitive):
 * - `publisher.extension/*` — every tool that extension declares in its package.json;
 * - `publisher.extension/toolName` — one tool of that extension;
 * - `toolName` — one tool by its name in `vscode.lm.tools` (the only way to name VS Code's own
 *   tools and the tools of MCP servers VS Code runs);
 * - `*` — every tool.
 */
export function patternEnables(pattern: string, tool: LmToolEntry): boolean {
  const p = pattern.trim().toLowerCase();
  const name = tool.name.toLowerCase();
  if (p === '*') return true;
  const slash = p.indexOf('/');
  if (slash < 0) return p === name || p === agentToolName(tool.name).toLowerCase();
  const ext = p.slice(0, slash);
  const rest = p.slice(slash + 1);
  if (tool.extensionId === undefined || tool.extensionId.toLowerCase() !== ext) return false;
  return rest === '*' || rest === name;
}

/**
 * The tools `patterns` enable, minus those `exclude` names (e.g. Hookwise's own tool, or tools
 * Hookwise already offers through its own MCP client), each once per agent-side name.
 */
export function selectLmTools(
  tools: readonly LmToolEntry[],
  patterns: readonly string[],
  exclude: (tool: LmToolEntry) => boolean = () => false,
): LmToolEntry[] {
  if (patterns.length === 0) return [];
  const seen = new Set<string>();
  const out: LmToolEntry[] = [];
  for (const tool of tools) {
    if (exclude(tool) || !patterns.some((p) => patternEnables(p, tool))) continue;
    const name = agentToolName(tool.name);
    if (seen.has(name)) continue;
    seen.add(name);
    out.push(tool);
  }
  return out;
}
