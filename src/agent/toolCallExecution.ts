import type { ModelToolCall } from '../model/modelClient';
import { emitSystemMessages } from './agentEvents';
import { settleProtectedChanges, watchProtected } from './protectedBackstop';
import type { PermittedCall } from './toolCallPermission';
import { verdictOf } from './toolCallScope';
import type { ToolCallOutcome, ToolCallScope, ToolInput } from './toolCallScope';
import type { AnyAgentTool, ToolResult } from './tools/tool';

/**
 * Runs a permitted call's tool, then PostToolUse (context, replace result, block) or
 * PostToolUseFailure. A write to the protected set that no person approved is caught after the
 * call by the backstop.
 */
export async function executeCall(call: ModelToolCall, tool: AnyAgentTool, permitted: PermittedCall, scope: ToolCallScope): Promise<ToolCallOutcome> {
  const { agent } = scope;
  const emit = scope.ctx.emit;
  const { input, shownInput, policy, verdict } = permitted;
  emit({ type: 'toolStatus', agent, toolUseId: call.id, status: 'running', input, ...(verdict ? { verdict } : {}) });
  // The backstop: a change to the protected set that no person approved is caught after the call
  // (a protected call that reached here was approved, by a person or a PermissionRequest hook).
  const watched = policy.behavior === 'ask' && policy.by === 'protected' ? undefined : watchProtected(scope.ctx, tool.readOnly);
  const started = Date.now();
  let result: ToolResult = await tool.execute(input, { ...scope.toolContext, signal: scope.signal, toolUseId: call.id });
  const durationMs = Date.now() - started;
  if (watched) {
    const note = await settleProtectedChanges(scope, watched, tool.name, input);
    if (note !== undefined) result = { ...result, content: `${result.content}\n\n${note}` };
  }
  // The transcript's toolUseResult, as Claude Code writes it.
  if (!result.isError) scope.ctx.parentTranscript?.noteToolResult(call.id, result.data);

  if (result.isError) {
    await postFailure(scope, tool.name, shownInput ?? input, call.id, result.content, durationMs, scope.signal.aborted);
    // A tool cut short by Stop did not fail: the person cancelled it.
    const status = scope.signal.aborted ? 'cancelled' : 'failed';
    emit({ type: 'toolStatus', agent, toolUseId: call.id, status, result: result.content, isError: true });
    return { content: result.content, isError: true };
  }

  const post = await scope.gate.run(
    'PostToolUse',
    scope.inputs.postToolUse(tool.name, shownInput ?? input, call.id, result.data ?? result.content, durationMs),
    scope.signal,
  );
  scope.context.collect(post, `PostToolUse:${tool.name}`);
  emitSystemMessages(emit, agent, post);
  let content = result.content;
  if (post.hasUpdatedResult) content = typeof post.updatedResult === 'string' ? post.updatedResult : replacementText(post.updatedResult, content);
  if (post.decision === 'deny' && post.reason)
    content += `\n\n<system-reminder>\nPostToolUse:${tool.name} hook blocking error: ${post.reason}\n</system-reminder>`;
  const postVerdict = post.decision === 'deny' || post.hasUpdatedResult ? verdictOf(post, 'PostToolUse') : verdict;
  emit({ type: 'toolStatus', agent, toolUseId: call.id, status: 'done', result: content, isError: false, ...(postVerdict ? { verdict: postVerdict } : {}) });
  return post.decision === 'stop'
    ? { content, isError: false, stopReason: post.reason ?? 'a PostToolUse hook stopped the agent' }
    : { content, isError: false };
}

async function postFailure(
  scope: ToolCallScope,
  toolName: string,
  input: ToolInput,
  toolUseId: string,
  error: string,
  durationMs: number,
  isInterrupt = false,
): Promise<void> {
  const result = await scope.gate.run(
    'PostToolUseFailure',
    scope.inputs.postToolUseFailure(toolName, input, toolUseId, error, durationMs, isInterrupt),
    scope.signal,
  );
  scope.context.collect(result, `PostToolUseFailure:${toolName}`);
  emitSystemMessages(scope.ctx.emit, scope.agent, result);
}

/** A PostToolUse replacement as text for the model; the tool's own text if it cannot be serialized. */
function replacementText(value: unknown, original: string): string {
  try {
    return JSON.stringify(value) ?? original;
  } catch {
    return original;
  }
}
