/**
 * Node's timers hold a signed 32-bit millisecond count: a longer delay (a hook `timeout` of
 * 31536000 s, say) is replaced by 1 ms with only a process warning, so a deadline meant to be
 * "very long" fires at once. Every setTimeout whose delay comes from config or from outside
 * goes through {@link safeTimerDelay}.
 */

/** The longest delay a Node timer honours: 2^31 - 1 ms (about 24.8 days). */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * A delay a timer can honour: `ms` clamped to [0, {@link MAX_TIMER_DELAY_MS}]; `fallbackMs`
 * when `ms` is not a finite number (NaN, ±Infinity) or negative.
 */
export function safeTimerDelay(ms: number, fallbackMs: number): number {
  const value = Number.isFinite(ms) && ms >= 0 ? ms : fallbackMs;
  return Math.min(Math.max(0, value), MAX_TIMER_DELAY_MS);
}
