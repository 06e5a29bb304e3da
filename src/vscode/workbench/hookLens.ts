import * as vscode from 'vscode';
import os from 'node:os';
import path from 'node:path';
import { HookwiseRuntime } from '../../runtime/hookwiseRuntime';
import { hookLocationId } from '../../hooks/config/hookSwitches';
import { HookRunStats } from '../../hooks/hookRunStats';
import type { HookEventResult, HookRunObserver, HookRunRecord } from '../../hooks/hookRunTypes';
import { startingInput } from '../../hooks/hookSampleInput';
import type { ModelClient } from '../../model/modelClient';
import { thrownMessage } from '../../shared/describeThrown';
import type { HookConfigChange } from '../config/hookConfigService';
import { HookRunsTreeProvider } from '../tree/hookRunsTreeProvider';
import { HookLensIndex } from './hookLensIndex';
import { HookCodeLensProvider, HookHoverProvider, HookLensCommands, HookLinkProvider } from './hookLensProviders';
import { setSwitch } from './hookWorkbench';
import { isPlainObject, parseJsonObject } from '../../shared/jsonObject';

/** Lenses are re-asked at most this often while runs arrive. */
const REFRESH_MS = 1000;
/** Longest a sample run may take: the hook has its own timeout, this bounds a stuck runner. */
const SAMPLE_TIMEOUT_MS = 120_000;
/** Longest hook input accepted from the input box. */
const MAX_INPUT_CHARS = 1_000_000;

export interface HookLensOptions {
  /** The configuration as last applied (undefined before the first load). */
  readonly current: () => HookConfigChange | undefined;
  /** The model prompt and agent hooks use. */
  readonly model: () => ModelClient;
  readonly log?: vscode.LogOutputChannel;
  /** The agent's project root, for a hook not loaded from a folder; default the first workspace folder, else home. */
  readonly projectDir?: () => string;
}

/** What "Run with Sample Input…" returns (tests and callers read it; the user sees a message). */
export interface SampleRunResult {
  readonly id: string;
  readonly decision: string;
  readonly reason?: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/**
 * CodeLens, hover and document links on every hook in the settings files (`.claude/settings*.json`,
 * `~/.claude/settings.json`, VS Code settings' `hookwise.hooks`, plugin `hooks/hooks.json`): per-hook
 * run stats, Run with Sample Input…, Show Runs, Disable/Enable, and links to the scripts a command
 * names. It is a run observer (add it to the runtime's observers) and a sink for the restored history.
 * The returned object owns its providers and commands.
 */
export class HookLens implements HookRunObserver, vscode.Disposable {
  readonly stats = new HookRunStats();
  private readonly index: HookLensIndex;
  private readonly lenses: HookCodeLensProvider;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly o: HookLensOptions) {
    this.index = new HookLensIndex(o.current, () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath));
    this.lenses = new HookCodeLensProvider(this.index, this.stats);
    const selector: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }, { language: 'markdown' }];
    this.disposables.push(
      this.lenses,
      vscode.languages.registerCodeLensProvider(selector, this.lenses),
      vscode.languages.registerHoverProvider(selector, new HookHoverProvider(this.index, this.stats)),
      vscode.languages.registerDocumentLinkProvider(selector, new HookLinkProvider(this.index)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.index.forget(doc)),
      vscode.commands.registerCommand(HookLensCommands.runSample, (id?: unknown, input?: unknown) => this.runSample(id, input)),
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

  /**
   * Runs one hook through the real runner, alone, with an input the user confirms: its last run's
   * input when it ran, else a sample for its event. Only a hook the extension made active runs (an
   * untrusted, unapproved or switched-off hook says why instead). A separate runtime, so the run
   * uses no `once` of the live session. `input` (from tests and callers) skips the input box.
   */
  private async runSample(id: unknown, given: unknown): Promise<SampleRunResult | undefined> {
    if (typeof id !== 'string') return undefined;
    const change = this.o.current();
    const state = this.index.state(id);
    const hook = state.hook;
    if (!change || !hook || !state.effective) {
      void vscode.window.showWarningMessage(`Hookwise: ${id} is not run here — ${state.text}.`);
      return undefined;
    }
    const projectDir = hook.folder ?? this.o.projectDir?.() ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    const input = isPlainObject(given) ? given : await askInput(startingInput(hook, this.stats.lastInput(id), projectDir), id);
    if (!input) return undefined;
    const runtime = new HookwiseRuntime({
      projectDir,
      homeDir: os.homedir(),
      model: this.o.model(),
      transcriptDir: path.join(os.tmpdir(), 'hookwise-sample-runs'),
    });
    try {
      runtime.applyConfig({ ...change.config, hooks: [hook], disabledHookIds: undefined }, { trusted: true });
      const result = await runtime.runner.run(
        hook.event,
        { ...input, hook_event_name: hook.event },
        { signal: AbortSignal.timeout(SAMPLE_TIMEOUT_MS), cwd: projectDir },
      );
      const summary = summarise(id, result, input);
      void vscode.window.showInformationMessage(`Hookwise: ${hook.event} hook → ${summary.decision}${summary.reason ? ` — ${summary.reason}` : ''}`);
      return summary;
    } catch (error) {
      void vscode.window.showErrorMessage(`Hookwise: could not run ${id}: ${thrownMessage(error)}`);
      return undefined;
    } finally {
      await runtime.runner.settleBackground().catch(() => undefined);
      await runtime.dispose().catch(() => undefined);
    }
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

/** The input box, prefilled; undefined when cancelled. */
async function askInput(initial: Record<string, unknown>, id: string): Promise<Record<string, unknown> | undefined> {
  const text = await vscode.window.showInputBox({
    title: `Run with Sample Input: ${id}`,
    prompt: 'The hook input as JSON (edit it, then Enter to run the hook)',
    value: JSON.stringify(initial),
    validateInput: (v) =>
      parseJsonObject(v, MAX_INPUT_CHARS) === undefined ? 'A JSON object, e.g. {"tool_name": "Bash", "tool_input": {"command": "ls"}}' : undefined,
  });
  return text === undefined ? undefined : parseJsonObject(text, MAX_INPUT_CHARS);
}

function summarise(id: string, result: HookEventResult, input: Readonly<Record<string, unknown>>): SampleRunResult {
  const failure = result.failures[0];
  const decision = result.decision ?? (failure ? 'failed' : 'no decision');
  const reason = result.reason ?? failure?.error;
  return { id, decision, input, ...(reason !== undefined ? { reason } : {}) };
}
