import { HookContext } from '../hooks/hookContext';
import type { HookEnvelope } from '../hooks/hookContext';
import type { HookEventResult } from '../hooks/hookRunTypes';
import type { AgentEventListener } from './agentEvents';
import { emitSystemMessages } from './agentEvents';
import { expandPrompt } from './commands/promptExpansion';
import type { SlashCommandSet } from './commands/slashCommands';
import type { RunContext } from './runContext';
import { MAIN } from './sessionHooks';
import type { SessionHookRun } from './sessionHooks';
import type { AnyAgentTool } from './tools/tool';
import type { TranscriptWriter } from './transcript';

/** A prompt after its hooks: dropped (with the reason the user was shown), or the text the model gets. */
export type PreparedPrompt =
  | { readonly kind: 'blocked'; readonly reason: string }
  | {
      readonly kind: 'ready';
      /** As typed, rewritten by a hook (`updatedInput.prompt`) or expanded from a slash command. */
      readonly prompt: string;
      /** UserPromptSubmit's result: its context goes to the model with the prompt. */
      readonly submitted: HookEventResult;
    };

/** What the session lends a prompt's preparation. */
export interface PromptPreparationDeps {
  readonly ctx: RunContext;
  readonly envelope: () => HookEnvelope;
  readonly tools: readonly AnyAgentTool[];
  readonly slashCommands?: (() => Promise<SlashCommandSet>) | undefined;
  readonly runHooks: SessionHookRun;
  readonly transcript: TranscriptWriter;
  readonly emit: AgentEventListener;
  readonly signal: AbortSignal;
}

/**
 * UserPromptSubmit for `prompt` (a block drops it and tells the user; in-process hooks may
 * rewrite it), then the expansion of a custom slash command (UserPromptExpansion may refuse it).
 * A dropped prompt is recorded in the transcript.
 */
export async function preparePrompt(prompt: string, d: PromptPreparationDeps): Promise<PreparedPrompt> {
  const submitted = await d.runHooks('UserPromptSubmit', HookContext.forUserPromptSubmit(d.envelope(), { prompt }), d.signal);
  emitSystemMessages(d.emit, MAIN, submitted);
  if (submitted.decision === 'deny' || submitted.decision === 'stop') {
    const reason = submitted.reason ?? 'blocked by a UserPromptSubmit hook';
    d.transcript.write({ type: 'prompt_blocked', agent_id: MAIN.agentId, prompt, reason });
    d.emit({
      type: 'systemMessage',
      agent: MAIN,
      text: `UserPromptSubmit operation blocked by hook:\n${reason}\n\nOriginal prompt: ${prompt}`,
      source: 'UserPromptSubmit',
    });
    return { kind: 'blocked', reason };
  }
  const rewritten = submitted.updatedInput?.prompt;
  let finalPrompt = typeof rewritten === 'string' ? rewritten : prompt;
  if (d.slashCommands && finalPrompt.trimStart().startsWith('/')) {
    const expanded = await expandPrompt(finalPrompt, {
      ctx: d.ctx,
      agent: MAIN,
      envelope: d.envelope(),
      tools: d.tools,
      commands: d.slashCommands,
      runHooks: (event, input, s) => d.runHooks(event, input, s),
      signal: d.signal,
    });
    if (expanded.kind === 'refused') {
      d.transcript.write({ type: 'prompt_blocked', agent_id: MAIN.agentId, prompt, reason: expanded.reason });
      d.emit({ type: 'systemMessage', agent: MAIN, text: expanded.reason, source: 'UserPromptExpansion' });
      return { kind: 'blocked', reason: expanded.reason };
    }
    if (expanded.kind === 'expanded') finalPrompt = expanded.prompt;
  }
  return { kind: 'ready', prompt: finalPrompt, submitted };
}
