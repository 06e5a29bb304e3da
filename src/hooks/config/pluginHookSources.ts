import path from 'node:path';
import type { ConfigSourceInput, PluginRef } from './configSources';
import type { HookHandlerConfig } from './hookConfigSchema';

/** A discovered plugin as the hook loader sees it (plugins/pluginLoader.ts's PluginRoot extends it). */
export interface PluginHookRoot {
  /** The manifest's `name`, else the directory name. */
  readonly name: string;
  /** Absolute plugin root: `${CLAUDE_PLUGIN_ROOT}`. */
  readonly root: string;
  /** Persistent data directory: `${CLAUDE_PLUGIN_DATA}` (`~/.claude/plugins/data/<id>`). */
  readonly dataDir: string;
  /**
   * The workspace folder it belongs to when it lives inside one, or is enabled only by a
   * workspace settings file: its hooks then need trust and approval like project hooks.
   */
  readonly projectFolder?: string;
  /** Force-enabled by the managed policy's `enabledPlugins`: no other file can turn it off, and its hooks count as managed for `allowManagedHooksOnly`. */
  readonly managed?: true;
  /** Hooks files: `hooks/hooks.json` plus the manifest's `hooks` paths; `plugin.json` itself when the manifest has inline hooks. */
  readonly hooksFiles: readonly string[];
  readonly agentDirs: readonly string[];
  /** Skill folders (`skills/` and the manifest's `skills` paths): each `<name>/SKILL.md` is the skill `<plugin>:<name>`. */
  readonly skillDirs: readonly string[];
}

/**
 * The hook loader inputs of discovered plugins: each hooks file, and the `hooks:` frontmatter of
 * its agents (scoped to that subagent) and skills (`<plugin>:<skill>`, active while the skill is
 * in use), displayed as `plugin <name> › hooks/hooks.json` / `› agents/x.md`. A plugin with a
 * `projectFolder` yields project-scoped inputs (trust and approval, docs/security.md).
 */
export function pluginHookSources(plugins: readonly PluginHookRoot[]): ConfigSourceInput[] {
  return plugins.flatMap((plugin): ConfigSourceInput[] => {
    const ref = { name: plugin.name, root: plugin.root, dataDir: plugin.dataDir, ...(plugin.managed ? { managed: true as const } : {}) };
    const folder = plugin.projectFolder !== undefined ? { folder: plugin.projectFolder } : {};
    const scope = plugin.projectFolder !== undefined ? 'project' : 'user';
    const display = (file: string): string => `plugin ${plugin.name} › ${path.relative(plugin.root, file).split(path.sep).join('/')}`;
    return [
      ...plugin.hooksFiles.map((file): ConfigSourceInput => ({ kind: 'pluginHooksFile', file, displayFile: display(file), plugin: ref, ...folder })),
      ...plugin.agentDirs.map((dir): ConfigSourceInput => ({ kind: 'agentsDirectory', scope, dir, displayDir: display(dir), plugin: ref, ...folder })),
      ...plugin.skillDirs.map((dir): ConfigSourceInput => ({ kind: 'skillsDirectory', scope, dir, displayDir: display(dir), plugin: ref, ...folder })),
    ];
  });
}

const PLUGIN_VARS = /\$\{CLAUDE_PLUGIN_(ROOT|DATA)\}/g;

/**
 * `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` replaced in a plugin hook's command and args,
 * as text, the way Claude Code does it. Done at load so the shown command is the one that runs and
 * a project plugin's scripts are pinned into its approval (scriptPins.ts).
 */
export function substitutePluginVars(handler: HookHandlerConfig, plugin: PluginRef): HookHandlerConfig {
  if (handler.type !== 'command') return handler;
  const fill = (text: string): string => text.replace(PLUGIN_VARS, (_, which: string) => (which === 'ROOT' ? plugin.root : plugin.dataDir));
  return { ...handler, command: fill(handler.command), ...(handler.args !== undefined ? { args: handler.args.map(fill) } : {}) };
}

/** The variables a plugin's command hooks see in their environment. */
export function pluginHookEnv(plugin: PluginRef): Readonly<Record<string, string>> {
  return { CLAUDE_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_DATA: plugin.dataDir };
}
