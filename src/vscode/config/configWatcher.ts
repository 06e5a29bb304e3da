import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { defaultManagedSettingsFile } from '../../hooks/config/configSources';
import type { ExtensionLike } from '../../plugins/extensionHookSources';
import type { PluginWatchTarget } from '../../plugins/pluginWatchTargets';
import { contributingExtensionsKey } from '../extensionHooks';
import { FileWatchSet } from './fileWatchSet';
import { FolderWatchSet } from './folderWatchSet';
import type { ConfigSourceInput } from '../../hooks/config/configSources';
import { claudeWatchTargets } from './claudeWatchTargets';
import { formatWatchPattern, formatWatchTargets } from './formatWatchGlobs';
import { PinnedScriptWatcher } from './pinnedScriptWatcher';
import type { WorkspaceTrustSource } from './projectHookTrust';
import type { ScriptPin } from '../../hooks/config/scriptPins';

/** What the watcher watches and whom it tells. */
export interface ConfigWatcherOptions {
  readonly homeDir: string;
  readonly trust: WorkspaceTrustSource;
  /** A change that calls for a (debounced) reload. */
  readonly onChange: () => void;
  /** A pinned script changed: reload at once (its content is part of a project hook's approval). */
  readonly onScriptChange: () => void;
  readonly onFolderAdded?: (dir: string) => void;
  /** The installed extensions; default `vscode.extensions.all`. */
  readonly extensions?: () => readonly ExtensionLike[];
}

/**
 * Everything that may change the hook configuration: the `.claude` settings files, agents and
 * skills of the home directory and of each workspace folder (VS Code watchers and Node folder
 * watchers, claudeWatchTargets.ts), other agents' hook files there (formatWatchGlobs.ts), the
 * managed policy file, `hookwise` settings, workspace folders, a trust grant, extensions that
 * contribute hooks, the plugins' files and the scripts project hooks pin. Remembers which settings files changed since the last {@link takeChangedFiles}.
 */
export class ConfigWatcher implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private folderWatchers: vscode.Disposable[] = [];
  /** Reloads when a script a project hook names changes (its content is part of the approval). */
  private readonly scripts: PinnedScriptWatcher;
  /**
   * Reloads when a plugin's hooks, agents or skills change, plugins are installed, or a
   * `hookwise.plugins.directories` root changes (the last load's targets, pluginWatchTargets.ts).
   */
  private readonly pluginFiles: FileWatchSet;
  /** Reloads when a file in a folder that held other agents' hook files at the last load changes (formatWatchTargets). */
  private readonly formatFiles: FolderWatchSet;
  /** Reloads when a `.claude` settings file, agent or skill of the last load's folders changes (claudeWatchTargets.ts). */
  private readonly claudeFiles: FolderWatchSet;
  /** The extensions contributing hooks at the last check (see contributingExtensionsKey). */
  private contributingKey: string;
  /** Settings files changed since the last load (ConfigChange hooks are asked about them). */
  private readonly changedFiles = new Set<string>();

  constructor(private readonly o: ConfigWatcherOptions) {
    this.scripts = new PinnedScriptWatcher(o.onScriptChange);
    this.pluginFiles = new FileWatchSet(() => o.onChange());
    this.formatFiles = new FolderWatchSet(() => o.onChange());
    this.claudeFiles = new FolderWatchSet((file) => this.changed(file));
    this.contributingKey = contributingExtensionsKey(o.extensions?.());
    const home = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(o.homeDir), '.claude/{settings.json,agents/*.md}'));
    this.disposables.push(home, ...this.onAnyFileEvent(home));
    const homeFormats = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(o.homeDir), formatWatchPattern('user')));
    this.disposables.push(homeFormats, ...this.onAnyFileEvent(homeFormats));
    // The organisation's managed policy applies live too (an admin pushes a new file).
    const managedFile = defaultManagedSettingsFile();
    const managed = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(path.dirname(managedFile)), path.basename(managedFile)),
    );
    this.disposables.push(managed, ...this.onAnyFileEvent(managed));
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('hookwise')) o.onChange();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        this.watchFolders();
        o.onChange();
        for (const folder of e.added) if (folder.uri.scheme === 'file') o.onFolderAdded?.(folder.uri.fsPath);
      }),
      o.trust.onDidGrantWorkspaceTrust(() => o.onChange()),
      // Extensions that contribute hooks come and go live; other extension changes cost no reload.
      vscode.extensions.onDidChange(() => {
        const key = contributingExtensionsKey(o.extensions?.());
        if (key === this.contributingKey) return;
        this.contributingKey = key;
        o.onChange();
      }),
    );
    this.watchFolders();
  }

  /** The settings files changed since the last call (file events only), and forgets them. */
  takeChangedFiles(): string[] {
    const files = [...this.changedFiles];
    this.changedFiles.clear();
    return files;
  }

  /** Watches the scripts these hooks pin. */
  watchScripts(hooks: readonly { readonly scripts?: readonly ScriptPin[] | undefined }[]): void {
    this.scripts.update(hooks);
  }

  /** Watches the plugin files of the last load. */
  watchPluginFiles(targets: readonly PluginWatchTarget[]): void {
    this.pluginFiles.update(targets);
  }

  /**
   * Watches, with Node's own folder watchers renewed on every load, the folders of the last load's
   * file inputs: other agents' hook files and the `.claude` settings files, agents and skills.
   */
  watchSourceFiles(inputs: readonly ConfigSourceInput[]): void {
    this.formatFiles.update(formatWatchTargets(inputs, existsSync));
    this.claudeFiles.update(claudeWatchTargets(inputs, existsSync, subfolders));
  }

  /** A settings file (or a folder or file near one) changed: remember it for ConfigChange and reload. */
  private changed(file: string): void {
    this.changedFiles.add(file);
    this.o.onChange();
  }

  private onAnyFileEvent(watcher: vscode.FileSystemWatcher): vscode.Disposable[] {
    const schedule = (uri: vscode.Uri): void => {
      if (uri.scheme === 'file') this.changed(uri.fsPath);
      else this.o.onChange();
    };
    return [watcher.onDidCreate(schedule), watcher.onDidChange(schedule), watcher.onDidDelete(schedule)];
  }

  private watchFolders(): void {
    for (const d of this.folderWatchers) d.dispose();
    this.folderWatchers = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.claude/{settings.json,settings.local.json,agents/*.md}'));
      const formats = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, formatWatchPattern('project')));
      this.folderWatchers.push(watcher, ...this.onAnyFileEvent(watcher), formats, ...this.onAnyFileEvent(formats));
    }
  }

  dispose(): void {
    for (const d of this.folderWatchers) d.dispose();
    this.folderWatchers = [];
    this.scripts.dispose();
    this.pluginFiles.dispose();
    this.formatFiles.dispose();
    this.claudeFiles.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** The names of the folders in `dir` (a symbolic link may be one); none when it cannot be read. */
function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() || e.isSymbolicLink())
      .map((e) => e.name);
  } catch {
    return [];
  }
}
