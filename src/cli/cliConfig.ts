import path from 'node:path';
import { standardConfigSources, type ConfigSourceInput } from '../hooks/config/configSources';
import { loadHookConfig, type HookConfig } from '../hooks/config/hookConfigLoader';

/**
 * The hook configuration a headless run in `cwd` uses: the managed policy, `~/.claude/settings.json`,
 * the folder's `.claude/settings*.json` and agent files, a `--settings` file (highest precedence) and the
 * hooks files of `pluginSources` (pluginHookSources.ts).
 */
export async function loadCliConfig(
  cwd: string,
  homeDir: string,
  settingsFile?: string,
  pluginSources: readonly ConfigSourceInput[] = [],
): Promise<HookConfig> {
  const sources: ConfigSourceInput[] = [...standardConfigSources({ homeDir, folders: [{ root: cwd }] }), ...pluginSources];
  if (settingsFile) sources.push({ kind: 'claudeSettingsFile', scope: 'flag', file: path.resolve(settingsFile), displayFile: settingsFile });
  return loadHookConfig(sources);
}
