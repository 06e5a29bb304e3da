import path from 'node:path';
import type { HookContextFields } from '../hooks/hookContext';

/** ConfigChange's `source` (its matcher value). */
export type ConfigChangeSource = HookContextFields<'ConfigChange'>['source'];

/** One changed configuration source, as ConfigChange hooks see it. */
export interface ConfigChange {
  readonly source: ConfigChangeSource;
  readonly filePath?: string;
}

/** What the ConfigChange hooks decided: apply the new configuration, or keep the old one (and why). */
export type ConfigChangeVerdict = { readonly apply: true } | { readonly apply: false; readonly reason: string; readonly source: ConfigChangeSource };

/**
 * Claude Code's source name for a changed settings file: `~/.claude/settings.json` is
 * user_settings, a project's `.claude/settings.json` project_settings, its
 * `settings.local.json` local_settings, a managed-settings file policy_settings, a skill
 * file skills. Undefined for files that are none of these (agent files, scripts).
 */
export function configChangeSource(file: string, homeDir: string, projectDirs: readonly string[]): ConfigChangeSource | undefined {
  const base = path.basename(file);
  if (base === 'managed-settings.json') return 'policy_settings';
  if (file.split(path.sep).includes('skills')) return 'skills';
  if (path.basename(path.dirname(file)) !== '.claude') return undefined;
  const dir = path.dirname(path.dirname(file));
  if (base === 'settings.local.json') return 'local_settings';
  if (base !== 'settings.json') return undefined;
  if (projectDirs.some((p) => path.resolve(p) === path.resolve(dir))) return 'project_settings';
  return path.resolve(dir) === path.resolve(homeDir) ? 'user_settings' : 'project_settings';
}
