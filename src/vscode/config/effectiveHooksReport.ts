import { applyHookSwitches, hookSwitchId } from '../../hooks/config/hookSwitches';
import { configWarnings } from '../../hooks/config/configNotices';
import { HOOK_EVENTS } from '../../hooks/hookEvent';
import { describeLoadedHook, type LoadedHook } from '../../hooks/config/loadedHook';
import type { HookConfigChange } from './hookConfigService';

/**
 * The text of "Hookwise: Show Effective Hooks": every active hook in the order it runs
 * (events in lifecycle order; within an event priority descending, then merge order, as the
 * registry sorts them), then the held ones with why, then what could not be bound.
 */

/** Active hooks in run order. */
export function inRunOrder(hooks: readonly LoadedHook[]): LoadedHook[] {
  const rank = new Map(HOOK_EVENTS.map((event, i) => [event, i]));
  return hooks
    .map((hook, index) => ({ hook, index }))
    .sort(
      (a, b) =>
        (rank.get(a.hook.event) ?? 0) - (rank.get(b.hook.event) ?? 0) || (b.hook.handler.priority ?? 0) - (a.hook.handler.priority ?? 0) || a.index - b.index,
    )
    .map((x) => x.hook);
}

const HELD_WHY = {
  untrusted: 'workspace not trusted',
  unapproved: 'not approved — run "Hookwise: Review Project Hooks"',
} as const;

/** What the report adds beyond the hook configuration. */
export interface EffectiveHooksExtras {
  /** Hooks other extensions registered through the API (ExtensionApiHooks.list). */
  readonly apiHooks?: readonly { readonly source: string; readonly event: string; readonly label: string; readonly blockedBy?: string }[];
  /** `hookwise.*` settings an organisation's VS Code policy sets (settingPolicy.ts). */
  readonly policySettings?: readonly { readonly key: string; readonly policy: string; readonly value: unknown }[];
}

/** Report lines for the log; `change` undefined = nothing loaded yet. */
export function effectiveHooksReport(change: HookConfigChange | undefined, extras: EffectiveHooksExtras = {}): string[] {
  const tail = extrasLines(extras);
  if (!change) return ['Effective hooks: the configuration has not been loaded yet.', ...tail];
  const { config, applied } = change;
  const lines = [`Effective hooks (generation ${applied.generation}): ${applied.active.length} active, ${applied.held.length} held.`];
  if (config.disabled) lines.push(`Configured hooks are disabled by ${config.disabledBy.join(', ')}.`);
  else if (config.projectHooksOffBy) lines.push(`The project's hooks are disabled by ${config.projectHooksOffBy.join(', ')}; the user's still run.`);
  let event: string | undefined;
  let n = 0;
  for (const hook of inRunOrder(applied.active)) {
    if (hook.event !== event) {
      event = hook.event;
      n = 0;
      lines.push(`${event}:`);
    }
    const priority = hook.handler.priority ? ` (priority ${hook.handler.priority})` : '';
    lines.push(`  ${++n}. ${describeLoadedHook(hook)}${priority}`);
  }
  if (applied.active.length === 0) lines.push('  (no active configured hooks)');
  if (applied.held.length > 0) {
    lines.push('Held (not run):');
    for (const { hook, why } of applied.held) lines.push(`  - ${describeLoadedHook(hook)} — ${HELD_WHY[why]}`);
  }
  if (applied.problems.length > 0) {
    lines.push('Not registered:');
    for (const p of applied.problems) lines.push(`  - ${describeLoadedHook(p.hook)} — ${p.message}`);
  }
  const off = config.disabledHookIds !== undefined ? applyHookSwitches(config.hooks, config.disabledHookIds).off : [];
  if (off.length > 0) {
    lines.push('Switched off (hookwise.hooks.disabled):');
    for (const hook of off) lines.push(`  - ${describeLoadedHook(hook)} — switch "${hookSwitchId(hook)}"`);
  }
  for (const w of configWarnings(config)) lines.push(`Warning: ${w}`);
  if (config.diagnostics.length > 0) lines.push(`${config.diagnostics.length} configuration problem(s); see the Problems panel and the lines above.`);
  return [...lines, ...tail];
}

function extrasLines(extras: EffectiveHooksExtras): string[] {
  const lines: string[] = [];
  if (extras.apiHooks !== undefined && extras.apiHooks.length > 0) {
    lines.push('Registered by extensions (API):');
    for (const h of extras.apiHooks) lines.push(`  - ${h.event}: ${h.label} — ${h.source}${h.blockedBy !== undefined ? ` — off: ${h.blockedBy}` : ''}`);
  }
  if (extras.policySettings !== undefined && extras.policySettings.length > 0) {
    lines.push('Settings managed by VS Code policy (user and workspace values do not apply):');
    for (const p of extras.policySettings) lines.push(`  - ${p.key} = ${JSON.stringify(p.value)} — managed (VS Code policy ${p.policy})`);
  }
  return lines;
}
