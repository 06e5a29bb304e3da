import { ALWAYS_ON_BUILTINS, isBuiltinProviderLabel, switchIdOf } from '../hooks/config/builtinSwitches';
import type { HookConfig } from '../hooks/config/hookConfigLoader';
import { hookSwitchId } from '../hooks/config/hookSwitches';

/**
 * `--disable-hook ID`: the CLI's form of the user's `hookwise.hooks.disabled`, for this run. An
 * id is a hook's switch id (as `hookwise hooks list` and the extension's Disable action name
 * it) or a built-in provider (`builtin.compaction`, or its name `built-in compaction`). The
 * built-in limits never switch off: they end a runaway agent, so the flag is refused for them
 * with a warning and they keep running (fail safe).
 */

/** The ids to switch off, the always-on built-ins left out, with the warning for each one left out. */
export function cliSwitchIds(typed: readonly string[]): { readonly ids: string[]; readonly warnings: string[] } {
  const ids: string[] = [];
  const warnings: string[] = [];
  for (const id of new Set(typed.map(switchIdOf))) {
    if (ALWAYS_ON_BUILTINS.has(id))
      warnings.push(
        `--disable-hook "${id}" is ignored: the step, token and time limits end a runaway agent, so they always run. Use --max-steps for another step limit, or add a hook of your own for a stricter one.`,
      );
    else if (id !== '') ids.push(id);
  }
  return { ids, warnings };
}

/**
 * A warning for each id that names neither a hook of `config` nor a built-in provider: it turns
 * nothing off. Ids of configured hooks (`file › …`) are left to the loader, which says when one names no hook.
 */
export function unmatchedSwitchWarnings(ids: readonly string[], config: HookConfig): string[] {
  const known = new Set(config.hooks.map((h) => hookSwitchId(h)));
  return ids
    .filter((id) => !id.includes(' › ') && !known.has(id) && !isBuiltinProviderLabel(id))
    .map((id) => `--disable-hook "${id}" names no hook and no built-in provider, so it turns nothing off (see hookwise hooks list)`);
}
