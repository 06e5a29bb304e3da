/**
 * When and how long to wait before retrying a model call: exponential backoff with jitter,
 * or the server's own Retry-After when it sends one. Kept apart from the adapter so the
 * arithmetic is testable without a server and the waiting honours the caller's abort.
 */

/** Backoff settings. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = no retries). */
  readonly maxRetries: number;
  /** Delay before the first retry, before jitter (ms). */
  readonly baseDelayMs: number;
  /** Upper bound of a computed delay (ms). */
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails instead (ms). */
  readonly maxRetryAfterMs: number;
}

/** The defaults: 3 retries, 0.5 s → 1 s → 2 s (±jitter), at most 8 s, Retry-After up to 60 s. */
export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Delay before retry number `retry` (0-based). Full exponential growth, then "equal jitter"
 * (between half and all of it) so many clients hitting one rate limit do not retry in step.
 */
export function backoffDelayMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(exp / 2 + (random() * exp) / 2);
}

/**
 * The server's requested delay in ms from `retry-after-ms` (non-standard, sent by OpenAI)
 * or `retry-after` (seconds or an HTTP date); `undefined` when absent or unreadable.
 */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (Number.isFinite(Number(value))) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`, rejecting with the signal's reason as soon as it aborts. */
export function sleepWithAbort(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
