import type { AgentRef, HookEventResult } from '../hooks/hookRunTypes';
import type { ModelToolCall } from '../model/modelClient';
import type { HookVerdict } from './agentEvents';
import type { ContextBuffer } from './contextBuffer';
import type { HookInputs } from './hookInputs';
import type { PermissionGate } from './permissionGate';
import type { RunContext } from './runContext';
import type { AnyAgentTool, ToolContext } from './tools/tool';

/** What one tool call produced for the conversation, and whether the run must end. */
export interface ToolCallOutcome {
  readonly content: string;
  readonly isError: boolean;
  /** Set when a hook said stop (`continue: false`): the run ends with this reason. */
  readonly stopReason?: string;
  /** The model's input as the tool's schema parsed it (defaults filled), when it was valid: PostToolBatch's `tool_input`. */
  readonly input?: unknown;
}

/**
 * The run context plus what is the calling agent's own: its tools, hook inputs, gate and
 * context buffer. Every hook event of the call goes through `gate.run`, the agent's one route.
 */
export interface ToolCallScope {
  readonly ctx: RunContext;
  readonly agent: AgentRef;
  readonly tools: ReadonlyMap<string, AnyAgentTool>;
  readonly inputs: HookInputs;
  readonly gate: PermissionGate;
  readonly context: ContextBuffer;
  readonly toolContext: Omit<ToolContext, 'signal'>;
  readonly signal: AbortSignal;
}

/** A tool call's input, as validated (or rewritten) for its tool. */
export type ToolInput = Record<string, unknown>;

/** A call that did not run (or failed before its tool): the card shows it, the model gets `content` as an error. */
export function callFailed(
  scope: ToolCallScope,
  call: ModelToolCall,
  content: string,
  verdict?: HookVerdict,
  status: 'denied' | 'failed' | 'cancelled' = 'failed',
): ToolCallOutcome {
  scope.ctx.emit({ type: 'toolStatus', agent: scope.agent, toolUseId: call.id, status, result: content, isError: true, ...(verdict ? { verdict } : {}) });
  return { content, isError: true };
}

/** The verdict a card shows for an event's result. */
export function verdictOf(result: HookEventResult, event: string): HookVerdict {
  return {
    event,
    decision: result.decision ?? 'allow',
    ...(result.reason ? { reason: result.reason } : {}),
    ...(result.decidedBy ? { decidedBy: result.decidedBy } : {}),
  };
}
