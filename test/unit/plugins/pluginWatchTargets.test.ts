import path from 'node:path';
import { expect, it } from 'vitest';
import type { PluginRoot } from '../../../src/plugins/pluginLoader';
import { MAX_PLUGIN_WATCHERS, pluginWatchTargets } from '../../../src/plugins/pluginWatchTargets';

// What the editor watches so a plugin edit reloads hooks live (the watchers themselves are
// vscode.FileSystemWatchers built one per target in fileWatchSet.ts).

const home = path.join(path.sep, 'home', 'u');
const plugin = (root: string, more: Partial<PluginRoot> = {}): PluginRoot => ({
  name: path.basename(root),
  id: `${path.basename(root)}@inline`,
  root,
  dataDir: path.join(home, 'data'),
  hooksFiles: [path.join(root, 'hooks', 'hooks.json')],
  commandDirs: [path.join(root, 'commands')],
  agentDirs: [path.join(root, 'agents')],
  skillDirs: [path.join(root, 'skills')],
  mcpFiles: [],
  ...more,
});

it("watches the install record, each setting root and each plugin's manifest, hooks, agents and skills, one watcher per folder", () => {
  const local = path.join(path.sep, 'work', 'kit');
  const installed = path.join(home, '.claude', 'plugins', 'cache', 'acme', 'lint', '1.0.0');
  const targets = pluginWatchTargets([plugin(local), plugin(installed)], home, [local, path.join(path.sep, 'work', 'later')]);
  const std = '{.claude-plugin/plugin.json,hooks/*.json,agents/*.md,skills/*/SKILL.md}';
  expect(targets).toEqual([
    { base: path.join(home, '.claude', 'plugins'), pattern: 'installed_plugins.json' },
    { base: local, pattern: std },
    { base: path.join(path.sep, 'work', 'later'), pattern: std },
    { base: installed, pattern: std },
  ]);
});

it("a manifest's own hooks, agents and skills paths are watched too; paths outside the root are not", () => {
  const root = path.join(path.sep, 'work', 'kit');
  const [, target] = pluginWatchTargets(
    [
      plugin(root, {
        hooksFiles: [path.join(root, 'hooks', 'hooks.json'), path.join(root, 'config', 'more-hooks.json'), path.join(root, '..', 'x.json')],
        agentDirs: [path.join(root, 'agents'), path.join(root, 'team', 'agents')],
      }),
    ],
    home,
    [],
  );
  expect(target?.pattern).toBe('{.claude-plugin/plugin.json,hooks/*.json,agents/*.md,skills/*/SKILL.md,config/more-hooks.json,team/agents/*.md}');
});

it('is bounded: hundreds of plugin roots get at most MAX_PLUGIN_WATCHERS watchers, the install record first', () => {
  const many = Array.from({ length: 300 }, (_, i) => plugin(path.join(path.sep, 'p', String(i))));
  const targets = pluginWatchTargets(many, home, []);
  expect(targets).toHaveLength(MAX_PLUGIN_WATCHERS);
  expect(targets[0]?.pattern).toBe('installed_plugins.json');
});
