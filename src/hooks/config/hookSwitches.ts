import { describeSource, isManagedPluginSource } from '../hookSource';
import type { LoadedHook } from './loadedHook';

/** Longest id kept, and most ids read, from `hookwise.hooks.disabled` (outside input: a workspace may set it). */
const MAX_ID_LENGTH = 1000;
const MAX_IDS = 1000;

/**
 * The id `hookwise.hooks.disabled` names a hook by: the same `source › json path` label Hook Runs
 * and diagnostics show, e.g. `.claude/settings.json › hooks.PreToolUse[0].hooks[0]`.
 */
export function hookSwitchId(hook: Pick<LoadedHook, 'source'>): string {
  return describeSource(hook.source);
}

/**
 * Managed policy hooks, and those of plugins it force-enables, cannot be switched off: the
 * organisation set them and a user or workspace setting must not silence them (the same reason `disableAllHooks` elsewhere leaves them running).
 */
export function canSwitchOff(hook: Pick<LoadedHook, 'source'>): boolean {
  return !(hook.source.kind === 'file' && hook.source.scope === 'managed') && !isManagedPluginSource(hook.source);
}

/** The setting's value as a bounded set of ids; anything that is not a string is ignored. */
export function normaliseDisabledIds(value: unknown): ReadonlySet<string> {
  if (!Array.isArray(value)) return new Set();
  const ids = value
    .slice(0, MAX_IDS)
    .filter((v): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_LENGTH)
    .map((v) => v.trim());
  return new Set(ids);
}

/** True when `hook` is named in `disabled` and may be switched off. */
export function isSwitchedOff(hook: Pick<LoadedHook, 'source'>, disabled: ReadonlySet<string>): boolean {
  return disabled.size > 0 && canSwitchOff(hook) && disabled.has(hookSwitchId(hook));
}

/** Splits `hooks` into those that run and those switched off by `hookwise.hooks.disabled`; order is kept. */
export function applyHookSwitches<T extends Pick<LoadedHook, 'source'>>(hooks: readonly T[], disabled: ReadonlySet<string>): { on: T[]; off: T[] } {
  if (disabled.size === 0) return { on: [...hooks], off: [] };
  const on: T[] = [];
  const off: T[] = [];
  for (const hook of hooks) (isSwitchedOff(hook, disabled) ? off : on).push(hook);
  return { on, off };
}

/** The new `hookwise.hooks.disabled` value after switching `id` off (`off` true) or back on; order kept, no duplicates. */
export function withSwitch(current: readonly unknown[] | undefined, id: string, off: boolean): string[] {
  const ids = (current ?? []).filter((v): v is string => typeof v === 'string' && v !== id);
  return off ? [...ids, id] : ids;
}
