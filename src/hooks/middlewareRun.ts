import type { HookExecution } from './hookExecution';
import type { MiddlewareInvocation } from './hookMiddleware';
import type { MiddlewareAction } from './hookMiddleware';
import type { HookObservers } from './hookObservers';
import type { HookOutcome } from './hookOutcome';
import { decisionRank } from './hookOutcome';
import type { HookRegistration } from './hookRegistry';
import { finishedRecord, refusedByFailClosed } from './hookRunRecords';
import type { HookRunRecord } from './hookRunTypes';
import type { RunTally } from './hookTierMerge';
import type { MergedOutcome, MergeProblem } from './mergeOutcomes';
import { OutcomeMerger } from './mergeOutcomes';

type Input = Readonly<Record<string, unknown>>;

type Step =
  | { readonly kind: 'add'; readonly hook: HookRegistration; readonly label: string; readonly outcome: HookOutcome; readonly plainOutput?: string }
  | { readonly kind: 'failClosed' | 'denyUnseenRewrite'; readonly hook: HookRegistration; readonly error: string };

/**
 * The merger of the hooks below a middleware: merges like any other and remembers each step,
 * so that when the middleware keeps what `next()` returned, the steps are merged again into
 * the event's merger exactly as if there were no middleware (same decider, same order).
 */
export class RecordingMerger extends OutcomeMerger {
  private readonly steps: Step[] = [];

  override add(hook: HookRegistration, label: string, outcome: HookOutcome, plainOutput?: string): MergeProblem[] {
    this.steps.push({ kind: 'add', hook, label, outcome, ...(plainOutput !== undefined ? { plainOutput } : {}) });
    return super.add(hook, label, outcome, plainOutput);
  }

  override failClosed(hook: HookRegistration, error: string): void {
    this.steps.push({ kind: 'failClosed', hook, error });
    super.failClosed(hook, error);
  }

  override denyUnseenRewrite(hook: HookRegistration, error: string): void {
    this.steps.push({ kind: 'denyUnseenRewrite', hook, error });
    super.denyUnseenRewrite(hook, error);
  }

  /** Merges every recorded step into `target`, in order. */
  replayInto(target: OutcomeMerger): void {
    for (const step of this.steps) {
      if (step.kind === 'add') target.add(step.hook, step.label, step.outcome, step.plainOutput);
      else if (step.kind === 'failClosed') target.failClosed(step.hook, step.error);
      else target.denyUnseenRewrite(step.hook, step.error);
    }
  }
}

/** The merged outcome of the hooks below a middleware, as the HookOutcome its `next()` resolves to. */
export function outcomeOfMerged(m: MergedOutcome): HookOutcome {
  return Object.freeze({
    ...(m.decision !== undefined ? { decision: m.decision } : {}),
    ...(m.reason !== undefined ? { reason: m.reason } : {}),
    ...(m.updatedInput !== undefined ? { updatedInput: m.updatedInput } : {}),
    ...(m.hasUpdatedResult ? { updatedResult: m.updatedResult } : {}),
    ...(m.additionalContext.length > 0 ? { additionalContext: m.additionalContext.join('\n') } : {}),
    ...(m.messagesToInject.length > 0 ? { messagesToInject: m.messagesToInject } : {}),
    ...(Object.keys(m.metadata).length > 0 ? { metadataToMerge: m.metadata } : {}),
    ...(m.systemMessages.length > 0 ? { systemMessage: m.systemMessages.join('\n') } : {}),
    ...(m.suppressOutput ? { suppressOutput: true } : {}),
  });
}

/** What ran below a middleware, once its `next()` was called. */
export interface BelowRun {
  readonly merger: RecordingMerger;
  readonly tally: RunTally;
  cancelled: boolean;
}

/** What {@link runMiddleware} needs from the runner. */
export interface MiddlewareRunDeps {
  readonly occurrenceId: string;
  readonly input: Input;
  readonly merger: OutcomeMerger;
  readonly tally: RunTally;
  readonly observers: HookObservers;
  /** A new execution of `registration` (its action already bound). */
  readonly execution: (registration: HookRegistration) => HookExecution;
  /** Starts an execution; a promise only when it did not finish synchronously. */
  readonly start: (execution: HookExecution, input: Input) => Promise<void> | undefined;
  /** Runs the hooks after the middleware into `below` (tiers, nested middlewares); true when cancelled. */
  readonly runBelow: (merger: RecordingMerger, tally: RunTally) => Promise<boolean>;
  /** The execution in flight, for the run's abort listener. */
  readonly track: (execution: HookExecution) => void;
  readonly validate: ConstructorParameters<typeof OutcomeMerger>[2];
}

/**
 * Runs one middleware registration: its `next()` runs every hook after it (into a merger of
 * their own), then its outcome is merged (see HookMiddlewareFn for which one counts). Records:
 * the middleware's, then those below it, in registration order. True when cancelled.
 */
export async function runMiddleware(registration: HookRegistration & { readonly action: MiddlewareAction }, d: MiddlewareRunDeps): Promise<boolean> {
  const invocation: MiddlewareInvocation = { nextOutcome: undefined, keptBelow: false };
  let below: BelowRun | undefined;
  let belowDone: Promise<unknown> | undefined;
  const mw = registration.action;
  const bound: MiddlewareAction = Object.create(mw) as MiddlewareAction;
  bound.run = (input, ctx) =>
    mw.runWith(
      input,
      ctx,
      () => {
        const run: BelowRun = { merger: new RecordingMerger(ctx.event, d.merger.input, d.validate), tally: { records: [], failures: [] }, cancelled: false };
        below = run;
        const done = d.runBelow(run.merger, run.tally).then((cancelled) => {
          run.cancelled = cancelled;
          return outcomeOfMerged(run.merger.snapshot());
        });
        belowDone = done;
        return done;
      },
      invocation,
    );
  const execution = d.execution({ ...registration, action: bound });
  d.track(execution);
  const wait = d.start(execution, d.merger.input);
  if (wait !== undefined) await wait;
  // A middleware that timed out or failed while the stack below still ran: its records are still owed.
  if (belowDone !== undefined) await belowDone.catch(() => undefined);
  return mergeMiddleware(execution, invocation, below, d);
}

function mergeMiddleware(execution: HookExecution, invocation: MiddlewareInvocation, below: BelowRun | undefined, d: MiddlewareRunDeps): boolean {
  const reg = execution.registration;
  let record: HookRunRecord = execution.record ?? finishedRecord(execution, d.occurrenceId, d.input);
  const end = execution.end;
  let cancelled = end?.kind === 'cancelled' || record.status === 'cancelled';
  const own = !cancelled && end?.kind === 'result' && end.result.status === 'ok' && !refusedByFailClosed(end.result, reg) ? end.result : undefined;
  // The outcome below stands when the middleware kept it, gave nothing of its own, or would weaken its deny or stop.
  const keepBelow =
    below !== undefined &&
    (invocation.keptBelow || own === undefined || (below.merger.decisive && decisionRank(own.outcome.decision) < decisionRank(below.merger.decision)));
  if (keepBelow) below?.merger.replayInto(d.merger);
  else if (own !== undefined) {
    const problems = d.merger.add(reg, reg.action.label, own.outcome, own.plainOutput);
    if (problems.length > 0 && record.status !== 'failed') {
      record = { ...record, status: 'failed', error: problems.map((p) => p.error).join('; '), failureReason: problems[0]?.failureReason ?? 'invalidOutcome' };
    }
  }
  if (execution.reportOnMerge) d.observers.notify('onHookFinished', record);
  if ((record.status === 'failed' || record.status === 'timed-out') && !reg.continueOnFailure) d.merger.failClosed(reg, record.error ?? record.status);
  if (record.status === 'failed' || record.status === 'timed-out') d.tally.failures.push(record);
  d.tally.records.push(record);
  if (below !== undefined) {
    d.tally.records.push(...below.tally.records);
    d.tally.failures.push(...below.tally.failures);
    cancelled ||= below.cancelled;
  }
  return cancelled;
}
