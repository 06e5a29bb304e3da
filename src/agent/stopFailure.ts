import type { HookContextFields } from '../hooks/hookContext';
import { ModelError } from '../model/modelError';
import type { ModelErrorReason } from '../model/modelError';

/** StopFailure's `error` (its matcher value). */
export type StopFailureError = HookContextFields<'StopFailure'>['error'];

/** How each model-layer failure reads as Claude Code's error type. */
const BY_REASON: Readonly<Record<ModelErrorReason, StopFailureError>> = {
  auth: 'authentication_failed',
  notFound: 'model_not_found',
  rateLimited: 'rate_limit',
  server: 'server_error',
  badRequest: 'invalid_request',
  connection: 'unknown',
  timeout: 'unknown',
  aborted: 'unknown',
  protocol: 'unknown',
};

/**
 * Claude Code's error type for a failed model call: `rate_limit`, `server_error`,
 * `authentication_failed`, … An exhausted quota (429 that waiting does not fix) is
 * `billing_error`; a 529 is `overloaded`; anything that is not a ModelError is `unknown`.
 */
export function stopFailureError(error: unknown): StopFailureError {
  if (!ModelError.is(error)) return 'unknown';
  if (error.status === 529) return 'overloaded';
  if (error.reason === 'rateLimited' && !error.retryable) return 'billing_error';
  return BY_REASON[error.reason];
}
