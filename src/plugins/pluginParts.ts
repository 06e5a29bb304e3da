import { readCommandDir, type SlashCommand, type SlashCommandSet } from '../agent/commands/slashCommands';
import path from 'node:path';
import type { PluginRoot } from './pluginLoader';

/**
 * A plugin's commands and agents, for the runtime. Plugin commands are namespaced as
 * `/<plugin>:<command>` (Claude Code's form), so they never shadow a project or user command.
 */

/** Agent directories of the plugins, to read before the user's and the project's (those win a name clash, as in Claude Code). */
export function pluginAgentDirs(plugins: readonly PluginRoot[]): { dir: string; displayDir: string }[] {
  return plugins.flatMap((p) =>
    p.agentDirs.map((dir) => ({
      dir,
      displayDir: `plugin ${p.name} › ${dir
        .slice(p.root.length + 1)
        .split(/[\\/]/)
        .join('/')}`,
    })),
  );
}

/** Skill folders of the plugins, each skill named `<plugin>:<name>`; project-scoped when the plugin belongs to the workspace. */
export function pluginSkillDirs(plugins: readonly PluginRoot[]): { dir: string; displayDir: string; scope: 'user' | 'project'; namespace: string }[] {
  return plugins.flatMap((p) =>
    p.skillDirs.map((dir) => ({
      dir,
      displayDir: `plugin ${p.name} › ${path.relative(p.root, dir).split(/[\\/]/).join('/')}`,
      scope: p.projectFolder !== undefined ? ('project' as const) : ('user' as const),
      namespace: p.name,
    })),
  );
}

/** `base` plus every plugin's commands, each named `<plugin>:<command>`; never throws. */
export async function withPluginCommands(base: Promise<SlashCommandSet>, plugins: readonly PluginRoot[]): Promise<SlashCommandSet> {
  const set = await base;
  if (plugins.length === 0) return set;
  const problems = [...set.problems];
  const byName = new Map<string, SlashCommand>(set.commands.map((c) => [c.name, c]));
  for (const plugin of plugins) {
    for (const dir of plugin.commandDirs) {
      for (const command of await readCommandDir(dir, `plugin:${plugin.name}`, problems)) {
        const name = `${plugin.name}:${command.name}`;
        if (!byName.has(name)) byName.set(name, { ...command, name });
      }
    }
  }
  return { commands: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), problems };
}
