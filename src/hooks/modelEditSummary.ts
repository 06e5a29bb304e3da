import type { HookEvent } from './hookEvent';
import type { HookOutcome } from './hookOutcome';
import { llmResponseText } from './inputs/llmShapes';

type Input = Readonly<Record<string, unknown>>;

function arrayLength(value: unknown): number | undefined {
  return Array.isArray(value) ? value.length : undefined;
}

/** The request a model-level input carries (`llm_request`), loosely read: the summary never fails. */
function requestOf(input: Input): { messages?: number; tools?: readonly string[]; model?: string } {
  const request = input['llm_request'];
  if (request === null || typeof request !== 'object') return {};
  const r = request as Record<string, unknown>;
  const names = (r['toolConfig'] as { allowedFunctionNames?: unknown } | undefined)?.allowedFunctionNames;
  const messages = arrayLength(r['messages']);
  return {
    ...(messages !== undefined ? { messages } : {}),
    ...(Array.isArray(names) ? { tools: names.filter((n): n is string => typeof n === 'string') } : {}),
    ...(typeof r['model'] === 'string' ? { model: r['model'] } : {}),
  };
}

function toolsChange(offered: readonly string[] | undefined, allowed: readonly string[] | undefined, mode: string | undefined): string | undefined {
  if (offered === undefined) return undefined;
  if (mode === 'NONE') return `tools ${offered.length} → 0`;
  if (allowed === undefined || allowed.length === 0) return mode === 'ANY' ? 'a tool call required' : undefined;
  const kept = offered.filter((name) => allowed.includes(name)).length;
  return `tools ${offered.length} → ${kept}`;
}

function requestChanges(input: Input, outcome: HookOutcome): string[] {
  const before = requestOf(input);
  const changes: string[] = [];
  const patch = outcome.llmRequest;
  if (patch?.model !== undefined && patch.model !== before.model) changes.push(`model ${before.model ?? '?'} → ${patch.model}`);
  if (patch?.messages !== undefined) changes.push(`messages ${before.messages ?? '?'} → ${patch.messages.length}`);
  if (patch?.config?.systemInstruction !== undefined) changes.push('system prompt rewritten');
  const settings = Object.keys(patch?.config ?? {}).filter((k) => k !== 'systemInstruction');
  if (settings.length > 0) changes.push(`settings: ${settings.join(', ')}`);
  const tools = patch?.toolConfig ? toolsChange(before.tools, patch.toolConfig.allowedFunctionNames, patch.toolConfig.mode) : undefined;
  if (tools !== undefined) changes.push(tools);
  if (outcome.llmResponse !== undefined) changes.push('answered without the model');
  return changes;
}

function replyChanges(input: Input, outcome: HookOutcome): string[] {
  const changes: string[] = [];
  const reply = outcome.llmResponse;
  if (reply !== undefined) {
    const original = input['llm_response'] as { text?: unknown; tool_calls?: unknown } | undefined;
    if (llmResponseText(reply) !== original?.text) changes.push('reply redacted');
    const before = arrayLength(original?.tool_calls);
    if (reply.tool_calls !== undefined) changes.push(`tool calls ${before ?? '?'} → ${reply.tool_calls.length}`);
  }
  if (outcome.decision === 'deny') changes.push('reply sent back to the model');
  return changes;
}

/**
 * What a model-level hook's outcome changes, for Hook Runs: "messages 42 → 12", "tools 18 →
 * 5", "answered without the model", "reply redacted". Undefined for other events or no change.
 * What the agent then could not use is reported by it, naming the hook.
 */
export function describeModelEdit(event: HookEvent, input: Input, outcome: HookOutcome): string | undefined {
  let changes: string[] = [];
  if (event === 'BeforeInference') changes = requestChanges(input, outcome);
  else if (event === 'AfterInference') changes = replyChanges(input, outcome);
  else if (event === 'BeforeToolSelection' && outcome.toolConfig !== undefined) {
    const tools = toolsChange(requestOf(input).tools, outcome.toolConfig.allowedFunctionNames, outcome.toolConfig.mode);
    if (tools !== undefined) changes.push(tools);
  }
  return changes.length > 0 ? changes.join(', ') : undefined;
}
