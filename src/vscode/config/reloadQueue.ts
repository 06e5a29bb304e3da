import type * as vscode from 'vscode';
import { thrownStack } from '../../shared/describeThrown';

/** The two steps of one reload, and where the applied generation is kept. */
export interface ReloadSteps<L, C> {
  /** Reads the configuration; a throw is logged and nothing is applied. */
  readonly load: () => Promise<L>;
  /** Applies a load (not called once disposed); a throw is logged and the previous generation stays in force. */
  readonly apply: (loaded: L) => Promise<void>;
  /** The generation in force, which callers waiting on a reload get. */
  readonly latest: () => C | undefined;
  readonly log: vscode.LogOutputChannel;
  /** Quiet time before a scheduled reload; default 150 ms. */
  readonly debounceMs?: number;
}

/**
 * Serialised reloads: loads run one at a time until every request is served, and a load
 * overtaken by a newer request is dropped unapplied (the newest wins). A load or apply that
 * fails leaves the last applied generation in force, and its callers still get an answer.
 */
export class ReloadQueue<L, C> {
  private timer: NodeJS.Timeout | undefined;
  private requested = 0;
  private completed = 0;
  private pumping = false;
  private disposed = false;
  private readonly waiters: { ticket: number; resolve: (current: C | undefined) => void }[] = [];
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly steps: ReloadSteps<L, C>) {}

  /** Reloads now (no debounce); resolves with a generation that includes every change made before the call. */
  reload(): Promise<C | undefined> {
    const ticket = ++this.requested;
    const done = new Promise<C | undefined>((resolve) => this.waiters.push({ ticket, resolve }));
    void this.pump();
    return done;
  }

  /** Debounced reload, for bursts of file events (an editor saving, git checkout). */
  schedule(): void {
    if (this.disposed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.reload();
    }, this.steps.debounceMs ?? 150);
  }

  /**
   * Resolves once nothing is pending: no scheduled reload waiting out its debounce, no load or
   * apply running. For callers that must see the result of every change already made.
   */
  async idle(): Promise<void> {
    while (!this.disposed && (this.timer !== undefined || this.pumping || this.completed < this.requested)) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.completed < this.requested && !this.disposed) {
        const target = this.requested;
        let loaded: { value: L } | undefined;
        try {
          loaded = { value: await this.steps.load() };
        } catch (error) {
          this.steps.log.error(`loading hook configuration failed: ${thrownStack(error)}`);
        }
        if (this.requested > target) continue; // newer request: load again, apply only the newest
        try {
          if (loaded && !this.disposed) await this.steps.apply(loaded.value);
        } catch (error) {
          // The previous configuration (and its policy hooks) stays in force; callers waiting on this reload still get an answer.
          this.steps.log.error(`applying the hook configuration failed; the previous one stays in force: ${thrownStack(error)}`);
        }
        this.completed = target;
        for (const w of this.waiters.filter((x) => x.ticket <= target)) w.resolve(this.steps.latest());
        this.waiters.splice(0, this.waiters.length, ...this.waiters.filter((x) => x.ticket > target));
      }
    } finally {
      this.pumping = false;
      this.wakeIdle();
    }
    if (this.disposed) this.resolveAll();
  }

  private resolveAll(): void {
    for (const w of this.waiters.splice(0)) w.resolve(this.steps.latest());
  }

  /** Stops: no more loads or applies; every waiting caller gets the generation in force. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.resolveAll();
    this.wakeIdle();
  }
}
