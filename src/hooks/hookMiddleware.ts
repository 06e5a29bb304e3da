import type { HookAction, HookActionContext, HookActionResult } from './hookAction';
import { DEFAULT_CALLABLE_TIMEOUT_MS, toActionResult } from './callableAction';
import type { HookOutcome } from './hookOutcome';
import { proceed } from './hookOutcome';
import type { HookRegistration } from './hookRegistry';
import { describeThrown } from '../shared/describeThrown';

/** Why a middleware's `next()` was refused. */
export type HookMiddlewareErrorReason = 'nextCalledTwice' | 'nextAfterReturn';

/** A middleware called `next()` more than once, or after it had returned: the hooks below run at most once per event. */
export class HookMiddlewareError extends Error {
  readonly reason: HookMiddlewareErrorReason;

  constructor(reason: HookMiddlewareErrorReason, label: string) {
    super(
      reason === 'nextCalledTwice'
        ? `Middleware "${label}" called next() twice: the hooks below it run at most once per event.`
        : `Middleware "${label}" called next() after it had returned.`,
    );
    this.name = new.target.name;
    this.reason = reason;
  }

  /** True when `error` is a HookMiddlewareError (with the given reason, if any). */
  static is(error: unknown, reason?: HookMiddlewareErrorReason): error is HookMiddlewareError {
    return error instanceof HookMiddlewareError && (reason === undefined || error.reason === reason);
  }
}

/**
 * Runs the hooks below a middleware (lower priority, or equal priority and registered later) and
 * resolves to their merged outcome. At most once per event: a second call rejects with
 * HookMiddlewareError (`nextCalledTwice`).
 */
export type HookNext = () => Promise<HookOutcome>;

/**
 * A middleware hook `(ctx, next, actionCtx) => outcome`: acts before and after the rest of the
 * event's stack, or short-circuits it by not calling `next`. What it returns is the outcome of
 * itself and everything below it, with one exception that keeps policies safe: a deny or stop
 * that `next()` returned stands whatever the middleware returns. Returning nothing after
 * `next()` (or failing after it) keeps what `next()` returned.
 */
export type HookMiddlewareFn<I = Readonly<Record<string, unknown>>> = (
  ctx: I,
  next: HookNext,
  actionCtx: HookActionContext,
) => HookOutcome | void | undefined | Promise<HookOutcome | void | undefined>;

/** What one invocation of a middleware did, for the runner's merge. */
export interface MiddlewareInvocation {
  /** Set once `next()` ran: the outcome it resolved to. */
  nextOutcome: HookOutcome | undefined;
  /** True when the middleware gave back `next()`'s outcome itself, or returned nothing after calling it. */
  keptBelow: boolean;
}

/**
 * A middleware wrapped as a HookAction. Run outside a stack (Re-run with This Input, the hook
 * tester) its `next()` is an empty stack; inside one, the runner calls {@link runWith}.
 */
export class MiddlewareAction implements HookAction {
  readonly kind = 'callable' as const;
  readonly label: string;
  readonly defaultTimeoutMs: number;
  readonly dedupKey: undefined = undefined;

  constructor(
    private readonly fn: HookMiddlewareFn<never>,
    options: { readonly label?: string; readonly defaultTimeoutMs?: number } = {},
  ) {
    this.label = options.label ?? (fn.name ? `${fn.name}() middleware` : 'anonymous middleware');
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_CALLABLE_TIMEOUT_MS;
  }

  run(input: Readonly<Record<string, unknown>>, ctx: HookActionContext): Promise<HookActionResult> {
    return this.runWith(input, ctx, () => Promise.resolve(proceed()), { nextOutcome: undefined, keptBelow: false });
  }

  /** Runs the middleware with `below` as its `next`; records in `invocation` what it did with it. */
  async runWith(
    input: Readonly<Record<string, unknown>>,
    ctx: HookActionContext,
    below: () => Promise<HookOutcome>,
    invocation: MiddlewareInvocation,
  ): Promise<HookActionResult> {
    let called = false;
    let returned = false;
    const next: HookNext = () => {
      if (returned) return Promise.reject(new HookMiddlewareError('nextAfterReturn', this.label));
      if (called) return Promise.reject(new HookMiddlewareError('nextCalledTwice', this.label));
      called = true;
      return below().then((outcome) => {
        invocation.nextOutcome = outcome;
        return outcome;
      });
    };
    let value: unknown;
    try {
      value = await (this.fn as HookMiddlewareFn)(input, next, ctx);
    } catch (thrown) {
      return { status: 'failed', outcome: proceed(), error: `threw ${describeThrown(thrown)}` };
    } finally {
      returned = true;
    }
    if (invocation.nextOutcome !== undefined && (value === undefined || value === invocation.nextOutcome)) invocation.keptBelow = true;
    return toActionResult(value);
  }
}

/** True for a registration whose action is a middleware (it wraps every hook after it in the order). */
export function isMiddleware(registration: HookRegistration): registration is HookRegistration & { readonly action: MiddlewareAction } {
  return registration.action instanceof MiddlewareAction;
}

/** Wraps `fn` as a middleware action (label = the function's name unless given). */
export function middlewareAction<I = Readonly<Record<string, unknown>>>(
  fn: HookMiddlewareFn<I>,
  options?: { readonly label?: string; readonly defaultTimeoutMs?: number },
): MiddlewareAction {
  return new MiddlewareAction(fn as HookMiddlewareFn<never>, options);
}
