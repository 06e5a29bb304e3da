import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { hookLocationId, hookSwitchId, isIdentityId, normaliseDisabledIds } from './hookSwitches';
import type { LoadedHook } from './loadedHook';

/** Which level of `hookwise.hooks.disabled` an id came from. */
export type SwitchLayer = 'user' | 'workspace';

/** An old position id that named a hook on this load, and the identity id it becomes. */
export interface SwitchMigration {
  readonly layer: SwitchLayer;
  /** The position id as written, e.g. `.claude/settings.json › hooks.PreToolUse[1].hooks[0]`. */
  readonly from: string;
  /** The identity id of the hook at that position now (hookSwitches.ts hookIdentityId). */
  readonly to: string;
}

/** A switch that names no loaded hook: the hook under it changed or was removed. */
export interface VanishedSwitch {
  readonly layer: SwitchLayer;
  readonly id: string;
  /** Its entry's position in that layer's `hookwise.hooks.disabled` array (where the warning points). */
  readonly index: number;
}

/** The ids of one layer after migration, and what was migrated or names nothing. */
export interface ResolvedSwitches {
  readonly ids: string[];
  readonly migrated: SwitchMigration[];
  readonly vanished: VanishedSwitch[];
}

/**
 * Resolves one layer's `hookwise.hooks.disabled` ids against every loaded hook (`hooks`): an
 * identity id is kept; a position id (the format before identity ids) that still names a hook
 * becomes that hook's identity id, once, so a later insert cannot move it to another hook (the
 * caller rewrites the setting and logs it); a config id (`file › …`) naming no hook is reported
 * as vanished: the hook under the switch changed or was removed, and the switch does nothing.
 * Ids without ` › ` name hooks registered by code (an extension's id) and are kept as they are.
 */
export function resolveSwitchIds(value: readonly string[] | undefined, hooks: readonly LoadedHook[], layer: SwitchLayer): ResolvedSwitches {
  const ids = normaliseDisabledIds(value);
  if (ids.size === 0) return { ids: [], migrated: [], vanished: [] };
  const byIdentity = new Set(hooks.map((h) => hookSwitchId(h)));
  const byLocation = new Map<string, string>();
  for (const h of hooks) if (!byLocation.has(hookLocationId(h))) byLocation.set(hookLocationId(h), hookSwitchId(h));
  const out: string[] = [];
  const migrated: SwitchMigration[] = [];
  const vanished: VanishedSwitch[] = [];
  for (const id of ids) {
    if (byIdentity.has(id)) out.push(id);
    else if (!isIdentityId(id) && byLocation.has(id)) {
      const to = byLocation.get(id) ?? id;
      migrated.push({ layer, from: id, to });
      out.push(to);
    } else if (id.includes(' › ')) vanished.push({ layer, id, index: entryIndex(value, id) });
    else out.push(id);
  }
  return { ids: [...new Set(out)], migrated, vanished };
}

/** Where `id` (trimmed, as normaliseDisabledIds reads it) is written in the setting's array. */
function entryIndex(value: readonly string[] | undefined, id: string): number {
  return Math.max(0, value?.findIndex((v) => typeof v === 'string' && v.trim() === id) ?? 0);
}

/** The warning for a switch naming no hook, placed on its entry in the settings layer that holds it. */
export function vanishedSwitchWarning(v: VanishedSwitch, file: string | undefined): ConfigDiagnostic {
  return {
    ...(file !== undefined ? { file } : {}),
    displayFile: v.layer === 'user' ? 'user settings' : 'workspace settings',
    jsonPath: `hookwise.hooks.disabled[${v.index}]`,
    severity: 'warning',
    code: 'switchVanished',
    message: `"${v.id}" names no loaded hook: the hook under this switch changed or was removed, so the switch turns nothing off. Check that hook and switch it off again if you still want it off.`,
  };
}
