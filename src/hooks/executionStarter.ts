import type { HookActionResult } from './hookAction';
import { CallableAction } from './callableAction';
import type { HookExecution } from './hookExecution';
import type { HookObservers } from './hookObservers';
import { finishedRecord, mergeMayFail, RUN_ID_TAG, startedRecord } from './hookRunRecords';
import { describeThrown } from '../shared/describeThrown';

type Input = Readonly<Record<string, unknown>>;

// Counter ids: unique per process, cheap (no crypto in the hot path).
let runCounter = 0;

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Starts single hook executions and reports them: once when one starts, once when its record
 * is final (at its end, or at merge time when merging may still fail it). An action that
 * throws, or a matcher that threw, ends the execution as a failure; nothing here throws.
 */
export class ExecutionStarter {
  constructor(
    private readonly observers: HookObservers,
    /** Epoch ms, for the records. */
    private readonly now: () => number,
    /** For durations. */
    private readonly clock: () => number,
  ) {}

  /** Starts `execution` on `input`; returns a promise only when it did not finish synchronously. */
  start(execution: HookExecution, input: Input, occurrenceId: string, matchError: string | undefined): Promise<void> | undefined {
    execution.runId = `hr-${RUN_ID_TAG}-${++runCounter}`;
    execution.startedAt = this.now();
    execution.startClock = this.clock();
    if (this.observers.any) this.observers.notify('onHookStarted', startedRecord(execution, occurrenceId, input));
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

  /** Builds the finished record once; reports it now unless merging may still change it. */
  private finished(execution: HookExecution, occurrenceId: string, input: Input): void {
    const record = finishedRecord(execution, occurrenceId, input);
    execution.record = record;
    // A background hook is never merged: its record is final when it ends.
    execution.reportOnMerge = execution.registration.background !== true && mergeMayFail(record);
    if (!execution.reportOnMerge && this.observers.any) this.observers.notify('onHookFinished', record);
  }
}
