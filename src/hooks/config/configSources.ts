import path from 'node:path';
import type { HookSourceKey } from './hookSourceKeys';
import type { HookFormatId } from '../formats/hookFormat';
import { formatPlaces } from '../formats/formatRegistry';

/**
 * The inputs of the loader: every place hooks can come from (docs/hooks.md §6). File inputs are
 * read through the ConfigFileSystem port; settings inputs carry the value VS Code already
 * parsed (one `inspect('hookwise.hooks')` layer) and optionally the settings file text so
 * diagnostics get a line.
 */

/**
 * A Claude settings file: `~/.claude/settings.json` (user), `.claude/settings.json` (project),
 * `.claude/settings.local.json` (local), a CLI `--settings` file (flag), or the organisation's
 * `managed-settings.json` (managed: its hooks always run, its switches bind every other layer).
 */
export interface ClaudeSettingsFileInput {
  readonly kind: 'claudeSettingsFile';
  readonly scope: 'user' | 'project' | 'local' | 'flag' | 'managed';
  readonly file: string;
  readonly displayFile: string;
  /** Workspace folder root for project/local files (multi-root scoping). */
  readonly folder?: string;
}

/** A directory of agent files (`~/.claude/agents`, `.claude/agents`); every `*.md` in it is read, sorted by name. */
export interface AgentsDirectoryInput {
  readonly kind: 'agentsDirectory';
  readonly scope: 'user' | 'project';
  readonly dir: string;
  /** Display prefix, e.g. `~/.claude/agents`; display only, trust comes from `scope`. */
  readonly displayDir: string;
  readonly folder?: string;
  /** Set for a plugin's agents or skills: `${CLAUDE_PLUGIN_ROOT}` for their hooks, shown as `plugin <name> › …`. */
  readonly plugin?: PluginRef;
}

/** One agent file. */
export interface AgentFileInput {
  readonly kind: 'agentFile';
  readonly scope: 'user' | 'project';
  readonly file: string;
  readonly displayFile: string;
  readonly folder?: string;
  /** Set for a plugin's agents or skills: `${CLAUDE_PLUGIN_ROOT}` for their hooks, shown as `plugin <name> › …`. */
  readonly plugin?: PluginRef;
}

/** A directory of skills (`~/.claude/skills`, `.claude/skills`): every `<name>/SKILL.md` in it is read, sorted by name. */
export interface SkillsDirectoryInput {
  readonly kind: 'skillsDirectory';
  readonly scope: 'user' | 'project';
  readonly dir: string;
  /** Display prefix, e.g. `.claude/skills`; display only, trust comes from `scope`. */
  readonly displayDir: string;
  readonly folder?: string;
  /** Set for a plugin's agents or skills: `${CLAUDE_PLUGIN_ROOT}` for their hooks, shown as `plugin <name> › …`. */
  readonly plugin?: PluginRef;
}

/** One SKILL.md; `skill` is its folder's name (the frontmatter `name` wins when set). */
export interface SkillFileInput {
  readonly kind: 'skillFile';
  readonly scope: 'user' | 'project';
  readonly file: string;
  readonly displayFile: string;
  readonly skill: string;
  readonly folder?: string;
  /** Set for a plugin's agents or skills: `${CLAUDE_PLUGIN_ROOT}` for their hooks, shown as `plugin <name> › …`. */
  readonly plugin?: PluginRef;
}

/** One VS Code settings layer of `hookwise.hooks`. */
export interface SettingsValueInput {
  readonly kind: 'settingsValue';
  readonly scope: 'user' | 'workspace' | 'workspaceFolder';
  /** The layer's value (`inspect(...).globalValue` etc.); undefined = not set. */
  readonly value: unknown;
  /** settings.json / .code-workspace path when known. */
  readonly file?: string;
  /** Text of `file`, to locate diagnostics; the value is taken from `value`, not re-parsed. */
  readonly text?: string;
  /** Key path of `hookwise.hooks` inside `text`; default `['hookwise.hooks']`, a .code-workspace uses `['settings', 'hookwise.hooks']`. */
  readonly textPath?: readonly string[];
  readonly folder?: string;
}

/** Which plugin a hook came from: `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` for its hooks. */
export interface PluginRef {
  readonly name: string;
  readonly root: string;
  readonly dataDir: string;
  /** Force-enabled by the managed policy's `enabledPlugins`: its hooks run under `allowManagedHooksOnly`. */
  readonly managed?: true;
}

/**
 * A plugin's hooks file (`hooks/hooks.json`, a manifest `hooks` path, or `plugin.json` with inline
 * hooks): only its `hooks` key is read. `folder` set = the plugin belongs to that workspace
 * folder and its hooks need trust and approval like project hooks.
 */
export interface PluginHooksFileInput {
  readonly kind: 'pluginHooksFile';
  readonly file: string;
  /** e.g. `plugin lint › hooks/hooks.json`. */
  readonly displayFile: string;
  readonly plugin: PluginRef;
  readonly folder?: string;
}

/**
 * Another agent's hooks file (src/hooks/formats): `.github/hooks/guard.json`, `.cursor/hooks.json`,
 * `~/.codeium/windsurf/hooks.json`, … Its hooks run with that agent's semantics; `project` files
 * need trust and approval like `.claude` project hooks.
 */
export interface FormatFileInput {
  readonly kind: 'formatFile';
  readonly format: HookFormatId;
  readonly scope: 'user' | 'project';
  readonly file: string;
  readonly displayFile: string;
  readonly folder?: string;
}

/** A directory of another agent's hooks files (Copilot's `.github/hooks`): every `*.json` in it is read, sorted by name. */
export interface FormatDirectoryInput {
  readonly kind: 'formatDirectory';
  readonly format: HookFormatId;
  readonly scope: 'user' | 'project';
  readonly dir: string;
  readonly displayDir: string;
  readonly folder?: string;
}

/** Any loader input. */
export type ConfigSourceInput =
  | ClaudeSettingsFileInput
  | AgentsDirectoryInput
  | AgentFileInput
  | SkillsDirectoryInput
  | SkillFileInput
  | SettingsValueInput
  | PluginHooksFileInput
  | FormatFileInput
  | FormatDirectoryInput;

/** Merge rank of an input (docs/hooks.md §6 order); the loader sorts inputs by it, stably. */
export function sourceRank(input: ConfigSourceInput): number {
  switch (input.kind) {
    case 'settingsValue':
      return input.scope === 'user' ? 0 : input.scope === 'workspace' ? 5 : 6;
    case 'claudeSettingsFile':
      // Claude Code merges hook arrays user, project, local, flag, policy.
      return { user: 1, project: 2, local: 3, flag: 4, managed: 4.5 }[input.scope];
    case 'pluginHooksFile':
      // Claude Code appends plugin hooks after the settings files' hooks.
      return 4.7;
    case 'agentsDirectory':
    case 'agentFile':
      return input.scope === 'user' ? 7 : 8;
    case 'skillsDirectory':
    case 'skillFile':
      return input.scope === 'user' ? 9 : 10;
    case 'formatFile':
    case 'formatDirectory':
      // Other agents' files after the .claude files of the same level: user after ~/.claude, project after .claude/settings.local.json.
      return input.scope === 'user' ? 1.5 : 3.5;
  }
}

/** Which `hookwise.hooks.sources` entry governs an input; undefined = always read (CLI flag files). */
export function sourceKeyOf(input: ConfigSourceInput): HookSourceKey | undefined {
  switch (input.kind) {
    case 'settingsValue':
      return input.scope === 'user' ? 'user' : 'workspace';
    case 'claudeSettingsFile':
      // Flag files and the managed policy cannot be switched off by hookwise.hooks.sources.
      return input.scope === 'user' ? 'claudeUser' : input.scope === 'flag' || input.scope === 'managed' ? undefined : input.scope;
    case 'pluginHooksFile':
      // A plugin the managed policy force-enables cannot be switched off from the editor either.
      return input.plugin.managed ? undefined : 'plugins';
    case 'agentsDirectory':
    case 'agentFile':
    case 'skillsDirectory':
    case 'skillFile':
      // A skill's frontmatter hooks, like an agent file's: the same switch governs them; a plugin's are its plugin's.
      return input.plugin ? (input.plugin.managed ? undefined : 'plugins') : 'agents';
    case 'formatFile':
    case 'formatDirectory':
      // Governed by hookwise.hooks.formats (one switch per agent), not by the sources list.
      return undefined;
  }
}

/**
 * True for an input the workspace brought (`.claude/settings*.json`, workspace and folder
 * settings, the project's agents, skills and plugins): what a workspace-level switch may narrow.
 */
export function isProjectInput(input: ConfigSourceInput): boolean {
  switch (input.kind) {
    case 'settingsValue':
      return input.scope !== 'user';
    case 'claudeSettingsFile':
      return input.scope === 'project' || input.scope === 'local';
    case 'pluginHooksFile':
      return input.folder !== undefined;
    default:
      return input.scope === 'project' || input.folder !== undefined;
  }
}

/** A settings layer as the VS Code glue reads it. */
export interface SettingsLayer {
  readonly value: unknown;
  readonly file?: string;
  readonly text?: string;
  readonly textPath?: readonly string[];
}

/** Inputs for `standardConfigSources`. */
export interface StandardSourcesOptions {
  readonly homeDir: string;
  /** Workspace folders; in a single-folder workspace pass its settings as `workspaceSettings` only. */
  readonly folders: readonly { readonly root: string; readonly name?: string; readonly settings?: SettingsLayer }[];
  readonly userSettings?: SettingsLayer;
  readonly workspaceSettings?: SettingsLayer;
  /** The managed policy file; default {@link defaultManagedSettingsFile} of this process; null = none. */
  readonly managedSettingsFile?: string | null;
  /** `hookwise.hooks.formats`: the other agents whose hook files are read; default every registered one. */
  readonly formats?: readonly HookFormatId[];
}

/**
 * Where Claude Code reads its managed policy: `HOOKWISE_MANAGED_SETTINGS` (a file path, for tests
 * and custom deployments) or the system path of the platform.
 */
export function defaultManagedSettingsFile(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.HOOKWISE_MANAGED_SETTINGS) return env.HOOKWISE_MANAGED_SETTINGS;
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

/**
 * The standard source set for a workspace (no I/O; missing files are simply skipped by the
 * loader). Display names are `~/.claude/…` for home files and `.claude/…` for project files,
 * prefixed with the folder name in a multi-root workspace.
 */
export function standardConfigSources(options: StandardSourcesOptions): ConfigSourceInput[] {
  const { homeDir, folders } = options;
  const multiRoot = folders.length > 1;
  const single = folders.length === 1 ? folders[0]?.root : undefined;
  const inputs: ConfigSourceInput[] = [];
  if (options.userSettings) inputs.push({ kind: 'settingsValue', scope: 'user', ...options.userSettings });
  inputs.push({ kind: 'claudeSettingsFile', scope: 'user', file: path.join(homeDir, '.claude', 'settings.json'), displayFile: '~/.claude/settings.json' });
  const managed = options.managedSettingsFile === undefined ? defaultManagedSettingsFile() : options.managedSettingsFile;
  if (managed !== null) inputs.push({ kind: 'claudeSettingsFile', scope: 'managed', file: managed, displayFile: `managed policy (${managed})` });
  for (const folder of folders) {
    const prefix = multiRoot ? `${folder.name ?? path.basename(folder.root)}/` : '';
    inputs.push({
      kind: 'claudeSettingsFile',
      scope: 'project',
      file: path.join(folder.root, '.claude', 'settings.json'),
      displayFile: `${prefix}.claude/settings.json`,
      folder: folder.root,
    });
    inputs.push({
      kind: 'claudeSettingsFile',
      scope: 'local',
      file: path.join(folder.root, '.claude', 'settings.local.json'),
      displayFile: `${prefix}.claude/settings.local.json`,
      folder: folder.root,
    });
  }
  // Multi-root workspace settings (.code-workspace) apply to every folder; single-folder ones are the folder's.
  if (options.workspaceSettings)
    inputs.push({ kind: 'settingsValue', scope: 'workspace', ...options.workspaceSettings, ...(single ? { folder: single } : {}) });
  for (const folder of folders) {
    if (folder.settings) inputs.push({ kind: 'settingsValue', scope: 'workspaceFolder', ...folder.settings, folder: folder.root });
  }
  inputs.push({ kind: 'agentsDirectory', scope: 'user', dir: path.join(homeDir, '.claude', 'agents'), displayDir: '~/.claude/agents' });
  for (const folder of folders) {
    const prefix = multiRoot ? `${folder.name ?? path.basename(folder.root)}/` : '';
    inputs.push({
      kind: 'agentsDirectory',
      scope: 'project',
      dir: path.join(folder.root, '.claude', 'agents'),
      displayDir: `${prefix}.claude/agents`,
      folder: folder.root,
    });
  }
  inputs.push(...formatInputs(options));
  inputs.push({ kind: 'skillsDirectory', scope: 'user', dir: path.join(homeDir, '.claude', 'skills'), displayDir: '~/.claude/skills' });
  for (const folder of folders) {
    const prefix = multiRoot ? `${folder.name ?? path.basename(folder.root)}/` : '';
    inputs.push({
      kind: 'skillsDirectory',
      scope: 'project',
      dir: path.join(folder.root, '.claude', 'skills'),
      displayDir: `${prefix}.claude/skills`,
      folder: folder.root,
    });
  }
  return inputs;
}

/** The other agents' hook files and directories of the enabled formats (formatRegistry.ts). */
function formatInputs(options: StandardSourcesOptions): ConfigSourceInput[] {
  const multiRoot = options.folders.length > 1;
  const folders = options.folders.map((f) => ({ root: f.root, prefix: multiRoot ? `${f.name ?? path.basename(f.root)}/` : '' }));
  return formatPlaces(options.homeDir, folders, options.formats).map((place): ConfigSourceInput => {
    const folder = place.folder !== undefined ? { folder: place.folder } : {};
    return place.kind === 'directory'
      ? { kind: 'formatDirectory', format: place.format, scope: place.scope, dir: place.path, displayDir: place.display, ...folder }
      : { kind: 'formatFile', format: place.format, scope: place.scope, file: place.path, displayFile: place.display, ...folder };
  });
}
