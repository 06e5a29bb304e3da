import type { HookContextFields, HookContextMap, HookEnvelope, PermissionMode } from '../hooks/hookContext';
import { forEvent } from '../hooks/hookContext';
import type { HookEvent } from '../hooks/hookEvent';
import type { HookInputs } from './hookInputs';

type Input = Record<string, unknown>;

/** One call of a PostToolBatch's `tool_calls`, in the order the model wrote them. */
export interface BatchToolCall {
  readonly tool_name: string;
  readonly tool_input: unknown;
  readonly tool_use_id: string;
  readonly tool_response?: unknown;
}

/**
 * Builders of the inputs of Claude Code's 2026 events (docs/hooks.md §2), on the same
 * envelope as the agent's {@link HookInputs}, with Claude Code's field names.
 */
export class EventInputs {
  private readonly env: HookEnvelope;
  private readonly mode: PermissionMode;

  constructor(inputs: HookInputs | { readonly envelope: HookEnvelope; readonly permissionMode: PermissionMode }) {
    this.env = inputs.envelope;
    this.mode = inputs.permissionMode ?? 'default';
  }

  /** Any of the 2026 events from its own fields. */
  event<E extends HookEvent>(event: E, fields: HookContextFields<E>): HookContextMap[E] {
    return forEvent(event, this.env, fields);
  }
  /** The same input with another `cwd` (CwdChanged and later events see the new directory). */
  withCwd(cwd: string): EventInputs {
    return new EventInputs({ envelope: { ...this.env, cwd }, permissionMode: this.mode });
  }
  postToolBatch(toolCalls: readonly BatchToolCall[]) {
    return forEvent('PostToolBatch', this.env, { permission_mode: this.mode, tool_calls: [...toolCalls] });
  }
  permissionDenied(toolName: string, toolInput: Input, toolUseId: string, reason: string) {
    return forEvent('PermissionDenied', this.env, { permission_mode: this.mode, tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId, reason });
  }
  stopFailure(error: HookContextFields<'StopFailure'>['error'], details: string, lastAssistantMessage: string) {
    return forEvent('StopFailure', this.env, {
      error,
      error_details: details,
      ...(lastAssistantMessage !== '' ? { last_assistant_message: lastAssistantMessage } : {}),
    });
  }
  cwdChanged(oldCwd: string, newCwd: string) {
    return forEvent('CwdChanged', this.env, { old_cwd: oldCwd, new_cwd: newCwd });
  }
  task(event: 'TaskCreated' | 'TaskCompleted', id: string, subject: string, description: string | undefined) {
    return forEvent(event, this.env, { task_id: id, task_subject: subject, ...(description !== undefined ? { task_description: description } : {}) });
  }
  messageDisplay(turnId: string, messageId: string, index: number, final: boolean, delta: string) {
    return forEvent('MessageDisplay', this.env, { turn_id: turnId, message_id: messageId, index, final, delta });
  }
}
