import type { HookContextFields, HookEnvelope } from '../hooks/hookContext';
import { HookContext } from '../hooks/hookContext';
import type { AgentRef } from '../hooks/hookRunTypes';
import type { PermissionMode } from '../permissions/permissionMode';

/** What every hook input of one agent shares (docs/hooks.md §2). */
export interface AgentHookScope extends AgentRef {
  readonly sessionId: string;
  /** The session's transcript, for a subagent too (Claude Code's `transcript_path`). */
  readonly transcriptPath: string;
  readonly cwd: string;
  readonly permissionMode: PermissionMode;
  /** The id of the user prompt being answered now (`prompt_id`), read at each input built. */
  readonly promptId?: (() => string | undefined) | undefined;
  /** A subagent's own transcript (SubagentStop's `agent_transcript_path`). */
  readonly agentTranscriptPath?: string | undefined;
  /** The reasoning effort the model is called with (`effort.level`), when one is set. */
  readonly effort?: string | undefined;
}

type Input = Record<string, unknown>;

/**
 * The hook inputs of one agent, built with the engine's typed constructors (docs/hooks.md §2:
 * Claude Code's snake_case fields, `permission_mode` and `prompt_id` on every event,
 * `agent_id`/`agent_type` only inside a subagent, Hookwise's agent fields under `hookwise`),
 * so the loop never assembles a context by hand.
 */
export class HookInputs {
  private readonly env: HookEnvelope;
  private readonly agentTranscriptPath: string | undefined;

  /** The shared fields of this agent's inputs (src/agent/eventInputs.ts builds the 2026 events on it). */
  get envelope(): HookEnvelope {
    return this.env;
  }
  /** This agent's permission mode, as hook inputs carry it. */
  get permissionMode(): HookEnvelope['permission_mode'] {
    return this.env.permission_mode;
  }

  constructor(scope: AgentHookScope) {
    this.env = {
      session_id: scope.sessionId,
      transcript_path: scope.transcriptPath,
      cwd: scope.cwd,
      permission_mode: scope.permissionMode,
      agent_id: scope.agentId,
      parent_agent_id: scope.parentAgentId,
      agent_type: scope.agentType,
      prompt_id: scope.promptId,
      effort: scope.effort,
    };
    this.agentTranscriptPath = scope.agentTranscriptPath;
  }

  executionStart(prompt: string) {
    return HookContext.forExecutionStart(this.env, { prompt });
  }
  executionEnd(status: HookContextFields<'ExecutionEnd'>['status'], finalText: string, steps: number) {
    return HookContext.forExecutionEnd(this.env, { status, final_text: finalText, steps });
  }
  beforeStep(step: number, elapsedMs: number, totalTokens: number) {
    return HookContext.forBeforeStep(this.env, { step_index: step, elapsed_ms: elapsedMs, total_tokens: totalTokens });
  }
  afterStep(step: number, toolCalls: number, elapsedMs: number, totalTokens: number) {
    return HookContext.forAfterStep(this.env, {
      step_index: step,
      step_type: toolCalls > 0 ? 'tool_execution' : 'final_response',
      tool_calls: toolCalls,
      elapsed_ms: elapsedMs,
      total_tokens: totalTokens,
    });
  }
  beforeInference(step: number, messageCount: number) {
    return HookContext.forBeforeInference(this.env, { step_index: step, message_count: messageCount });
  }
  afterInference(step: number, text: string, toolCalls: readonly { id: string; name: string; arguments: string }[], finishReason: string) {
    return HookContext.forAfterInference(this.env, { step_index: step, assistant_text: text, tool_calls: [...toolCalls], finish_reason: finishReason });
  }
  agentFailed(error: string) {
    return HookContext.forAgentFailed(this.env, { error });
  }
  preToolUse(toolName: string, toolInput: Input, toolUseId: string) {
    return HookContext.forPreToolUse(this.env, { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId });
  }
  permissionRequest(toolName: string, toolInput: Input) {
    // Claude Code sends no tool_use_id here; the schema wants one, so it is empty.
    return HookContext.forPermissionRequest(this.env, { tool_name: toolName, tool_input: toolInput, tool_use_id: '' });
  }
  postToolUse(toolName: string, toolInput: Input, toolUseId: string, toolResponse: unknown, durationMs: number) {
    return HookContext.forPostToolUse(this.env, {
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: toolUseId,
      tool_response: toolResponse,
      duration_ms: durationMs,
    });
  }
  postToolUseFailure(toolName: string, toolInput: Input, toolUseId: string, error: string, durationMs: number, isInterrupt = false) {
    return HookContext.forPostToolUseFailure(this.env, {
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: toolUseId,
      error,
      duration_ms: durationMs,
      is_interrupt: isInterrupt,
    });
  }
  notification(message: string, notificationType: string) {
    return HookContext.forNotification(this.env, { message, notification_type: notificationType });
  }
  /** `error` (SubagentStop only): the subagent failed with it. */
  stop(event: 'Stop' | 'SubagentStop', stopHookActive: boolean, lastAssistantMessage: string, error?: string) {
    const fields = { stop_hook_active: stopHookActive, last_assistant_message: lastAssistantMessage };
    return event === 'Stop'
      ? HookContext.forStop(this.env, fields)
      : HookContext.forSubagentStop(this.env, {
          ...fields,
          ...(this.agentTranscriptPath !== undefined ? { agent_transcript_path: this.agentTranscriptPath } : {}),
          ...(error === undefined ? {} : { error }),
        });
  }
}
