import type { ModelToolCall } from '../model/modelClient';
import { parseBoundedJson, type BoundedJsonResult } from '../shared/boundedJson';
import { executeCall } from './toolCallExecution';
import { permitCall } from './toolCallPermission';
import { callFailed } from './toolCallScope';
import type { ToolCallOutcome, ToolCallScope, ToolInput } from './toolCallScope';
import type { AnyAgentTool } from './tools/tool';
import { validateToolInput } from './tools/validateToolInput';

/**
 * Runs one tool call through the skeleton: parse + validate (no hooks for invalid input) →
 * PreToolUse (deny / ask / allow / rewrite) → permission policy and asks → the tool →
 * PostToolUse (context, replace result, block) or PostToolUseFailure. Never throws. A call
 * that was denied (by a hook, a rule, the mode or a person) never ran: no PostToolUseFailure
 * fires for it, as in Claude Code.
 */
export async function runToolCall(call: ModelToolCall, scope: ToolCallScope): Promise<ToolCallOutcome> {
  const tool = scope.tools.get(call.name);
  const rawInput =
    call.argumentsError !== undefined ? ({ ok: false, problem: 'depth', error: call.argumentsError } as const) : parseArguments(call.argumentsText);
  scope.ctx.emit({
    type: 'toolCall',
    agent: scope.agent,
    toolUseId: call.id,
    toolName: call.name,
    input: rawInput.ok ? rawInput.value : call.argumentsText,
    summary: tool && rawInput.ok ? safeSummary(tool, rawInput.value) : call.name,
  });
  if (!tool) return callFailed(scope, call, `Unknown tool "${call.name}". Available tools: ${[...scope.tools.keys()].join(', ')}.`);
  if (!rawInput.ok) {
    if (rawInput.problem !== 'syntax')
      return callFailed(scope, call, `${call.name}: ${rawInput.error}. Send the call again with arguments as a flat JSON object.`);
    return callFailed(scope, call, `${call.name}: the arguments are not valid JSON (${rawInput.error}). Send the call again with a valid JSON object.`);
  }
  const validated = validateToolInput(tool, rawInput.value);
  if (!validated.ok) return callFailed(scope, call, validated.error);
  const permitted = await permitCall(call, tool, validated.input as ToolInput, scope);
  const outcome = permitted.kind === 'refused' ? permitted.outcome : await executeCall(call, tool, permitted, scope);
  return { ...outcome, input: validated.input };
}

/**
 * The model's arguments text, parsed with a depth limit: a value thousands of levels deep
 * parses, but overflows the stack wherever it is serialized again (events, transcript,
 * hook input), which ended the run. Errors read "tool arguments nested
 * deeper than 64 levels".
 */
function parseArguments(text: string): BoundedJsonResult {
  if (text.trim() === '') return { ok: true, value: {} };
  const parsed = parseBoundedJson(text);
  return parsed.ok || parsed.problem === 'syntax' ? parsed : { ...parsed, error: `tool arguments ${parsed.error}` };
}

function safeSummary(tool: AnyAgentTool, raw: unknown): string {
  const parsed = tool.inputSchema.safeParse(raw);
  return parsed.success ? tool.summarize(parsed.data) : tool.name;
}
