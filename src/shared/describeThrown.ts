/**
 * Text for a thrown value. Anything can be thrown (a callable may throw a string or an object),
 * so `catch (error: unknown)` sites use these instead of restating the `instanceof Error` test.
 */

/** A readable one-line message with the error's name ("TypeError: x is not a function"). */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message ? `${thrown.name}: ${thrown.message}` : thrown.name;
  if (typeof thrown === 'string') return thrown;
  try {
    return JSON.stringify(thrown) ?? String(thrown);
  } catch {
    return String(thrown);
  }
}

/** The message alone (`error.message`, or `String(thrown)` for a non-Error): for text that already says what failed. */
export function thrownMessage(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/** The stack when there is one (else the message), for logs of internal errors a developer reads. */
export function thrownStack(thrown: unknown): string {
  return thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown);
}
