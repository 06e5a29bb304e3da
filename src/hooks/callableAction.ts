import { z } from 'zod';
import type { HookAction, HookActionContext, HookActionResult } from './hookAction';
import type { HookOutcome } from './hookOutcome';
import { hookOutcomeSchema, proceed } from './hookOutcome';
import { describeThrown } from '../shared/describeThrown';
import { isPlainObject } from '../shared/jsonObject';

/**
 * A TypeScript function used as a hook (a "callable hook"). It gets the event's
 * context object and the action context (signal, timeout, cwd); it may return a HookOutcome,
 * nothing (= proceed), or a promise of either. Throwing, rejecting or returning something
 * that is not a HookOutcome is a failure of the hook, never an exception for the runner.
 */
export type HookCallable<I = Readonly<Record<string, unknown>>> = (
  input: I,
  ctx: HookActionContext,
) => HookOutcome | void | undefined | Promise<HookOutcome | void | undefined>;

/** Default time budget of an in-process hook (Claude Code's callback default). */
export const DEFAULT_CALLABLE_TIMEOUT_MS = 60_000;

const PROCEED_RESULT: HookActionResult = Object.freeze({ status: 'ok', outcome: proceed() });

const DECISIONS: ReadonlySet<unknown> = new Set(['allow', 'deny', 'ask', 'stop', 'continue']);

// Hand-written check for the common shapes, so a matched callable costs well under the
// 2 µs budget; anything it is unsure about goes to the zod schema, which has the last word
// and writes the error message.
function looksValid(value: Record<string, unknown>): boolean {
  for (const key in value) {
    const v = value[key];
    switch (key) {
      case 'decision':
        if (v !== undefined && !DECISIONS.has(v)) return false;
        break;
      case 'reason':
      case 'additionalContext':
      case 'systemMessage':
        if (v !== undefined && typeof v !== 'string') return false;
        break;
      case 'suppressOutput':
        if (v !== undefined && typeof v !== 'boolean') return false;
        break;
      case 'updatedResult':
        break;
      case 'updatedInput':
      case 'metadataToMerge':
        if (v !== undefined && !isPlainObject(v)) return false;
        break;
      default:
        return false; // messagesToInject and unknown keys: let zod decide
    }
  }
  return true;
}

/** Turns whatever a callable returned into an action result (exported for tests). */
export function toActionResult(value: unknown): HookActionResult {
  if (value === undefined || value === null) return PROCEED_RESULT;
  if (isPlainObject(value) && looksValid(value)) return { status: 'ok', outcome: value as HookOutcome };
  const parsed = hookOutcomeSchema.safeParse(value);
  if (parsed.success) return { status: 'ok', outcome: parsed.data as HookOutcome };
  return { status: 'failed', outcome: proceed(), error: `returned an invalid outcome: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}` };
}

function thrownResult(thrown: unknown): HookActionResult {
  return { status: 'failed', outcome: proceed(), error: `threw ${describeThrown(thrown)}` };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/** A TS function wrapped as a HookAction. Callables have no dedupKey: two functions never dedup. */
export class CallableAction implements HookAction {
  readonly kind = 'callable' as const;
  readonly label: string;
  readonly defaultTimeoutMs: number;
  readonly dedupKey: undefined = undefined;

  constructor(
    private readonly fn: HookCallable<never>,
    options: { readonly label?: string; readonly defaultTimeoutMs?: number } = {},
  ) {
    this.label = options.label ?? (fn.name ? `${fn.name}()` : 'anonymous function');
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_CALLABLE_TIMEOUT_MS;
  }

  run(input: Readonly<Record<string, unknown>>, ctx: HookActionContext): Promise<HookActionResult> {
    const result = this.invoke(input, ctx);
    return isThenable(result) ? result : Promise.resolve(result);
  }

  /**
   * Runs the function; the result is synchronous when the function returned synchronously.
   * The runner uses this to skip the timer and the promise for synchronous callables
   * (a synchronous function cannot be interrupted anyway).
   */
  invoke(input: Readonly<Record<string, unknown>>, ctx: HookActionContext): HookActionResult | Promise<HookActionResult> {
    let value: unknown;
    try {
      value = (this.fn as HookCallable)(input, ctx);
    } catch (thrown) {
      return thrownResult(thrown);
    }
    if (isThenable(value)) return Promise.resolve(value).then(toActionResult, thrownResult);
    return toActionResult(value);
  }
}

/** Wraps `fn` as a HookAction (label = the function's name unless given). */
export function callableAction<I = Readonly<Record<string, unknown>>>(
  fn: HookCallable<I>,
  options?: { readonly label?: string; readonly defaultTimeoutMs?: number },
): CallableAction {
  return new CallableAction(fn as HookCallable<never>, options);
}
