import { closestName } from '../../configFiles/configDiagnostic';
import type { LoadedHook } from '../config/loadedHook';
import { compileFormatMatcher, hookFormatName } from '../formats/formatRegistry';
import type { FormatBinding, HookFormatId } from '../formats/hookFormat';
import { copilotToolName, isPascalBinding } from '../formats/copilot/copilotRuntime';
import { cursorToolName } from '../formats/cursor/cursorRuntime';
import { geminiToolName } from '../formats/gemini/geminiTools';
import { codexToolName } from '../formats/codex/codexTools';

/** A tool-name matcher finding in another agent's file, for hookLint.ts to place. */
export interface FormatMatcherFinding {
  readonly message: string;
  readonly suggestion?: string;
}

/**
 * The tools a Hookwise session calls, by Hookwise's names: what another agent's matcher is probed
 * with. Not Claude Code's wider list (hookLint.ts KNOWN_TOOL_NAMES): an unanchored Gemini `Bash`
 * would seem to select Claude's `BashOutput`, which no Hookwise session runs.
 */
const HOOKWISE_TOOLS: readonly string[] = [
  'Bash',
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'WebFetch',
  'WebSearch',
  'Agent',
  'Skill',
  'TodoWrite',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'AskUserQuestion',
];

/** Names shown in a message before `…`. */
const NAMES_SHOWN = 8;
/** An MCP tool as each agent names it: the probe that matchers on MCP names can select. */
const MCP_PROBE = 'mcp__server__tool';

/** Each agent's name of a Hookwise tool, for its matchers that test tool names. */
const TOOL_NAME: Readonly<Partial<Record<HookFormatId, (hookwiseName: string) => string>>> = {
  copilot: copilotToolName,
  cursor: cursorToolName,
  gemini: geminiToolName,
  codex: codexToolName,
};

/** True when the binding's matcher tests the tool's name (not a command text, a source, an agent type). */
function testsToolName(binding: FormatBinding): boolean {
  return binding.options?.matches === 'tool' || binding.options?.on === 'tool';
}

/**
 * A tool matcher of another agent's hook that selects none of the tools Hookwise runs, judged by
 * that agent's own matcher (its syntax, anchoring and tool names: Copilot `bash`, Gemini
 * `run_shell_command`), so the hook never runs. Said only where it is surely a mistake: a list of
 * plain names, each a Hookwise tool under another vocabulary's name (`Bash` in a Gemini file) or a
 * near miss of the agent's name (`bsh`); anything else may name a tool only that agent or an MCP
 * server has. Undefined: nothing to say.
 */
export function formatMatcherFinding(hook: LoadedHook): FormatMatcherFinding | undefined {
  const binding = hook.format?.binding;
  if (binding === undefined || binding.matcher === undefined || !testsToolName(binding)) return undefined;
  const names = binding.matcher.split('|');
  if (/mcp/i.test(binding.matcher) || !names.every((n) => /^[A-Za-z_][\w.-]*$/.test(n))) return undefined;
  const compiled = compileFormatMatcher(binding, hook.event);
  // An invalid matcher is the loader's error already.
  if (!compiled.ok) return undefined;
  const probes = [...HOOKWISE_TOOLS, MCP_PROBE];
  if (probes.some((name) => compiled.matcher.matches({ event: hook.event, input: { tool_name: name, tool_input: {} } }))) return undefined;
  const rename = binding.format === 'copilot' && isPascalBinding(binding) ? (n: string) => n : (TOOL_NAME[binding.format] ?? ((n: string) => n));
  const agentNames = [...new Set(HOOKWISE_TOOLS.map(rename))];
  const fixes = names.map((n) => (HOOKWISE_TOOLS.includes(n) ? rename(n) : closestName(n, agentNames)));
  if (fixes.every((f) => f === undefined)) return undefined;
  const suggestion = names.map((n, i) => fixes[i] ?? n).join('|');
  const shown = agentNames.slice(0, NAMES_SHOWN).join(', ') + (agentNames.length > NAMES_SHOWN ? ', …' : '');
  return {
    message: `matcher \`${binding.matcher}\` selects none of ${hookFormatName(binding.format)}'s tool names (${shown}), so this hook never runs — did you mean \`${suggestion}\`?`,
    suggestion,
  };
}
