import type { HookEvent } from '../hookEvent';

/**
 * What a matcher looks at: the event, its input (the context object of docs/hooks.md §2) and the
 * agent run's metadata (for the Metadata matcher). Built once per event occurrence and shared
 * by every registration of that event, so testing a matcher allocates nothing.
 */
export interface MatchTarget {
  readonly event: HookEvent;
  readonly input: Readonly<Record<string, unknown>>;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * Decides whether a registration runs for one event occurrence. Compiled once at registration
 * (regexes built, lists turned into sets); `matches` must be cheap, synchronous and pure.
 * A matcher that throws is treated by the runner as a failure of its hook, never as a no-match.
 */
export interface HookMatcher {
  /** Short text for the tree view and the log, e.g. `Write|Edit`, `tool read_*`. */
  readonly description: string;
  matches(target: MatchTarget): boolean;
}

/** Matches everything (an empty, missing or `*` matcher). */
export const MATCH_ALL: HookMatcher = Object.freeze({
  description: '*',
  matches: (): boolean => true,
});
