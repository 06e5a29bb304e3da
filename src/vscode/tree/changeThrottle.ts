/**
 * Coalesces tree changes so the view refreshes at most once per `intervalMs` (10/s by
 * default), with only the nodes that changed: a node whose ancestor is also in the batch is
 * dropped (refreshing the ancestor covers it), and a root change (undefined) swallows all.
 * Pure and timer-injectable, so the timing is unit-tested without waiting.
 */

/** The clock and timer the throttle uses (real ones by default). */
export interface ThrottleTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: ThrottleTimers = {
  // Sub-millisecond: with Date.now() two flushes 99.x ms apart both looked 100 ms apart.
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class ChangeThrottle<T extends object> {
  private pending = new Set<T>();
  private rootPending = false;
  private timer: unknown;
  private lastFlush = Number.NEGATIVE_INFINITY;
  private disposed = false;

  /**
   * @param fire receives the batch: `undefined` for "refresh from the root", else the nodes.
   * @param parentOf walks up the tree, to drop nodes whose ancestor is in the same batch.
   */
  constructor(
    private readonly fire: (nodes: T[] | undefined) => void,
    private readonly parentOf: (node: T) => T | undefined,
    private readonly intervalMs = 100,
    private readonly timers: ThrottleTimers = realTimers,
  ) {}

  /** Records a change of `node` (undefined = the root) and schedules a flush. */
  add(node: T | undefined): void {
    if (this.disposed) return;
    if (node === undefined) {
      this.rootPending = true;
      this.pending.clear();
    } else if (!this.rootPending) {
      this.pending.add(node);
    }
    if (this.timer !== undefined) return;
    this.schedule();
  }

  private schedule(): void {
    const wait = Math.max(0, this.lastFlush + this.intervalMs - this.timers.now());
    this.timer = this.timers.setTimeout(() => {
      // Node's timers run on a millisecond clock and may fire a fraction early: wait the rest,
      // in whole milliseconds (their unit), or bursts reach 11 refreshes a second (bench/host saw it).
      const rest = this.lastFlush + this.intervalMs - this.timers.now();
      if (rest > 0) this.timer = this.timers.setTimeout(() => this.flush(), Math.ceil(rest));
      else this.flush();
    }, wait);
  }

  /** Fires what is pending now (also used by tests and before disposal). */
  flush(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.rootPending && this.pending.size === 0) return;
    this.lastFlush = this.timers.now();
    if (this.rootPending) {
      this.rootPending = false;
      this.pending.clear();
      this.fire(undefined);
      return;
    }
    const batch = this.pending;
    this.pending = new Set();
    this.fire([...batch].filter((node) => !this.hasAncestorIn(node, batch)));
  }

  /** True while a flush is scheduled. */
  get isScheduled(): boolean {
    return this.timer !== undefined;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  private hasAncestorIn(node: T, batch: ReadonlySet<T>): boolean {
    for (let p = this.parentOf(node); p !== undefined; p = this.parentOf(p)) if (batch.has(p)) return true;
    return false;
  }
}
