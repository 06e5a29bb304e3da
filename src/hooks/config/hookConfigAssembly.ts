import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { isProjectSource } from '../../configFiles/hookSource';
import { withoutAlwaysOn } from './builtinSwitches';
import { dedupHooks } from './hookDedup';
import type { HookConfig, LoadHookConfigOptions } from './hookConfigLoader';
import { normaliseDisabledIds } from './hookSwitches';
import { resolveSwitchIds, vanishedSwitchWarning } from './hookSwitchMigration';
import type { LoadedHook } from './loadedHook';
import { applyManagedPolicy, isPolicyHook } from './managedPolicy';
import { lockedPluginWarnings, userPluginWarnings } from './pluginEntryWarnings';
import type { SettingsMerge } from './settingsMerge';
import { workspaceEnabledWarning, workspaceSourcesWarnings, workspaceSwitchIds } from './workspaceNarrowing';

type AssemblyOptions = Pick<LoadHookConfigOptions, 'enabled' | 'sources' | 'disabledHooks' | 'workspace' | 'userSettingsFile'>;

/**
 * Builds the configuration from every hook in merge order and the merged settings: the managed
 * policy and plugin-entry pass, what `disableAllHooks` and the workspace leave running, dedup, and
 * the `hookwise.hooks.disabled` switches. Adds its warnings to `diagnostics`.
 */
export function assembleHookConfig(all: LoadedHook[], merge: SettingsMerge, diagnostics: ConfigDiagnostic[], options: AssemblyOptions): HookConfig {
  const { managed, disabledBy, projectOffBy } = merge;
  // The policy filters before dedup: a user's copy of a policy hook comes first in merge order, and
  // dedup keeping that copy would let the policy drop the only one left.
  const policy = applyManagedPolicy(managed, all, merge.rules, merge.disablingFiles);
  diagnostics.push(...policy.diagnostics, ...lockedPluginWarnings(managed, merge.pluginEntries));
  diagnostics.push(...userPluginWarnings(managed, merge.projectPluginOffs, merge.userPlugins));
  const disabled = disabledBy.length > 0;
  const projectOff = !disabled && projectOffBy.length > 0;
  diagnostics.push(...projectReachWarnings(policy.hooks, disabled, merge, options));
  const { kept, duplicates } = dedupHooks(
    managed?.disableAllHooks
      ? []
      : disabled
        ? policy.hooks.filter(isPolicyHook)
        : projectOff
          ? policy.hooks.filter((h) => isPolicyHook(h) || !isProjectSource(h.source))
          : policy.hooks,
  );
  const switches = switchesPass(all, policy.hooks, options, diagnostics);
  return {
    hooks: kept,
    diagnostics,
    disabled,
    disabledBy,
    ...(projectOff ? { projectHooksOffBy: projectOffBy } : {}),
    permissions: {
      rules: policy.rules,
      ...(merge.defaultMode ? { defaultMode: merge.defaultMode } : {}),
      ...(managed?.policy.disableBypassPermissionsMode ? { bypassDisabledBy: managed.displayFile } : {}),
      additionalDirectories: merge.additionalDirectories,
    },
    duplicates,
    ...(managed?.policy.allowManagedHooksOnly ? { managedOnly: { file: managed.displayFile, hooks: policy.overridden } } : {}),
    ...switches,
    ...(merge.httpPolicy.urlLists.length > 0 || merge.httpPolicy.envVarLists.length > 0 ? { httpPolicy: merge.httpPolicy } : {}),
  };
}

/** Warnings where a project file or the workspace tries to reach the user's hooks (the policy's are covered by applyManagedPolicy). */
function projectReachWarnings(hooks: readonly LoadedHook[], disabled: boolean, merge: SettingsMerge, options: AssemblyOptions): ConfigDiagnostic[] {
  const isUserHook = (h: LoadedHook): boolean => !isPolicyHook(h) && !isProjectSource(h.source);
  const userHooks = disabled ? 0 : hooks.filter(isUserHook).length;
  const out = [...workspaceSourcesWarnings(options.sources, options.workspace), ...workspaceEnabledWarning(options.enabled, options.workspace, userHooks)];
  if (userHooks > 0)
    for (const f of merge.projectDisablingFiles)
      out.push({
        ...f,
        message: `ignored for the user's hooks: a project file cannot disable the user's ${userHooks} hook(s), they still run; only this project's own hooks are off`,
      });
  return out;
}

/** The user's and the workspace's switches as hook ids, with the migrations and vanished switches to report. */
function switchesPass(
  all: readonly LoadedHook[],
  policyHooks: readonly LoadedHook[],
  options: AssemblyOptions,
  diagnostics: ConfigDiagnostic[],
): Pick<HookConfig, 'disabledHookIds' | 'switchMigrations' | 'vanishedSwitches'> {
  // Switches follow their hook: old position ids become identity ids, and a switch naming no hook is said (hookSwitchMigration.ts).
  const resolved = resolveSwitchIds(options.disabledHooks, all, 'user');
  const alwaysOn = withoutAlwaysOn(resolved.ids, options.userSettingsFile);
  diagnostics.push(...alwaysOn.diagnostics);
  const userSwitches = { ...resolved, ids: alwaysOn.ids };
  const wsSwitches = resolveSwitchIds(options.workspace?.disabledHooks, all, 'workspace');
  for (const v of userSwitches.vanished) diagnostics.push(vanishedSwitchWarning(v, options.userSettingsFile));
  for (const v of wsSwitches.vanished) diagnostics.push(vanishedSwitchWarning(v, options.workspace?.file));
  const switches = workspaceSwitchIds(policyHooks, options.workspace ? { ...options.workspace, disabledHooks: wsSwitches.ids } : undefined);
  diagnostics.push(...switches.diagnostics);
  const disabledIds = [...userSwitches.ids, ...switches.ids];
  const migrated = [...userSwitches.migrated, ...wsSwitches.migrated];
  const vanished = [...userSwitches.vanished, ...wsSwitches.vanished];
  return {
    ...(disabledIds.length > 0 ? { disabledHookIds: normaliseDisabledIds(disabledIds) } : {}),
    ...(migrated.length > 0 ? { switchMigrations: migrated } : {}),
    ...(vanished.length > 0 ? { vanishedSwitches: vanished } : {}),
  };
}
