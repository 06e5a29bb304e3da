import path from 'node:path';
import { standardConfigSources, type ConfigSourceInput } from '../hooks/config/configSources';
import type { ConfigFileSystem } from '../configFiles/configFileSystem';
import { loadHookConfig, startHookConfigLoad, type HookConfig } from '../hooks/config/hookConfigLoader';
import type { LastGoodStore } from '../hooks/config/lastGoodConfig';
import { pluginHookSources } from '../hooks/config/pluginHookSources';
import { discoverPlugins, type PluginProblem, type PluginRoot } from '../plugins/pluginLoader';

/**
 * The hook configuration a headless run in `cwd` uses: the managed policy, `~/.claude/settings.json`,
 * the folder's `.claude/settings*.json` and agent files, a `--settings` file (highest precedence) and the
 * hooks files of `pluginSources` (pluginHookSources.ts). With `lastGood`, a broken file's last good version is used (lastGoodConfig.ts).
 */
export async function loadCliConfig(
  cwd: string,
  homeDir: string,
  settingsFile?: string,
  pluginSources: readonly ConfigSourceInput[] = [],
  lastGood?: LastGoodStore,
): Promise<HookConfig> {
  // projectDirs: the workspace files a user hook runs are found (and protected from the agent) too.
  return loadHookConfig([...cliSettingsSources(cwd, homeDir, settingsFile), ...pluginSources], { projectDirs: [cwd], ...(lastGood ? { lastGood } : {}) });
}

/** The settings sources of a headless run: the standard set of `cwd` and a `--settings` file (highest precedence). */
function cliSettingsSources(cwd: string, homeDir: string, settingsFile: string | undefined): ConfigSourceInput[] {
  const sources: ConfigSourceInput[] = standardConfigSources({ homeDir, folders: [{ root: cwd }] });
  if (settingsFile) sources.push({ kind: 'claudeSettingsFile', scope: 'flag', file: path.resolve(settingsFile), displayFile: settingsFile });
  return sources;
}

/**
 * The plugins a headless command in `cwd` sees (Claude Code's installed and enabled ones, then the
 * `--plugin-dir` roots) and the hook configuration with their hooks. Never throws: a plugin that
 * cannot be used is a problem naming its file and the place. One load reads each settings file
 * once: its `enabledPlugins` (a broken file's last good version with `lastGood`) pick the plugins,
 * then the plugins' files are read. `fs`: the settings and plugin hooks files' access, default node:fs.
 * `disabledHooks`: switch ids turned off as the user's `hookwise.hooks.disabled` (`--disable-hook`).
 */
export async function loadCliConfigWithPlugins(
  cwd: string,
  homeDir: string,
  settingsFile: string | undefined,
  pluginDirs: readonly string[],
  lastGood?: LastGoodStore,
  fs?: ConfigFileSystem,
  disabledHooks?: readonly string[],
): Promise<{ config: HookConfig; plugins: PluginRoot[]; problems: PluginProblem[] }> {
  const load = await startHookConfigLoad(cliSettingsSources(cwd, homeDir, settingsFile), {
    projectDirs: [cwd],
    ...(lastGood ? { lastGood } : {}),
    ...(fs ? { fs } : {}),
    ...(disabledHooks !== undefined && disabledHooks.length > 0 ? { disabledHooks } : {}),
  });
  const flagDirs = pluginDirs.map((dir) => path.resolve(dir));
  const found = await discoverPlugins({ homeDir, projectDirs: [cwd], flagDirs, enabledPlugins: load.enabledPlugins });
  const config = await load.finish(pluginHookSources(found.plugins));
  return { config, plugins: found.plugins, problems: found.problems };
}

/** A plugin problem as the CLI prints it: `file › place: message`. */
export function formatPluginProblem(p: PluginProblem): string {
  return `${p.file}${p.jsonPath ? ` › ${p.jsonPath}` : ''}: ${p.message}`;
}
