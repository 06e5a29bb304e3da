import type { HookDisposable } from '../hooks/hookRegistry';
import { stop } from '../hooks/hookOutcome';
import type { HookProvider, HooksApi } from '../hooks/hooksApi';
import { BUILTIN_PROVIDERS } from '../hooks/config/builtinSwitches';

/** The agent's default limits; each is enforced by a built-in hook, not by the loop. */
export interface AgentLimits {
  /** Steps (model calls) per agent run. */
  readonly maxSteps: number;
  /** Input + output tokens per agent run; 0 = no limit. */
  readonly maxTokens: number;
  /** Wall time per agent run in ms; 0 = no limit. */
  readonly maxWallTimeMs: number;
}

/** Defaults: generous enough for real work, small enough that a runaway loop ends. */
export const DEFAULT_AGENT_LIMITS: AgentLimits = Object.freeze({ maxSteps: 50, maxTokens: 2_000_000, maxWallTimeMs: 30 * 60_000 });

/** Runs before user hooks so a limit ends the run before anything else happens in that step. */
const LIMIT_PRIORITY = 1000;

/**
 * Registers the default limits as ordinary hooks through the public API: each is a BeforeStep hook that says `stop` with a reason the user
 * sees. They show in the Hook Runs tree as `built-in: max steps` and so on, and a user can
 * read exactly what stopped their agent. `limits` is read on every step, so a setting
 * change applies to the next step.
 */
export function registerDefaultLimits(hooks: HooksApi, limits: () => AgentLimits): HookDisposable {
  return hooks.use(limitsProvider(limits));
}

/**
 * The limits as a hook provider (`built-in limits`). It never switches off (builtinSwitches.ts:
 * a runaway loop must end); a stricter limit is a hook of one's own beside it.
 */
export function limitsProvider(limits: () => AgentLimits): HookProvider {
  return {
    name: BUILTIN_PROVIDERS.limits,
    registerHooks(h) {
      h.onBeforeStep(
        (ctx) => {
          const { maxSteps } = limits();
          const step = numberField(ctx, 'step_index');
          if (maxSteps > 0 && step > maxSteps) return stop(`Reached the maximum of ${maxSteps} steps (setting hookwise.agent.maxSteps).`);
          return undefined;
        },
        { label: 'built-in: max steps', priority: LIMIT_PRIORITY, id: 'builtin.maxSteps' },
      );
      h.onBeforeStep(
        (ctx) => {
          const { maxTokens } = limits();
          const used = numberField(ctx, 'total_tokens');
          if (maxTokens > 0 && used >= maxTokens) return stop(`Used ${used} tokens, the limit is ${maxTokens}.`);
          return undefined;
        },
        { label: 'built-in: max tokens', priority: LIMIT_PRIORITY, id: 'builtin.maxTokens' },
      );
      h.onBeforeStep(
        (ctx) => {
          const { maxWallTimeMs } = limits();
          const elapsed = numberField(ctx, 'elapsed_ms');
          if (maxWallTimeMs > 0 && elapsed >= maxWallTimeMs)
            return stop(`Ran for ${Math.round(elapsed / 1000)} s, the limit is ${Math.round(maxWallTimeMs / 1000)} s.`);
          return undefined;
        },
        { label: 'built-in: max wall time', priority: LIMIT_PRIORITY, id: 'builtin.maxWallTime' },
      );
    },
  };
}

function numberField(ctx: object, key: string): number {
  const value = (ctx as Record<string, unknown>)[key];
  return typeof value === 'number' ? value : 0;
}
