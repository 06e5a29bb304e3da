import type { HookAction, HookActionContext, HookActionResult } from './hookAction';
import { isHookEvent, type HookEvent } from './hookEvent';
import { safeTimerDelay } from '../shared/timerDelay';
import { proceed } from './hookOutcome';
import { thrownMessage } from '../shared/describeThrown';

/** Where and how long a tested hook runs. `event` defaults to the input's `hook_event_name`. */
export interface HookTestOptions {
  readonly cwd: string;
  readonly projectDir: string;
  readonly sessionId: string;
  /** Defaults to the action's `defaultTimeoutMs`. */
  readonly timeoutMs?: number;
  /** Aborts the test run (the user cancelled the re-run). */
  readonly signal?: AbortSignal;
  readonly event?: HookEvent;
}

/** The full record of one test run. `timedOut` tells a timeout apart from a cancel. */
export interface HookTestRecord {
  readonly result: HookActionResult;
  readonly durationMs: number;
  readonly timedOut: boolean;
}

/** Extra time an action gets to wind down after its signal aborted before we stop waiting. */
const SETTLE_GRACE_MS = 2_000;

/**
 * Runs one configured hook against a given input JSON, without an agent (the UI's
 * "Re-run", the playground, `hookwise test-hook`), and returns its full record. Applies the
 * timeout itself: the action's signal aborts at `timeoutMs`, and if the action still has not
 * settled `SETTLE_GRACE_MS` later the record says so instead of hanging. Never throws.
 */
export async function testHookAction(action: HookAction, input: Readonly<Record<string, unknown>>, options: HookTestOptions): Promise<HookTestRecord> {
  const startedAt = performance.now();
  const elapsed = () => performance.now() - startedAt;
  const named = input.hook_event_name;
  const event = options.event ?? (typeof named === 'string' && isHookEvent(named) ? named : undefined);
  if (event === undefined) {
    const error = `cannot tell which event to test: the input has no valid "hook_event_name" (got ${JSON.stringify(named)})`;
    return { result: { status: 'failed', outcome: proceed(), error }, durationMs: elapsed(), timedOut: false };
  }
  const timeoutMs = options.timeoutMs ?? action.defaultTimeoutMs;
  const timeout = AbortSignal.timeout(safeTimerDelay(timeoutMs, action.defaultTimeoutMs));
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const ctx: HookActionContext = { event, signal, timeoutMs, cwd: options.cwd, projectDir: options.projectDir, sessionId: options.sessionId };

  let guard: NodeJS.Timeout | undefined;
  const stuck = new Promise<HookActionResult>((resolve) => {
    const arm = () => {
      guard = setTimeout(
        () => resolve({ status: 'cancelled', outcome: proceed(), error: `the hook did not stop within ${SETTLE_GRACE_MS} ms after it was cancelled` }),
        SETTLE_GRACE_MS,
      );
    };
    if (signal.aborted) arm();
    else signal.addEventListener('abort', arm, { once: true });
  });
  let result: HookActionResult;
  try {
    result = await Promise.race([action.run(input, ctx), stuck]);
  } catch (error) {
    // Actions must not throw; a buggy one still yields a record.
    result = { status: 'failed', outcome: proceed(), error: `the hook threw: ${thrownMessage(error)}` };
  } finally {
    clearTimeout(guard);
  }
  const timedOut = timeout.aborted && !options.signal?.aborted;
  if (timedOut && result.status === 'cancelled') result = { ...result, error: `timed out after ${timeoutMs} ms; ${result.error ?? 'cancelled'}` };
  return { result, durationMs: elapsed(), timedOut };
}
