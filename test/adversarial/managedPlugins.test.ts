import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { standardConfigSources } from '../../src/hooks/config/configSources';
import { loadHookConfig } from '../../src/hooks/config/hookConfigLoader';
import { discoverPlugins } from '../../src/plugins/pluginLoader';
import { pluginHookSources } from '../../src/hooks/config/pluginHookSources';

// A hostile repository against the organisation's managed `enabledPlugins`: whatever its
// `.claude/settings.json` and `.claude/settings.local.json` say (flip the plugins, turn all
// hooks off, repeat the policy plugin's hook), the plugin the policy force-enables keeps its
// hook and the plugin the policy turns off stays off — with and without allowManagedHooksOnly.

const base = mkdtempSync(path.join(os.tmpdir(), 'hookwise-adv-plugins-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const writeJson = (file: string, value: unknown): void => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
};

/** ~/.claude with two installed plugins: `guard@acme` (the policy forces it on) and `leak@acme` (the policy forces it off). */
function home(dir: string): void {
  const records: Record<string, unknown> = {};
  for (const name of ['guard', 'leak']) {
    const root = path.join(dir, '.claude', 'plugins', 'cache', 'acme', name, '1.0.0');
    records[`${name}@acme`] = [{ scope: 'user', installPath: root, version: '1.0.0' }];
    writeJson(path.join(root, '.claude-plugin', 'plugin.json'), { name, version: '1.0.0' });
    writeJson(path.join(root, 'hooks', 'hooks.json'), { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${name}.sh` }] }] } });
  }
  writeJson(path.join(dir, '.claude', 'plugins', 'installed_plugins.json'), { version: 2, plugins: records });
}

/** What a hostile project file may hold (each combination is one case, in settings.json or settings.local.json). */
const HOSTILE: Readonly<Record<string, unknown>>[] = [
  { enabledPlugins: { 'guard@acme': false } },
  { enabledPlugins: { 'leak@acme': true } },
  { enabledPlugins: { 'guard@acme': false, 'leak@acme': true } },
  { disableAllHooks: true },
  { disableAllHooks: true, enabledPlugins: { 'guard@acme': false, 'leak@acme': true } },
  { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }] }, disableAllHooks: true },
  { enabledPlugins: 'guard@acme' },
  { enabledPlugins: { 'guard@acme': 'false', 'leak@acme': 1 } },
];

describe('adversarial: managed enabledPlugins', () => {
  it('a project can neither turn off the plugin the policy forces on nor turn on the one it forces off', async () => {
    const failures: string[] = [];
    let cases = 0;
    for (const managedOnly of [false, true])
      for (const [i, hostile] of HOSTILE.entries())
        for (const file of ['settings.json', 'settings.local.json']) {
          cases++;
          const dir = path.join(base, `c${cases}`);
          const ws = path.join(dir, 'ws');
          const managedFile = path.join(dir, 'managed-settings.json');
          home(dir);
          writeJson(managedFile, { enabledPlugins: { 'guard@acme': true, 'leak@acme': false }, ...(managedOnly ? { allowManagedHooksOnly: true } : {}) });
          writeJson(path.join(ws, '.claude', file), hostile);
          const found = await discoverPlugins({ homeDir: dir, projectDirs: [ws], managedSettingsFile: managedFile });
          const config = await loadHookConfig(
            [...standardConfigSources({ homeDir: dir, folders: [{ root: ws }], managedSettingsFile: managedFile }), ...pluginHookSources(found.plugins)],
            { projectDirs: [ws] },
          );
          const commands = config.hooks.map((h) => (h.handler.type === 'command' ? h.handler.command : h.handler.type));
          const guard = config.hooks.filter((h) => h.source.kind === 'file' && h.source.plugin?.name === 'guard');
          if (guard.length !== 1 || commands.includes('leak.sh'))
            failures.push(`managedOnly=${managedOnly} ${file} #${i} ${JSON.stringify(hostile)}: ${JSON.stringify(commands)}`);
        }
    console.log(`[adversarial] managedPlugins: ${cases} cases, ${failures.length} failures`);
    expect(failures).toEqual([]);
  });
});
