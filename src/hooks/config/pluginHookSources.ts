import path from 'node:path';
import type { ConfigSourceInput, PluginRef } from './configSources';
import type { HookHandlerConfig } from './hookConfigSchema';

/** What the hook loader needs of a discovered plugin (plugins/pluginLoader.ts's PluginRoot has these and more). */
export interface PluginHookRoot {
  readonly name: string;
  readonly root: string;
  readonly dataDir: string;
  readonly projectFolder?: string;
  readonly managed?: true;
  readonly hooksFiles: readonly string[];
  readonly agentDirs: readonly string[];
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
