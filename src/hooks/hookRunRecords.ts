import { randomBytes } from 'node:crypto';
import type { HookActionResult, HookRawOutput } from './hookAction';
import type { HookOutcome } from './hookOutcome';
import type { HookEvent } from './hookEvent';
import { matcherValue } from './hookEvent';
import { hookwiseAgentOf } from './hookContext';
import type { HookFailureReason } from './hookErrors';
import type { HookExecution } from './hookExecution';
import type { HookRegistration } from './hookRegistry';
import type { DecidedBy, HookEventResult, HookRunRecord, HookRunStatus } from './hookRunTypes';
import type { MatchTarget } from './matchers/hookMatcher';
import { checkOutcomeForEvent } from './mergeOutcomes';
import { describeThrown } from '../shared/describeThrown';

/**
 * The data side of the HookRunner: which registrations run for one occurrence, and the
 * records and results it reports. Pure functions; the runner owns timing and observers.
 */

type Input = Readonly<Record<string, unknown>>;

const NONE: readonly never[] = Object.freeze([]);
const NO_METADATA = Object.freeze({});
/** The fields of a result in which no hook decided anything. */
const NOTHING_RAN = {
  asked: false,
  hasUpdatedResult: false,
  additionalContext: NONE,
  plainOutputs: NONE,
  messagesToInject: NONE,
  metadata: NO_METADATA,
  systemMessages: NONE,
  suppressOutput: false,
  records: NONE,
  failures: NONE,
} as const;

/**
 * Tags this process's run and occurrence ids: runs restored from an earlier window's history (and
 * runs of a second copy of the runner, as in tests) must not share ids with new ones, or Hook Runs
 * would merge them. Drawn once; ids stay a cheap counter.
 */
export const RUN_ID_TAG = randomBytes(4).toString('hex');

// Counter ids: unique per process (with the tag, across processes), cheap (no crypto in the hot path).
let occurrenceCounter = 0;

/** A new occurrence id, `ho-<tag>-<n>`. */
export function nextOccurrenceId(): string {
  return `ho-${RUN_ID_TAG}-${++occurrenceCounter}`;
}

/** `value` when it is a string. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

// One frozen result (and one resolved promise) per event for "nothing ran": the common case
// of an event nobody listens to allocates nothing and calls no observer. `occurrenceId` is ''.
const emptyResults: Partial<Record<HookEvent, Promise<HookEventResult>>> = {};

/** The shared result of an occurrence where no hook ran. */
export function emptyResult(event: HookEvent): Promise<HookEventResult> {
  let result = emptyResults[event];
  if (result === undefined) {
    result = Promise.resolve(Object.freeze({ event, occurrenceId: '', ...NOTHING_RAN }));
    emptyResults[event] = result;
  }
  return result;
}

/** Last resort if the runner itself has a bug: no decision, the error in `reason`, never a throw. */
export function internalErrorResult(event: HookEvent, error: unknown): HookEventResult {
  return {
    event,
    occurrenceId: nextOccurrenceId(),
    reason: `hook runner internal error: ${describeThrown(error)}`,
    ...NOTHING_RAN,
  };
}

/** One selected hook; `matchError` when its matcher threw (it then fails instead of running). */
export interface Selected {
  readonly registration: HookRegistration;
  readonly matchError?: string;
}

/** A hook whose matcher matched but that did not run: its `if` was false, or its `once` was spent. */
export interface SkippedHook {
  readonly hookId: string;
  readonly hookLabel: string;
  readonly reason: string;
}

/**
 * Selects the registrations that run, in order; undefined when none (no allocation). Hooks
 * whose `if` is false or whose `once` run is spent (`onceRan` holds `session\0hookId`) are
 * added to `skipped`; a `once` hook is marked spent as it is selected.
 */
/** Key of one skill activated in one session (`session\0skill`). */
export function skillKey(sessionId: string, skill: string): string {
  return `${sessionId}\u0000${skill}`;
}

export function select(
  event: HookEvent,
  input: Input,
  registrations: readonly HookRegistration[],
  metadata: Input | undefined,
  skipped?: SkippedHook[],
  onceRan?: Set<string>,
  activeSkills?: { has(key: string): boolean },
): Selected[] | undefined {
  const target: MatchTarget = metadata === undefined ? { event, input } : { event, input, metadata };
  // The main agent has no `agent_type` in Claude's fields: the scope is Hookwise's own.
  const agentType = hookwiseAgentOf(input)?.agent_type ?? input['agent_type'];
  let selected: Selected[] | undefined;
  let dedup: Set<string> | undefined;
  for (const registration of registrations) {
    if (registration.agentType !== undefined && registration.agentType !== agentType) continue;
    // A skill's hooks wait for its Skill call in this session (HookRunner.activateSkill).
    if (registration.skill !== undefined && activeSkills?.has(skillKey(str(input['session_id']) ?? '', registration.skill)) !== true) continue;
    let matchError: string | undefined;
    try {
      if (!registration.matcher.matches(target)) continue;
    } catch (thrown) {
      matchError = describeThrown(thrown);
    }
    // The condition first: a hook whose `if` is false must not take the dedup slot of an identical one whose `if` holds.
    if (matchError === undefined && registration.condition !== undefined) {
      let holds: boolean;
      try {
        holds = registration.condition.test(input);
      } catch {
        holds = true; // A condition that cannot be evaluated must not silently switch a policy hook off.
      }
      if (!holds) {
        skipped?.push({ hookId: registration.id, hookLabel: registration.action.label, reason: `if ${registration.condition.text} is false` });
        continue;
      }
    }
    // A spent `once` hook, likewise, must not take the dedup slot.
    const onceKey = registration.once === true && onceRan !== undefined ? `${str(input['session_id']) ?? ''}\u0000${registration.id}` : undefined;
    if (onceKey !== undefined && onceRan?.has(onceKey)) {
      skipped?.push({ hookId: registration.id, hookLabel: registration.action.label, reason: 'once: it already ran in this session' });
      continue;
    }
    // Identical commands/prompts from several sources run once (as in Claude Code); the first in run order is kept.
    // A skill's copy of a settings hook stays separate (Claude Code runs both).
    const key = registration.background === true || registration.skill !== undefined ? undefined : registration.action.dedupKey;
    if (key !== undefined) {
      dedup ??= new Set();
      const scoped = `${registration.action.kind}\u0000${key}`;
      if (dedup.has(scoped)) continue;
      dedup.add(scoped);
    }
    if (onceKey !== undefined) onceRan?.add(onceKey);
    (selected ??= []).push(matchError === undefined ? { registration } : { registration, matchError });
  }
  return selected;
}

/**
 * True when merging this finished record may still turn it into a failure (a rewrite the
 * schema rejects, a metadata conflict with an earlier sibling, an oversized value): it is
 * reported only once merged, so observers see each run finish exactly once.
 */
export function mergeMayFail(record: HookRunRecord): boolean {
  const o = record.outcome;
  return (
    record.status !== 'failed' &&
    o !== undefined &&
    (o.updatedInput !== undefined ||
      o.updatedResult !== undefined ||
      o.metadataToMerge !== undefined ||
      // Model-level changes: merging bounds them and names what they change (`effect`).
      o.llmRequest !== undefined ||
      o.llmResponse !== undefined ||
      o.toolConfig !== undefined ||
      (o.decision === 'deny' && record.event === 'AfterInference'))
  );
}

// Records are built as one object literal of fixed shape (absent fields are undefined, which
// JSON drops): spreading conditional parts made record building ~10x slower than everything
// else in a matched hook's dispatch.
function makeRecord(
  execution: HookExecution,
  occurrenceId: string,
  input: Input,
  status: HookRunStatus,
  durationMs: number | undefined,
  outcome: HookOutcome | undefined,
  raw: HookRawOutput | undefined,
  error: string | undefined,
  failureReason: HookFailureReason | undefined,
): HookRunRecord {
  const reg = execution.registration;
  const agent = hookwiseAgentOf(input);
  return {
    runId: execution.runId,
    occurrenceId,
    sessionId: execution.sessionId,
    agentId: agent?.agent_id ?? str(input['agent_id']) ?? '',
    parentAgentId: agent?.parent_agent_id ?? null,
    agentType: agent?.agent_type ?? str(input['agent_type']) ?? 'main',
    event: execution.event,
    matchValue: matcherValue(execution.event, input),
    hookId: reg.id,
    hookLabel: reg.action.label,
    actionKind: reg.action.kind,
    source: reg.source,
    configGeneration: reg.configGeneration,
    input,
    startedAt: execution.startedAt,
    status,
    durationMs,
    outcome,
    raw: outcome?.suppressOutput === true && raw !== undefined ? { ...raw, stdout: '', stdoutSuppressed: true } : raw,
    error,
    failureReason,
    permission: undefined,
    warnings: execution.end?.kind === 'result' ? execution.end.result.warnings : undefined,
    statusMessage: reg.statusMessage,
  };
}

export function startedRecord(execution: HookExecution, occurrenceId: string, input: Input): HookRunRecord {
  return makeRecord(execution, occurrenceId, input, 'running', undefined, undefined, undefined, undefined, undefined);
}

/**
 * True when a fail-closed hook's successful result must not be used: stdout that began with
 * `{` but did not parse, or JSON on a failing exit code that does not itself block.
 */
export function refusedByFailClosed(result: HookActionResult, registration: HookRegistration): boolean {
  if (registration.continueOnFailure) return false;
  if (result.malformedJson !== undefined) return true;
  if (result.jsonOnFailedExit === undefined) return false;
  const decision = result.outcome.decision;
  return decision !== 'deny' && decision !== 'stop' && decision !== 'continue';
}

/** The record of a settled execution, its status derived from how it ended and what it returned. */
export function finishedRecord(execution: HookExecution, occurrenceId: string, input: Input): HookRunRecord {
  const durationMs = execution.durationMs;
  const end = execution.end;
  if (end === undefined) return makeRecord(execution, occurrenceId, input, 'cancelled', durationMs, undefined, undefined, undefined, undefined);
  switch (end.kind) {
    case 'timed-out':
      return makeRecord(execution, occurrenceId, input, 'timed-out', durationMs, undefined, end.raw, `timed out after ${execution.timeoutMs} ms`, 'timeout');
    case 'cancelled':
      return makeRecord(execution, occurrenceId, input, 'cancelled', durationMs, undefined, undefined, undefined, undefined);
    case 'failed':
      return makeRecord(execution, occurrenceId, input, 'failed', durationMs, undefined, undefined, end.error, end.failureReason);
    case 'result': {
      const r = end.result;
      if (r.status === 'cancelled') return makeRecord(execution, occurrenceId, input, 'cancelled', durationMs, undefined, r.raw, undefined, undefined);
      if (r.status === 'failed')
        return makeRecord(
          execution,
          occurrenceId,
          input,
          'failed',
          durationMs,
          undefined,
          r.raw,
          r.error ?? 'the action failed',
          r.failureReason ?? 'actionFailed',
        );
      if (refusedByFailClosed(r, execution.registration) && r.malformedJson === undefined) {
        return makeRecord(
          execution,
          occurrenceId,
          input,
          'failed',
          durationMs,
          r.outcome,
          r.raw,
          `${r.jsonOnFailedExit ?? 'failed'}; Claude Code would apply its JSON output, but this hook fails closed (continueOnFailure: false) and the JSON does not block`,
          'actionFailed',
        );
      }
      if (r.malformedJson !== undefined && !execution.registration.continueOnFailure) {
        return makeRecord(
          execution,
          occurrenceId,
          input,
          'failed',
          durationMs,
          r.outcome,
          r.raw,
          `stdout starts with "{" but is not valid JSON (${r.malformedJson}); Claude Code would read it as plain text, but this hook fails closed (continueOnFailure: false)`,
          'invalidOutcome',
        );
      }
      const problem = checkOutcomeForEvent(execution.event, r.outcome);
      if (problem) return makeRecord(execution, occurrenceId, input, 'failed', durationMs, r.outcome, r.raw, problem.error, problem.failureReason);
      return makeRecord(execution, occurrenceId, input, statusOf(r.outcome.decision), durationMs, r.outcome, r.raw, undefined, undefined);
    }
  }
}

function statusOf(decision: string | undefined): HookRunStatus {
  switch (decision) {
    case 'deny':
    case 'stop':
    case 'continue':
      return 'blocked';
    case 'ask':
      return 'asked';
    default:
      return 'ok';
  }
}

/** How the permission gate answered an event's ask. `detail` is what the asking records show. */
export interface AskAnswer {
  readonly decision: 'allow' | 'deny';
  readonly reason: string;
  readonly decidedBy: DecidedBy;
  readonly detail?: string;
  /** Stop settled the ask: nobody answered it. */
  readonly cancelled?: boolean;
}

/**
 * The result with its ask answered: the final decision, `asked: true`, and `permission` on
 * each record that asked. Pure; the runner's `recordAskAnswer` also reports those records.
 */
export function withAskAnswer(result: HookEventResult, answer: AskAnswer): HookEventResult {
  const permission = {
    decision: answer.decision,
    decidedBy: answer.decidedBy.kind,
    reason: answer.detail ?? answer.reason,
    ...(answer.cancelled ? { cancelled: true as const } : {}),
  };
  const resolve = (record: HookRunRecord): HookRunRecord => (record.outcome?.decision === 'ask' ? { ...record, permission } : record);
  const { askedBy: _askedBy, ...rest } = result;
  return {
    ...rest,
    decision: answer.decision,
    reason: answer.reason,
    decidedBy: answer.decidedBy,
    asked: true,
    records: result.records.map(resolve),
    failures: result.failures.map(resolve),
  };
}
