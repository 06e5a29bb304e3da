/**
 * Typed errors of the model layer. Every adapter throws `ModelError` for anything that is
 * not an abort (aborts reject with the caller's signal reason, per the ModelClient port),
 * so the loop, the CLI and the chat view can branch on `reason` and show `message` as is:
 * the message is written for the user and says what to do next.
 */

/** Why a model call failed. */
export type ModelErrorReason =
  /** 401/403: the key is missing, wrong, or lacks access. */
  | 'auth'
  /** 404: unknown model, or a base URL that does not serve Chat Completions. */
  | 'notFound'
  /** The endpoint could not be reached (refused, DNS, reset). */
  | 'connection'
  /** 429 after the retries ran out, or a quota that retrying cannot fix. */
  | 'rateLimited'
  /** 5xx (or an error event inside the stream) after the retries ran out. */
  | 'server'
  /** Another 4xx: the endpoint rejected the request itself. */
  | 'badRequest'
  /** No response (or no stream progress) within the configured time. */
  | 'timeout'
  /** Cancelled without an abort reason to rethrow (rare; normally the signal's reason is thrown). */
  | 'aborted'
  /** The endpoint answered something that is not the Chat Completions protocol. */
  | 'protocol';

/** Options of a `ModelError`. */
export interface ModelErrorOptions {
  /** HTTP status, when the endpoint answered. */
  readonly status?: number;
  /** Whether trying again later may help (429, 5xx, connection). */
  readonly retryable?: boolean;
  /** The underlying error (SDK error, socket error), kept for logs. */
  readonly cause?: unknown;
}

/**
 * A model call failed. `message` is user-facing: it names the endpoint/model and the fix,
 * e.g. `The model endpoint rejected the API key (401). Set it with "Hookwise: Set API Key"
 * or OPENAI_API_KEY.`
 */
export class ModelError extends Error {
  readonly reason: ModelErrorReason;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(reason: ModelErrorReason, message: string, options: ModelErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    // new.target keeps the right name for subclasses without repeating it in each.
    this.name = new.target.name;
    this.reason = reason;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }

  /** Type guard: `e` is a ModelError (with the given reason, when one is passed). */
  static is(e: unknown, reason?: ModelErrorReason): e is ModelError {
    return e instanceof ModelError && (reason === undefined || e.reason === reason);
  }
}
