import type { HookMatcher, MatchTarget } from './hookMatcher';

/**
 * The Callable matcher (TypeScript API): any synchronous predicate. If it throws, the runner records a
 * failure of the hook (fail-open/closed as configured) rather than silently skipping it.
 */
export class CallableMatcher implements HookMatcher {
  constructor(
    private readonly predicate: (target: MatchTarget) => boolean,
    readonly description: string = predicate.name ? `when ${predicate.name}` : 'when <predicate>',
  ) {}

  matches(target: MatchTarget): boolean {
    return this.predicate(target) === true;
  }
}
