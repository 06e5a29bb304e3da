import type { HookEvent } from './hookEvent';
import type { HookExecution } from './hookExecution';
import type { HookObservers } from './hookObservers';
import type { HookEventResult, HookRunRecord } from './hookRunTypes';
import { finishedRecord, refusedByFailClosed } from './hookRunRecords';
import type { OutcomeMerger } from './mergeOutcomes';
import { describeModelEdit } from './modelEditSummary';

type Input = Readonly<Record<string, unknown>>;

/** The records of one event occurrence so far, in registration order, and its failures. */
export interface RunTally {
  readonly records: HookRunRecord[];
  readonly failures: HookRunRecord[];
}

/**
 * Merges the executions of one finished priority tier into `merger`, strictly in registration
 * order whatever the completion order was, and adds their final records to `tally`. A record
 * held back at completion because merging could still fail it is reported now, once. A failed
 * hook fails closed unless it set `continueOnFailure`. Returns true when one was cancelled.
 */
export function mergeTier(
  tier: readonly HookExecution[],
  tierInput: Input,
  occurrenceId: string,
  merger: OutcomeMerger,
  tally: RunTally,
  observers: HookObservers,
): boolean {
  let cancelled = false;
  for (const execution of tier) {
    let record = execution.record ?? finishedRecord(execution, occurrenceId, tierInput);
    const reg = execution.registration;
    const end = execution.end;
    if (end?.kind === 'cancelled' || record.status === 'cancelled') {
      cancelled = true;
    } else if (end?.kind === 'result' && end.result.status === 'ok' && !refusedByFailClosed(end.result, reg)) {
      const problems = merger.add(reg, reg.action.label, end.result.outcome, end.result.plainOutput);
      const effect = problems.length === 0 ? describeModelEdit(record.event, tierInput, end.result.outcome) : undefined;
      if (effect !== undefined) record = { ...record, effect };
      if (problems.length > 0 && record.status !== 'failed') {
        record = {
          ...record,
          status: 'failed',
          error: problems.map((p) => p.error).join('; '),
          failureReason: (problems[0] as { failureReason: HookRunRecord['failureReason'] }).failureReason,
        };
      }
    }
    if (execution.reportOnMerge) observers.notify('onHookFinished', record);
    if (record.status === 'failed' || record.status === 'timed-out') {
      tally.failures.push(record);
      // A hook that never saw the rewritten call cannot have approved it: deny even if it fails open.
      if (record.failureReason === 'inputNotSerializable' && merger.rewritten) merger.denyUnseenRewrite(reg, record.error ?? record.status);
      else if (!reg.continueOnFailure) merger.failClosed(reg, record.error ?? record.status);
    }
    tally.records.push(record);
  }
  return cancelled;
}

/** The result of one event occurrence: what `merger` made of the hooks in `tally`. */
export function eventResultOf(event: HookEvent, occurrenceId: string, merger: OutcomeMerger, tally: RunTally, cancelled: boolean): HookEventResult {
  const merged = merger.snapshot();
  const { records, failures } = tally;
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
    ...(merged.modelEdits.length > 0 ? { modelEdits: merged.modelEdits } : {}),
    records,
    failures,
    ...(cancelled ? { cancelled: true } : {}),
  };
}
