import { effectiveHookFormats } from './hookFormatsSetting';
import os from 'node:os';
import * as vscode from 'vscode';
import { lintHooks } from '../../hooks/lint/hookLint';
import type { AppliedConfig } from '../../runtime/hookwiseRuntime';
import { configChangeSource, type ConfigChange, type ConfigChangeVerdict } from '../../agent/configChange';
import { nodeConfigFileSystem, type ConfigFileSystem } from '../../configFiles/configFileSystem';
import { standardConfigSources, type StandardSourcesOptions } from '../../hooks/config/configSources';
import { filterByTrust, type ApprovalSubject, type TrustPolicy } from '../../hooks/config/hookApproval';
import { startHookConfigLoad, type HookConfig } from '../../hooks/config/hookConfigLoader';
import { readHookwiseSettings, type HookwiseSettingKey } from '../../settings/hookwiseSettingsSchema';
import { describeLoadedHook } from '../../hooks/config/loadedHook';
import { ConfigDiagnosticsPublisher, type NotJsonWarning } from './configDiagnosticsPublisher';
import { vscodeTrustPrompts, vscodeWorkspaceTrust, type TrustPrompts, type WorkspaceTrustSource } from './projectHookTrust';
import { pluginAndExtensionSources } from '../extensionHooks';
import type { PluginRoot } from '../../plugins/pluginLoader';
import type { ExtensionLike } from '../../plugins/extensionHookSources';
import { readSourceOptions, workspaceSettingsFile } from './settingsLayers';
import { splitHookSwitchLayers } from '../../settings/hookSwitchLayers';
import { writeSwitchMigrations } from './switchMigrationWriter';
import { MementoLastGoodStore } from './lastGoodMemento';
import type { LastGoodStore } from '../../hooks/config/lastGoodConfig';
import { brokenFileNotice } from '../../hooks/config/lastGoodConfig';
import { thrownMessage } from '../../shared/describeThrown';
import { ConfigWatcher } from './configWatcher';
import { ReloadQueue } from './reloadQueue';
import { ProjectHookApprovalFlow, type WrittenPlace } from './projectHookApprovalFlow';

/** One applied generation: the loaded configuration and what the runtime made of it. */
export interface HookConfigChange {
  readonly config: HookConfig;
  /** `held` also lists the project hooks this service kept from the runtime (untrusted or unapproved). */
  readonly applied: AppliedConfig;
}

/** Registers a configuration with the runtime (the extension wires `runtime.applyConfig`). */
export type ApplyHookConfig = (config: HookConfig, trust: TrustPolicy) => AppliedConfig;

/** What the service needs; everything past `globalStorageUri` is for tests. */
export interface HookConfigServiceOptions {
  readonly log: vscode.LogOutputChannel;
  readonly apply: ApplyHookConfig;
  /** `context.workspaceState`: approved project-hook hashes live here. */
  readonly workspaceState: vscode.Memento;
  /** `context.globalStorageUri`, to locate the user settings.json. */
  readonly globalStorageUri: vscode.Uri;
  readonly homeDir?: string;
  readonly trust?: WorkspaceTrustSource;
  readonly prompts?: Partial<TrustPrompts>;
  readonly notJsonWarning?: NotJsonWarning;
  readonly fs?: ConfigFileSystem;
  /** Where the last good version of each hook config file is kept; default the workspace state (lastGoodMemento.ts). */
  readonly lastGood?: LastGoodStore;
  /** Quiet time before a reload after a change; default 150 ms. */
  readonly debounceMs?: number;
  /** Asks ConfigChange hooks before a reload caused by changed `.claude` files is applied; `apply: false` keeps the old configuration. */
  readonly confirmChange?: (changes: readonly ConfigChange[]) => Promise<ConfigChangeVerdict>;
  /** A folder was added to the workspace (DirectoryAdded). */
  readonly onFolderAdded?: (dir: string) => void;
  /** The Claude Code plugins found at each load (their commands, agents and MCP servers). */
  readonly onPlugins?: (plugins: readonly PluginRoot[]) => void;
  /** The installed extensions whose `contributes.hookwise` hooks load; default `vscode.extensions.all`. */
  readonly extensions?: () => readonly ExtensionLike[];
}

/**
 * Loads hook configuration from every source of docs/hooks.md §6 and keeps it live: file watchers on
 * the `.claude` files and other agents' hook files of each folder and of the home directory and on the plugins' files, settings changes and trust
 * grants trigger a debounced reload; reloads run one at a time and a newer one wins.
 * Project hooks never reach `apply` unless the workspace is trusted and the user approved
 * their exact content; the approval modal follows the first apply, never precedes a run.
 * Composes the watcher (configWatcher.ts), the reload queue (reloadQueue.ts) and the trust flow (projectHookApprovalFlow.ts).
 */
export class HookConfigService implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly onDidChangeEmitter = new vscode.EventEmitter<HookConfigChange>();
  /** Fires after every applied generation. */
  readonly onDidChange: vscode.Event<HookConfigChange> = this.onDidChangeEmitter.event;

  private readonly homeDir: string;
  private readonly diagnostics: ConfigDiagnosticsPublisher;
  private readonly fs: ConfigFileSystem;
  private readonly lastGood: LastGoodStore;
  private readonly queue: ReloadQueue<{ config: HookConfig; texts: Map<string, string> }, HookConfigChange>;
  private readonly approvals: ProjectHookApprovalFlow;
  private readonly watcher: ConfigWatcher;
  private latest: HookConfigChange | undefined;
  private disposed = false;

  constructor(private readonly o: HookConfigServiceOptions) {
    this.homeDir = o.homeDir ?? os.homedir();
    const trust = o.trust ?? vscodeWorkspaceTrust;
    this.diagnostics = new ConfigDiagnosticsPublisher(o.log, o.notJsonWarning);
    this.fs = o.fs ?? nodeConfigFileSystem;
    this.lastGood = o.lastGood ?? new MementoLastGoodStore(o.workspaceState);
    this.queue = new ReloadQueue({
      load: () => this.load(),
      apply: async (loaded) => {
        if (await this.changeAllowed()) this.applyLoaded(loaded.config, loaded.texts);
      },
      latest: () => this.latest,
      log: o.log,
      ...(o.debounceMs !== undefined ? { debounceMs: o.debounceMs } : {}),
    });
    this.approvals = new ProjectHookApprovalFlow({
      log: o.log,
      workspaceState: o.workspaceState,
      trust,
      prompts: { ...vscodeTrustPrompts, ...o.prompts },
      latest: () => this.latest,
      reload: () => this.reload(),
    });
    this.disposables.push(this.onDidChangeEmitter, this.diagnostics, this.approvals);
    this.watcher = new ConfigWatcher({
      homeDir: this.homeDir,
      trust,
      onChange: () => this.scheduleReload(),
      onScriptChange: () => {
        if (!this.disposed) void this.reload();
      },
      ...(o.onFolderAdded ? { onFolderAdded: o.onFolderAdded } : {}),
      ...(o.extensions ? { extensions: o.extensions } : {}),
    });
  }

  /** The last applied generation; undefined until the first load finished. */
  get current(): HookConfigChange | undefined {
    return this.latest;
  }

  /** Reloads now (no debounce); resolves with a generation that includes every change made before the call. */
  reload(): Promise<HookConfigChange | undefined> {
    return this.queue.reload();
  }

  /** Resolves once no reload is scheduled or running: every change made so far has been loaded (applied or refused). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** Debounced reload, for bursts of file events (an editor saving, git checkout). */
  scheduleReload(): void {
    if (this.disposed) return;
    this.queue.schedule();
  }

  /**
   * Approves project hooks the user wrote through this extension ("Add Hook…" is consent for
   * exactly what was typed); takes effect on the next reload.
   */
  approve(hashes: readonly string[]): Promise<void> {
    return this.approvals.approve(hashes);
  }

  /**
   * Approves a hook the user wrote with "Add Hook…" once a reload finds it: its key includes
   * the content of the scripts it names (docs/security.md), known only after that load pins them.
   */
  approveWritten(hook: Pick<ApprovalSubject, 'event' | 'matcher' | 'handler'>, place: WrittenPlace): void {
    this.approvals.approveWritten(hook, place);
  }

  /** Approves the hooks the user typed and saved in `file` from this window's editor (ownHookEdits.ts), on the load that finds them. */
  approveSaved(file: string, keys: ReadonlySet<string>): void {
    this.approvals.approveSaved(file, keys);
  }

  /** "Hookwise: Review Project Hooks": every project hook, approved or not; allow all or turn all off. */
  reviewProjectHooks(): Promise<void> {
    return this.approvals.reviewProjectHooks();
  }

  /** The one flow that trusts the folder and allows its project hooks (projectHookApprovalFlow.ts); false when cancelled. */
  trustAndApprove(): Promise<boolean> {
    return this.approvals.trustAndApprove();
  }

  /** ConfigChange: the running session's hooks may keep the configuration in force when settings files changed. */
  private async changeAllowed(): Promise<boolean> {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const changes: ConfigChange[] = [];
    for (const file of this.watcher.takeChangedFiles()) {
      const source = configChangeSource(file, this.homeDir, folders);
      if (source) changes.push({ source, filePath: file });
    }
    if (!this.latest || changes.length === 0 || !this.o.confirmChange) return true;
    try {
      const verdict = await this.o.confirmChange(changes);
      if (!verdict.apply) this.o.log.warn(`configuration change (${verdict.source}) not applied: ${verdict.reason}`);
      return verdict.apply;
    } catch (error) {
      this.o.log.error(`ConfigChange hooks failed (${thrownMessage(error)}); applying the change`);
      return true;
    }
  }

  private async load(): Promise<{ config: HookConfig; texts: Map<string, string> }> {
    const configuration = vscode.workspace.getConfiguration();
    const { settings, problems } = readHookwiseSettings((key: HookwiseSettingKey) => configuration.get(key));
    for (const p of problems) this.o.log.warn(`settings: ${p}`);
    let options: StandardSourcesOptions;
    try {
      options = await readSourceOptions(this.homeDir, this.o.globalStorageUri);
    } catch (error) {
      // The .claude files (including the user's policy hooks) still load without the settings layers.
      this.o.log.error(`reading the hookwise.hooks settings layers failed (${thrownMessage(error)}); loading the .claude files only`);
      options = {
        homeDir: this.homeDir,
        folders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ root: f.uri.fsPath, name: f.name })),
      };
    }
    const texts = new Map<string, string>();
    for (const layer of [options.userSettings, options.workspaceSettings, ...options.folders.map((f) => f.settings)]) {
      if (layer?.file !== undefined && layer.text !== undefined) texts.set(layer.file, layer.text);
    }
    // Remember what the loader read, so diagnostics map offsets on the same text.
    const recording: ConfigFileSystem = {
      readTextFile: async (file) => {
        const text = await this.fs.readTextFile(file);
        if (text !== undefined) texts.set(file, text);
        return text;
      },
      listDirectory: (dir) => this.fs.listDirectory(dir),
      ...(this.fs.realPath !== undefined ? { realPath: (file: string) => this.fs.realPath?.(file) ?? Promise.resolve(undefined) } : {}),
    };
    // User level and workspace level apart: the workspace's values narrow the project's hooks only.
    const switches = splitHookSwitchLayers(
      (key) => ({ inspected: configuration.inspect(key), effective: configuration.get(key) }),
      workspaceSettingsFile()?.file,
    );
    for (const p of switches.problems) this.o.log.warn(`settings: ${p}`);
    // The settings files first (read once, last good handling included): their enabledPlugins pick the plugins read next.
    const sources = standardConfigSources({ ...options, formats: effectiveHookFormats((m) => this.o.log.warn(`settings: ${m}`)) });
    if (!this.disposed) this.watcher.watchSourceFiles(sources);
    const load = await startHookConfigLoad(sources, {
      fs: recording,
      enabled: switches.enabled,
      sources: switches.sources,
      disabledHooks: switches.disabledHooks,
      ...(options.userSettings?.file !== undefined ? { userSettingsFile: options.userSettings.file } : {}),
      ...(switches.workspace ? { workspace: switches.workspace } : {}),
      projectDirs: options.folders.map((f) => f.root),
      lastGood: this.lastGood,
    });
    const extra = await pluginAndExtensionSources({
      homeDir: this.homeDir,
      projectDirs: options.folders.map((f) => f.root),
      settingDirs: settings['hookwise.plugins.directories'],
      dataRoot: this.o.globalStorageUri.fsPath,
      warn: (message) => this.o.log.warn(`plugins: ${message}`),
      ...(this.o.extensions ? { extensions: this.o.extensions() } : {}),
      enabledPlugins: load.enabledPlugins,
    });
    this.o.onPlugins?.(extra.plugins);
    if (!this.disposed) this.watcher.watchPluginFiles(extra.watch);
    const config = await load.finish(extra.inputs);
    return { config: await this.withLint(config, options, texts), texts };
  }

  /** Adds hook lint warnings (src/hooks/lint) to the load's diagnostics; a lint failure is logged and never blocks the load. */
  private async withLint(config: HookConfig, options: StandardSourcesOptions, texts: ReadonlyMap<string, string>): Promise<HookConfig> {
    const projectDir = options.folders[0]?.root;
    if (projectDir === undefined) return config;
    try {
      const warnings = await lintHooks(config.hooks, { projectDir, homeDir: this.homeDir, textOf: (file) => texts.get(file) });
      return warnings.length === 0 ? config : { ...config, diagnostics: [...config.diagnostics, ...warnings] };
    } catch (error) {
      this.o.log.warn(`hook lint failed (${thrownMessage(error)}); hooks load without it`);
      return config;
    }
  }

  private applyLoaded(config: HookConfig, texts: ReadonlyMap<string, string>): void {
    this.diagnostics.publish(config.diagnostics, (file) => texts.get(file));
    this.watcher.watchScripts(config.hooks);
    const trust = this.approvals.policyFor(config.hooks);
    // Project hooks are filtered here AND the runtime applies the same policy: it never even sees one that may not run.
    const { runnable, held } = filterByTrust(config.hooks, trust);
    const result = this.o.apply({ ...config, hooks: runnable }, trust);
    const applied: AppliedConfig = { ...result, held: [...held, ...result.held] };
    this.latest = { config, applied };
    this.logGeneration(config, applied, result.problems);
    this.onDidChangeEmitter.fire(this.latest);
    // Old position ids become identity ids in the settings now, before a hook inserted above could move them (the write reloads).
    // Not into an untrusted workspace's files: its switches do not apply there, and nothing is written for it.
    const migrations = (config.switchMigrations ?? []).filter((m) => m.layer === 'user' || trust.trusted);
    if (migrations.length > 0) void writeSwitchMigrations(migrations, this.o.log);
    this.approvals.afterApply(held);
  }

  private logGeneration(config: HookConfig, applied: AppliedConfig, problems: AppliedConfig['problems']): void {
    const disabled = config.disabled
      ? ` (hooks disabled by ${config.disabledBy.join(', ')})`
      : config.projectHooksOffBy
        ? ` (the project's hooks disabled by ${config.projectHooksOffBy.join(', ')}; the user's still run)`
        : '';
    this.o.log.info(`hook configuration generation ${applied.generation}: ${applied.active.length} active, ${applied.held.length} held${disabled}`);
    for (const p of problems) this.o.log.warn(`${describeLoadedHook(p.hook)}: ${p.message}`);
    for (const b of config.brokenFiles ?? []) this.o.log.warn(brokenFileNotice(b));
    for (const v of config.vanishedSwitches ?? [])
      this.o.log.warn(`hookwise.hooks.disabled (${v.layer} settings): "${v.id}" names no loaded hook; the hook under this switch changed or was removed`);
  }

  dispose(): void {
    this.disposed = true;
    this.queue.dispose();
    this.watcher.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
