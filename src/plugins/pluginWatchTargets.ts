import path from 'node:path';
import type { PluginRoot } from './pluginLoader';

/**
 * What the editor watches so plugin edits apply live (hookConfigService.ts): Claude Code's
 * install record, each `hookwise.plugins.directories` root (a plugin may appear there later) and
 * each found plugin's manifest, hooks files, agents and skills. Pure: the watcher code turns each
 * target into one file system watcher.
 */

/** One watcher: files under `base` matching `pattern` (a VS Code glob, relative to `base`). */
export interface PluginWatchTarget {
  readonly base: string;
  readonly pattern: string;
}

/** Watchers for plugins at most: each costs an OS watch; a settings file could name hundreds of roots. */
export const MAX_PLUGIN_WATCHERS = 32;

/** The files of a plugin root that change its hooks, agents or skills (`hooks/*.json` covers the default hooks file). */
const ROOT_FILES = ['.claude-plugin/plugin.json', 'hooks/*.json', 'agents/*.md', 'skills/*/SKILL.md'];

/**
 * The watch targets for `plugins` found under `homeDir`, plus the `settingDirs` roots; deduplicated,
 * at most {@link MAX_PLUGIN_WATCHERS} (the install record and setting roots first, as they decide
 * which plugins exist at all).
 */
export function pluginWatchTargets(plugins: readonly PluginRoot[], homeDir: string, settingDirs: readonly string[]): PluginWatchTarget[] {
  // One watcher per folder: a setting root that holds a found plugin gets the plugin's wider pattern.
  const out = new Map<string, PluginWatchTarget>();
  const add = (target: PluginWatchTarget): void => {
    if (out.has(target.base) || out.size < MAX_PLUGIN_WATCHERS) out.set(target.base, target);
  };
  add({ base: path.join(homeDir, '.claude', 'plugins'), pattern: 'installed_plugins.json' });
  for (const dir of settingDirs) add({ base: dir, pattern: glob(ROOT_FILES) });
  for (const plugin of plugins) {
    // A manifest may put hooks, agents or skills elsewhere inside the root: those paths are watched too.
    const extra = [
      ...plugin.hooksFiles.map((f) => rel(plugin.root, f)),
      ...plugin.agentDirs.map((d) => `${rel(plugin.root, d)}/*.md`),
      ...plugin.skillDirs.map((d) => `${rel(plugin.root, d)}/*/SKILL.md`),
    ].filter((p) => p !== '' && !p.startsWith('..') && !/^hooks\/[^/]+\.json$/.test(p));
    add({ base: plugin.root, pattern: glob([...new Set([...ROOT_FILES, ...extra])]) });
  }
  return [...out.values()];
}

function rel(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

function glob(parts: readonly string[]): string {
  return parts.length === 1 ? (parts[0] as string) : `{${parts.join(',')}}`;
}
