import type { HookActionResult } from './hookAction';
import { CallableAction } from './callableAction';
import type { HookEvent } from './hookEvent';
import { HookExecution } from './hookExecution';
import type { HookDisposable, HookRegistry } from './hookRegistry';
import type { BackgroundHookOutput, HookEventResult, HookRunObserver, HookRunRecord } from './hookRunTypes';
import type { AskAnswer, Selected, SkippedHook } from './hookRunRecords';
import {
  emptyResult,
  finishedRecord,
  internalErrorResult,
  mergeMayFail,
  nextOccurrenceId,
  refusedByFailClosed,
  RUN_ID_TAG,
  select,
  skillKey,
  startedRecord,
  str,
  withAskAnswer,
} from './hookRunRecords';
import type { UpdatedInputValidator } from './mergeOutcomes';
import { OutcomeMerger } from './mergeOutcomes';
import { describeThrown } from '../shared/describeThrown';

/** Construction options of a HookRunner. */
export interface HookRunnerOptions {
  readonly observers?: readonly HookRunObserver[];
  /** Workspace root, exported to command hooks as CLAUDE_PROJECT_DIR. */
  readonly projectDir: string;
  /** Clock in epoch ms (tests); also used for durations when given. */
  readonly now?: () => number;
}

/** Options of one `run`. */
export interface HookRunOptions {
  /** The user's Stop: pending hooks become `cancelled` and the result says `cancelled`. */
  readonly signal?: AbortSignal;
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
const SKIP_SCRATCH: SkippedHook[] = [];

/** Most pending background-hook outputs kept across sessions; the oldest go first. */
const MAX_BACKGROUND_OUTPUT = 200;

// Counter ids: unique per process, cheap (no crypto in the hot path).
let runCounter = 0;

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Runs the hooks of one event occurrence: select (index by event, matchers
 * compiled at registration, agent scope, dedup of identical commands), order (priority desc,
 * then registration order), run (concurrent within a priority tier, tiers one after another,
 * each tier seeing the input as rewritten by earlier tiers), merge (registration order, never
 * completion order; see OutcomeMerger). An `ask` is returned as data with the hooks that
 * asked: the runner asks nobody (the agent's permission gate does). Every execution is
 * reported to the observers once when it starts and once when its record is final.
 *
 * `run` never throws and never leaves its promise pending: a hook that throws, hangs past its
 * timeout, returns a wrong shape or an unusable rewrite becomes a failure record; a failure
 * is fail-open unless the hook set `continueOnFailure: false`, which turns it into a deny.
 */
export class HookRunner {
  private observers: readonly HookRunObserver[];
  private readonly projectDir: string;
  private readonly now: () => number;
  private readonly clock: () => number;
  /** What finished background (async) hooks said, until the session's agent takes it. */
  private backgroundOutput: BackgroundHookOutput[] = [];
  private readonly backgroundRuns = new Set<Promise<void>>();
  /** `session\0hookId` of every `once` hook that ran (bounded by sessions × once hooks). */
  private readonly onceRan = new Set<string>();
  /** `session\0skill` of every skill a session loaded (its SKILL.md hooks run from then on), with when (epoch ms). */
  private readonly activeSkills = new Map<string, number>();

  constructor(
    private readonly registry: HookRegistry,
    options: HookRunnerOptions,
  ) {
    this.observers = options.observers ? [...options.observers] : NONE;
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

  /**
   * Turns on the hooks of skill `skill` (its SKILL.md `hooks:`) for session `sessionId`, for
   * the rest of that session, as Claude Code does from the Skill call on.
   */
  activateSkill(sessionId: string, skill: string): void {
    const key = skillKey(sessionId, skill);
    if (!this.activeSkills.has(key)) this.activeSkills.set(key, this.now());
  }

  /**
   * The skills session `sessionId` had loaded (see {@link activateSkill}) by epoch ms `at`
   * (default: now), for explaining an occurrence as it was when it happened.
   */
  skillsOf(sessionId: string, at = Infinity): ReadonlySet<string> {
    const prefix = skillKey(sessionId, '');
    const out = new Set<string>();
    for (const [key, when] of this.activeSkills) if (when <= at && key.startsWith(prefix)) out.add(key.slice(prefix.length));
    return out;
  }

  /** True when some registration listens to `event` (lets callers skip building an input). */
  hasHooks(event: HookEvent): boolean {
    return this.registry.select(event).length > 0;
  }

  /** Runs every matching hook of `event` with `input` (a context from hookContext.ts) and merges the outcomes. */
  run(event: HookEvent, input: Input, options: HookRunOptions = NO_OPTIONS): Promise<HookEventResult> {
    const registrations = this.registry.select(event);
    if (registrations.length === 0) return emptyResult(event);
    try {
      // select() is synchronous: one scratch array serves every run (no allocation when nothing is skipped).
      SKIP_SCRATCH.length = 0;
      const selected = select(event, input, registrations, options.metadata, SKIP_SCRATCH, this.onceRan, this.activeSkills);
      const skipped = SKIP_SCRATCH.length === 0 ? NONE : SKIP_SCRATCH.slice();
      if (selected === undefined) return skipped.length === 0 ? emptyResult(event) : emptyResult(event).then((empty) => ({ ...empty, skipped }));
      return this.execute(event, input, selected, options).then(
        (result) => (skipped.length === 0 ? result : { ...result, skipped }),
        (error: unknown) => internalErrorResult(event, error),
      );
    } catch (error) {
      return Promise.resolve(internalErrorResult(event, error));
    }
  }

  private async execute(event: HookEvent, input: Input, selected: readonly Selected[], options: HookRunOptions): Promise<HookEventResult> {
    const occurrenceId = nextOccurrenceId();
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
          const execution = new HookExecution(
            s.registration,
            event,
            timeoutMs,
            cwd,
            this.projectDir,
            sessionId,
            background ? undefined : signal,
            this.clock,
            options.env,
          );
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
          let record = execution.record ?? finishedRecord(execution, occurrenceId, tierInput);
          const reg = execution.registration;
          const end = execution.end;
          if (end?.kind === 'cancelled' || record.status === 'cancelled') {
            cancelled = true;
          } else if (end?.kind === 'result' && end.result.status === 'ok' && !refusedByFailClosed(end.result, reg)) {
            const problems = merger.add(reg, reg.action.label, end.result.outcome, end.result.plainOutput);
            if (problems.length > 0 && record.status !== 'failed') {
              record = {
                ...record,
                status: 'failed',
                error: problems.map((p) => p.error).join('; '),
                failureReason: (problems[0] as { failureReason: HookRunRecord['failureReason'] }).failureReason,
              };
            }
          }
          // Held back at completion because merging could still fail it: final now, reported once.
          if (execution.reportOnMerge) this.notify('onHookFinished', record);
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
    const asks = merged.decision === 'ask' ? records.filter((r) => r.outcome?.decision === 'ask') : undefined;
    return {
      event,
      occurrenceId,
      ...(merged.decision !== undefined ? { decision: merged.decision } : {}),
      ...(merged.reason !== undefined ? { reason: merged.reason } : {}),
      ...(merged.decidedBy !== undefined ? { decidedBy: merged.decidedBy } : {}),
      asked: false,
      ...(asks !== undefined ? { askedBy: asks } : {}),
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

  /**
   * Records how the permission gate settled this result's ask: the asking records get
   * `permission` and are reported through `onAskResolved`. Decides nothing.
   */
  recordAskAnswer(result: HookEventResult, answer: AskAnswer): HookEventResult {
    const settled = withAskAnswer(result, answer);
    for (const record of settled.records) if (record.permission !== undefined) this.notify('onAskResolved', record);
    return settled;
  }

  /** Starts one execution; returns a promise only when it did not finish synchronously. */
  private start(execution: HookExecution, input: Input, occurrenceId: string, matchError: string | undefined): Promise<void> | undefined {
    execution.runId = `hr-${RUN_ID_TAG}-${++runCounter}`;
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

  /** Builds the finished record once; reports it now unless merging may still change it. */
  private finished(execution: HookExecution, occurrenceId: string, input: Input): void {
    const record = finishedRecord(execution, occurrenceId, input);
    execution.record = record;
    // A background hook is never merged: its record is final when it ends.
    execution.reportOnMerge = execution.registration.background !== true && mergeMayFail(record);
    if (!execution.reportOnMerge && this.observers.length > 0) this.notify('onHookFinished', record);
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
  async rerun(
    hookId: string,
    input: Input,
    options: { readonly event: HookEvent; readonly occurrenceId: string; readonly signal?: AbortSignal },
  ): Promise<HookRunRecord | undefined> {
    const registration = this.registry.list().find((r) => r.id === hookId && r.event === options.event);
    if (registration === undefined) return undefined;
    const timeoutMs = registration.timeoutMs ?? registration.action.defaultTimeoutMs;
    const { signal, occurrenceId } = options;
    const execution = new HookExecution(
      registration,
      options.event,
      timeoutMs,
      str(input['cwd']) ?? this.projectDir,
      this.projectDir,
      str(input['session_id']) ?? '',
      signal,
      this.clock,
    );
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
