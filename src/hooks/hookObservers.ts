import type { HookDisposable } from './hookRegistry';
import type { HookRunObserver, HookRunRecord } from './hookRunTypes';

const NONE: readonly never[] = Object.freeze([]);

/**
 * The observers of a runner's executions (the tree view, the log…). Reporting never throws:
 * an observer's bug must never change what the hooks decided. The list is replaced, never
 * changed in place, so an observer may subscribe or unsubscribe while being notified.
 */
export class HookObservers {
  private list: readonly HookRunObserver[];

  constructor(initial: readonly HookRunObserver[] | undefined) {
    this.list = initial ? [...initial] : NONE;
  }

  /** True when someone listens (lets the runner skip building records nobody reads). */
  get any(): boolean {
    return this.list.length > 0;
  }

  /** Subscribes `observer`; dispose to unsubscribe. */
  add(observer: HookRunObserver): HookDisposable {
    this.list = [...this.list, observer];
    return {
      dispose: () => {
        this.list = this.list.filter((o) => o !== observer);
      },
    };
  }

  /** Reports `record` to every observer's `method`, ignoring what they throw. */
  notify(method: keyof HookRunObserver, record: HookRunRecord): void {
    for (const observer of this.list) {
      try {
        observer[method]?.(record);
      } catch {
        // An observer's bug must never change what the hooks decided.
      }
    }
  }
}
