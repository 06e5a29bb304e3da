import type { ModelClient } from '../model/modelClient';
import { forEvent } from '../hooks/hookContext';
import type { HookEnvelope } from '../hooks/hookContext';
import { thrownMessage } from '../shared/describeThrown';
import type { AgentEventListener } from './agentEvents';
import { emitSystemMessages } from './agentEvents';
import type { CheckpointStore } from './checkpoints/checkpointStore';
import { compactionCut, estimateTokens, summarize } from './compaction';
import type { Summarizer } from './compaction';
import { autoCompactThreshold } from './contextWindow';
import { compactionNote } from './compactionNote';
import { BUILTIN_COMPACTION, COMPACTION_OFF_REASON } from './compactionProvider';
import type { ActiveCompaction } from './compactionProvider';
import type { Conversation } from './conversation';
import { contextNote } from './sessionContextNote';
import { MAIN } from './sessionHooks';
import type { SessionHookRun } from './sessionHooks';
import type { TranscriptWriter } from './transcript';

/** What a compaction did. */
export type CompactionResult =
  | { readonly status: 'compacted'; readonly summarized: number; readonly kept: number; readonly summary: string }
  | { readonly status: 'skipped'; readonly reason: string };

/** What the session lends its compaction (it stays the owner of all of it). */
export interface SessionCompactionDeps {
  readonly conversation: Conversation;
  readonly checkpoints: CheckpointStore;
  readonly transcript: TranscriptWriter;
  readonly model: ModelClient;
  readonly modelName?: string | undefined;
  readonly emit: AgentEventListener;
  /** Compact automatically above this many estimated tokens; 0 = only at the window's threshold. */
  readonly budgetTokens: number;
  /** The model's context window: over its threshold (contextWindow.ts) the conversation is compacted before the next call. */
  readonly contextWindow: number;
  /** `CLAUDE_ENV_FILE` for the SessionStart `compact` hooks. */
  readonly envFile: string;
  readonly envelope: () => HookEnvelope;
  readonly runHooks: SessionHookRun;
  /** The compaction provider in effect (compactionProvider.ts); undefined = none installed. Absent = always the built-in. */
  readonly active?: () => ActiveCompaction | undefined;
}

const BUILTIN: ActiveCompaction = Object.freeze({ name: BUILTIN_COMPACTION });

/**
 * A session's compaction, manual (`/compact`) and automatic (before a model call, over the
 * window's threshold or the budget; and when the model refuses a prompt as too long): PreCompact, the model's summary replacing older turns, PostCompact and SessionStart
 * `compact`. Keeps the prompt tokens the model last reported, which the automatic one measures.
 */
export class SessionCompaction {
  /** Estimated message tokens right after the last auto compaction: the next one waits for the messages to grow. */
  private stillOverAfterCompaction: number | undefined;
  /** Prompt tokens the model last reported, and the conversation length then. */
  private reportedPrompt: { readonly tokens: number; readonly messages: number } | undefined;

  constructor(private readonly d: SessionCompactionDeps) {}

  /** The model's own count of the main agent's prompt: what auto-compaction measures (the estimate only fills in the messages since). */
  noteUsage(inputTokens: number): void {
    this.reportedPrompt = { tokens: inputTokens, messages: this.d.conversation.length };
  }

  /**
   * Compacts the conversation: PreCompact hooks run (their plain stdout is added
   * to the instructions; a block skips compaction), older turns are summarized by the model
   * and replaced by the summary (`summarizer`'s, default the model's), and SessionStart fires with `source: compact`.
   */
  async compact(trigger: 'manual' | 'auto', signal: AbortSignal, customInstructions?: string, summarizer?: Summarizer): Promise<CompactionResult> {
    const { conversation, emit, runHooks } = this.d;
    const pre = await runHooks('PreCompact', forEvent('PreCompact', this.d.envelope(), { trigger, custom_instructions: customInstructions ?? null }), signal);
    emitSystemMessages(emit, MAIN, pre);
    if (pre.decision === 'deny' || pre.decision === 'stop') {
      const reason = `compaction blocked by a PreCompact hook${pre.reason ? `: ${pre.reason}` : ''}`;
      emit({ type: 'systemMessage', agent: MAIN, text: reason, source: 'PreCompact' });
      return { status: 'skipped', reason };
    }
    const messages = conversation.messages;
    const cut = compactionCut(messages);
    if (cut === 0) return { status: 'skipped', reason: 'the conversation is too short to compact' };
    const instructions = [...(customInstructions ? [customInstructions] : []), ...pre.plainOutputs, ...pre.additionalContext];
    const older = messages.slice(0, cut);
    const summary = summarizer
      ? (await summarizer(older, instructions, signal)).trim()
      : await summarize(this.d.model, older, instructions, signal, this.d.modelName);
    // A replacement summarizer that gives nothing must not wipe the older turns.
    if (summarizer && summary === '') throw new Error('the summarizer returned an empty summary; the conversation was left as it was');
    const kept = messages.length - cut;
    conversation.replacePrefix([{ role: 'user', content: compactionNote(summary) }], kept);
    this.d.checkpoints.noteCompaction();
    this.d.transcript.write({ type: 'compaction', agent_id: MAIN.agentId, trigger, summary, kept, summarized: cut });
    emit({
      type: 'systemMessage',
      agent: MAIN,
      text: `Conversation compacted (${trigger}): ${cut} messages summarized, ${kept} kept.`,
      source: 'PreCompact',
    });
    this.reportedPrompt = undefined;
    const post = await runHooks('PostCompact', forEvent('PostCompact', this.d.envelope(), { trigger, compact_summary: summary }), signal);
    emitSystemMessages(emit, MAIN, post);
    const started = await runHooks('SessionStart', forEvent('SessionStart', this.d.envelope(), { source: 'compact', model: this.d.model.label }), signal, {
      CLAUDE_ENV_FILE: this.d.envFile,
    });
    emitSystemMessages(emit, MAIN, started);
    const note = contextNote(started, 'SessionStart:compact');
    if (note !== undefined) conversation.append({ role: 'user', content: `<system-reminder>\n${note}\n</system-reminder>` });
    return { status: 'compacted', summarized: cut, kept, summary };
  }

  /**
   * `/compact`: compacts with the compaction provider in effect (its summarizer); skipped,
   * saying why, when none is installed.
   */
  compactWithProvider(trigger: 'manual' | 'auto', signal: AbortSignal, customInstructions?: string): Promise<CompactionResult> {
    const active = this.activeCompaction();
    if (!active) return Promise.resolve({ status: 'skipped', reason: COMPACTION_OFF_REASON });
    return this.compact(trigger, signal, customInstructions, active.summarize);
  }

  private activeCompaction(): ActiveCompaction | undefined {
    return this.d.active ? this.d.active() : BUILTIN;
  }

  /**
   * The size at which the conversation is compacted on its own: the context window's threshold
   * (Claude Code's: 167,000 of 200,000), or the budget when one is set below it.
   */
  get autoCompactLimit(): number {
    const threshold = autoCompactThreshold(this.d.contextWindow);
    return this.d.budgetTokens > 0 ? Math.min(this.d.budgetTokens, threshold) : threshold;
  }

  /**
   * Before each model call of the main agent (the built-in compaction provider's hook, or a
   * replacement's with its own `summarizer`): compacts when the conversation is over the
   * limit; a failure is reported, never thrown.
   */
  async maybeAutoCompact(signal: AbortSignal, summarizer?: Summarizer): Promise<void> {
    const budget = this.autoCompactLimit;
    const size = this.contextTokens();
    if (size <= budget) return;
    // The last compaction could not get under the budget (the recent turns it keeps are that
    // large): compacting again before the conversation has grown would only summarize the
    // summary, one model call per step. Growth is the messages' own (estimated in both cases),
    // so the model's count, which also covers the system prompt and tools, cannot fake it.
    if (this.stillOverAfterCompaction !== undefined && estimateTokens(this.d.conversation.messages) - this.stillOverAfterCompaction < budget / 4) return;
    try {
      const result = await this.compact('auto', signal, undefined, summarizer);
      if (result.status !== 'compacted') return;
      const after = estimateTokens(this.d.conversation.messages);
      // Kept even when under the budget: the model's count (system prompt and tools included)
      // may still be over it, and must not set off a compaction per step.
      this.stillOverAfterCompaction = after;
      if (after > budget) {
        this.d.emit({
          type: 'systemMessage',
          agent: MAIN,
          text: `The conversation is still over the compaction budget (~${after} of ${budget} tokens): the recent turns alone are that large. It is compacted again once it has grown.`,
          source: 'PreCompact',
        });
      }
    } catch (error) {
      if (signal.aborted) return;
      this.d.emit({ type: 'systemMessage', agent: MAIN, text: `Automatic compaction failed: ${thrownMessage(error)}`, source: 'PreCompact' });
    }
  }

  /**
   * The model refused the prompt as longer than its context: the compaction provider in effect
   * compacts (trigger `auto`, as Claude Code does) so the call can be sent again. True when it
   * compacted; a failure, or no provider installed, is reported, never thrown.
   */
  async compactAfterOverflow(signal: AbortSignal): Promise<boolean> {
    const active = this.activeCompaction();
    if (!active) {
      this.d.emit({ type: 'systemMessage', agent: MAIN, text: `The conversation was not compacted: ${COMPACTION_OFF_REASON}.`, source: 'PreCompact' });
      return false;
    }
    try {
      const result = await this.compact('auto', signal, undefined, active.summarize);
      if (result.status === 'compacted') this.stillOverAfterCompaction = estimateTokens(this.d.conversation.messages);
      return result.status === 'compacted';
    } catch (error) {
      if (!signal.aborted)
        this.d.emit({ type: 'systemMessage', agent: MAIN, text: `Automatic compaction failed: ${thrownMessage(error)}`, source: 'PreCompact' });
      return false;
    }
  }

  /**
   * The conversation's size in tokens: the prompt tokens the model reported for its last call
   * plus an estimate of what was appended since; the estimate alone before any report (a
   * model that reports no usage, a resumed session, right after a compaction). Never below the
   * estimate of the whole conversation: a server that under-reports (a constant, or cached
   * tokens left out) must not let requests grow without bound.
   */
  private contextTokens(): number {
    const messages = this.d.conversation.messages;
    const reported = this.reportedPrompt;
    const estimate = estimateTokens(messages);
    if (reported === undefined || reported.messages > messages.length) return estimate;
    return Math.max(estimate, reported.tokens + estimateTokens(messages.slice(reported.messages)));
  }
}
