import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadCliConfigWithPlugins } from '../../../src/cli/cliConfig';
import { nodeConfigFileSystem, type ConfigFileSystem } from '../../../src/configFiles/configFileSystem';
import { describeSource } from '../../../src/configFiles/hookSource';
import { standardConfigSources } from '../../../src/hooks/config/configSources';
import { startHookConfigLoad } from '../../../src/hooks/config/hookConfigLoader';
import type { LastGoodStore } from '../../../src/hooks/config/lastGoodConfig';
import { pluginHookSources } from '../../../src/hooks/config/pluginHookSources';
import { discoverPlugins } from '../../../src/plugins/pluginLoader';
import type * as ClaudeSettingsReader from '../../../src/hooks/config/claudeSettingsReader';
import type * as ConfigFileSystemModule from '../../../src/configFiles/configFileSystem';

// One configuration load reads and parses each Claude settings file once: the plugin loader takes
// the `enabledPlugins` the hook loader read (with its last good handling) instead of reading the
// files again. Every read goes through a counting file system, or through readBoundedTextFile
// (what the plugin loader used to read the settings files with), counted here too.

const counts = vi.hoisted(() => ({ reads: new Map<string, number>(), parses: new Map<string, number>() }));
const bump = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);

vi.mock('../../../src/configFiles/configFileSystem', async (importOriginal) => {
  const real = await importOriginal<typeof ConfigFileSystemModule>();
  return {
    ...real,
    readBoundedTextFile: (file: string, max?: number) => {
      bump(counts.reads, file);
      return real.readBoundedTextFile(file, max);
    },
  };
});
vi.mock('../../../src/hooks/config/claudeSettingsReader', async (importOriginal) => {
  const real = await importOriginal<typeof ClaudeSettingsReader>();
  return {
    ...real,
    readClaudeSettingsText: (text: string, where: { file?: string; displayFile: string }) => {
      // One parse per text of a file: the file as it is and, when it is broken, its last good text.
      bump(counts.parses, `${where.file ?? ''}\n${text}`);
      return real.readClaudeSettingsText(text, where);
    },
  };
});

const counting: ConfigFileSystem = {
  readTextFile: (file) => {
    bump(counts.reads, file);
    return nodeConfigFileSystem.readTextFile(file);
  },
  listDirectory: (dir) => nodeConfigFileSystem.listDirectory(dir),
};

function memoryStore(): LastGoodStore {
  const texts = new Map<string, string>();
  return {
    get: (file) => Promise.resolve(texts.get(file)),
    remember: (file, text) => Promise.resolve(void (text === undefined ? texts.delete(file) : texts.set(file, text))),
  };
}

let base = '';
let home = '';
let ws = '';
let files: { user: string; project: string; local: string; managed: string };
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-once-')));
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  files = {
    user: path.join(home, '.claude', 'settings.json'),
    project: path.join(ws, '.claude', 'settings.json'),
    local: path.join(ws, '.claude', 'settings.local.json'),
    managed: path.join(base, 'managed-settings.json'),
  };
  vi.stubEnv('HOOKWISE_MANAGED_SETTINGS', files.managed);
  const root = path.join(home, '.claude', 'plugins', 'cache', 'm', 'p');
  await put(path.join(root, 'hooks', 'hooks.json'), { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo plugin' }] }] } });
  await put(path.join(home, '.claude', 'plugins', 'installed_plugins.json'), { version: 2, plugins: { 'p@m': [{ installPath: root }] } });
  await put(files.user, { enabledPlugins: { 'p@m': true, 'bad@m': 'yes' } });
  await put(files.project, { permissions: { allow: ['Read'] } });
  await put(files.local, { enabledPlugins: {} });
  await put(files.managed, { enabledPlugins: {} });
  counts.reads.clear();
  counts.parses.clear();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(base, { recursive: true, force: true });
});

async function put(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value));
}

/** How often each settings file was read, and each of its texts parsed, since the counts were cleared. */
function settingsCounts(): { reads: Record<string, number>; parses: number[] } {
  const reads = Object.fromEntries(Object.entries(files).map(([name, file]) => [name, counts.reads.get(file) ?? 0]));
  const parses = [...counts.parses].filter(([key]) => Object.values(files).some((f) => key.startsWith(`${f}\n`))).map(([, n]) => n);
  return { reads, parses };
}

const pluginHooks = (hooks: readonly { source: Parameters<typeof describeSource>[0] }[]): string[] =>
  hooks.map((h) => describeSource(h.source)).filter((s) => s.startsWith('plugin '));

describe('enabledPlugins read once per load', () => {
  it('the CLI load reads and parses each settings file once, with a last good store, and reports a bad entry once', async () => {
    const { config, plugins, problems } = await loadCliConfigWithPlugins(ws, home, undefined, [], memoryStore(), counting);
    expect(plugins.map((p) => p.id)).toEqual(['p@m']);
    expect(pluginHooks(config.hooks)).toEqual(['plugin p › hooks/hooks.json › hooks.Stop[0].hooks[0]']);
    expect(settingsCounts()).toEqual({ reads: { user: 1, project: 1, local: 1, managed: 1 }, parses: [1, 1, 1, 1] });
    // One report for the non-boolean entry, naming the file and the place; the hook diagnostics do not repeat it.
    expect(problems).toEqual([{ file: files.user, jsonPath: 'enabledPlugins["bad@m"]', message: 'must be true or false; it is ignored' }]);
    expect(config.diagnostics.filter((d) => d.message.includes('bad@m') || d.jsonPath.includes('bad@m'))).toEqual([]);
  });

  it('a broken settings file is read once and its last good version decides which plugins are on', async () => {
    const store = memoryStore();
    await loadCliConfigWithPlugins(ws, home, undefined, [], store, counting);
    await put(files.user, '{"enabledPlugins": {"p@m": true,, ');
    counts.reads.clear();
    counts.parses.clear();

    const { config, plugins, problems } = await loadCliConfigWithPlugins(ws, home, undefined, [], store, counting);
    expect(config.brokenFiles?.map((b) => [b.file, b.inForce])).toEqual([[files.user, 'lastGood']]);
    expect(plugins.map((p) => p.id)).toEqual(['p@m']);
    expect(pluginHooks(config.hooks)).toHaveLength(1);
    // The user file: read once; its current text and its last good text parsed once each.
    expect(settingsCounts()).toEqual({ reads: { user: 1, project: 1, local: 1, managed: 1 }, parses: [1, 1, 1, 1, 1] });
    expect(problems).toEqual([{ file: files.user, jsonPath: 'enabledPlugins["bad@m"]', message: 'must be true or false; it is ignored' }]);
  });

  it('a settings file hookwise.hooks.sources leaves out is still read once for its enabledPlugins, and adds no hooks', async () => {
    await put(files.user, { enabledPlugins: { 'p@m': true }, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } });
    const options = { fs: counting, sources: ['plugins' as const], projectDirs: [ws], lastGood: memoryStore() };
    const load = await startHookConfigLoad(standardConfigSources({ homeDir: home, folders: [{ root: ws }] }), options);
    const found = await discoverPlugins({ homeDir: home, projectDirs: [ws], enabledPlugins: load.enabledPlugins });
    const config = await load.finish(pluginHookSources(found.plugins));
    expect(config.hooks.map((h) => describeSource(h.source))).toEqual(['plugin p › hooks/hooks.json › hooks.Stop[0].hooks[0]']);
    // The project files are left out too (only `plugins` is selected): each is still read, once.
    expect(settingsCounts()).toEqual({ reads: { user: 1, project: 1, local: 1, managed: 1 }, parses: [1, 1, 1, 1] });
  });
});
