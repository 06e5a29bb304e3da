import type { EnabledPluginEntry } from './claudeSettingsReader';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';

/**
 * A warning at each `enabledPlugins` entry the managed policy's entry for the same plugin overrides:
 * Claude Code lets no other file flip a plugin the policy turns on or off.
 */
export function lockedPluginWarnings(
  managed: { readonly displayFile: string; readonly enabledPlugins?: readonly EnabledPluginEntry[] } | undefined,
  entries: readonly EnabledPluginEntry[],
): ConfigDiagnostic[] {
  if (managed?.enabledPlugins === undefined || entries.length === 0) return [];
  const locked = new Map(managed.enabledPlugins.map((e) => [e.id, e.on]));
  return entries
    .filter((e) => locked.has(e.id) && locked.get(e.id) !== e.on)
    .map((e) => ({
      ...e.at,
      message: `"${e.id}": ${e.on} here is ignored: the ${managed.displayFile} ${e.on ? 'turns this plugin off' : 'force-enables this plugin'}`,
    }));
}

/**
 * A warning at each project `enabledPlugins: false` for a plugin the user's own file turns on:
 * a project file may disable only what the project brought, so the user's plugin stays on
 * (pluginLoader.ts). Entries the managed policy locks get lockedPluginWarnings instead.
 */
export function userPluginWarnings(
  managed: { readonly enabledPlugins?: readonly EnabledPluginEntry[] } | undefined,
  offs: readonly EnabledPluginEntry[],
  userPlugins: ReadonlyMap<string, string>,
): ConfigDiagnostic[] {
  const locked = new Set((managed?.enabledPlugins ?? []).map((e) => e.id));
  return offs
    .filter((e) => !locked.has(e.id) && userPlugins.has(e.id))
    .map((e) => ({
      ...e.at,
      code: 'cannotLoosen' as const,
      message: `"${e.id}": false here is ignored: a project file cannot disable the user's plugin (turned on in ${userPlugins.get(e.id) ?? 'user settings'}); it stays on`,
    }));
}
