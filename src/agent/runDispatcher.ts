import type { AgentRef } from '../hooks/hookRunTypes';
import { withContextMetadata } from '../hooks/hookContext';
import type { HookDispatcher } from './hookDispatcher';
import type { RunContext } from './runContext';
import type { RunMetadata } from './runMetadata';

/** What one agent's dispatcher adds around the context's HookRunner. */
export interface RunDispatcherOptions {
  /** Called before every dispatch so hooks can read the transcript so far. */
  readonly beforeHooks?: (() => Promise<void>) | undefined;
  /**
   * The run's metadata: every event carries it (in the input as `metadata`, and to the
   * matchers) and what its hooks merge is kept for the next event. A merge that cannot be kept
   * is shown as a system message; the agent goes on without it.
   */
  readonly metadata?: RunMetadata | undefined;
}

/**
 * The dispatcher of one agent (a run, or a subagent's SubagentStart): the context's HookRunner
 * wrapped once, here, for everything an agent adds to a dispatch. Its permission gate is built
 * on it, so PermissionRequest and Notification hooks of an ask see the same metadata.
 */
export function runDispatcher(ctx: RunContext, agent: AgentRef, o: RunDispatcherOptions): HookDispatcher {
  const hooks = ctx.hooks;
  const state = o.metadata;
  return {
    hasHooks: (event) => hooks.hasHooks?.(event) ?? true,
    run: async (event, input, options) => {
      await o.beforeHooks?.();
      const metadata = state?.current;
      // Nothing merged yet (the usual case): the input and options go through untouched.
      const result =
        metadata === undefined || Object.keys(metadata).length === 0
          ? await hooks.run(event, input, options)
          : await hooks.run(event, withContextMetadata(input, metadata), { ...options, metadata });
      const why = state?.apply(result.metadata);
      if (why !== undefined) {
        ctx.emit({ type: 'systemMessage', agent, text: `The metadata merged by ${event} hooks was not kept: ${why}.`, source: event });
      }
      return result;
    },
    ...(hooks.recordAskAnswer ? { recordAskAnswer: (result, answer) => hooks.recordAskAnswer?.(result, answer) ?? result } : {}),
  };
}
