import type { AgentRef } from '../hooks/hookRunTypes';
import type { PermissionMode } from './permissionMode';

/** What every hook input of one agent shares (spec §2). */
export interface AgentHookScope extends AgentRef {
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly cwd: string;
  readonly permissionMode: PermissionMode;
}

type Input = Record<string, unknown>;

/**
 * Builds the snake_case hook inputs of spec §2 for one agent, so the loop never assembles
 * one by hand. Tool events carry `permission_mode`; every event carries the agent ids.
 */
export class HookInputs {
  constructor(private readonly scope: AgentHookScope) {}

  private base(event: string): Input {
    const s = this.scope;
    return {
      session_id: s.sessionId,
      transcript_path: s.transcriptPath,
      cwd: s.cwd,
      hook_event_name: event,
      agent_id: s.agentId,
      parent_agent_id: s.parentAgentId,
      agent_type: s.agentType,
    };
  }

  private tool(event: string, toolName: string, toolInput: Input, toolUseId?: string): Input {
    const input = { ...this.base(event), permission_mode: this.scope.permissionMode, tool_name: toolName, tool_input: toolInput };
    return toolUseId === undefined ? input : { ...input, tool_use_id: toolUseId };
  }

  executionStart(prompt: string): Input {
    return { ...this.base('ExecutionStart'), prompt };
  }
  executionEnd(status: string, finalText: string, steps: number): Input {
    return { ...this.base('ExecutionEnd'), status, final_text: finalText, steps };
  }
  beforeStep(step: number, elapsedMs: number, totalTokens: number): Input {
    return { ...this.base('BeforeStep'), step, elapsed_ms: elapsedMs, total_tokens: totalTokens };
  }
  afterStep(step: number, toolCalls: number, elapsedMs: number, totalTokens: number): Input {
    return { ...this.base('AfterStep'), step, tool_calls: toolCalls, elapsed_ms: elapsedMs, total_tokens: totalTokens };
  }
  beforeInference(step: number, messageCount: number): Input {
    return { ...this.base('BeforeInference'), step, message_count: messageCount };
  }
  afterInference(step: number, text: string, toolCalls: readonly { id: string; name: string; arguments: string }[], finishReason: string): Input {
    return { ...this.base('AfterInference'), step, assistant_text: text, tool_calls: toolCalls, finish_reason: finishReason };
  }
  agentFailed(error: string): Input {
    return { ...this.base('AgentFailed'), error };
  }
  preToolUse(toolName: string, toolInput: Input, toolUseId: string): Input {
    return this.tool('PreToolUse', toolName, toolInput, toolUseId);
  }
  permissionRequest(toolName: string, toolInput: Input): Input {
    // Claude Code sends no tool_use_id here.
    return this.tool('PermissionRequest', toolName, toolInput);
  }
  postToolUse(toolName: string, toolInput: Input, toolUseId: string, toolResponse: unknown, durationMs: number): Input {
    return { ...this.tool('PostToolUse', toolName, toolInput, toolUseId), tool_response: toolResponse, duration_ms: durationMs };
  }
  postToolUseFailure(toolName: string, toolInput: Input, toolUseId: string, error: string, durationMs: number, isInterrupt = false): Input {
    return { ...this.tool('PostToolUseFailure', toolName, toolInput, toolUseId), error, duration_ms: durationMs, is_interrupt: isInterrupt };
  }
  notification(message: string, notificationType: string): Input {
    return { ...this.base('Notification'), message, notification_type: notificationType };
  }
  stop(event: 'Stop' | 'SubagentStop', stopHookActive: boolean, lastAssistantMessage: string): Input {
    return { ...this.base(event), permission_mode: this.scope.permissionMode, stop_hook_active: stopHookActive, last_assistant_message: lastAssistantMessage };
  }
}
