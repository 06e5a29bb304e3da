/**
 * Typed errors of the hook engine. Each carries a `reason` discriminator and a static
 * `is(error, reason?)` guard, so callers never inspect `message` text or constructor names
 * (GitLens rule). The runner itself never throws these at its callers: a hook that goes wrong
 * becomes a failure record. They are thrown at *load/registration* time, where failing loudly
 * is the point (an invalid matcher is a configuration error, not a silent no-match).
 */

/** Why a matcher could not be compiled. */
export type HookMatcherErrorReason = 'invalidRegex' | 'invalidPattern';

/** A matcher string that cannot be compiled (docs/hooks.md §5: reported at load, never a silent no-match). */
export class HookMatcherError extends Error {
  readonly reason: HookMatcherErrorReason;
  /** The matcher exactly as written. */
  readonly pattern: string;

  constructor(reason: HookMatcherErrorReason, pattern: string, detail: string) {
    super(`Invalid hook matcher ${JSON.stringify(pattern)}: ${detail}`);
    this.name = new.target.name;
    this.reason = reason;
    this.pattern = pattern;
  }

  /** True when `error` is a HookMatcherError (with the given reason, if any). */
  static is(error: unknown, reason?: HookMatcherErrorReason): error is HookMatcherError {
    return error instanceof HookMatcherError && (reason === undefined || error.reason === reason);
  }
}

/** Why a registration was refused. */
export type HookRegistrationErrorReason = 'unknownEvent' | 'invalidPriority' | 'invalidTimeout' | 'duplicateId' | 'invalidAction';

/** A registration the registry refuses (programming or config-loader error; nothing is registered). */
export class HookRegistrationError extends Error {
  readonly reason: HookRegistrationErrorReason;

  constructor(reason: HookRegistrationErrorReason, message: string) {
    super(message);
    this.name = new.target.name;
    this.reason = reason;
  }

  /** True when `error` is a HookRegistrationError (with the given reason, if any). */
  static is(error: unknown, reason?: HookRegistrationErrorReason): error is HookRegistrationError {
    return error instanceof HookRegistrationError && (reason === undefined || error.reason === reason);
  }
}

/**
 * Why one hook execution failed. Used as the `failureReason` of failure records, so the tree
 * view and tests can tell kinds of failure apart without parsing messages.
 */
export type HookFailureReason =
  | 'actionFailed'
  | 'threw'
  | 'invalidOutcome'
  | 'timeout'
  | 'updatedInputNotAllowed'
  | 'invalidUpdatedInput'
  | 'updatedResultNotAllowed'
  | 'metadataConflict'
  /** The hook's input could not be serialized for it (e.g. nested too deep), so it never saw the call. */
  | 'inputNotSerializable'
  /** The hook printed more than the output cap; what was cut could not be read as a decision. */
  | 'outputTooLarge';
