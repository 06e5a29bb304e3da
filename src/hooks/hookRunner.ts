import type { HookActionResult, HookRawOutput } from './hookAction';
import type { HookOutcome } from './hookOutcome';
import { CallableAction } from './callableAction';
import type { HookEvent } from './hookEvent';
import { MATCHER_FIELD, TOOL_EVENTS } from './hookEvent';
import type { HookFailureReason } from './hookErrors';
import { describeThrown } from './hookErrors';
import { raceAbort } from '../shared/raceAbort';
import { HookExecution } from './hookExecution';
import type { HookDisposable, HookRegistration, HookRegistry } from './hookRegistry';
import type { BackgroundHookOutput, DecidedBy, HookEventResult, HookRunObserver, HookRunRecord, HookRunStatus, PermissionDecider, PermissionProvider, PermissionRequest } from './hookRunTypes';
import type { MatchTarget } from './matchers/hookMatcher';
import type { UpdatedInputValidator } from './mergeOutcomes';
import { checkOutcomeForEvent, OutcomeMerger } from './mergeOutcomes';

/** Construction options of a HookRunner. */
export interface HookRunnerOptions {
  readonly observers?: readonly HookRunObserver[];
  /** Settles `ask` (a modal in VS Code). Without one, `askFallback` applies. */
  readonly permissionProvider?: PermissionProvider;
  /** What an unanswerable ask becomes (headless); default `deny` (review item 2). */
  readonly askFallback?: 'allow' | 'deny';
  /** Workspace root, exported to command hooks as CLAUDE_PROJECT_DIR. */
  readonly projectDir: string;
  /** Clock in epoch ms (tests); also used for durations when given. */
  readonly now?: () => number;
}

/** Options of one `run`. */
export interface HookRunOptions {
  /** The user's Stop: pending hooks become `cancelled`, an ask in progress becomes deny. */
  readonly signal?: AbortSignal;
  /** Overrides the runner's provider for this run (e.g. a subagent's). */
  readonly permissionProvider?: PermissionProvider;
  /** The tool's input schema: a merged updatedInput it rejects is a failure of the hook that wrote it. */
  readonly validateUpdatedInput?: UpdatedInputValidator;
  /** Working directory for command hooks; default the input's `cwd`. */
  readonly cwd?: string;
  /** The agent run's metadata, for Metadata matchers. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Extra environment for command hooks of this run (SessionStart gets `CLAUDE_ENV_FILE`). */
  readonly env?: Readonly<Record<string, string>>;
}

type Input = Readonly<Record<string, unknown>>;

const NO_OPTIONS: HookRunOptions = Object.freeze({});
const NONE: readonly never[] = Object.freeze([]);
const NO_METADATA = Object.freeze({});

/** Most pending background-hook outputs kept across sessions; the oldest go first. */
const MAX_BACKGROUND_OUTPUT = 200;

// Counter ids: unique per process, cheap (no crypto in the hot path).
let occurrenceCounter = 0;
let runCounter = 0;

// One frozen result (and one resolved promise) per event for "nothing ran": the common case
// of an event nobody listens to allocates nothing and calls no observer. `occurrenceId` is ''.
const emptyResults: Partial<Record<HookEvent, Promise<HookEventResult>>> = {};
function emptyResult(event: HookEvent): Promise<HookEventResult> {
  let result = emptyResults[event];
  if (result === undefined) {
    result = Promise.resolve(
      Object.freeze({
        event,
        occurrenceId: '',
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
      }),
    );
    emptyResults[event] = result;
  }
  return result;
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** One selected hook; `matchError` when its matcher threw (it then fails instead of running). */
interface Selected {
  readonly registration: HookRegistration;
  readonly matchError?: string;
}

/**
 * Runs the hooks of one event occurrence exactly as spec §4: select (index by event, matchers
 * compiled at registration, agent scope, dedup of identical commands), order (priority desc,
 * then registration order), run (concurrent within a priority tier, tiers one after another,
 * each tier seeing the input as rewritten by earlier tiers), merge (registration order, never
 * completion order; see OutcomeMerger), settle an `ask` through the PermissionProvider or
 * `askFallback`. Every execution is reported to the observers when it starts and ends.
 *
 * `run` never throws and never leaves its promise pending: a hook that throws, hangs past its
 * timeout, returns a wrong shape or an unusable rewrite becomes a failure record; a failure
 * is fail-open unless the hook set `continueOnFailure: false`, which turns it into a deny.
 */
export class HookRunner {
  private observers: readonly HookRunObserver[];
  private readonly permissionProvider: PermissionProvider | undefined;
  private readonly askFallback: 'allow' | 'deny';
  private readonly projectDir: string;
  private readonly now: () => number;
  private readonly clock: () => number;
  /** What finished background (async) hooks said, until the session's agent takes it. */
  private backgroundOutput: BackgroundHookOutput[] = [];
  private readonly backgroundRuns = new Set<Promise<void>>();

  constructor(
    private readonly registry: HookRegistry,
    options: HookRunnerOptions,
  ) {
    this.observers = options.observers ? [...options.observers] : NONE;
    this.permissionProvider = options.permissionProvider;
    this.askFallback = options.askFallback ?? 'deny';
    this.projectDir = options.projectDir;
    this.now = options.now ?? Date.now;
    this.clock = options.now ?? (() => performance.now());
  }

  /**
   * Takes (and forgets) what the background hooks of `sessionId` said since the last call:
   * the agent loop adds it before its next model call, as Claude Code delivers async hook
   * output on the next turn.
   */
  takeBackgroundOutput(sessionId: string): BackgroundHookOutput[] {
    if (this.backgroundOutput.length === 0) return [];
    const mine = this.backgroundOutput.filter((o) => o.sessionId === sessionId);
    if (mine.length > 0) this.backgroundOutput = this.backgroundOutput.filter((o) => o.sessionId !== sessionId);
    return mine;
  }

  /** Resolves when every background hook started so far has finished (tests, shutdown). */
  async settleBackground(): Promise<void> {
    while (this.backgroundRuns.size > 0) await Promise.allSettled([...this.backgroundRuns]);
  }

  /** Subscribes an observer (the tree view, the log…); dispose to unsubscribe. */
  addObserver(observer: HookRunObserver): HookDisposable {
    this.observers = [...this.observers, observer];
    return {
      dispose: () => {
        this.observers = this.observers.filter((o) => o !== observer);
      },
    };
  }

  /**
   * Passes records of a nested run on to this runner's observers, as they are now and will be
   * (an agent hook's own steps, run by its own runner, show in Hook Runs under its agent).
   */
  readonly relay: HookRunObserver = {
    onHookStarted: (record) => this.notify('onHookStarted', record),
    onHookFinished: (record) => this.notify('onHookFinished', record),
    onAskResolved: (record) => this.notify('onAskResolved', record),
  };

  /** True when some registration listens to `event` (lets callers skip building an input). */
  hasHooks(event: HookEvent): boolean {
    return this.registry.select(event).length > 0;
  }

  /** Runs every matching hook of `event` with `input` (a context from hookContext.ts) and merges the outcomes. */
  run(event: HookEvent, input: Input, options: HookRunOptions = NO_OPTIONS): Promise<HookEventResult> {
    const registrations = this.registry.select(event);
    if (registrations.length === 0) return emptyResult(event);
    try {
      const selected = select(event, input, registrations, options.metadata);
      if (selected === undefined) return emptyResult(event);
      return this.execute(event, input, selected, options).catch((error: unknown) => internalErrorResult(event, error));
    } catch (error) {
      return Promise.resolve(internalErrorResult(event, error));
    }
  }

  private async execute(event: HookEvent, input: Input, selected: readonly Selected[], options: HookRunOptions): Promise<HookEventResult> {
    const occurrenceId = `ho-${++occurrenceCounter}`;
    const merger = new OutcomeMerger(event, input, options.validateUpdatedInput);
    const records: HookRunRecord[] = [];
    const failures: HookRunRecord[] = [];
    const signal = options.signal;
    const cwd = options.cwd ?? str(input['cwd']) ?? this.projectDir;
    const sessionId = str(input['session_id']) ?? '';
    let cancelled = false;
    let tier: HookExecution[] = [];
    // One listener per run (not per hook): cancels whatever of the current tier is pending.
    const onAbort = (): void => {
      for (const execution of tier) execution.settle({ kind: 'cancelled' });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let i = 0;
      while (i < selected.length) {
        if (signal?.aborted) {
          cancelled = true;
          break;
        }
        const priority = (selected[i] as Selected).registration.priority;
        let tierEnd = i + 1;
        while (tierEnd < selected.length && (selected[tierEnd] as Selected).registration.priority === priority) tierEnd++;
        const tierInput = merger.input;
        tier = [];
        let waits: Promise<void>[] | undefined;
        for (let k = i; k < tierEnd; k++) {
          const s = selected[k] as Selected;
          const timeoutMs = s.registration.timeoutMs ?? s.registration.action.defaultTimeoutMs;
          const background = s.registration.background === true;
          // A background hook is not tied to this turn's Stop: it outlives the event by design, under its own timeout.
          const execution = new HookExecution(s.registration, event, timeoutMs, cwd, this.projectDir, sessionId, background ? undefined : signal, this.clock, options.env);
          if (background) {
            this.startBackground(execution, tierInput, occurrenceId, s.matchError);
            continue;
          }
          tier.push(execution);
          const wait = this.start(execution, tierInput, occurrenceId, s.matchError);
          if (wait !== undefined) (waits ??= []).push(wait);
        }
        if (waits !== undefined) await (waits.length === 1 ? waits[0] : Promise.all(waits));
        // Merge strictly in registration order, whatever the completion order was.
        for (const execution of tier) {
          let record = finishedRecord(execution, occurrenceId, tierInput);
          const reg = execution.registration;
          const end = execution.end;
          if (end?.kind === 'cancelled' || record.status === 'cancelled') {
            cancelled = true;
          } else if (end?.kind === 'result' && end.result.status === 'ok' && end.result.malformedJson !== undefined && !reg.continueOnFailure) {
            record = { ...record, status: 'failed', error: `stdout starts with "{" but is not valid JSON (${end.result.malformedJson}); Claude Code would read it as plain text, but this hook fails closed (continueOnFailure: false)`, failureReason: 'invalidOutcome' };
            this.notify('onHookFinished', record);
          } else if (end?.kind === 'result' && end.result.status === 'ok') {
            const problems = merger.add(reg, reg.action.label, end.result.outcome, end.result.plainOutput);
            if (problems.length > 0 && record.status !== 'failed') {
              record = { ...record, status: 'failed', error: problems.map((p) => p.error).join('; '), failureReason: (problems[0] as { failureReason: HookRunRecord['failureReason'] }).failureReason };
              this.notify('onHookFinished', record);
            }
          }
          if (record.status === 'failed' || record.status === 'timed-out') {
            failures.push(record);
            // A hook that never saw the rewritten call cannot have approved it: deny even if it fails open.
            if (record.failureReason === 'inputNotSerializable' && merger.rewritten) merger.denyUnseenRewrite(reg, record.error ?? record.status);
            else if (!reg.continueOnFailure) merger.failClosed(reg, record.error ?? record.status);
          }
          records.push(record);
        }
        tier = [];
        i = tierEnd;
        if (merger.decisive || cancelled) break;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }

    const merged = merger.snapshot();
    let decision = merged.decision;
    let reason = merged.reason;
    let decidedBy: DecidedBy | undefined = merged.decidedBy;
    let asked = false;
    if (decision === 'ask') {
      asked = true;
      const answer = await this.settleAsk(event, input, merged.updatedInput, records, options);
      decision = answer.decision;
      reason = answer.reason;
      decidedBy = answer.decidedBy;
      const answerReason = answer.decidedBy.kind === 'user' ? (answer.decidedBy.detail ?? answer.reason) : answer.reason;
      const permission = { decision: answer.decision, decidedBy: answer.decidedBy.kind as PermissionDecider, reason: answerReason };
      for (let k = 0; k < records.length; k++) {
        const record = records[k] as HookRunRecord;
        if (record.outcome?.decision !== 'ask') continue;
        const resolved: HookRunRecord = { ...record, permission };
        records[k] = resolved;
        const f = failures.indexOf(record);
        if (f >= 0) failures[f] = resolved;
        this.notify('onAskResolved', resolved);
      }
    }

    return {
      event,
      occurrenceId,
      ...(decision !== undefined ? { decision: decision as Exclude<typeof decision, 'ask'> } : {}),
      ...(reason !== undefined ? { reason } : {}),
      ...(decidedBy !== undefined ? { decidedBy } : {}),
      asked,
      ...(merged.updatedInput !== undefined ? { updatedInput: merged.updatedInput } : {}),
      hasUpdatedResult: merged.hasUpdatedResult,
      ...(merged.hasUpdatedResult ? { updatedResult: merged.updatedResult } : {}),
      additionalContext: merged.additionalContext,
      plainOutputs: merged.plainOutputs,
      messagesToInject: merged.messagesToInject,
      metadata: merged.metadata,
      systemMessages: merged.systemMessages,
      suppressOutput: merged.suppressOutput,
      records,
      failures,
      ...(cancelled ? { cancelled: true } : {}),
    };
  }

  /** Starts one execution; returns a promise only when it did not finish synchronously. */
  private start(execution: HookExecution, input: Input, occurrenceId: string, matchError: string | undefined): Promise<void> | undefined {
    execution.runId = `hr-${++runCounter}`;
    execution.startedAt = this.now();
    execution.startClock = this.clock();
    if (this.observers.length > 0) this.notify('onHookStarted', startedRecord(execution, occurrenceId, input));
    if (matchError !== undefined) {
      execution.settle({ kind: 'failed', failureReason: 'threw', error: `its matcher threw: ${matchError}` });
      this.finished(execution, occurrenceId, input);
      return undefined;
    }
    const action = execution.registration.action;
    let result: HookActionResult | Promise<HookActionResult>;
    try {
      // Synchronous callables finish here: no timer, no promise (they cannot be interrupted anyway).
      result = action instanceof CallableAction ? action.invoke(input, execution) : action.run(input, execution);
    } catch (thrown) {
      result = { status: 'failed', outcome: {}, error: `the action threw (actions must not throw): ${describeThrown(thrown)}` };
    }
    if (isThenable(result)) {
      return execution.race(result).then(() => this.finished(execution, occurrenceId, input));
    }
    execution.settle({ kind: 'result', result });
    this.finished(execution, occurrenceId, input);
    return undefined;
  }

  private startBackground(execution: HookExecution, input: Input, occurrenceId: string, matchError: string | undefined): void {
    const run = Promise.resolve(this.start(execution, input, occurrenceId, matchError)).then(() => {
      const end = execution.end;
      if (end?.kind !== 'result' || end.result.status !== 'ok') return;
      const { additionalContext, systemMessage } = end.result.outcome;
      if (!additionalContext && !systemMessage) return;
      // Bounded: a session that never takes its output cannot grow this without limit.
      if (this.backgroundOutput.length >= MAX_BACKGROUND_OUTPUT) this.backgroundOutput.shift();
      this.backgroundOutput.push({
        sessionId: execution.sessionId,
        event: execution.event,
        hookLabel: execution.registration.action.label,
        ...(additionalContext ? { additionalContext } : {}),
        ...(systemMessage ? { systemMessage } : {}),
      });
    });
    this.backgroundRuns.add(run);
    void run.finally(() => this.backgroundRuns.delete(run));
  }

  private finished(execution: HookExecution, occurrenceId: string, input: Input): void {
    if (this.observers.length > 0) this.notify('onHookFinished', finishedRecord(execution, occurrenceId, input));
  }

  private async settleAsk(
    event: HookEvent,
    input: Input,
    updatedInput: Input | undefined,
    records: readonly HookRunRecord[],
    options: HookRunOptions,
  ): Promise<{ decision: 'allow' | 'deny'; reason: string; decidedBy: DecidedBy & { kind: PermissionDecider } }> {
    const askers = records.filter((r) => r.outcome?.decision === 'ask');
    const askReason = askers.map((r) => r.outcome?.reason ?? `${r.hookLabel} asked`).join('\n');
    const signal = options.signal;
    const cancelled = { decision: 'deny', reason: `${askReason}\n(cancelled while asking)`, decidedBy: { kind: 'fallback', detail: 'cancelled' } } as const;
    if (signal?.aborted) return cancelled;
    const provider = options.permissionProvider ?? this.permissionProvider;
    if (provider === undefined) {
      return { decision: this.askFallback, reason: askReason, decidedBy: { kind: 'fallback', detail: `no permission provider; askFallback: ${this.askFallback}` } };
    }
    const first = askers[0];
    const toolName = TOOL_EVENTS.has(event) ? str(input['tool_name']) : undefined;
    const toolInput = TOOL_EVENTS.has(event) ? (updatedInput ?? (input['tool_input'] as Input | undefined)) : undefined;
    const request: PermissionRequest = {
      agentId: first?.agentId ?? '',
      parentAgentId: first?.parentAgentId ?? null,
      agentType: first?.agentType ?? 'main',
      sessionId: str(input['session_id']) ?? '',
      event,
      ...(toolName !== undefined ? { toolName } : {}),
      ...(toolInput !== undefined ? { toolInput } : {}),
      reason: askReason,
      kind: 'hook',
      askedBy: askers.map((r) => ({ hookLabel: r.hookLabel, source: r.source })),
    };
    try {
      const asked = provider.requestPermission(request, signal ?? new AbortController().signal);
      const answer = signal === undefined ? await asked : await raceAbort(asked, signal);
      if (answer?.decision !== 'allow' && answer?.decision !== 'deny') {
        return { decision: 'deny', reason: `${askReason}\n(the permission provider gave no allow/deny answer; denied)`, decidedBy: { kind: 'fallback', detail: 'invalid permission answer' } };
      }
      const by = answer.decidedBy;
      const kind: DecidedBy & { kind: PermissionDecider } = by === undefined || by === 'hook' ? { kind: 'user', ...(answer.reason ? { detail: answer.reason } : {}) } : { kind: by };
      // A person answered the hook's question: the reason stays the hook's (what the model and
      // the card show); how the person answered is the decider's detail.
      return { decision: answer.decision, reason: kind.kind === 'user' ? askReason : (answer.reason ?? askReason), decidedBy: kind };
    } catch (thrown) {
      // A Stop while the question is open settles it as cancelled, whatever the provider did.
      if (signal?.aborted) return cancelled;
      const error = describeThrown(thrown);
      return { decision: 'deny', reason: `${askReason}\n(permission provider failed: ${error}; denied)`, decidedBy: { kind: 'fallback', detail: `permission provider failed: ${error}` } };
    }
  }

  private notify(method: keyof HookRunObserver, record: HookRunRecord): void {
    for (const observer of this.observers) {
      try {
        observer[method]?.(record);
      } catch {
        // An observer's bug must never change what the hooks decided.
      }
    }
  }

  /**
   * "Re-run with This Input": runs the registered hook `hookId` once more, alone, with a
   * recorded input, outside any agent turn. Observers see it start and finish once each, in
   * `occurrenceId` (so it shows beside the original), and its status follows the same rules
   * as any run. Resolves to the finished record, or undefined when no such hook is registered
   * now; `signal` cancels it; the hook's own timeout applies.
   */
  async rerun(hookId: string, input: Input, options: { readonly event: HookEvent; readonly occurrenceId: string; readonly signal?: AbortSignal }): Promise<HookRunRecord | undefined> {
    const registration = this.registry.list().find((r) => r.id === hookId && r.event === options.event);
    if (registration === undefined) return undefined;
    const timeoutMs = registration.timeoutMs ?? registration.action.defaultTimeoutMs;
    const { signal, occurrenceId } = options;
    const execution = new HookExecution(registration, options.event, timeoutMs, str(input['cwd']) ?? this.projectDir, this.projectDir, str(input['session_id']) ?? '', signal, this.clock);
    const cancel = (): void => execution.settle({ kind: 'cancelled' });
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const pending = this.start(execution, input, occurrenceId, undefined);
      if (signal?.aborted) cancel();
      await pending;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
    return finishedRecord(execution, occurrenceId, input);
  }
}

/** Selects the registrations that run, in order; undefined when none (no allocation). */
function select(event: HookEvent, input: Input, registrations: readonly HookRegistration[], metadata: Input | undefined): Selected[] | undefined {
  const target: MatchTarget = metadata === undefined ? { event, input } : { event, input, metadata };
  const agentType = input['agent_type'];
  let selected: Selected[] | undefined;
  let dedup: Set<string> | undefined;
  for (const registration of registrations) {
    if (registration.agentType !== undefined && registration.agentType !== agentType) continue;
    let matchError: string | undefined;
    try {
      if (!registration.matcher.matches(target)) continue;
    } catch (thrown) {
      matchError = describeThrown(thrown);
    }
    // Spec §4.6: identical commands/prompts from several sources run once; the first (in run order) is kept.
    const key = registration.background === true ? undefined : registration.action.dedupKey;
    if (key !== undefined) {
      dedup ??= new Set();
      const scoped = `${registration.action.kind}\u0000${key}`;
      if (dedup.has(scoped)) continue;
      dedup.add(scoped);
    }
    (selected ??= []).push(matchError === undefined ? { registration } : { registration, matchError });
  }
  return selected;
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
  const field = MATCHER_FIELD[execution.event];
  return {
    runId: execution.runId,
    occurrenceId,
    sessionId: execution.sessionId,
    agentId: str(input['agent_id']) ?? '',
    parentAgentId: str(input['parent_agent_id']) ?? null,
    agentType: str(input['agent_type']) ?? 'main',
    event: execution.event,
    matchValue: field === undefined ? undefined : str(input[field]),
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
    raw,
    error,
    failureReason,
    permission: undefined,
  };
}

function startedRecord(execution: HookExecution, occurrenceId: string, input: Input): HookRunRecord {
  return makeRecord(execution, occurrenceId, input, 'running', undefined, undefined, undefined, undefined, undefined);
}

/** The record of a settled execution, its status derived from how it ended and what it returned. */
function finishedRecord(execution: HookExecution, occurrenceId: string, input: Input): HookRunRecord {
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
      if (r.status === 'failed') return makeRecord(execution, occurrenceId, input, 'failed', durationMs, undefined, r.raw, r.error ?? 'the action failed', r.failureReason ?? 'actionFailed');
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

/** Last resort if the runner itself has a bug: no decision, the error in `reason`, never a throw. */
function internalErrorResult(event: HookEvent, error: unknown): HookEventResult {
  return {
    event,
    occurrenceId: `ho-${++occurrenceCounter}`,
    reason: `hook runner internal error: ${describeThrown(error)}`,
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
  };
}
