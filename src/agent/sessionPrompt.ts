import { forEvent } from '../hooks/hookContext';
import type { HookEnvelope } from '../hooks/hookContext';
import type { HookEventResult } from '../hooks/hookRunTypes';
import type { AgentEventListener } from './agentEvents';
import type { LazyMemory } from './memory/lazyMemory';
import type { MemoryFile } from './memory/memoryFiles';
import { describeMemoryFile } from './memory/promptContext';
import { emitSystemMessages } from './agentEvents';
import { expandPrompt } from './commands/promptExpansion';
import type { SlashCommandSet } from './commands/slashCommands';
import type { RunContext } from './runContext';
import { MAIN } from './sessionHooks';
import type { SessionHookRun } from './sessionHooks';
import type { AnyAgentTool } from './tools/tool';
import type { TranscriptWriter } from './transcript';

/**
 * A prompt after its hooks: dropped (with the reason the user was shown and `blockedBy`, who
 * dropped it), or the text the model gets.
 */
export type PreparedPrompt =
  | { readonly kind: 'blocked'; readonly reason: string; readonly blockedBy: string }
  | {
      readonly kind: 'ready';
      /** As typed, rewritten by a hook (`updatedInput.prompt`) or expanded from a slash command. */
      readonly prompt: string;
      /** UserPromptSubmit's result: its context goes to the model with the prompt. */
      readonly submitted: HookEventResult;
      /** The files a slash command's `@path`s attached (absolute). */
      readonly files: readonly string[];
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
  const submitted = await d.runHooks('UserPromptSubmit', forEvent('UserPromptSubmit', d.envelope(), { prompt }), d.signal);
  emitSystemMessages(d.emit, MAIN, submitted);
  if (submitted.decision === 'deny' || submitted.decision === 'stop') {
    const reason = submitted.reason ?? 'blocked by a UserPromptSubmit hook';
    const blockedBy = promptSubmitBlocker(submitted);
    d.transcript.write({ type: 'prompt_blocked', agent_id: MAIN.agentId, prompt, reason });
    // Claude Code's words when the hook blocked; when it only asked, say who answered no.
    const heading = submitted.asked ? `Prompt not sent: blocked by ${blockedBy}` : 'UserPromptSubmit operation blocked by hook';
    d.emit({ type: 'systemMessage', agent: MAIN, text: `${heading}:\n${reason}\n\nOriginal prompt: ${prompt}`, source: 'UserPromptSubmit' });
    return { kind: 'blocked', reason, blockedBy };
  }
  const rewritten = submitted.updatedInput?.prompt;
  let finalPrompt = typeof rewritten === 'string' ? rewritten : prompt;
  let files: readonly string[] = [];
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
      return { kind: 'blocked', reason: expanded.reason, blockedBy: expanded.byHook ? 'a UserPromptExpansion hook' : 'its slash command' };
    }
    if (expanded.kind === 'expanded') {
      finalPrompt = expanded.prompt;
      files = expanded.files;
    }
  }
  return { kind: 'ready', prompt: finalPrompt, submitted, files };
}

/**
 * Who dropped a prompt at UserPromptSubmit: the hook itself, or — when a hook asked — the person
 * or the permission fallback that answered (a headless deny is the fallback's, not the hook's).
 */
function promptSubmitBlocker(submitted: HookEventResult): string {
  if (!submitted.asked) return 'a UserPromptSubmit hook';
  const by = submitted.decidedBy;
  if (by?.kind === 'user') return 'the user (a UserPromptSubmit hook asked)';
  if (by?.kind === 'fallback') return `the permission fallback (a UserPromptSubmit hook asked${by.detail ? `; ${by.detail}` : ''})`;
  if (by?.kind === 'hook') return `a PermissionRequest hook (${by.hookLabel}; a UserPromptSubmit hook asked)`;
  return 'a UserPromptSubmit hook';
}

/** Most attached files one prompt loads memory for (a prompt naming hundreds of files costs no more). */
export const MAX_ATTACHED_MEMORY_FILES = 32;

/** What loading the memory of a prompt's attached files needs from the session. */
export interface AttachedMemoryDeps {
  /** Absent when the session loads no memory at all. */
  readonly lazyMemory: LazyMemory | undefined;
  readonly emit: AgentEventListener;
  /** InstructionsLoaded for what loaded (observation only). */
  readonly instructionsLoaded: (files: readonly MemoryFile[], signal: AbortSignal) => Promise<void>;
  readonly signal: AbortSignal;
}

/**
 * The nested CLAUDE.md files and `paths:` rules that the files a prompt attaches (`@path` of a
 * slash command, a chat attachment) bring in, as Claude Code loads them for an `@`-mentioned
 * file just as for a read: each once per session, InstructionsLoaded for each. Returns the text
 * for the model (undefined when nothing new); problems are shown, never thrown.
 */
export async function attachedMemoryNote(files: readonly string[], d: AttachedMemoryDeps): Promise<string | undefined> {
  if (!d.lazyMemory || files.length === 0) return undefined;
  const loaded: MemoryFile[] = [];
  const notes: string[] = [];
  for (const file of [...new Set(files)].slice(0, MAX_ATTACHED_MEMORY_FILES)) {
    const touched = await d.lazyMemory.touch(file, d.signal);
    for (const problem of touched.problems) d.emit({ type: 'systemMessage', agent: MAIN, text: `Memory: ${problem}`, source: 'memory' });
    loaded.push(...touched.files);
    notes.push(...touched.notes);
  }
  await d.instructionsLoaded(loaded, d.signal);
  const withText = loaded.filter((f) => f.content.trim() !== '');
  const parts = [...withText.map(describeMemoryFile), ...notes];
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}
