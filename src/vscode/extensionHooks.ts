import path from 'node:path';
import * as vscode from 'vscode';
import type { ConfigSourceInput } from '../hooks/config/configSources';
import type { EnabledPluginsRead } from '../hooks/config/enabledPluginsRead';
import { extensionHookSources, type ExtensionLike } from '../plugins/extensionHookSources';
import { pluginHookSources } from '../hooks/config/pluginHookSources';
import { discoverPlugins, type PluginRoot } from '../plugins/pluginLoader';
import { pluginWatchTargets, type PluginWatchTarget } from '../plugins/pluginWatchTargets';

/** Where the hook loader's plugin and extension sources come from in the editor. */
export interface PluginSourceOptions {
  readonly homeDir: string;
  readonly projectDirs: readonly string[];
  /** `hookwise.plugins.directories`. */
  readonly settingDirs: readonly string[];
  /** Parent of the extensions' `${CLAUDE_PLUGIN_DATA}` folders (Hookwise's global storage). */
  readonly dataRoot: string;
  readonly warn: (message: string) => void;
  /** The installed extensions; default `vscode.extensions.all`. */
  readonly extensions?: readonly ExtensionLike[];
  /** The settings files' `enabledPlugins` as the configuration load read them (startHookConfigLoad); without it the plugin loader reads the files. */
  readonly enabledPlugins?: ReadonlyMap<string, EnabledPluginsRead>;
}

/**
 * The hook loader inputs of Claude Code plugins (enabled installed ones and
 * `hookwise.plugins.directories`) and of installed VS Code extensions that contribute
 * `contributes.hookwise.hooks` (read from `vscode.extensions.all` at each load; the config service
 * reloads on `vscode.extensions.onDidChange`), and the plugin files to watch for a live reload.
 * Problems are logged naming the file and place.
 */
export async function pluginAndExtensionSources(
  o: PluginSourceOptions,
): Promise<{ inputs: ConfigSourceInput[]; plugins: PluginRoot[]; watch: PluginWatchTarget[] }> {
  const settingDirs = o.settingDirs.map((dir) => (dir.startsWith('~/') ? path.join(o.homeDir, dir.slice(2)) : dir)).filter((dir) => path.isAbsolute(dir));
  const found = await discoverPlugins({
    homeDir: o.homeDir,
    projectDirs: o.projectDirs,
    settingDirs,
    ...(o.enabledPlugins ? { enabledPlugins: o.enabledPlugins } : {}),
  });
  const contributed = extensionHookSources(o.extensions ?? vscode.extensions.all, path.join(o.dataRoot, 'extensionData'));
  for (const p of [...found.problems, ...contributed.problems]) o.warn(`${p.file}${p.jsonPath ? ` › ${p.jsonPath}` : ''}: ${p.message}`);
  return {
    inputs: [...pluginHookSources(found.plugins), ...contributed.inputs],
    plugins: found.plugins,
    watch: pluginWatchTargets(found.plugins, o.homeDir, settingDirs),
  };
}

/**
 * Which installed extensions contribute hooks, as one string: `vscode.extensions.onDidChange`
 * fires for any extension change, and only a change of this set needs a reload.
 */
export function contributingExtensionsKey(extensions: readonly ExtensionLike[] = vscode.extensions.all): string {
  return extensions
    .filter((e) => (e.packageJSON as { contributes?: { hookwise?: unknown } } | undefined)?.contributes?.hookwise !== undefined)
    .map((e) => `${e.id}@${e.extensionPath}`)
    .join('|');
}
