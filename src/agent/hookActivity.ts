import type { HookRunObserver } from '../hooks/hookRunTypes';

/** Where hook activity stood when a window opened (HookActivity.mark). */
export interface HookActivityMark {
  readonly generation: number;
  readonly inFlight: number;
}

/**
 * Counts the hook runs in flight, so the self-protection backstop can tell whether a hook
 * (approved code, e.g. an async or FileChanged hook appending to its own log) may have written
 * a file while a tool ran. Registered as a HookRunObserver of the runtime's one runner.
 */
export class HookActivity implements HookRunObserver {
  private generation = 0;
  private inFlight = 0;

  onHookStarted(): void {
    this.generation++;
    this.inFlight++;
  }

  onHookFinished(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  /** Opens a window. */
  mark(): HookActivityMark {
    return { generation: this.generation, inFlight: this.inFlight };
  }

  /** True when a hook ran at some point since `mark` (already running then, started since, or still running). */
  overlapped(mark: HookActivityMark): boolean {
    return mark.inFlight > 0 || this.inFlight > 0 || this.generation !== mark.generation;
  }
}
