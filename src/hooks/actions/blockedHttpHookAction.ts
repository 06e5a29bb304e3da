import type { HookAction, HookActionResult } from '../hookAction';
import { proceed } from '../hookOutcome';
import { HTTP_HOOK_DEFAULT_TIMEOUT_MS } from './httpHookAction';

/**
 * Stands in for an http hook that may not be called (`allowedHttpHookUrls`, user info in the
 * URL, see httpHookPolicy.ts): it sends nothing and every run is a failure giving `reason`, so
 * the Hook Runs view shows the hook was blocked and by which rule (and `continueOnFailure:
 * false` still fails closed: a policy hook that may not be called must not turn into a silent
 * "proceed").
 */
export class BlockedHttpHookAction implements HookAction {
  readonly kind = 'http';
  readonly label: string;
  readonly dedupKey: string;
  readonly defaultTimeoutMs = HTTP_HOOK_DEFAULT_TIMEOUT_MS;

  constructor(
    readonly url: string,
    private readonly reason: string,
  ) {
    this.label = url;
    this.dedupKey = `http ${url}`;
  }

  run(): Promise<HookActionResult> {
    return Promise.resolve({ status: 'failed', outcome: proceed(), error: `http hook not called: ${this.reason}`, failureReason: 'actionFailed' });
  }
}
