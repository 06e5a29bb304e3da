import type { HookCallable } from './callableAction';
import { callableAction } from './callableAction';
import type { HookContextFor } from './hookContext';
import type { HookEvent } from './hookEvent';
import type { HookDisposable, HookRegistry } from './hookRegistry';
import type { HookSource } from '../configFiles/hookSource';
import { compileClaudeMatcher } from './matchers/claudeMatcher';
import type { HookMatcher } from './matchers/hookMatcher';
import type { HookAction } from './hookAction';
import type { HookMiddlewareFn } from './hookMiddleware';
import { middlewareAction } from './hookMiddleware';

/**
 * Options of one in-process hook. A string matcher follows the same Claude Code
 * algorithm as config files (docs/hooks.md §5: `Write|Edit`, `mcp__.*`, `*`), tested against the
 * event's matcher field; pass a HookMatcher (ToolNameMatcher, CompositeMatcher…) for more.
 * An invalid regex throws HookMatcherError here, at registration.
 */
export interface HookOptions {
  /** Higher runs first; default 0. Guideline: 100+ security, 0 normal, -100 logging. */
  readonly priority?: number;
  readonly matcher?: string | HookMatcher;
  /** Default 60 000 ms (DEFAULT_CALLABLE_TIMEOUT_MS). */
  readonly timeoutMs?: number;
  /** false = if this hook fails (throws, times out, bad outcome) the event is denied. Default true. */
  readonly continueOnFailure?: boolean;
  /** Run only for this subagent type (`main` = the main agent only). */
  readonly agentType?: string;
  readonly id?: string;
  /** Label in the tree and the log; default the function's name. */
  readonly label?: string;
  /**
   * Runs even when a hook before it (higher priority) denied or stopped the event, which
   * otherwise ends the event's remaining hooks; its own decision cannot weaken theirs. For a
   * hook that must see every occurrence (the built-in memory loading, an audit log). Default false.
   */
  readonly runsAfterDecision?: boolean;
}

/** A hook function for event `E`: gets that event's context. */
export type HookFn<E extends HookEvent> = HookCallable<HookContextFor<E>>;

/**
 * A middleware for event `E`: `(ctx, next) => …` (hookMiddleware.ts). It runs at its place in
 * the order (priority, then registration) and `next()` runs every hook after it.
 */
export type HookMiddlewareFor<E extends HookEvent> = HookMiddlewareFn<HookContextFor<E>>;

/** Options of a middleware: a hook's options; its timeout also covers the hooks it runs through `next()`. */
export type MiddlewareOptions = HookOptions;

/** The minimal shape of a tool a HookProvider brings along (the tool layer has the full type). */
export interface HookProviderTool {
  readonly name: string;
}

/**
 * A capability packaged as a hook provider: some hooks plus the
 * tools they need, installed and removed together. `registerHooks` registers through the
 * `hooks` it is given; everything registered there is owned by the installation.
 */
export interface HookProvider<TTool extends HookProviderTool = HookProviderTool> {
  /** Shown as the hooks' source (`code: <name>`). */
  readonly name: string;
  readonly tools?: readonly TTool[];
  registerHooks(hooks: HooksApi): void;
}

/** An installed provider: its tools (for the caller to add to the tool set) and its undo. */
export interface InstalledHookProvider<TTool extends HookProviderTool> extends HookDisposable {
  readonly tools: readonly TTool[];
}

/**
 * The in-process TypeScript API: `hooks.on(HookEvent.PreToolUse, fn, { priority, matcher,
 * timeoutMs, continueOnFailure })` and one typed shorthand per event. `fn` may return a
 * HookOutcome (use the factories: `block`, `ask`, `modifyInput`…), nothing (= proceed), a
 * promise of either, or throw (= failure). Every call returns a disposable.
 */
export interface HooksApi {
  on<E extends HookEvent>(event: E, fn: HookFn<E>, options?: HookOptions): HookDisposable;
  onSessionStart(fn: HookFn<'SessionStart'>, options?: HookOptions): HookDisposable;
  onUserPromptSubmit(fn: HookFn<'UserPromptSubmit'>, options?: HookOptions): HookDisposable;
  onPreToolUse(fn: HookFn<'PreToolUse'>, options?: HookOptions): HookDisposable;
  onPermissionRequest(fn: HookFn<'PermissionRequest'>, options?: HookOptions): HookDisposable;
  onPostToolUse(fn: HookFn<'PostToolUse'>, options?: HookOptions): HookDisposable;
  onPostToolUseFailure(fn: HookFn<'PostToolUseFailure'>, options?: HookOptions): HookDisposable;
  onNotification(fn: HookFn<'Notification'>, options?: HookOptions): HookDisposable;
  onStop(fn: HookFn<'Stop'>, options?: HookOptions): HookDisposable;
  onSubagentStart(fn: HookFn<'SubagentStart'>, options?: HookOptions): HookDisposable;
  onSubagentStop(fn: HookFn<'SubagentStop'>, options?: HookOptions): HookDisposable;
  onPreCompact(fn: HookFn<'PreCompact'>, options?: HookOptions): HookDisposable;
  onSessionEnd(fn: HookFn<'SessionEnd'>, options?: HookOptions): HookDisposable;
  onExecutionStart(fn: HookFn<'ExecutionStart'>, options?: HookOptions): HookDisposable;
  onExecutionEnd(fn: HookFn<'ExecutionEnd'>, options?: HookOptions): HookDisposable;
  onBeforeStep(fn: HookFn<'BeforeStep'>, options?: HookOptions): HookDisposable;
  onAfterStep(fn: HookFn<'AfterStep'>, options?: HookOptions): HookDisposable;
  onBeforeInference(fn: HookFn<'BeforeInference'>, options?: HookOptions): HookDisposable;
  onAfterInference(fn: HookFn<'AfterInference'>, options?: HookOptions): HookDisposable;
  onAgentFailed(fn: HookFn<'AgentFailed'>, options?: HookOptions): HookDisposable;
  /** Installs a provider's hooks (source `code: <provider.name>`) and hands back its tools. */
  use<TTool extends HookProviderTool>(provider: HookProvider<TTool>): InstalledHookProvider<TTool>;
  /**
   * Registers a middleware `(ctx, next) => …` for `event`: it composes with the `on…` hooks in
   * priority order (then registration order), `next()` resolves to the merged outcome of the
   * hooks after it, not calling `next` short-circuits them, and a second `next()` rejects
   * with HookMiddlewareError. A deny or stop from below always stands (docs/hooks.md §4).
   */
  use<E extends HookEvent>(event: E, fn: HookMiddlewareFor<E>, options?: MiddlewareOptions): HookDisposable;
}

const DEFAULT_SOURCE: HookSource = Object.freeze({ kind: 'code', label: 'code' });

class RegistryHooksApi implements HooksApi {
  constructor(
    private readonly registry: Pick<HookRegistry, 'register'>,
    private readonly source: HookSource,
    private readonly owned: Set<HookDisposable> | undefined,
  ) {}

  on<E extends HookEvent>(event: E, fn: HookFn<E>, options: HookOptions = {}): HookDisposable {
    return this.register(event, callableAction(fn, options.label !== undefined ? { label: options.label } : undefined), options);
  }

  private register(event: HookEvent, action: HookAction, options: HookOptions): HookDisposable {
    const matcher = typeof options.matcher === 'string' ? compileClaudeMatcher(options.matcher) : options.matcher;
    const registration = this.registry.register({
      event,
      action,
      source: this.source,
      ...(options.id !== undefined ? { id: options.id } : {}),
      ...(matcher !== undefined ? { matcher } : {}),
      ...(options.priority !== undefined ? { priority: options.priority } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.continueOnFailure !== undefined ? { continueOnFailure: options.continueOnFailure } : {}),
      ...(options.agentType !== undefined ? { agentType: options.agentType } : {}),
      ...(options.runsAfterDecision === true ? { runsAfterDecision: true } : {}),
    });
    const owned = this.owned;
    if (owned === undefined) return registration;
    owned.add(registration);
    return {
      dispose: () => {
        owned.delete(registration);
        registration.dispose();
      },
    };
  }

  onSessionStart(fn: HookFn<'SessionStart'>, options?: HookOptions): HookDisposable {
    return this.on('SessionStart', fn, options);
  }
  onUserPromptSubmit(fn: HookFn<'UserPromptSubmit'>, options?: HookOptions): HookDisposable {
    return this.on('UserPromptSubmit', fn, options);
  }
  onPreToolUse(fn: HookFn<'PreToolUse'>, options?: HookOptions): HookDisposable {
    return this.on('PreToolUse', fn, options);
  }
  onPermissionRequest(fn: HookFn<'PermissionRequest'>, options?: HookOptions): HookDisposable {
    return this.on('PermissionRequest', fn, options);
  }
  onPostToolUse(fn: HookFn<'PostToolUse'>, options?: HookOptions): HookDisposable {
    return this.on('PostToolUse', fn, options);
  }
  onPostToolUseFailure(fn: HookFn<'PostToolUseFailure'>, options?: HookOptions): HookDisposable {
    return this.on('PostToolUseFailure', fn, options);
  }
  onNotification(fn: HookFn<'Notification'>, options?: HookOptions): HookDisposable {
    return this.on('Notification', fn, options);
  }
  onStop(fn: HookFn<'Stop'>, options?: HookOptions): HookDisposable {
    return this.on('Stop', fn, options);
  }
  onSubagentStart(fn: HookFn<'SubagentStart'>, options?: HookOptions): HookDisposable {
    return this.on('SubagentStart', fn, options);
  }
  onSubagentStop(fn: HookFn<'SubagentStop'>, options?: HookOptions): HookDisposable {
    return this.on('SubagentStop', fn, options);
  }
  onPreCompact(fn: HookFn<'PreCompact'>, options?: HookOptions): HookDisposable {
    return this.on('PreCompact', fn, options);
  }
  onSessionEnd(fn: HookFn<'SessionEnd'>, options?: HookOptions): HookDisposable {
    return this.on('SessionEnd', fn, options);
  }
  onExecutionStart(fn: HookFn<'ExecutionStart'>, options?: HookOptions): HookDisposable {
    return this.on('ExecutionStart', fn, options);
  }
  onExecutionEnd(fn: HookFn<'ExecutionEnd'>, options?: HookOptions): HookDisposable {
    return this.on('ExecutionEnd', fn, options);
  }
  onBeforeStep(fn: HookFn<'BeforeStep'>, options?: HookOptions): HookDisposable {
    return this.on('BeforeStep', fn, options);
  }
  onAfterStep(fn: HookFn<'AfterStep'>, options?: HookOptions): HookDisposable {
    return this.on('AfterStep', fn, options);
  }
  onBeforeInference(fn: HookFn<'BeforeInference'>, options?: HookOptions): HookDisposable {
    return this.on('BeforeInference', fn, options);
  }
  onAfterInference(fn: HookFn<'AfterInference'>, options?: HookOptions): HookDisposable {
    return this.on('AfterInference', fn, options);
  }
  onAgentFailed(fn: HookFn<'AgentFailed'>, options?: HookOptions): HookDisposable {
    return this.on('AgentFailed', fn, options);
  }

  use<TTool extends HookProviderTool>(provider: HookProvider<TTool>): InstalledHookProvider<TTool>;
  use<E extends HookEvent>(event: E, fn: HookMiddlewareFor<E>, options?: MiddlewareOptions): HookDisposable;
  use<TTool extends HookProviderTool, E extends HookEvent>(
    target: HookProvider<TTool> | E,
    fn?: HookMiddlewareFor<E>,
    options: MiddlewareOptions = {},
  ): InstalledHookProvider<TTool> | HookDisposable {
    if (typeof target !== 'string') return this.install(target);
    if (typeof fn !== 'function') throw new TypeError(`hooks.use("${target}", fn): fn must be a function (ctx, next) => outcome.`);
    return this.register(target, middlewareAction(fn, options.label !== undefined ? { label: options.label } : undefined), options);
  }

  private install<TTool extends HookProviderTool>(provider: HookProvider<TTool>): InstalledHookProvider<TTool> {
    const owned = new Set<HookDisposable>();
    const scoped = new RegistryHooksApi(this.registry, { kind: 'code', label: provider.name }, owned);
    const disposeAll = (): void => {
      for (const d of [...owned]) d.dispose();
      owned.clear();
    };
    try {
      provider.registerHooks(scoped);
    } catch (error) {
      disposeAll(); // all or nothing: a half-installed provider would enforce half a policy
      throw error;
    }
    return { tools: provider.tools ?? [], dispose: disposeAll };
  }
}

/**
 * Creates the in-process API over `registry`. Hooks registered through it are code hooks
 * with `source` (default `{ kind: 'code', label: 'code' }`).
 */
export function createHooksApi(registry: Pick<HookRegistry, 'register'>, options: { readonly source?: HookSource } = {}): HooksApi {
  return new RegistryHooksApi(registry, options.source ?? DEFAULT_SOURCE, undefined);
}
