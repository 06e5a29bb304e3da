import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { lintHooks } from '../../hooks/lint/hookLint';
import type { AppliedConfig } from '../../runtime/hookwiseRuntime';
import { configChangeSource, type ConfigChange, type ConfigChangeVerdict } from '../../agent/configChange';
import { nodeConfigFileSystem, type ConfigFileSystem } from '../../configFiles/configFileSystem';
import { defaultManagedSettingsFile, standardConfigSources, type StandardSourcesOptions } from '../../hooks/config/configSources';
import { approvedHashesAfter, filterByTrust, hookApprovalKey, type ApprovalSubject, type TrustPolicy } from '../../hooks/config/hookApproval';
import { loadHookConfig, type HookConfig } from '../../hooks/config/hookConfigLoader';
import { readHookwiseSettings, type HookwiseSettingKey } from '../../settings/hookwiseSettingsSchema';
import { describeLoadedHook, type LoadedHook } from '../../hooks/config/loadedHook';
import { isProjectSource } from '../../configFiles/hookSource';
import { ConfigDiagnosticsPublisher, type NotJsonWarning } from './configDiagnosticsPublisher';
import {
  ApprovalStore,
  approvalDetail,
  askApproval,
  MAX_DETAIL_HOOKS,
  vscodeTrustPrompts,
  vscodeWorkspaceTrust,
  type TrustPrompts,
  type WorkspaceTrustSource,
} from './projectHookTrust';
import { PinnedScriptWatcher } from './pinnedScriptWatcher';
import { ReviewDocuments } from './reviewDocuments';
import { hookReviewMarkdown } from '../../hooks/config/approvalReview';
import { FileWatchSet } from './fileWatchSet';
import { contributingExtensionsKey, pluginAndExtensionSources } from '../extensionHooks';
import type { PluginRoot } from '../../plugins/pluginLoader';
import type { ExtensionLike } from '../../plugins/extensionHookSources';
import { readSourceOptions, workspaceSettingsFile } from './settingsLayers';
import { splitHookSwitchLayers } from '../../settings/hookSwitchLayers';
import { writeSwitchMigrations } from './switchMigrationWriter';
import { MementoLastGoodStore } from './lastGoodMemento';
import type { LastGoodStore } from '../../hooks/config/lastGoodConfig';
import { brokenFileNotice } from '../../hooks/config/lastGoodConfig';
import { thrownMessage, thrownStack } from '../../shared/describeThrown';

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
 * the `.claude` files of each folder and of the home directory and on the plugins' files, settings changes and trust
 * grants trigger a debounced reload; reloads run one at a time and a newer one wins.
 * Project hooks never reach `apply` unless the workspace is trusted and the user approved
 * their exact content; the approval modal follows the first apply, never precedes a run.
 */
export class HookConfigService implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private folderWatchers: vscode.Disposable[] = [];
  /** Reloads when a script a project hook names changes (its content is part of the approval). */
  private readonly scripts = new PinnedScriptWatcher(() => {
    if (!this.disposed) void this.reload();
  });
  /**
   * Reloads when a plugin's hooks, agents or skills change, plugins are installed, or a
   * `hookwise.plugins.directories` root changes (the last load's targets, pluginWatchTargets.ts).
   */
  private readonly pluginFiles = new FileWatchSet(() => this.scheduleReload());
  /** The full approval review ("Review All…"): every hook with every field. */
  private readonly reviews = new ReviewDocuments('hookwise-hook-review');
  /** Definition keys of hooks the user just wrote with "Add Hook…": approved on the load that finds them. */
  private readonly written = new Set<string>();
  private readonly onDidChangeEmitter = new vscode.EventEmitter<HookConfigChange>();
  /** Fires after every applied generation. */
  readonly onDidChange: vscode.Event<HookConfigChange> = this.onDidChangeEmitter.event;

  private readonly homeDir: string;
  private readonly trust: WorkspaceTrustSource;
  private readonly prompts: TrustPrompts;
  private readonly approvals: ApprovalStore;
  private readonly diagnostics: ConfigDiagnosticsPublisher;
  private readonly fs: ConfigFileSystem;
  private readonly lastGood: LastGoodStore;
  private latest: HookConfigChange | undefined;
  private timer: NodeJS.Timeout | undefined;
  private requested = 0;
  private completed = 0;
  private pumping = false;
  private readonly waiters: { ticket: number; resolve: (change: HookConfigChange | undefined) => void }[] = [];
  /** Hashes declined or revoked this session: not asked again until "Review Project Hooks". */
  private readonly declined = new Set<string>();
  private prompting = false;
  private recheckAfterPrompt = false;
  private untrustedNoticeShown = false;
  private disposed = false;
  /** The extensions contributing hooks at the last check (see contributingExtensionsKey). */
  private contributingKey = '';
  /** Settings files changed since the last load (ConfigChange hooks are asked about them). */
  private readonly changedFiles = new Set<string>();

  constructor(private readonly o: HookConfigServiceOptions) {
    this.homeDir = o.homeDir ?? os.homedir();
    this.trust = o.trust ?? vscodeWorkspaceTrust;
    this.prompts = { ...vscodeTrustPrompts, ...o.prompts };
    this.approvals = new ApprovalStore(o.workspaceState);
    this.diagnostics = new ConfigDiagnosticsPublisher(o.log, o.notJsonWarning);
    this.fs = o.fs ?? nodeConfigFileSystem;
    this.lastGood = o.lastGood ?? new MementoLastGoodStore(o.workspaceState);
    this.disposables.push(this.onDidChangeEmitter, this.diagnostics, this.reviews);
    this.contributingKey = contributingExtensionsKey(o.extensions?.());

    const home = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(this.homeDir), '.claude/{settings.json,agents/*.md}'));
    this.disposables.push(home, ...this.onAnyFileEvent(home));
    // The organisation's managed policy applies live too (an admin pushes a new file).
    const managedFile = defaultManagedSettingsFile();
    const managed = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(path.dirname(managedFile)), path.basename(managedFile)),
    );
    this.disposables.push(managed, ...this.onAnyFileEvent(managed));
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('hookwise')) this.scheduleReload();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        this.watchFolders();
        this.scheduleReload();
        for (const folder of e.added) if (folder.uri.scheme === 'file') this.o.onFolderAdded?.(folder.uri.fsPath);
      }),
      this.trust.onDidGrantWorkspaceTrust(() => this.scheduleReload()),
      // Extensions that contribute hooks come and go live; other extension changes cost no reload.
      vscode.extensions.onDidChange(() => {
        const key = contributingExtensionsKey(this.o.extensions?.());
        if (key === this.contributingKey) return;
        this.contributingKey = key;
        this.scheduleReload();
      }),
    );
    this.watchFolders();
  }

  /** The last applied generation; undefined until the first load finished. */
  get current(): HookConfigChange | undefined {
    return this.latest;
  }

  /** Reloads now (no debounce); resolves with a generation that includes every change made before the call. */
  reload(): Promise<HookConfigChange | undefined> {
    const ticket = ++this.requested;
    const done = new Promise<HookConfigChange | undefined>((resolve) => this.waiters.push({ ticket, resolve }));
    void this.pump();
    return done;
  }

  /** Debounced reload, for bursts of file events (an editor saving, git checkout). */
  scheduleReload(): void {
    if (this.disposed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload(), this.o.debounceMs ?? 150);
  }

  /**
   * Approves project hooks the user wrote through this extension ("Add Hook…" is consent for
   * exactly what was typed); takes effect on the next reload.
   */
  async approve(hashes: readonly string[]): Promise<void> {
    for (const hash of hashes) this.declined.delete(hash);
    await this.approvals.set([...new Set([...this.approvals.get(), ...hashes])]);
  }

  /**
   * Approves a hook the user wrote with "Add Hook…" once a reload finds it: its key includes
   * the content of the scripts it names (docs/security.md), known only after that load pins them.
   */
  approveWritten(hook: Pick<ApprovalSubject, 'event' | 'matcher' | 'handler'>): void {
    this.written.add(definitionKey(hook));
  }

  /** "Hookwise: Review Project Hooks": every project hook, approved or not; allow all or turn all off. */
  async reviewProjectHooks(): Promise<void> {
    const change = this.latest ?? (await this.reload());
    const project = (change?.config.hooks ?? []).filter((h) => isProjectSource(h.source));
    if (!this.trust.isTrusted && project.length > 0) {
      this.prompts.untrusted(project.length);
      return;
    }
    if (project.length === 0) {
      void vscode.window.showInformationMessage('Hookwise: this workspace has no project hooks.');
      return;
    }
    const approved = new Set(this.approvals.get());
    this.logHookList('Project hooks under review:', project);
    const choice = await askApproval(
      this.prompts.approve,
      {
        message: `Hookwise: ${project.length} project hook${project.length === 1 ? '' : 's'} in this workspace. Allow them to run?`,
        detail: approvalDetail(project, approved, this.approvals.records()),
        offerRevoke: true,
        complete: project.length <= MAX_DETAIL_HOOKS,
        openReview: () =>
          this.reviews.show('Project hooks', hookReviewMarkdown('Project hooks in this workspace', project, approved, this.approvals.records())),
      },
      this.o.log,
    );
    if (choice === 'allow') {
      for (const hook of project) this.declined.delete(hook.hash);
      await this.approvals.set(approvedHashesAfter(approved, project, change?.config.hooks ?? []), project);
      this.o.log.info(`approved ${project.length} project hook(s)`);
    } else if (choice === 'revoke') {
      for (const hook of project) this.declined.add(hook.hash);
      await this.approvals.set([]);
      this.o.log.info('project hooks turned off (approvals revoked)');
    } else {
      return;
    }
    await this.reload();
  }

  private onAnyFileEvent(watcher: vscode.FileSystemWatcher): vscode.Disposable[] {
    const schedule = (uri: vscode.Uri): void => {
      if (uri.scheme === 'file') this.changedFiles.add(uri.fsPath);
      this.scheduleReload();
    };
    return [watcher.onDidCreate(schedule), watcher.onDidChange(schedule), watcher.onDidDelete(schedule)];
  }

  private watchFolders(): void {
    for (const d of this.folderWatchers) d.dispose();
    this.folderWatchers = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.claude/{settings.json,settings.local.json,agents/*.md}'));
      this.folderWatchers.push(watcher, ...this.onAnyFileEvent(watcher));
    }
  }

  /** Runs loads one at a time until every requested ticket is served; a load overtaken by a newer request is dropped unapplied. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.completed < this.requested && !this.disposed) {
        const target = this.requested;
        let loaded: { config: HookConfig; texts: Map<string, string> } | undefined;
        try {
          loaded = await this.load();
        } catch (error) {
          this.o.log.error(`loading hook configuration failed: ${thrownStack(error)}`);
        }
        if (this.requested > target) continue; // newer request: load again, apply only the newest
        try {
          if (loaded && !this.disposed && (await this.changeAllowed())) this.applyLoaded(loaded.config, loaded.texts);
        } catch (error) {
          // The previous configuration (and its policy hooks) stays in force; callers waiting on this reload still get an answer.
          this.o.log.error(`applying the hook configuration failed; the previous one stays in force: ${thrownStack(error)}`);
        }
        this.completed = target;
        for (const w of this.waiters.filter((x) => x.ticket <= target)) w.resolve(this.latest);
        this.waiters.splice(0, this.waiters.length, ...this.waiters.filter((x) => x.ticket > target));
      }
    } finally {
      this.pumping = false;
    }
    if (this.disposed) for (const w of this.waiters.splice(0)) w.resolve(this.latest);
  }

  /** ConfigChange: the running session's hooks may keep the configuration in force when settings files changed. */
  private async changeAllowed(): Promise<boolean> {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const changes: ConfigChange[] = [];
    for (const file of this.changedFiles) {
      const source = configChangeSource(file, this.homeDir, folders);
      if (source) changes.push({ source, filePath: file });
    }
    this.changedFiles.clear();
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
    };
    const extra = await pluginAndExtensionSources({
      homeDir: this.homeDir,
      projectDirs: options.folders.map((f) => f.root),
      settingDirs: settings['hookwise.plugins.directories'],
      dataRoot: this.o.globalStorageUri.fsPath,
      warn: (message) => this.o.log.warn(`plugins: ${message}`),
      ...(this.o.extensions ? { extensions: this.o.extensions() } : {}),
    });
    this.o.onPlugins?.(extra.plugins);
    if (!this.disposed) this.pluginFiles.update(extra.watch);
    // User level and workspace level apart: the workspace's values narrow the project's hooks only.
    const switches = splitHookSwitchLayers(
      (key) => ({ inspected: configuration.inspect(key), effective: configuration.get(key) }),
      workspaceSettingsFile()?.file,
    );
    for (const p of switches.problems) this.o.log.warn(`settings: ${p}`);
    const config = await loadHookConfig([...standardConfigSources(options), ...extra.inputs], {
      fs: recording,
      enabled: switches.enabled,
      sources: switches.sources,
      disabledHooks: switches.disabledHooks,
      ...(options.userSettings?.file !== undefined ? { userSettingsFile: options.userSettings.file } : {}),
      ...(switches.workspace ? { workspace: switches.workspace } : {}),
      projectDirs: options.folders.map((f) => f.root),
      lastGood: this.lastGood,
    });
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
    const trusted = this.trust.isTrusted;
    this.scripts.update(config.hooks);
    if (trusted && this.written.size > 0) this.approveWrittenHooks(config.hooks);
    const approved = new Set(this.approvals.get());
    const trust: TrustPolicy = { trusted, isApproved: (hook) => approved.has(hook.hash) };
    // Project hooks are filtered here AND the runtime applies the same policy: it never even sees one that may not run.
    const { runnable, held } = filterByTrust(config.hooks, trust);
    const result = this.o.apply({ ...config, hooks: runnable }, trust);
    const applied: AppliedConfig = { ...result, held: [...held, ...result.held] };
    this.latest = { config, applied };
    const disabled = config.disabled
      ? ` (hooks disabled by ${config.disabledBy.join(', ')})`
      : config.projectHooksOffBy
        ? ` (the project's hooks disabled by ${config.projectHooksOffBy.join(', ')}; the user's still run)`
        : '';
    this.o.log.info(`hook configuration generation ${applied.generation}: ${applied.active.length} active, ${applied.held.length} held${disabled}`);
    for (const p of result.problems) this.o.log.warn(`${describeLoadedHook(p.hook)}: ${p.message}`);
    for (const b of config.brokenFiles ?? []) this.o.log.warn(brokenFileNotice(b));
    for (const v of config.vanishedSwitches ?? [])
      this.o.log.warn(`hookwise.hooks.disabled (${v.layer} settings): "${v.id}" names no loaded hook; the hook under this switch changed or was removed`);
    this.onDidChangeEmitter.fire(this.latest);
    // Old position ids become identity ids in the settings now, before a hook inserted above could move them (the write reloads).
    // Not into an untrusted workspace's files: its switches do not apply there, and nothing is written for it.
    const migrations = (config.switchMigrations ?? []).filter((m) => m.layer === 'user' || trusted);
    if (migrations.length > 0) void writeSwitchMigrations(migrations, this.o.log);

    const untrusted = held.filter((h) => h.why === 'untrusted').length;
    if (untrusted > 0 && !this.untrustedNoticeShown) {
      this.untrustedNoticeShown = true;
      this.prompts.untrusted(untrusted);
    }
    if (held.some((h) => h.why === 'unapproved' && !this.declined.has(h.hook.hash))) void this.promptForApproval();
  }

  /** Asks about the project hooks that are new or changed since the last approval (one modal at a time). */
  private async promptForApproval(): Promise<void> {
    if (this.prompting) {
      this.recheckAfterPrompt = true;
      return;
    }
    const change = this.latest;
    const pending = (change?.applied.held ?? []).filter((h) => h.why === 'unapproved').map((h) => h.hook);
    if (!change || pending.length === 0 || pending.every((h) => this.declined.has(h.hash))) return;
    this.prompting = true;
    try {
      this.logHookList('Project hooks awaiting approval:', pending);
      const n = pending.length;
      const choice = await askApproval(
        this.prompts.approve,
        {
          message: `Hookwise: allow ${n} new or changed project hook${n === 1 ? '' : 's'} to run in this workspace?`,
          detail: approvalDetail(pending, undefined, this.approvals.records()),
          offerRevoke: false,
          complete: n <= MAX_DETAIL_HOOKS,
          openReview: () =>
            this.reviews.show(
              'Project hooks awaiting approval',
              hookReviewMarkdown('Project hooks awaiting approval', pending, undefined, this.approvals.records()),
            ),
        },
        this.o.log,
      );
      if (this.disposed) return;
      if (choice === 'allow') {
        await this.approvals.set(approvedHashesAfter(this.approvals.get(), pending, this.latest?.config.hooks ?? change.config.hooks), pending);
        this.o.log.info(`approved ${n} project hook(s)`);
        await this.reload();
      } else {
        for (const hook of pending) this.declined.add(hook.hash);
        this.o.log.info(`${n} project hook(s) declined; they stay off`);
        this.prompts.declined();
      }
    } finally {
      this.prompting = false;
    }
    if (this.recheckAfterPrompt) {
      this.recheckAfterPrompt = false;
      void this.promptForApproval();
    }
  }

  /** Consumes `written`: a loaded project hook with a just-written definition is approved with its pinned scripts. */
  private approveWrittenHooks(hooks: readonly LoadedHook[]): void {
    const matched = hooks.filter((h) => isProjectSource(h.source) && this.written.has(definitionKey(h)));
    if (matched.length === 0) return;
    for (const hook of matched) {
      this.written.delete(definitionKey(hook));
      this.declined.delete(hook.hash);
    }
    // Memento.update changes what get() returns at once; the write to disk may finish later.
    void this.approvals.set([...new Set([...this.approvals.get(), ...matched.map((h) => h.hash)])], matched);
  }

  private logHookList(title: string, hooks: readonly LoadedHook[]): void {
    this.o.log.info([title, ...hooks.map((h) => `  ${describeLoadedHook(h)}`)].join('\n'));
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    for (const d of this.folderWatchers) d.dispose();
    this.folderWatchers = [];
    this.scripts.dispose();
    this.pluginFiles.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    for (const w of this.waiters.splice(0)) w.resolve(this.latest);
  }
}

/** A hook's definition without its pinned scripts or agent scope: what "Add Hook…" knows it wrote. */
function definitionKey(hook: Pick<ApprovalSubject, 'event' | 'matcher' | 'handler'>): string {
  return hookApprovalKey({ event: hook.event, ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}), handler: hook.handler });
}
