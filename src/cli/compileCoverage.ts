import type { AgentEvent } from '../agent/agentEvents';
import type { HookRunRecord } from '../hooks/hookRunTypes';

/**
 * What this headless run exercised, as keys naming code paths (`tool:Bash`, `hook:command`,
 * `event:PreToolUse`, `subagent`). The code cache (compileCache.ts) holds only the functions
 * compiled by the run that wrote it; a later run that reaches code the cache does not cover
 * compiles it lazily on every start (measured: ~36 ms of CPU per 10-call hooked session when
 * the cache came from an empty run). So the cache is rewritten once for each key it lacks.
 */
const keys = new Set<string>();

/** Keys per kind stay few, so the cache is rewritten a bounded number of times: MCP tools share one. */
function toolKey(toolName: string): string {
  return toolName.startsWith('mcp__') ? 'tool:mcp' : `tool:${toolName}`;
}

/** Records the code path an agent event shows. */
export function coverAgentEvent(event: AgentEvent): void {
  if (event.type === 'toolCall') keys.add(toolKey(event.toolName));
  else if (event.type === 'runStarted' && event.parentToolUseId !== undefined) keys.add('subagent');
}

/** Records the code paths a finished hook run went through: its action's kind and its event. */
export function coverHookRun(record: HookRunRecord): void {
  keys.add(`hook:${record.actionKind}`);
  keys.add(`event:${record.event}`);
}

/** The keys recorded so far, sorted (read by the code cache's writer at exit). */
export function compileCoverage(): readonly string[] {
  return [...keys].sort();
}
