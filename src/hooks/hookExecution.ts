import type { HookActionContext, HookActionResult, HookRawOutput } from './hookAction';
import type { HookEvent } from './hookEvent';
import type { HookFailureReason } from './hookErrors';
import { MAX_TIMER_DELAY_MS } from '../shared/timerDelay';
import { boundRawOutput } from './boundedRawOutput';
import type { HookRegistration } from './hookRegistry';
import type { HookRunRecord } from './hookRunTypes';
import { describeThrown } from '../shared/describeThrown';

/** How one execution ended, before merging. */
export type ExecutionEnd =
  | { readonly kind: 'result'; readonly result: HookActionResult }
  | { readonly kind: 'timed-out'; readonly raw?: HookRawOutput }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly error: string; readonly failureReason: HookFailureReason };

/**
 * After a timeout, how long the runner waits for the aborted action to hand back what it
 * collected (a killed command's stdout/stderr) before recording the timeout without it.
 * Process actions kill with SIGTERM, then SIGKILL after 500 ms: this covers both.
 */
export const TIMEOUT_OUTPUT_GRACE_MS = 800;

/**
 * One hook execution in flight; it is also the action's context (one object per execution).
 * The AbortSignal is created only when the action reads `signal`, so synchronous callables
 * that never look at it cost no AbortController. The runner owns the deadline: `settle` is
 * called once, by whichever comes first of the action's result, the timer and the run's abort.
 */
export class HookExecution implements HookActionContext {
  end: ExecutionEnd | undefined;
  startedAt = 0;
  startClock = 0;
  durationMs = 0;
  runId = '';
  /** The finished record, built once when the execution ends (the runner's). */
  record: HookRunRecord | undefined;
  /** True when the finished record is reported only after merging (merging may still fail it). */
  reportOnMerge = false;
  private controller: AbortController | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private resolveDone: (() => void) | undefined;

  constructor(
    readonly registration: HookRegistration,
    readonly event: HookEvent,
    readonly timeoutMs: number,
    readonly cwd: string,
    readonly projectDir: string,
    readonly sessionId: string,
    private readonly runSignal: AbortSignal | undefined,
    private readonly clock: () => number,
    readonly env?: Readonly<Record<string, string>>,
  ) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      // Linked by the runner's single run-abort listener (cancelPending), not one listener per hook.
      if (this.runSignal?.aborted) this.controller.abort(this.runSignal.reason);
      else if (this.end !== undefined && this.end.kind !== 'result') this.controller.abort();
    }
    return this.controller.signal;
  }

  /** Waits for an asynchronous action under the deadline; the returned promise never rejects. */
  race(pending: Promise<HookActionResult>): Promise<void> {
    return new Promise<void>((resolve) => {
      this.resolveDone = resolve;
      let timedOut = false;
      this.timer = setTimeout(
        () => {
          // Time is up: stop the action now, then give it a moment to return its output so the
          // record shows what the hook printed before it was killed.
          timedOut = true;
          this.controller?.abort(new DOMException(`Hook timed out after ${this.timeoutMs} ms`, 'TimeoutError'));
          this.timer = setTimeout(() => this.settle({ kind: 'timed-out' }), TIMEOUT_OUTPUT_GRACE_MS);
          (this.timer as { unref?: () => void }).unref?.();
        },
        Math.min(this.timeoutMs, MAX_TIMER_DELAY_MS),
      ); // past 2^31-1 ms Node would fire after 1 ms
      // Node only: do not keep a CLI alive for a hook that is being abandoned anyway.
      (this.timer as { unref?: () => void }).unref?.();
      pending.then(
        (result) => {
          if (timedOut) this.settle(isActionResult(result) && result.raw ? { kind: 'timed-out', raw: result.raw } : { kind: 'timed-out' });
          else
            this.settle(
              isActionResult(result)
                ? { kind: 'result', result }
                : { kind: 'failed', failureReason: 'actionFailed', error: 'the action returned something that is not a HookActionResult' },
            );
        },
        (thrown: unknown) =>
          this.settle(
            timedOut
              ? { kind: 'timed-out' }
              : { kind: 'failed', failureReason: 'actionFailed', error: `the action threw (actions must not throw): ${describeThrown(thrown)}` },
          ),
      );
    });
  }

  /** Records how the execution ended; later calls are ignored (first wins). */
  settle(end: ExecutionEnd): void {
    if (this.end !== undefined) return;
    // The action has already decided from the full output; the record keeps a bounded copy.
    this.end = withBoundedRaw(end);
    this.durationMs = this.clock() - this.startClock;
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (end.kind === 'timed-out') this.controller?.abort(new DOMException(`Hook timed out after ${this.timeoutMs} ms`, 'TimeoutError'));
    else if (end.kind === 'cancelled') this.controller?.abort(this.runSignal?.reason);
    const done = this.resolveDone;
    this.resolveDone = undefined;
    done?.();
  }
}

function withBoundedRaw(end: ExecutionEnd): ExecutionEnd {
  if (end.kind === 'result' && end.result.raw) {
    const raw = boundRawOutput(end.result.raw);
    return raw === end.result.raw ? end : { kind: 'result', result: { ...end.result, raw } };
  }
  if (end.kind === 'timed-out' && end.raw) {
    const raw = boundRawOutput(end.raw);
    return raw === end.raw ? end : { kind: 'timed-out', raw };
  }
  return end;
}

function isActionResult(value: unknown): value is HookActionResult {
  if (value === null || typeof value !== 'object') return false;
  const status = (value as { status?: unknown }).status;
  return (status === 'ok' || status === 'failed' || status === 'cancelled') && typeof (value as { outcome?: unknown }).outcome === 'object';
}
