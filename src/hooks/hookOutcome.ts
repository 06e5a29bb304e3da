import { z } from 'zod';
import type { HookToolConfig, LlmRequestPatch, LlmResponse } from './inputs/llmShapes';
import { hookToolConfigSchema, llmRequestPatchSchema, llmResponseSchema } from './inputs/llmShapes';
import { lazySchema } from '../shared/lazySchema';

/**
 * What one hook decided (docs/hooks.md §3). `undefined` decision = no opinion (proceed).
 * - `allow`: PreToolUse skips the approval; PermissionRequest approves.
 * - `deny`: block — PreToolUse denies the call, UserPromptSubmit drops the prompt,
 *   PostToolUse sends the reason to the model, SubagentStart refuses the spawn; on
 *   Stop/SubagentStop it means "do not stop" like `continue`.
 * - `ask`: a person must decide (the PermissionProvider); nothing bypasses it.
 * - `stop`: end the agent run now (`continue: false` in Claude's JSON), with `reason` shown.
 * - `continue`: Stop/SubagentStop only — force one more step, `reason` goes to the model.
 */
export type HookDecision = 'allow' | 'deny' | 'ask' | 'stop' | 'continue';

/** zod schema of a decision. */
export const hookDecisionSchema = lazySchema(() => z.enum(['allow', 'deny', 'ask', 'stop', 'continue']));

/** A message a hook appends to the conversation for the model's next call. */
export interface InjectedMessage {
  readonly role: 'user' | 'system';
  readonly content: string;
}

/**
 * One hook's result, as data. Hooks never replace the whole agent state (
 * option C): they may merge metadata, append messages, add context, and rewrite the
 * current tool input or result — nothing else.
 */
export interface HookOutcome {
  readonly decision?: HookDecision;
  /** Why: shown to the user, and to the model for deny/continue/PostToolUse blocks. */
  readonly reason?: string;
  /** Replacement keys for the tool input (merged per top-level key, later wins). */
  readonly updatedInput?: Readonly<Record<string, unknown>>;
  /** Replacement for the tool result (PostToolUse). */
  readonly updatedResult?: unknown;
  /** Text added to the model's context on its next call. */
  readonly additionalContext?: string;
  readonly messagesToInject?: readonly InjectedMessage[];
  /** Deep-merged into the run's metadata; a conflicting key is reported as a failure. */
  readonly metadataToMerge?: Readonly<Record<string, unknown>>;
  /** Shown to the user only, never to the model. */
  readonly systemMessage?: string;
  /** Hide this hook's stdout from the transcript view. */
  readonly suppressOutput?: boolean;
  /** BeforeInference: fields of the request to replace (Gemini's `hookSpecificOutput.llm_request`). */
  readonly llmRequest?: LlmRequestPatch;
  /**
   * BeforeInference: a reply in the model's place (the model is not called); AfterInference:
   * the reply that replaces the model's (Gemini's `hookSpecificOutput.llm_response`).
   */
  readonly llmResponse?: LlmResponse;
  /** BeforeToolSelection: the tools this call may offer (Gemini's `hookSpecificOutput.toolConfig`); only narrows. */
  readonly toolConfig?: HookToolConfig;
}

/** zod schema of an outcome, used to check what in-process callables return. */
export const hookOutcomeSchema = lazySchema(() =>
  z
    .object({
      decision: hookDecisionSchema.optional(),
      reason: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      updatedResult: z.unknown().optional(),
      additionalContext: z.string().optional(),
      messagesToInject: z.array(z.object({ role: z.enum(['user', 'system']), content: z.string() })).optional(),
      metadataToMerge: z.record(z.string(), z.unknown()).optional(),
      systemMessage: z.string().optional(),
      suppressOutput: z.boolean().optional(),
      llmRequest: llmRequestPatchSchema.optional(),
      llmResponse: llmResponseSchema.optional(),
      toolConfig: hookToolConfigSchema.optional(),
    })
    .strict(),
);

const PROCEED: HookOutcome = Object.freeze({});

/** No opinion: the agent proceeds as it would without this hook. */
export function proceed(): HookOutcome {
  return PROCEED;
}

/** Explicitly allow (PreToolUse: skip the approval popup). */
export function allow(reason?: string): HookOutcome {
  return reason === undefined ? { decision: 'allow' } : { decision: 'allow', reason };
}

/** Block the action; the reason goes to the model (tool calls) or the user (prompts). */
export function block(reason: string): HookOutcome {
  return { decision: 'deny', reason };
}

/** End the agent run now; the reason is shown to the user. */
export function stop(reason: string): HookOutcome {
  return { decision: 'stop', reason };
}

/** Ask a person (modal popup in VS Code, the terminal in the CLI, the ask fallback when nobody can answer). */
export function ask(reason: string): HookOutcome {
  return { decision: 'ask', reason };
}

/** Stop/SubagentStop: do not finish yet; the reason tells the model what is left to do. */
export function continueWith(reason: string): HookOutcome {
  return { decision: 'continue', reason };
}

/** Rewrite some keys of the tool input; later tiers and the tool see the rewrite. */
export function modifyInput(updatedInput: Record<string, unknown>, decision?: 'allow' | 'ask'): HookOutcome {
  return decision === undefined ? { updatedInput } : { updatedInput, decision };
}

/** Replace the tool result the model sees (PostToolUse). */
export function modifyResult(updatedResult: unknown): HookOutcome {
  return { updatedResult };
}

/** BeforeInference: rewrite fields of the request (messages replace the whole list). */
export function rewriteRequest(llmRequest: LlmRequestPatch): HookOutcome {
  return { llmRequest };
}

/** BeforeInference: answer in the model's place; AfterInference: replace the model's reply. */
export function respondWith(llmResponse: LlmResponse): HookOutcome {
  return { llmResponse };
}

/** BeforeToolSelection: offer only these tools on this call (never more than rules and mode allow). */
export function selectTools(allowedFunctionNames: readonly string[], mode?: HookToolConfig['mode']): HookOutcome {
  return { toolConfig: mode === undefined ? { allowedFunctionNames: [...allowedFunctionNames] } : { mode, allowedFunctionNames: [...allowedFunctionNames] } };
}

/** Add text to the model's context on its next call. */
export function addContext(additionalContext: string): HookOutcome {
  return { additionalContext };
}

/**
 * Rank used when merging decisions: stop > deny > ask > continue > allow > none.
 * `continue:false` beats a Stop block (Claude Code), deny beats ask beats allow.
 */
export function decisionRank(decision: HookDecision | undefined): number {
  switch (decision) {
    case 'stop':
      return 5;
    case 'deny':
      return 4;
    case 'ask':
      return 3;
    case 'continue':
      return 2;
    case 'allow':
      return 1;
    default:
      return 0;
  }
}
