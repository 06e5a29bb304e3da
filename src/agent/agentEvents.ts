import type { AgentRef, DecidedBy, HookEventResult } from '../hooks/hookRunTypes';

/** Status of one tool call card, as the chat shows it. */
/** `cancelled`: the person pressed Stop before the call ended (not a denial, not the tool's failure). */
export type ToolCallStatus = 'validating' | 'waiting-approval' | 'running' | 'done' | 'denied' | 'failed' | 'cancelled';

/** A hook's word on a tool call or prompt, for "Blocked by PreToolUse hook `…`: reason". */
export interface HookVerdict {
  readonly event: string;
  readonly decision: string;
  readonly reason?: string;
  readonly decidedBy?: DecidedBy;
}

/**
 * Everything an agent run reports while it runs, in order. The chat panel, the CLI's
 * stream-json output and the transcript subscribe. Hook runs are not agent events: the
 * runner reports them to its HookRunObservers (the Hook Runs tree, the CLI's hook_run lines). Listeners must be cheap and must not
 * throw (the loop guards anyway).
 */
export type AgentEvent =
  | { readonly type: 'runStarted'; readonly agent: AgentRef; readonly description?: string; readonly parentToolUseId?: string }
  | { readonly type: 'text'; readonly agent: AgentRef; readonly delta: string }
  /** Reasoning text the model streamed (display only: not part of the conversation). */
  | { readonly type: 'reasoning'; readonly agent: AgentRef; readonly delta: string }
  | { readonly type: 'assistantMessage'; readonly agent: AgentRef; readonly text: string; readonly step: number }
  | {
      readonly type: 'toolCall';
      readonly agent: AgentRef;
      readonly toolUseId: string;
      readonly toolName: string;
      readonly input: unknown;
      readonly summary: string;
    }
  | {
      readonly type: 'toolStatus';
      readonly agent: AgentRef;
      readonly toolUseId: string;
      readonly status: ToolCallStatus;
      /** Input actually used (after rewrites), result text, and who decided. */
      readonly input?: unknown;
      readonly result?: string;
      readonly isError?: boolean;
      readonly verdict?: HookVerdict;
    }
  | { readonly type: 'systemMessage'; readonly agent: AgentRef; readonly text: string; readonly source?: string }
  /** A model-level hook changed this step's model call; the front ends mark the reply it concerns (presentation/modelHookMarkerText.ts). */
  | { readonly type: 'modelHookMarker'; readonly agent: AgentRef; readonly marker: ModelHookMarker }
  | { readonly type: 'usage'; readonly agent: AgentRef; readonly inputTokens: number; readonly outputTokens: number }
  | { readonly type: 'runEnded'; readonly agent: AgentRef; readonly result: AgentRunResult };

/**
 * What a model-level hook did to one model call, for the mark on the reply: answered in the
 * model's place, redacted (replaced) the reply, or rewrote the request (`detail`: what changed,
 * as Hook Runs says it, e.g. `messages 42 → 12`).
 */
export interface ModelHookMarker {
  readonly kind: 'answered' | 'redacted' | 'requestChanged';
  /** The hook, as Hook Runs names it. */
  readonly hookLabel: string;
  readonly detail?: string;
}

/** How an agent run ended. */
export interface AgentRunResult {
  readonly status: 'completed' | 'stopped' | 'failed' | 'cancelled';
  /** The last assistant text (the final answer). */
  readonly finalText: string;
  /** Why it stopped / failed, shown to the user. */
  readonly reason?: string;
  readonly steps: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A sink for agent events. */
export type AgentEventListener = (event: AgentEvent) => void;

/**
 * Emits each `systemMessage` of an event's hooks as a `systemMessage` event of `agent`. A hook's
 * systemMessage is for the user only: shown in the chat / CLI, never sent to the model.
 */
export function emitSystemMessages(emit: AgentEventListener, agent: AgentRef, result: HookEventResult): void {
  for (const text of result.systemMessages) emit({ type: 'systemMessage', agent, text, source: result.event });
}
