import type { HookEvent } from './hookEvent';
import type { HookContextFor } from './hookContext';
import { HookRegistry } from './hookRegistry';
import { HookRunner } from './hookRunner';
import type { HookRunOptions } from './hookRunner';
import type { HookEventResult, HookRunObserver } from './hookRunTypes';
import type { HooksApi } from './hooksApi';
import { createHooksApi } from './hooksApi';

/** Construction options of a {@link HookStack}. */
export interface HookStackOptions {
  /** Exported to command-like actions as CLAUDE_PROJECT_DIR; default the process's cwd. */
  readonly projectDir?: string;
  /** Told about every run (a log, a test). */
  readonly observers?: readonly HookRunObserver[];
  /** Source label of the stack's hooks (`code: <label>`); default `hook stack`. */
  readonly label?: string;
}

/**
 * A stack of hooks a library user builds and runs on their own, without an agent: the same
 * registry, runner and merge rules as the agent's (docs/hooks.md §4), so what a stack decides
 * here is what the same hooks decide inside Hookwise. Register with `stack.hooks` (`on…`,
 * `use(event, middleware)`, `use(provider)`), run an event with {@link run}.
 */
export class HookStack {
  readonly hooks: HooksApi;
  private readonly runner: HookRunner;

  constructor(options: HookStackOptions = {}) {
    const registry = new HookRegistry();
    this.runner = new HookRunner(registry, { projectDir: options.projectDir ?? process.cwd(), ...(options.observers ? { observers: options.observers } : {}) });
    this.hooks = createHooksApi(registry, { source: { kind: 'code', label: options.label ?? 'hook stack' } });
  }

  /**
   * Runs every hook of `event` that matches `ctx` and resolves to the merged result. Never
   * rejects: a hook that fails is a failure record (fail-open unless it set
   * `continueOnFailure: false`). `options.signal` cancels the hooks still running.
   */
  run<E extends HookEvent>(event: E, ctx: HookContextFor<E> | Readonly<Record<string, unknown>>, options?: HookRunOptions): Promise<HookEventResult> {
    return this.runner.run(event, ctx as Readonly<Record<string, unknown>>, options);
  }
}
