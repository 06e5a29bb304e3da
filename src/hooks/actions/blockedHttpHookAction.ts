import type { HookAction, HookActionResult } from '../hookAction';
import { proceed } from '../hookOutcome';
import { HTTP_HOOK_DEFAULT_TIMEOUT_MS } from './httpHookAction';

/**
 * Stands in for an http hook whose URL `allowedHttpHookUrls` does not allow: it sends nothing
 * and every run is a failure saying why, so the Hook Runs view shows the hook was blocked
 * (and `continueOnFailure: false` still fails closed: a policy hook that may not be called
 * must not turn into a silent "proceed").
 */
export class BlockedHttpHookAction implements HookAction {
  readonly kind = 'http';
  readonly label: string;
  readonly dedupKey: string;
  readonly defaultTimeoutMs = HTTP_HOOK_DEFAULT_TIMEOUT_MS;

  constructor(
    readonly url: string,
    private readonly allowedUrls: readonly string[],
  ) {
    this.label = url;
    this.dedupKey = `http ${url}`;
  }

  run(): Promise<HookActionResult> {
    const why =
      this.allowedUrls.length === 0
        ? 'allowedHttpHookUrls is empty, which blocks every http hook'
        : `the URL matches none of allowedHttpHookUrls (${this.allowedUrls.slice(0, 5).join(', ')}${this.allowedUrls.length > 5 ? ', …' : ''})`;
    return Promise.resolve({ status: 'failed', outcome: proceed(), error: `http hook not called: ${why}`, failureReason: 'actionFailed' });
  }
}
