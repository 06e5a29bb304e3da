import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { getNodeValue, parseTree } from 'jsonc-parser';
import { readBoundedTextFile } from '../configFiles/configFileSystem';
import { findExcessNesting } from '../configFiles/configLimits';
import { defaultManagedSettingsFile } from '../hooks/config/configSources';
import type { EnabledPluginsRead } from '../hooks/config/enabledPluginsRead';
import { folderContains } from '../hooks/config/loadedHook';
import type { PluginHookRoot } from '../hooks/config/pluginHookSources';
import { thrownMessage } from '../shared/describeThrown';
import { isPlainObject } from '../shared/jsonObject';

/**
 * Claude Code plugins (docs/plugins.md): the enabled installed ones (`enabledPlugins` in the
 * Claude settings files, resolved through `~/.claude/plugins/installed_plugins.json`) and local
 * plugin roots named by `--plugin-dir` or `hookwise.plugins.directories`. A root holds
 * `.claude-plugin/plugin.json` (optional; its `hooks`/`commands`/`agents`/`mcpServers` may
 * point elsewhere inside the root), `hooks/hooks.json`, `commands/`, `agents/` and `.mcp.json`.
 * The managed policy's `enabledPlugins` wins over every other file: `true` force-enables a plugin
 * (its hooks then run under `allowManagedHooksOnly`), `false` keeps it off whatever the user says.
 * Nothing here runs anything: the result is data for the hook loader, commands, agents and MCP.
 */

/** One plugin root and where its parts are: the parts the hook loader reads (PluginHookRoot) and the rest. */
export interface PluginRoot extends PluginHookRoot {
  /** `name@marketplace` for installed plugins, `name@inline` for local roots. */
  readonly id: string;
  readonly commandDirs: readonly string[];
  /** `.mcp.json` or the manifest's `mcpServers` file; `inlineMcpServers` when the manifest has the object itself. */
  readonly mcpFiles: readonly string[];
  readonly inlineMcpServers?: Readonly<Record<string, unknown>>;
}

/** A plugin or install record that could not be used, naming the file and the place. */
export interface PluginProblem {
  readonly file: string;
  readonly jsonPath: string;
  readonly message: string;
}

/** Where to look. */
export interface PluginDiscoveryOptions {
  readonly homeDir: string;
  /** Workspace folder roots (their `.claude/settings*.json` may enable plugins; a root inside one is a project plugin). */
  readonly projectDirs: readonly string[];
  /** `--plugin-dir` roots, named by the user on the command line (trusted like a `--settings` file). */
  readonly flagDirs?: readonly string[];
  /** `hookwise.plugins.directories` roots. */
  readonly settingDirs?: readonly string[];
  /** The managed policy file; default {@link defaultManagedSettingsFile} of this process; null = none. */
  readonly managedSettingsFile?: string | null;
  /**
   * The settings files' `enabledPlugins` as the configuration load already read them
   * (startHookConfigLoad), by absolute path: those files are not read again here, and a broken
   * one's last good version decides. A settings file not in the map is read here.
   */
  readonly enabledPlugins?: ReadonlyMap<string, EnabledPluginsRead>;
}

/** Bound on plugins read in one load (a settings file could name thousands). */
export const MAX_PLUGINS = 100;

/** Finds every plugin root; never throws, problems are returned. */
export async function discoverPlugins(options: PluginDiscoveryOptions): Promise<{ plugins: PluginRoot[]; problems: PluginProblem[] }> {
  const problems: PluginProblem[] = [];
  const pluginsHome = path.join(options.homeDir, '.claude', 'plugins');
  const candidates: { root: string; id?: string; origin: 'installed' | 'flag' | 'setting'; enabledByProject?: string; managed?: true }[] = [];

  const enabled = await readEnabledPlugins(options, problems);
  if (enabled.size > 0) {
    const installedFile = path.join(pluginsHome, 'installed_plugins.json');
    const installed = await readJsonObject(installedFile, problems);
    const records = installed?.plugins;
    for (const [id, by] of enabled) {
      const record = isPlainObject(records) ? records[id] : undefined;
      const first = Array.isArray(record) ? record.find((r) => isPlainObject(r) && typeof r.installPath === 'string') : record;
      if (!isPlainObject(first) || typeof first.installPath !== 'string') {
        problems.push({
          file: by.file,
          jsonPath: `enabledPlugins["${id}"]`,
          message: `plugin "${id}" is enabled but not installed (no record in ${installedFile}); it is skipped`,
        });
        continue;
      }
      candidates.push({
        root: first.installPath,
        id,
        origin: 'installed',
        ...(by.projectFolder !== undefined ? { enabledByProject: by.projectFolder } : {}),
        ...(by.managed ? { managed: true as const } : {}),
      });
    }
  }
  for (const dir of options.settingDirs ?? []) candidates.push({ root: dir, origin: 'setting' });
  for (const dir of options.flagDirs ?? []) candidates.push({ root: dir, origin: 'flag' });

  const plugins: PluginRoot[] = [];
  const seenRoots = new Set<string>();
  for (const candidate of candidates) {
    const root = path.resolve(candidate.root);
    if (seenRoots.has(root)) continue;
    seenRoots.add(root);
    if (plugins.length >= MAX_PLUGINS) {
      problems.push({ file: root, jsonPath: '', message: `more than ${MAX_PLUGINS} plugins; the rest are skipped` });
      break;
    }
    const plugin = await readPluginRoot(root, candidate, options, pluginsHome, problems);
    if (plugin) plugins.push(plugin);
  }
  return { plugins, problems };
}

async function readPluginRoot(
  root: string,
  candidate: { id?: string; origin: 'installed' | 'flag' | 'setting'; enabledByProject?: string; managed?: true },
  options: PluginDiscoveryOptions,
  pluginsHome: string,
  problems: PluginProblem[],
): Promise<PluginRoot | undefined> {
  if (!(await isDirectory(root))) {
    problems.push({ file: root, jsonPath: '', message: 'plugin directory not found; it is skipped' });
    return undefined;
  }
  const manifestFile = path.join(root, '.claude-plugin', 'plugin.json');
  const manifest = (await readJsonObject(manifestFile, problems)) ?? {};
  const name = typeof manifest.name === 'string' && /^[\w.-]{1,64}$/.test(manifest.name) ? manifest.name : path.basename(root);
  if (manifest.name !== undefined && name !== manifest.name)
    problems.push({
      file: manifestFile,
      jsonPath: 'name',
      message: `"name" must be letters, digits, _ . - (at most 64); the directory name "${name}" is used`,
    });
  /** Manifest paths are relative to the root and must stay inside it (a manifest cannot reach other files). */
  const paths = (key: string): string[] => {
    const value = manifest[key];
    const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    const out: string[] = [];
    list.forEach((item, i) => {
      const at = Array.isArray(value) ? `${key}[${i}]` : key;
      if (typeof item !== 'string')
        return problems.push({ file: manifestFile, jsonPath: at, message: 'must be a path string like "./custom/"; it is ignored' });
      const resolved = path.resolve(root, item);
      if (!folderContains(root, resolved))
        return problems.push({ file: manifestFile, jsonPath: at, message: `"${item}" is outside the plugin root; it is ignored` });
      out.push(resolved);
    });
    return out;
  };
  const unique = (list: string[]): string[] => [...new Set(list)];
  const hooksFiles = unique([path.join(root, 'hooks', 'hooks.json'), ...paths('hooks'), ...(isPlainObject(manifest.hooks) ? [manifestFile] : [])]);
  const mcp = manifest.mcpServers;
  const id = candidate.id ?? `${name}@inline`;
  const dataDir = path.join(pluginsHome, 'data', id.replace(/[^\w.-]/g, '-'));
  // Claude Code creates the data directory so a hook can write to it straight away.
  await mkdir(dataDir, { recursive: true }).catch(() => undefined);
  const inWorkspace = candidate.origin === 'flag' ? undefined : options.projectDirs.find((dir) => folderContains(dir, root));
  const projectFolder = inWorkspace ?? candidate.enabledByProject;
  return {
    name,
    id,
    root,
    dataDir,
    ...(projectFolder !== undefined ? { projectFolder } : {}),
    ...(candidate.managed ? { managed: true as const } : {}),
    hooksFiles,
    commandDirs: unique([path.join(root, 'commands'), ...paths('commands')]),
    agentDirs: unique([path.join(root, 'agents'), ...paths('agents')]),
    skillDirs: unique([path.join(root, 'skills'), ...paths('skills')]),
    mcpFiles: unique([path.join(root, '.mcp.json'), ...(typeof mcp === 'string' ? paths('mcpServers') : [])]),
    ...(isPlainObject(mcp) ? { inlineMcpServers: mcp } : {}),
  };
}

/**
 * `enabledPlugins` merged over `~/.claude/settings.json`, then each folder's `.claude/settings.json`
 * and `.claude/settings.local.json` (a later file wins, except that a project file may turn off only
 * a plugin a project file turned on: the user's plugins stay on), then the managed policy, whose
 * entries no other file can flip (the hook loader warns on a file that tries either: hookConfigLoader.ts).
 * Unlike Claude Code, where project settings override the user's (docs/security.md).
 */
async function readEnabledPlugins(
  options: PluginDiscoveryOptions,
  problems: PluginProblem[],
): Promise<Map<string, { file: string; projectFolder?: string; managed?: true }>> {
  const files: { file: string; projectFolder?: string }[] = [{ file: path.join(options.homeDir, '.claude', 'settings.json') }];
  for (const dir of options.projectDirs)
    for (const name of ['settings.json', 'settings.local.json']) files.push({ file: path.join(dir, '.claude', name), projectFolder: dir });
  const managedFile = options.managedSettingsFile === undefined ? defaultManagedSettingsFile() : options.managedSettingsFile;
  const entriesOf = (file: string): Promise<Map<string, boolean>> => {
    const read = options.enabledPlugins?.get(file);
    return read !== undefined ? Promise.resolve(takeEntries(file, read, problems)) : readEntries(file, problems);
  };
  const locked = managedFile === null ? new Map<string, boolean>() : await entriesOf(managedFile);
  const enabled = new Map<string, { file: string; projectFolder?: string; managed?: true }>();
  for (const entry of files) {
    for (const [id, on] of await entriesOf(entry.file)) {
      if (locked.has(id)) continue;
      if (on) {
        // Once the user enabled it, a project file enabling it too does not make it a project plugin.
        const previous = enabled.get(id);
        enabled.set(id, previous && previous.projectFolder === undefined ? previous : entry);
      } else if (entry.projectFolder === undefined || enabled.get(id)?.projectFolder !== undefined) {
        // A project file turns off only what a project file turned on; the user's plugin stays (the hook loader warns at the entry).
        enabled.delete(id);
      }
    }
  }
  for (const [id, on] of locked) if (on && managedFile !== null) enabled.set(id, { file: managedFile, managed: true });
  return enabled;
}

/** One file's boolean `enabledPlugins` entries as the load read them; its problems become plugin problems naming the place. */
function takeEntries(file: string, read: EnabledPluginsRead, problems: PluginProblem[]): Map<string, boolean> {
  if (read.fileProblem !== undefined) problems.push({ file, jsonPath: '', message: read.fileProblem });
  for (const p of read.problems) problems.push({ file, jsonPath: p.jsonPath, message: p.message });
  return new Map(read.entries.map((e) => [e.id, e.on]));
}

/** One file's boolean `enabledPlugins` entries, read here; anything else is a problem naming the place. */
async function readEntries(file: string, problems: PluginProblem[]): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  const value = (await readJsonObject(file, problems))?.enabledPlugins;
  if (value === undefined) return out;
  if (!isPlainObject(value)) {
    problems.push({ file, jsonPath: 'enabledPlugins', message: 'must be an object like {"name@marketplace": true}; it is ignored' });
    return out;
  }
  for (const [id, on] of Object.entries(value)) {
    if (typeof on === 'boolean') out.set(id, on);
    else problems.push({ file, jsonPath: `enabledPlugins["${id}"]`, message: 'must be true or false; it is ignored' });
  }
  return out;
}

/** A JSON(C) object file; undefined when missing; a problem when unreadable, too large, too deep or not an object. */
async function readJsonObject(file: string, problems: PluginProblem[]): Promise<Record<string, unknown> | undefined> {
  let text: string | undefined;
  try {
    text = await readBoundedTextFile(file);
  } catch (error) {
    problems.push({ file, jsonPath: '', message: `cannot read the file (${thrownMessage(error)}); it is ignored` });
    return undefined;
  }
  if (text === undefined) return undefined;
  if (findExcessNesting(text) !== undefined) {
    problems.push({ file, jsonPath: '', message: 'nested too deeply; it is ignored' });
    return undefined;
  }
  const root = parseTree(text.replace(/^\uFEFF/, ''), [], { allowTrailingComma: true });
  const value: unknown = root ? getNodeValue(root) : undefined;
  if (!isPlainObject(value)) {
    problems.push({ file, jsonPath: '', message: 'not a JSON object; it is ignored' });
    return undefined;
  }
  return value;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
