import type { HookContextFields, HookContextMap, HookEnvelope } from '../hooks/hookContext';
import { forEvent } from '../hooks/hookContext';
import type { HookEvent } from '../hooks/hookEvent';
import type { AgentRef } from '../hooks/hookRunTypes';
import type { LlmRequestInput, LlmResponseInput } from '../hooks/inputs/loopEventSchemas';
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
  /**
   * The reasoning effort the model is called with (`effort.level`), when one is set; sent on
   * tool-use events only. Unset (no effort known for the model): no `effort` key, as Claude
   * Code does for a model that takes no effort parameter.
   */
  readonly effort?: string | undefined;
}

/**
 * An envelope already built (an agent's {@link HookInputs}, or one from outside the loop).
 * `permissionMode`, when given, is the mode PostToolBatch and PermissionDenied report in
 * their own `permission_mode` field (default: the envelope's).
 */
export interface HookEnvelopeSource {
  readonly envelope: HookEnvelope;
  readonly permissionMode?: HookEnvelope['permission_mode'];
  readonly agentTranscriptPath?: string | undefined;
}

type Input = Record<string, unknown>;

/** One call of a PostToolBatch's `tool_calls`, in the order the model wrote them. */
export interface BatchToolCall {
  readonly tool_name: string;
  readonly tool_input: unknown;
  readonly tool_use_id: string;
  readonly tool_response?: unknown;
}

/** The envelope of an agent's inputs, from its scope: the one place it is assembled. */
function envelopeOf(scope: AgentHookScope | HookEnvelopeSource): HookEnvelope {
  if ('envelope' in scope) return scope.envelope;
  return {
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
}

/**
 * The hook inputs of one agent, built on one envelope with the engine's typed builder
 * (docs/hooks.md §2: Claude Code's snake_case fields, `permission_mode` and `prompt_id` on
 * every event, `agent_id`/`agent_type` only inside a subagent, Hookwise's agent fields under
 * `hookwise`), so the loop never assembles a context by hand. Grouped by concept: the run
 * and its steps, how it stops, tool calls, the agent's surroundings.
 */
export class HookInputs {
  private readonly env: HookEnvelope;
  private readonly mode: NonNullable<HookEnvelope['permission_mode']>;
  private readonly agentTranscript: string | undefined;

  constructor(scope: AgentHookScope | HookEnvelopeSource) {
    this.env = envelopeOf(scope);
    this.mode = ('envelope' in scope ? scope.permissionMode : undefined) ?? this.env.permission_mode ?? 'default';
    this.agentTranscript = scope.agentTranscriptPath;
  }

  /** The shared fields of this agent's inputs. */
  get envelope(): HookEnvelope {
    return this.env;
  }
  /** This agent's permission mode, as hook inputs carry it. */
  get permissionMode(): HookEnvelope['permission_mode'] {
    return this.env.permission_mode;
  }

  /** Any event from its own fields. */
  event<E extends HookEvent>(event: E, fields: HookContextFields<E>): HookContextMap[E] {
    return forEvent<HookEvent>(event, this.env, fields) as HookContextMap[E];
  }
  /** The same inputs with another `cwd` (CwdChanged and later events see the new directory). */
  withCwd(cwd: string): HookInputs {
    return new HookInputs({ envelope: { ...this.env, cwd }, permissionMode: this.mode, agentTranscriptPath: this.agentTranscript });
  }

  // The run and its steps.
  executionStart(prompt: string) {
    return forEvent('ExecutionStart', this.env, { prompt });
  }
  executionEnd(status: HookContextFields<'ExecutionEnd'>['status'], finalText: string, steps: number) {
    return forEvent('ExecutionEnd', this.env, { status, final_text: finalText, steps });
  }
  beforeStep(step: number, elapsedMs: number, totalTokens: number) {
    return forEvent('BeforeStep', this.env, { step_index: step, elapsed_ms: elapsedMs, total_tokens: totalTokens });
  }
  afterStep(step: number, toolCalls: number, elapsedMs: number, totalTokens: number) {
    return forEvent('AfterStep', this.env, {
      step_index: step,
      step_type: toolCalls > 0 ? 'tool_execution' : 'final_response',
      tool_calls: toolCalls,
      elapsed_ms: elapsedMs,
      total_tokens: totalTokens,
    });
  }
  /** `request` only when a hook will read it (built lazily by the caller). */
  beforeInference(step: number, messageCount: number, model?: string, request?: LlmRequestInput) {
    return forEvent('BeforeInference', this.env, { step_index: step, message_count: messageCount, model, llm_request: request });
  }
  beforeToolSelection(step: number, model: string, request: LlmRequestInput) {
    return forEvent('BeforeToolSelection', this.env, { step_index: step, model, llm_request: request });
  }
  /** `model` on: the request and reply in Gemini's shapes (when a hook reads them), and who answered in the model's place. */
  afterInference(
    step: number,
    text: string,
    toolCalls: readonly { id: string; name: string; arguments: string }[],
    finishReason: string,
    model?: { readonly name: string; readonly request?: LlmRequestInput; readonly response?: LlmResponseInput; readonly answeredBy?: string },
  ) {
    return forEvent('AfterInference', this.env, {
      step_index: step,
      assistant_text: text,
      tool_calls: [...toolCalls],
      finish_reason: finishReason,
      model: model?.name,
      llm_request: model?.request,
      llm_response: model?.response,
      answered_by_hook: model?.answeredBy,
    });
  }
  messageDisplay(turnId: string, messageId: string, index: number, final: boolean, delta: string) {
    return forEvent('MessageDisplay', this.env, { turn_id: turnId, message_id: messageId, index, final, delta });
  }

  // How the run stops or fails.
  /** `error` (SubagentStop only): the subagent failed with it. */
  stop(event: 'Stop' | 'SubagentStop', stopHookActive: boolean, lastAssistantMessage: string, error?: string) {
    // Hookwise runs no background tasks and no crons: always Claude Code's idle value.
    const idle = { background_tasks: [], session_crons: [] };
    return event === 'Stop'
      ? forEvent('Stop', this.env, { stop_hook_active: stopHookActive, last_assistant_message: lastAssistantMessage, ...idle })
      : forEvent('SubagentStop', this.env, {
          stop_hook_active: stopHookActive,
          ...(this.agentTranscript !== undefined ? { agent_transcript_path: this.agentTranscript } : {}),
          last_assistant_message: lastAssistantMessage,
          ...idle,
          ...(error === undefined ? {} : { error }),
        });
  }
  stopFailure(error: HookContextFields<'StopFailure'>['error'], details: string, lastAssistantMessage: string) {
    return forEvent('StopFailure', this.env, {
      error,
      error_details: details,
      ...(lastAssistantMessage !== '' ? { last_assistant_message: lastAssistantMessage } : {}),
    });
  }
  agentFailed(error: string) {
    return forEvent('AgentFailed', this.env, { error });
  }

  // Tool calls.
  preToolUse(toolName: string, toolInput: Input, toolUseId: string) {
    return forEvent('PreToolUse', this.env, { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId });
  }
  permissionRequest(toolName: string, toolInput: Input) {
    // Claude Code sends no tool_use_id here; the schema wants one, so it is empty.
    return forEvent('PermissionRequest', this.env, { tool_name: toolName, tool_input: toolInput, tool_use_id: '' });
  }
  permissionDenied(toolName: string, toolInput: Input, toolUseId: string, reason: string) {
    return forEvent('PermissionDenied', this.env, { permission_mode: this.mode, tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId, reason });
  }
  postToolUse(toolName: string, toolInput: Input, toolUseId: string, toolResponse: unknown, durationMs: number) {
    return forEvent('PostToolUse', this.env, {
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: toolUseId,
      tool_response: toolResponse,
      duration_ms: durationMs,
    });
  }
  postToolUseFailure(toolName: string, toolInput: Input, toolUseId: string, error: string, durationMs: number, isInterrupt = false) {
    return forEvent('PostToolUseFailure', this.env, {
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: toolUseId,
      error,
      duration_ms: durationMs,
      is_interrupt: isInterrupt,
    });
  }
  postToolBatch(toolCalls: readonly BatchToolCall[]) {
    return forEvent('PostToolBatch', this.env, { permission_mode: this.mode, tool_calls: [...toolCalls] });
  }

  // The agent's surroundings.
  notification(message: string, notificationType: string) {
    return forEvent('Notification', this.env, { message, notification_type: notificationType });
  }
  cwdChanged(oldCwd: string, newCwd: string) {
    return forEvent('CwdChanged', this.env, { old_cwd: oldCwd, new_cwd: newCwd });
  }
  task(event: 'TaskCreated' | 'TaskCompleted', id: string, subject: string, description: string | undefined) {
    return forEvent(event, this.env, { task_id: id, task_subject: subject, ...(description !== undefined ? { task_description: description } : {}) });
  }
}
