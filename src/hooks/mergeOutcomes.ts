import { isDeepStrictEqual } from 'node:util';
import type { HookEvent } from './hookEvent';
import type { HookFailureReason } from './hookErrors';
import type { HookDecision, HookOutcome, InjectedMessage } from './hookOutcome';
import { decisionRank } from './hookOutcome';
import type { DecidedBy, ModelEdit } from './hookRunTypes';
import type { HookRegistration } from './hookRegistry';
import { withRewrittenInput } from './hookContext';
import { describeSource } from '../configFiles/hookSource';
import { checkValueBounds } from '../shared/boundedJson';
import { thrownMessage } from '../shared/describeThrown';
import { isPlainObject } from '../shared/jsonObject';

/** A part of one hook's outcome that could not be used: recorded as that hook's failure. */
export interface MergeProblem {
  readonly failureReason: HookFailureReason;
  readonly error: string;
}

/**
 * Checks an updated input before use; `validateUpdatedInput` of `HookRunner.run`. When it
 * returns `input` (the tool schema's output: unknown keys stripped), that is what later hooks
 * and the tool see, so a key no schema knows can never reach them (nor smuggle one past a later hook).
 * `written` is the hook's updatedInput as it wrote it (before the merge over the current input).
 */
export type UpdatedInputValidator = (
  input: Readonly<Record<string, unknown>>,
  written?: Readonly<Record<string, unknown>>,
) => { readonly ok: true; readonly input?: Readonly<Record<string, unknown>> } | { readonly ok: false; readonly error: string };

/** Which input field an event lets hooks rewrite (tool input, or the prompt). */
export const REWRITABLE_INPUT: Readonly<Partial<Record<HookEvent, 'tool_input' | 'prompt'>>> = Object.freeze({
  PreToolUse: 'tool_input',
  PermissionRequest: 'tool_input',
  UserPromptSubmit: 'prompt',
});

/**
 * Problems visible from one outcome alone (no sibling needed): an updatedInput on an event
 * with nothing to rewrite, an updatedResult outside PostToolUse. Checked when the hook
 * finishes so its record already says `failed`.
 */
export function checkOutcomeForEvent(event: HookEvent, outcome: HookOutcome): MergeProblem | undefined {
  if (outcome.updatedInput !== undefined && REWRITABLE_INPUT[event] === undefined) {
    const why =
      event === 'PostToolUse' || event === 'PostToolUseFailure'
        ? 'the tool has already run (use updatedResult on PostToolUse)'
        : `${event} has no input to rewrite`;
    return {
      failureReason: 'updatedInputNotAllowed',
      error: `returned updatedInput on ${event}, but ${why}; only PreToolUse, PermissionRequest and UserPromptSubmit inputs can be rewritten`,
    };
  }
  if (outcome.updatedResult !== undefined && event !== 'PostToolUse') {
    return { failureReason: 'updatedResultNotAllowed', error: `returned updatedResult on ${event}; only PostToolUse results can be replaced` };
  }
  return checkModelFields(event, outcome);
}

/** The model-level fields belong to their events: llm_request to BeforeInference, llm_response to Before/AfterInference, toolConfig to BeforeToolSelection. */
function checkModelFields(event: HookEvent, outcome: HookOutcome): MergeProblem | undefined {
  const misplaced =
    outcome.llmRequest !== undefined && event !== 'BeforeInference'
      ? 'llm_request (BeforeInference only)'
      : outcome.llmResponse !== undefined && event !== 'BeforeInference' && event !== 'AfterInference'
        ? 'llm_response (BeforeInference and AfterInference only)'
        : outcome.toolConfig !== undefined && event !== 'BeforeToolSelection'
          ? 'toolConfig (BeforeToolSelection only)'
          : undefined;
  return misplaced === undefined ? undefined : { failureReason: 'invalidOutcome', error: `returned ${misplaced} on ${event}; it was not used` };
}

/**
 * Deep-merges `add` into `base` without mutating either. Nested
 * plain objects merge key by key; any other value already present with a different value is
 * a conflict: the earlier value is kept and the dotted path reported.
 */
export function mergeMetadata(
  base: Readonly<Record<string, unknown>>,
  add: Readonly<Record<string, unknown>>,
  prefix = '',
): { readonly merged: Readonly<Record<string, unknown>>; readonly conflicts: readonly string[] } {
  let merged: Record<string, unknown> | undefined;
  const conflicts: string[] = [];
  for (const key of Object.keys(add)) {
    const next = add[key];
    const prev = base[key];
    let value: unknown;
    if (prev === undefined) value = next;
    else if (isPlainObject(prev) && isPlainObject(next)) {
      const inner = mergeMetadata(prev, next, `${prefix}${key}.`);
      conflicts.push(...inner.conflicts);
      value = inner.merged;
    } else if (isDeepStrictEqual(prev, next)) continue;
    else {
      conflicts.push(`${prefix}${key}`);
      continue;
    }
    if (value === prev) continue;
    merged ??= { ...base };
    merged[key] = value;
  }
  return { merged: merged ?? base, conflicts };
}

/** Accumulated merge result of one event occurrence. */
export interface MergedOutcome {
  readonly decision?: HookDecision;
  readonly reason?: string;
  readonly decidedBy?: DecidedBy;
  readonly updatedInput?: Readonly<Record<string, unknown>>;
  readonly hasUpdatedResult: boolean;
  readonly updatedResult?: unknown;
  readonly additionalContext: readonly string[];
  readonly plainOutputs: readonly string[];
  readonly messagesToInject: readonly InjectedMessage[];
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly systemMessages: readonly string[];
  readonly suppressOutput: boolean;
  readonly modelEdits: readonly ModelEdit[];
}

const NO_EDITS: readonly ModelEdit[] = Object.freeze([]);
const NO_STRINGS: readonly string[] = Object.freeze([]);
const NO_MESSAGES: readonly InjectedMessage[] = Object.freeze([]);
const NO_METADATA: Readonly<Record<string, unknown>> = Object.freeze({});

function hookDecider(hook: HookRegistration, label: string): DecidedBy {
  return hook.configGeneration === undefined
    ? { kind: 'hook', hookId: hook.id, hookLabel: label, source: hook.source }
    : { kind: 'hook', hookId: hook.id, hookLabel: label, source: hook.source, configGeneration: hook.configGeneration };
}

/**
 * Merges outcomes in the order it is fed — the runner feeds registration order within a
 * tier, tier after tier, never completion order (so the result does not depend on timing):
 * - decision by rank (stop > deny > ask > continue > allow); at equal rank the first wins,
 *   so a later deny overrides an earlier ask and an ask never ends the run;
 * - updatedInput per top-level key, later wins, validated before use; `input` shows the
 *   rewritten context to the next tier;
 * - additionalContext, plain outputs, messages and system messages appended in order;
 * - metadata deep-merged, conflicts reported;
 * - updatedResult: later wins; suppressOutput: any.
 */
export class OutcomeMerger implements MergedOutcome {
  decision?: HookDecision;
  reason?: string;
  decidedBy?: DecidedBy;
  updatedInput?: Readonly<Record<string, unknown>>;
  hasUpdatedResult = false;
  updatedResult?: unknown;
  additionalContext: string[] = [];
  plainOutputs: string[] = [];
  messagesToInject: InjectedMessage[] = [];
  metadata: Readonly<Record<string, unknown>> = NO_METADATA;
  systemMessages: string[] = [];
  suppressOutput = false;
  modelEdits: ModelEdit[] = [];
  /** The context the next tier sees (rewritten input). */
  input: Readonly<Record<string, unknown>>;
  private readonly rewriteKey: 'tool_input' | 'prompt' | undefined;
  private rank = 0;

  constructor(
    private readonly event: HookEvent,
    input: Readonly<Record<string, unknown>>,
    private readonly validate: UpdatedInputValidator | undefined,
  ) {
    this.input = input;
    this.rewriteKey = REWRITABLE_INPUT[event];
  }

  /** True once the run must end: a deny or stop was merged (later tiers do not run). */
  get decisive(): boolean {
    return this.rank >= 4;
  }

  /** Merges one successful outcome; returns the parts that could not be used. */
  add(hook: HookRegistration, label: string, outcome: HookOutcome, plainOutput?: string): MergeProblem[] {
    const problems: MergeProblem[] = [];
    this.decide(outcome.decision, outcome.reason, hook, label);
    if (outcome.updatedInput !== undefined && this.rewriteKey !== undefined) {
      const problem = this.rewrite(outcome.updatedInput);
      if (problem) problems.push(problem);
    }
    if (outcome.updatedResult !== undefined && this.event === 'PostToolUse') {
      // An in-process hook's value was never JSON text: bound it here, as hook stdout is bounded when parsed.
      const tooBig = checkValueBounds(outcome.updatedResult);
      if (tooBig === undefined) {
        this.hasUpdatedResult = true;
        this.updatedResult = outcome.updatedResult;
      } else problems.push({ failureReason: 'invalidOutcome', error: `updatedResult ${tooBig}; the tool's own result was kept` });
    }
    if (outcome.additionalContext) this.additionalContext.push(outcome.additionalContext);
    if (plainOutput) this.plainOutputs.push(plainOutput);
    if (outcome.messagesToInject?.length) this.messagesToInject.push(...outcome.messagesToInject);
    if (outcome.systemMessage) this.systemMessages.push(outcome.systemMessage);
    if (outcome.suppressOutput) this.suppressOutput = true;
    const edit = this.modelEdit(hook, label, outcome);
    if (typeof edit === 'string') problems.push({ failureReason: 'invalidOutcome', error: edit });
    else if (edit !== undefined) this.modelEdits.push(edit);
    const metadataTooBig = outcome.metadataToMerge === undefined ? undefined : checkValueBounds(outcome.metadataToMerge);
    if (metadataTooBig !== undefined) problems.push({ failureReason: 'invalidOutcome', error: `metadataToMerge ${metadataTooBig}; not merged` });
    else if (outcome.metadataToMerge !== undefined) {
      const { merged, conflicts } = mergeMetadata(this.metadata, outcome.metadataToMerge);
      this.metadata = merged;
      if (conflicts.length > 0) {
        problems.push({
          failureReason: 'metadataConflict',
          error: `metadataToMerge conflicts with an earlier hook on ${conflicts.map((c) => `"${c}"`).join(', ')} (earlier value kept)`,
        });
      }
    }
    return problems;
  }

  /** A fail-closed hook failed (continueOnFailure: false): its failure is a deny naming it and its source. */
  failClosed(hook: HookRegistration, error: string): void {
    const label = hook.action.label;
    this.decide(
      'deny',
      `Hook "${label}" (${describeSource(hook.source)}) failed and is configured to fail closed (continueOnFailure: false): ${error}`,
      hook,
      label,
    );
  }

  /** True once a hook rewrote the input (prompt or tool input) of this occurrence. */
  get rewritten(): boolean {
    return this.updatedInput !== undefined;
  }

  /**
   * A later hook could not be shown the rewritten input (it could not be serialized): the
   * rewritten call was never checked by it, so it is denied whatever `continueOnFailure` says.
   */
  denyUnseenRewrite(hook: HookRegistration, error: string): void {
    const label = hook.action.label;
    this.decide(
      'deny',
      `Hook "${label}" (${describeSource(hook.source)}) could not check the input as rewritten by an earlier hook, so the rewritten call is denied: ${error}`,
      hook,
      label,
    );
  }

  /** Final view, with empty collections shared. */
  snapshot(): MergedOutcome {
    return {
      ...(this.decision !== undefined ? { decision: this.decision } : {}),
      ...(this.reason !== undefined ? { reason: this.reason } : {}),
      ...(this.decidedBy !== undefined ? { decidedBy: this.decidedBy } : {}),
      ...(this.updatedInput !== undefined ? { updatedInput: this.updatedInput } : {}),
      hasUpdatedResult: this.hasUpdatedResult,
      ...(this.hasUpdatedResult ? { updatedResult: this.updatedResult } : {}),
      additionalContext: this.additionalContext.length ? this.additionalContext : NO_STRINGS,
      plainOutputs: this.plainOutputs.length ? this.plainOutputs : NO_STRINGS,
      messagesToInject: this.messagesToInject.length ? this.messagesToInject : NO_MESSAGES,
      metadata: this.metadata,
      systemMessages: this.systemMessages.length ? this.systemMessages : NO_STRINGS,
      suppressOutput: this.suppressOutput,
      modelEdits: this.modelEdits.length ? this.modelEdits : NO_EDITS,
    };
  }

  /**
   * A model-level hook's request, reply or tool choice, kept in merge order for the agent to
   * apply (later fields win, as Gemini CLI merges its model events); too big = a problem string.
   */
  private modelEdit(hook: HookRegistration, label: string, outcome: HookOutcome): ModelEdit | string | undefined {
    const { llmRequest, llmResponse, toolConfig } = outcome;
    if (llmRequest === undefined && llmResponse === undefined && toolConfig === undefined) return undefined;
    if (checkModelFields(this.event, outcome) !== undefined) return undefined; // already failed the record at finish
    // An in-process hook's value was never JSON text: bound it here, as hook stdout is bounded when parsed.
    const tooBig = checkValueBounds({ llmRequest, llmResponse, toolConfig });
    if (tooBig !== undefined) return `the rewritten model request or reply ${tooBig}; it was not used`;
    return {
      hookId: hook.id,
      hookLabel: label,
      ...(llmRequest !== undefined ? { llmRequest } : {}),
      ...(llmResponse !== undefined ? { llmResponse } : {}),
      ...(toolConfig !== undefined ? { toolConfig } : {}),
    };
  }

  private decide(decision: HookDecision | undefined, reason: string | undefined, hook: HookRegistration, label: string): void {
    const rank = decisionRank(decision);
    if (rank <= this.rank) return; // equal rank: the earlier registration keeps it
    this.rank = rank;
    this.decision = decision;
    this.reason = reason;
    this.decidedBy = hookDecider(hook, label);
  }

  private rewrite(update: Readonly<Record<string, unknown>>): MergeProblem | undefined {
    const key = this.rewriteKey as 'tool_input' | 'prompt';
    let candidate: Record<string, unknown>;
    if (key === 'prompt') {
      const keys = Object.keys(update);
      if (typeof update['prompt'] !== 'string' || keys.length !== 1) {
        return { failureReason: 'invalidUpdatedInput', error: 'updatedInput on UserPromptSubmit must be exactly { prompt: string }' };
      }
      candidate = { prompt: update['prompt'] };
    } else {
      const current = this.updatedInput ?? (this.input['tool_input'] as Readonly<Record<string, unknown>> | undefined) ?? {};
      candidate = { ...current, ...update };
    }
    // Bounded before anything walks it: later hooks get it as JSON, and JSON.stringify overflows
    // the stack at a few thousand levels (the later hook would fail and the rewrite run unseen).
    const tooBig = checkValueBounds(update);
    if (tooBig !== undefined) return { failureReason: 'invalidUpdatedInput', error: `updatedInput ${tooBig}; the rewrite was not used` };
    if (this.validate && key === 'tool_input') {
      let verdict: ReturnType<UpdatedInputValidator>;
      try {
        verdict = this.validate(candidate, update);
      } catch (thrown) {
        verdict = { ok: false, error: `the validator threw: ${thrownMessage(thrown)}` };
      }
      if (!verdict.ok) return { failureReason: 'invalidUpdatedInput', error: `updatedInput was rejected by the tool's input schema: ${verdict.error}` };
      // The schema's output: keys the tool does not know are dropped here, not carried to later hooks.
      if (verdict.input !== undefined) candidate = { ...verdict.input };
    }
    this.updatedInput = Object.freeze(candidate);
    this.input = withRewrittenInput(this.input, key, key === 'prompt' ? candidate['prompt'] : candidate);
    return undefined;
  }
}
