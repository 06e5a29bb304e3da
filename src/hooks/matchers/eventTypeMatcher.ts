import type { HookEvent } from '../hookEvent';
import type { HookMatcher, MatchTarget } from './hookMatcher';

/** The EventType matcher (TypeScript API, docs/hooks.md §5): matches when the occurrence's event is one of `events`. */
export class EventTypeMatcher implements HookMatcher {
  readonly description: string;
  private readonly events: ReadonlySet<HookEvent>;

  constructor(...events: HookEvent[]) {
    this.events = new Set(events);
    this.description = `event ${events.join('|')}`;
  }

  matches(target: MatchTarget): boolean {
    return this.events.has(target.event);
  }
}
