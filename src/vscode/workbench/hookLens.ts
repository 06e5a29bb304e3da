import * as vscode from 'vscode';
import { hookLocationId } from '../../hooks/config/hookSwitches';
import { HookRunStats } from '../../hooks/hookRunStats';
import { registeredHookFormats } from '../../hooks/formats/formatRegistry';
import type { HookRunObserver, HookRunRecord } from '../../hooks/hookRunTypes';
import type { ModelClient } from '../../model/modelClient';
import type { HookConfigChange } from '../config/hookConfigService';
import { HookRunsTreeProvider } from '../tree/hookRunsTreeProvider';
import { HookLensIndex } from './hookLensIndex';
import { HookCodeLensProvider, HookHoverProvider, HookLensCommands, HookLinkProvider } from './hookLensProviders';
import { setSwitch } from './hookWorkbench';
import { SampleRuns } from './sampleRuns';

/** Lenses are re-asked at most this often while runs arrive. */
const REFRESH_MS = 1000;

export interface HookLensOptions {
  /** The configuration as last applied (undefined before the first load). */
  readonly current: () => HookConfigChange | undefined;
  /** The model prompt and agent hooks use. */
  readonly model: () => ModelClient;
  readonly log?: vscode.LogOutputChannel;
  /** The agent's project root, for a hook not loaded from a folder; default the first workspace folder, else home. */
  readonly projectDir?: () => string;
}

/**
 * Other agents' hook files that are not JSON (Codex `config.toml`, Cline's scripts, whatever language
 * VS Code gives them), by the places those agents read; the index decides which files really hold hooks.
 */
function formatFileSelectors(): vscode.DocumentFilter[] {
  return registeredHookFormats().flatMap((format) =>
    format.locations.map((l) => ({ scheme: 'file', pattern: l.kind === 'directory' ? `**/${l.path}/*` : `**/${l.path}` })),
  );
}

/**
 * CodeLens, hover and document links on every hook in the settings files (`.claude/settings*.json`,
 * `~/.claude/settings.json`, VS Code settings' `hookwise.hooks`, plugin `hooks/hooks.json`) and in
 * other agents' hook files (`Copilot .github/hooks/guard.json › hooks.preToolUse[0]`; a Cline script at its line 1): per-hook
 * run stats, Run with Sample Input… (an input editor, then a result page: sampleRuns.ts), Show Runs,
 * Disable/Enable, and links to the scripts a command names. It is a run observer (add it to the runtime's observers) and a sink for the restored history.
 * The returned object owns its providers and commands.
 */
export class HookLens implements HookRunObserver, vscode.Disposable {
  readonly stats = new HookRunStats();
  private readonly index: HookLensIndex;
  private readonly lenses: HookCodeLensProvider;
  private readonly samples: SampleRuns;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly o: HookLensOptions) {
    this.index = new HookLensIndex(o.current, () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath));
    this.lenses = new HookCodeLensProvider(this.index, this.stats);
    this.samples = new SampleRuns({ ...o, index: this.index, stats: this.stats });
    const selector: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }, { language: 'markdown' }, ...formatFileSelectors()];
    this.disposables.push(
      this.lenses,
      this.samples,
      vscode.languages.registerCodeLensProvider(selector, this.lenses),
      vscode.languages.registerHoverProvider(selector, new HookHoverProvider(this.index, this.stats)),
      vscode.languages.registerDocumentLinkProvider(selector, new HookLinkProvider(this.index)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.index.forget(doc)),
      vscode.commands.registerCommand(HookLensCommands.runSample, (id?: unknown, input?: unknown) => this.samples.start(id, input)),
      vscode.commands.registerCommand(HookLensCommands.showRuns, (id?: unknown) => this.showRuns(id)),
      vscode.commands.registerCommand(HookLensCommands.disable, (id?: unknown) => this.switchHook(id, true)),
      vscode.commands.registerCommand(HookLensCommands.enable, (id?: unknown) => this.switchHook(id, false)),
    );
  }

  /** Lenses follow each applied configuration (wired once the configuration service exists). */
  watchConfig(onDidChange: vscode.Event<unknown>): void {
    this.disposables.push(onDidChange(() => this.lenses.refresh()));
  }

  onHookFinished(record: HookRunRecord): void {
    if (this.stats.add(record) !== undefined) this.scheduleRefresh();
  }

  onAskResolved(record: HookRunRecord): void {
    this.onHookFinished(record);
  }

  /** "Clear" in Hook Runs: the counts start again. */
  clear(): void {
    this.stats.clear();
    this.scheduleRefresh();
  }

  private scheduleRefresh(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.lenses.refresh();
    }, REFRESH_MS);
  }

  /** Reveals Hook Runs filtered to this hook with the view's own search (`hook:` terms); returns the query. */
  private async showRuns(id: unknown): Promise<string | undefined> {
    if (typeof id !== 'string') return undefined;
    // Runs carry `config:<id>` as their hook id; the search splits on spaces, so each word is one `hook:` term.
    const query = `config:${id}`
      .split(/\s+/)
      .filter((w) => w !== '' && w !== '›')
      .map((w) => `hook:${w}`)
      .join(' ');
    await vscode.commands.executeCommand(`${HookRunsTreeProvider.viewId}.focus`);
    await vscode.commands.executeCommand('hookwise.hookRuns.search', query);
    return query;
  }

  private async switchHook(id: unknown, off: boolean): Promise<boolean> {
    if (typeof id !== 'string') return false;
    const source = this.index.source(id);
    if (!source || hookLocationId({ source }) !== id) {
      void vscode.window.showWarningMessage(`Hookwise: ${id} is not loaded; save the file first.`);
      return false;
    }
    return setSwitch(source, off);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
