import { isManagedPluginSource, type HookSource } from '../../configFiles/hookSource';
import type { PolicySwitches } from './claudeSettingsReader';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import type { LoadedHook } from './loadedHook';
import type { PermissionRuleEntry } from '../../permissions/permissionRules';
import { SETTINGS_LABELS } from './settingsValueReader';

/** True for a hook (or rule) from the managed policy file. */
export function isManagedHook(hook: { readonly source: HookSource }): boolean {
  return hook.source.kind === 'file' && hook.source.scope === 'managed';
}

/** A hook the managed policy requires: its own, or one of a plugin it force-enables (`enabledPlugins`). No lower layer turns these off. */
export function isPolicyHook(hook: LoadedHook): boolean {
  return isManagedHook(hook) || isManagedPluginSource(hook.source);
}

/**
 * The managed policy binds every other layer: `allowManagedHooksOnly` keeps only its hooks (and those of plugins it force-enables),
 * `allowManagedPermissionRulesOnly` only its rules, and a lower layer's `disableAllHooks`
 * cannot turn its hooks off. Each file whose settings are overridden gets a warning, so a
 * user sees why their hook or rule does nothing.
 */
export function applyManagedPolicy(
  managed: { readonly displayFile: string; readonly policy: PolicySwitches; readonly disableAllHooks: boolean } | undefined,
  hooks: LoadedHook[],
  rules: PermissionRuleEntry[],
  disablingFiles: readonly { file: string; displayFile: string }[],
): { hooks: LoadedHook[]; rules: PermissionRuleEntry[]; diagnostics: ConfigDiagnostic[]; overridden: LoadedHook[] } {
  const diagnostics: ConfigDiagnostic[] = [];
  if (!managed) return { hooks, rules, diagnostics, overridden: [] };
  const overridden = (items: readonly { readonly source: HookSource }[], what: string, why: string): void => {
    const perFile = new Map<string, { file?: string; displayFile: string; count: number }>();
    for (const item of items) {
      const s = item.source;
      if (s.kind === 'code') continue;
      const key = s.kind === 'file' ? s.file : `settings:${s.scope}`;
      const displayFile = s.kind === 'file' ? s.displayFile : SETTINGS_LABELS[s.scope];
      const entry = perFile.get(key) ?? { ...(s.file !== undefined ? { file: s.file } : {}), displayFile, count: 0 };
      entry.count++;
      perFile.set(key, entry);
    }
    for (const f of perFile.values())
      diagnostics.push({
        ...f,
        jsonPath: '',
        severity: 'warning',
        code: 'overriddenByPolicy',
        message: `${f.count} ${what} here ${f.count === 1 ? 'is' : 'are'} ignored: ${why}`,
      });
  };
  let kept = hooks;
  let overriddenHooks: LoadedHook[] = [];
  if (managed.policy.allowManagedHooksOnly) {
    // Plugins the policy force-enables are the policy's own choice: their hooks (hooks files, agent and skill frontmatter) still run.
    overriddenHooks = hooks.filter((h) => !isPolicyHook(h));
    overridden(overriddenHooks, 'hook(s)', `the ${managed.displayFile} allows only its own hooks (allowManagedHooksOnly)`);
    kept = hooks.filter(isPolicyHook);
  }
  let keptRules = rules;
  if (managed.policy.allowManagedPermissionRulesOnly) {
    overridden(
      rules.filter((r) => !isManagedHook(r)),
      'permission rule(s)',
      `the ${managed.displayFile} allows only its own permission rules (allowManagedPermissionRulesOnly)`,
    );
    keptRules = rules.filter(isManagedHook);
  }
  const managedHooks = kept.filter(isPolicyHook).length;
  if (managedHooks > 0 && !managed.disableAllHooks)
    for (const f of disablingFiles)
      diagnostics.push({
        ...f,
        jsonPath: 'disableAllHooks',
        severity: 'warning',
        code: 'overriddenByPolicy',
        message: `disableAllHooks here cannot turn off the ${managedHooks} hook(s) of the ${managed.displayFile}; they still run`,
      });
  return { hooks: kept, rules: keptRules, diagnostics, overridden: overriddenHooks };
}
