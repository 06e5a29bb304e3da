import { BackgroundHookOutputs } from './backgroundHookOutputs';
import { ExecutionStarter } from './executionStarter';
import type { HookEvent } from './hookEvent';
import { HookExecution } from './hookExecution';
import { isMiddleware } from './hookMiddleware';
import { HookObservers } from './hookObservers';
import type { HookDisposable, HookRegistry } from './hookRegistry';
import type { BackgroundHookOutput, HookEventResult, HookRunObserver, HookRunRecord } from './hookRunTypes';
import type { AskAnswer, Selected, SkippedHook } from './hookRunRecords';
import { emptyResult, finishedRecord, internalErrorResult, nextOccurrenceId, select, str, withAskAnswer } from './hookRunRecords';
import type { RunTally } from './hookTierMerge';
import { eventResultOf, mergeTier } from './hookTierMerge';
import type { UpdatedInputValidator } from './mergeOutcomes';
import { OutcomeMerger } from './mergeOutcomes';
import { SkillActivations } from './skillActivations';
import { runMiddleware } from './middlewareRun';

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

/** One event occurrence being run: what its hooks share. */
interface Occurrence {
  readonly event: HookEvent;
  readonly occurrenceId: string;
  /** Where its command hooks run. */
  readonly cwd: string;
  readonly sessionId: string;
  readonly options: HookRunOptions;
}

const NO_OPTIONS: HookRunOptions = Object.freeze({});
const NONE: readonly never[] = Object.freeze([]);
const SKIP_SCRATCH: SkippedHook[] = [];

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
  private readonly observers: HookObservers;
  private readonly projectDir: string;
  private readonly now: () => number;
  private readonly clock: () => number;
  private readonly background = new BackgroundHookOutputs();
  private readonly starter: ExecutionStarter;
  /** `session\0hookId` of every `once` hook that ran (bounded by sessions × once hooks). */
  private readonly onceRan = new Set<string>();
  private readonly skills = new SkillActivations();

  constructor(
    private readonly registry: HookRegistry,
    options: HookRunnerOptions,
  ) {
    this.observers = new HookObservers(options.observers);
    this.projectDir = options.projectDir;
    this.now = options.now ?? Date.now;
    this.clock = options.now ?? (() => performance.now());
    this.starter = new ExecutionStarter(this.observers, this.now, this.clock);
  }

  /**
   * Takes (and forgets) what the background hooks of `sessionId` said since the last call:
   * the agent loop adds it before its next model call, as Claude Code delivers async hook
   * output on the next turn.
   */
  takeBackgroundOutput(sessionId: string): BackgroundHookOutput[] {
    return this.background.take(sessionId);
  }

  /** Resolves when every background hook started so far has finished (tests, shutdown). */
  settleBackground(): Promise<void> {
    return this.background.settle();
  }

  /** Subscribes an observer (the tree view, the log…); dispose to unsubscribe. */
  addObserver(observer: HookRunObserver): HookDisposable {
    return this.observers.add(observer);
  }

  /**
   * Passes records of a nested run on to this runner's observers, as they are now and will be
   * (an agent hook's own steps, run by its own runner, show in Hook Runs under its agent).
   */
  readonly relay: HookRunObserver = {
    onHookStarted: (record) => this.observers.notify('onHookStarted', record),
    onHookFinished: (record) => this.observers.notify('onHookFinished', record),
    onAskResolved: (record) => this.observers.notify('onAskResolved', record),
  };

  /**
   * Turns on the hooks of skill `skill` (its SKILL.md `hooks:`) for session `sessionId`, for
   * the rest of that session, as Claude Code does from the Skill call on.
   */
  activateSkill(sessionId: string, skill: string): void {
    this.skills.activate(sessionId, skill, this.now());
  }

  /**
   * The skills session `sessionId` had loaded (see {@link activateSkill}) by epoch ms `at`
   * (default: now), for explaining an occurrence as it was when it happened.
   */
  skillsOf(sessionId: string, at = Infinity): ReadonlySet<string> {
    return this.skills.of(sessionId, at);
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
      const selected = select(event, input, registrations, options.metadata, SKIP_SCRATCH, this.onceRan, this.skills);
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
    const occurrence: Occurrence = {
      event,
      occurrenceId,
      cwd: options.cwd ?? str(input['cwd']) ?? this.projectDir,
      sessionId: str(input['session_id']) ?? '',
      options,
    };
    const merger = new OutcomeMerger(event, input, options.validateUpdatedInput);
    const tally: RunTally = { records: [], failures: [] };
    const cancelled = await this.runFrom(occurrence, selected, 0, merger, tally);
    return eventResultOf(event, occurrenceId, merger, tally, cancelled);
  }

  /**
   * Runs `selected[from..]` tier by tier into `merger` and `tally`; true when cancelled. A
   * middleware ends a tier: it runs alone, and everything after it runs inside its `next()`.
   * After a tier that denied or stopped, only the hooks marked `runsAfterDecision` run.
   */
  private async runFrom(occurrence: Occurrence, selected: readonly Selected[], from: number, merger: OutcomeMerger, tally: RunTally): Promise<boolean> {
    const signal = occurrence.options.signal;
    let cancelled = false;
    let tier: HookExecution[] = [];
    // One listener per run (not per hook): cancels whatever of the current tier is pending.
    const onAbort = (): void => {
      for (const execution of tier) execution.settle({ kind: 'cancelled' });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let i = from;
      while (i < selected.length) {
        if (signal?.aborted) return true;
        const first = (selected[i] as Selected).registration;
        if (isMiddleware(first)) return await this.middleware(occurrence, selected, i, merger, tally, (e) => (tier = [e]));
        let tierEnd = i + 1;
        while (
          tierEnd < selected.length &&
          (selected[tierEnd] as Selected).registration.priority === first.priority &&
          !isMiddleware((selected[tierEnd] as Selected).registration)
        )
          tierEnd++;
        const tierInput = merger.input;
        tier = [];
        const waits = this.startTier(occurrence, selected, i, tierEnd, tierInput, tier);
        if (waits !== undefined) await (waits.length === 1 ? waits[0] : Promise.all(waits));
        if (mergeTier(tier, tierInput, occurrence.occurrenceId, merger, tally, this.observers)) cancelled = true;
        tier = [];
        i = tierEnd;
        if (cancelled) break;
        if (merger.decisive) {
          // A deny or stop ends the event's other hooks, except those that see every occurrence.
          const rest = selected.slice(tierEnd).filter((s) => s.registration.runsAfterDecision === true);
          if (rest.length > 0) cancelled = await this.runFrom(occurrence, rest, 0, merger, tally);
          break;
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return cancelled;
  }

  /** Runs the middleware `selected[at]`, its `next()` being the rest of the stack (middlewareRun.ts). */
  private middleware(
    occurrence: Occurrence,
    selected: readonly Selected[],
    at: number,
    merger: OutcomeMerger,
    tally: RunTally,
    track: (execution: HookExecution) => void,
  ): Promise<boolean> {
    const s = selected[at] as Selected & { readonly registration: Parameters<typeof runMiddleware>[0] };
    const { options, occurrenceId } = occurrence;
    return runMiddleware(s.registration, {
      occurrenceId,
      input: merger.input,
      merger,
      tally,
      observers: this.observers,
      validate: options.validateUpdatedInput,
      execution: (registration) =>
        new HookExecution(
          registration,
          occurrence.event,
          registration.timeoutMs ?? registration.action.defaultTimeoutMs,
          occurrence.cwd,
          this.projectDir,
          occurrence.sessionId,
          options.signal,
          this.clock,
          options.env,
        ),
      start: (execution, input) => this.starter.start(execution, input, occurrenceId, s.matchError),
      runBelow: (below, belowTally) => this.runFrom(occurrence, selected, at + 1, below, belowTally),
      track,
    });
  }

  /**
   * Starts the hooks `selected[from..to)` of one priority tier on `tierInput`, concurrently:
   * the foreground ones go into `tier`, a background one runs on its own. Returns what to wait
   * for, or undefined when every foreground hook finished synchronously.
   */
  private startTier(
    occurrence: Occurrence,
    selected: readonly Selected[],
    from: number,
    to: number,
    tierInput: Input,
    tier: HookExecution[],
  ): Promise<void>[] | undefined {
    const { event, occurrenceId, options } = occurrence;
    let waits: Promise<void>[] | undefined;
    for (let k = from; k < to; k++) {
      const s = selected[k] as Selected;
      const timeoutMs = s.registration.timeoutMs ?? s.registration.action.defaultTimeoutMs;
      const background = s.registration.background === true;
      // A background hook is not tied to this turn's Stop: it outlives the event by design, under its own timeout.
      const execution = new HookExecution(
        s.registration,
        event,
        timeoutMs,
        occurrence.cwd,
        this.projectDir,
        occurrence.sessionId,
        background ? undefined : options.signal,
        this.clock,
        options.env,
      );
      if (background) {
        this.background.track(execution, Promise.resolve(this.starter.start(execution, tierInput, occurrenceId, s.matchError)));
        continue;
      }
      tier.push(execution);
      const wait = this.starter.start(execution, tierInput, occurrenceId, s.matchError);
      if (wait !== undefined) (waits ??= []).push(wait);
    }
    return waits;
  }

  /**
   * Records how the permission gate settled this result's ask: the asking records get
   * `permission` and are reported through `onAskResolved`. Decides nothing.
   */
  recordAskAnswer(result: HookEventResult, answer: AskAnswer): HookEventResult {
    const settled = withAskAnswer(result, answer);
    for (const record of settled.records) if (record.permission !== undefined) this.observers.notify('onAskResolved', record);
    return settled;
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
      const pending = this.starter.start(execution, input, occurrenceId, undefined);
      if (signal?.aborted) cancel();
      await pending;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
    return finishedRecord(execution, occurrenceId, input);
  }
}
