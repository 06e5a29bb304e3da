import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadHookConfig } from '../../../src/hooks/config/hookConfigLoader';
import { canSwitchOff } from '../../../src/hooks/config/hookSwitches';
import { describeLoadedHook } from '../../../src/hooks/config/loadedHook';
import { describeSource, isProjectSource } from '../../../src/configFiles/hookSource';
import { pluginHookSources } from '../../../src/hooks/config/pluginHookSources';
import { discoverPlugins } from '../../../src/plugins/pluginLoader';

let base = '';
let home = '';
let ws = '';
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-plugins-')));
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  await mkdir(path.join(home, '.claude', 'plugins'), { recursive: true });
  await mkdir(path.join(ws, '.claude'), { recursive: true });
});
afterEach(() => rm(base, { recursive: true, force: true }));

async function put(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value));
}
const hooksJson = (command: string) => ({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } });

async function installed(id: string, root: string, v1 = false): Promise<void> {
  await put(path.join(root, 'hooks', 'hooks.json'), hooksJson('echo ${CLAUDE_PLUGIN_ROOT}'));
  await put(path.join(home, '.claude', 'plugins', 'installed_plugins.json'), {
    version: v1 ? 1 : 2,
    plugins: { [id]: v1 ? { installPath: root } : [{ scope: 'user', installPath: root }] },
  });
}

async function load(options: Parameters<typeof discoverPlugins>[0]) {
  const found = await discoverPlugins(options);
  const config = await loadHookConfig(pluginHookSources(found.plugins), { projectDirs: options.projectDirs });
  return { ...found, config };
}

describe('plugin trust', () => {
  it('a plugin root inside the workspace is a project source (approval needed); a --plugin-dir one the user named is not', async () => {
    const root = path.join(ws, 'tools', 'guard');
    await put(path.join(root, 'hooks', 'hooks.json'), hooksJson('echo guard'));
    const fromSetting = await load({ homeDir: home, projectDirs: [ws], settingDirs: [root] });
    const [hook] = fromSetting.config.hooks;
    expect(hook && isProjectSource(hook.source)).toBe(true);
    expect(hook?.folder).toBe(ws);
    expect(hook && describeSource(hook.source)).toBe('plugin guard › hooks/hooks.json › hooks.Stop[0].hooks[0]');

    const fromFlag = await load({ homeDir: home, projectDirs: [ws], flagDirs: [root] });
    expect(fromFlag.config.hooks.map((h) => isProjectSource(h.source))).toEqual([false]);
  });

  it("an installed plugin enabled by the user is trusted; enabled only by the project it needs approval; a local false turns off only the project's enabling", async () => {
    const root = path.join(home, '.claude', 'plugins', 'cache', 'm', 'p', '1');
    await installed('p@m', root);
    await put(path.join(ws, '.claude', 'settings.json'), { enabledPlugins: { 'p@m': true } });
    const projectOnly = await load({ homeDir: home, projectDirs: [ws] });
    expect(projectOnly.config.hooks.map((h) => isProjectSource(h.source))).toEqual([true]);

    await put(path.join(home, '.claude', 'settings.json'), { enabledPlugins: { 'p@m': true } });
    const user = await load({ homeDir: home, projectDirs: [ws] });
    expect(user.config.hooks.map((h) => isProjectSource(h.source))).toEqual([false]);
    // ${CLAUDE_PLUGIN_ROOT} is replaced in the command as text.
    expect(user.config.hooks[0]?.handler).toMatchObject({ command: `echo ${root}` });

    await put(path.join(ws, '.claude', 'settings.local.json'), { enabledPlugins: { 'p@m': false } });
    // The user's plugin stays on (the hook loader warns at the project entry).
    const userOn = await load({ homeDir: home, projectDirs: [ws] });
    expect(userOn.config.hooks.map((h) => isProjectSource(h.source))).toEqual([false]);

    await put(path.join(home, '.claude', 'settings.json'), {});
    expect((await load({ homeDir: home, projectDirs: [ws] })).config.hooks).toEqual([]);
  });

  it('reads the version 1 install record too', async () => {
    const root = path.join(home, '.claude', 'plugins', 'cache', 'old');
    await installed('old@m', root, true);
    await put(path.join(home, '.claude', 'settings.json'), { enabledPlugins: { 'old@m': true } });
    const { plugins } = await discoverPlugins({ homeDir: home, projectDirs: [] });
    expect(plugins.map((p) => [p.id, p.root])).toEqual([['old@m', root]]);
  });
});

describe('plugin manifest', () => {
  it('its hooks path and inline hooks load besides hooks/hooks.json; a bad hooks.json is a diagnostic naming the plugin file', async () => {
    const root = path.join(base, 'kit');
    await put(path.join(root, '.claude-plugin', 'plugin.json'), {
      name: 'kit',
      hooks: './more/extra.json',
      commands: ['./cmds', '../outside'],
    });
    await put(path.join(root, 'more', 'extra.json'), hooksJson('echo extra'));
    await put(path.join(root, 'hooks', 'hooks.json'), '{"hooks": {"Stop": "not a list"}}');
    const { config, problems, plugins } = await load({ homeDir: home, projectDirs: [], flagDirs: [root] });
    expect(config.hooks.map((h) => describeSource(h.source))).toEqual(['plugin kit › more/extra.json › hooks.Stop[0].hooks[0]']);
    expect(config.diagnostics).toContainEqual(expect.objectContaining({ displayFile: 'plugin kit › hooks/hooks.json', severity: 'error' }));
    expect(plugins[0]?.commandDirs).toEqual([path.join(root, 'commands'), path.join(root, 'cmds')]);
    expect(problems).toContainEqual(expect.objectContaining({ jsonPath: 'commands[1]', message: expect.stringContaining('outside the plugin root') }));

    await put(path.join(root, '.claude-plugin', 'plugin.json'), { name: 'kit', hooks: hooksJson('echo inline').hooks });
    await put(path.join(root, 'hooks', 'hooks.json'), { description: 'fine', ...hooksJson('echo main') });
    const inline = await load({ homeDir: home, projectDirs: [], flagDirs: [root] });
    expect(inline.config.hooks.map((h) => describeSource(h.source))).toEqual([
      'plugin kit › hooks/hooks.json › hooks.Stop[0].hooks[0]',
      'plugin kit › .claude-plugin/plugin.json › hooks.Stop[0].hooks[0]',
    ]);
  });
});

describe('managed enabledPlugins', () => {
  it('a plugin the policy force-enables is not a project plugin though the project enables it too, and hookwise.hooks.sources / .disabled cannot drop its hooks', async () => {
    const root = path.join(home, '.claude', 'plugins', 'cache', 'm', 'p');
    await installed('p@m', root);
    const managed = path.join(base, 'managed-settings.json');
    await put(managed, { enabledPlugins: { 'p@m': true } });
    await put(path.join(ws, '.claude', 'settings.json'), { enabledPlugins: { 'p@m': true } });
    const id = 'plugin p › hooks/hooks.json › hooks.Stop[0].hooks[0]';
    const options = { projectDirs: [ws], sources: ['claudeUser' as const], disabledHooks: [id] };

    const forced = await discoverPlugins({ homeDir: home, projectDirs: [ws], managedSettingsFile: managed });
    expect(forced.plugins.map((p) => [p.id, p.managed, p.projectFolder])).toEqual([['p@m', true, undefined]]);
    const config = await loadHookConfig(pluginHookSources(forced.plugins), options);
    expect(config.hooks.map((h) => [describeSource(h.source), isProjectSource(h.source), canSwitchOff(h)])).toEqual([[id, false, false]]);
    // Show Effective Hooks' line says why it is there.
    expect(config.hooks.map((h) => describeLoadedHook(h))).toEqual([`Stop command: echo ${root} — ${id} (plugin enabled by managed policy)`]);

    // Without the policy the same plugin is the project's, and the editor settings drop it.
    const plain = await discoverPlugins({ homeDir: home, projectDirs: [ws], managedSettingsFile: null });
    expect(plain.plugins.map((p) => [p.managed, p.projectFolder])).toEqual([[undefined, ws]]);
    expect((await loadHookConfig(pluginHookSources(plain.plugins), options)).hooks).toEqual([]);
  });

  it('a policy entry for a plugin that is not installed is a problem naming the policy file', async () => {
    const managed = path.join(base, 'managed-settings.json');
    await put(managed, { enabledPlugins: { 'ghost@m': true, 'bad@m': 'yes' } });
    const { plugins, problems } = await discoverPlugins({ homeDir: home, projectDirs: [], managedSettingsFile: managed });
    expect(plugins).toEqual([]);
    expect(problems).toEqual([
      expect.objectContaining({ file: managed, jsonPath: 'enabledPlugins["bad@m"]', message: 'must be true or false; it is ignored' }),
      expect.objectContaining({ file: managed, jsonPath: 'enabledPlugins["ghost@m"]', message: expect.stringContaining('not installed') }),
    ]);
  });
});
