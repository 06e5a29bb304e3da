import * as vscode from 'vscode';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HookwiseRuntime } from '../../runtime/hookwiseRuntime';
import type { HookRunStats } from '../../hooks/hookRunStats';
import type { HookEventResult } from '../../hooks/hookRunTypes';
import type { LoadedHook } from '../../hooks/config/loadedHook';
import { startingInput } from '../../hooks/hookSampleInput';
import type { ModelClient } from '../../model/modelClient';
import { thrownMessage } from '../../shared/describeThrown';
import { isPlainObject, parseJsonObject } from '../../shared/jsonObject';
import type { HookConfigChange } from '../config/hookConfigService';
import type { HookLensIndex } from './hookLensIndex';
import { MarkdownTabs } from './markdownTabs';
import { renderSampleRun } from './sampleRunReport';

/** Runs the hook with the input in an input editor (its CodeLens, the editor title's ▶, or the palette there). */
export const SAMPLE_INPUT_COMMAND = 'hookwise.hookLens.runSampleInput';
/** Scheme of the result pages (rendered Markdown previews). */
export const SAMPLE_RESULT_SCHEME = 'hookwise-sample-run';
/** How input files end; package.json shows the editor title's Run button on such files. */
export const SAMPLE_INPUT_SUFFIX = '.hook-input.json';

/** Longest a sample run may take: the hook has its own timeout, this bounds a stuck runner. */
const SAMPLE_TIMEOUT_MS = 120_000;
/** Longest hook input accepted from an input editor. */
const MAX_INPUT_CHARS = 1_000_000;

/** What a sample run returns (tests and callers read it; the user sees the result page). */
export interface SampleRunResult {
  readonly id: string;
  readonly decision: string;
  readonly reason?: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** The result page (`hookwise-sample-run:`), open in its own tab. */
  readonly page?: vscode.Uri;
}

/** What sample runs read: the applied configuration, the model prompt and agent hooks use, and the lenses' index and stats. */
export interface SampleRunsOptions {
  readonly current: () => HookConfigChange | undefined;
  readonly model: () => ModelClient;
  readonly projectDir?: () => string;
  readonly index: HookLensIndex;
  readonly stats: HookRunStats;
}

interface Runnable {
  readonly hook: LoadedHook;
  readonly change: HookConfigChange;
  readonly projectDir: string;
}

/**
 * "Run with Sample Input…" on a hook: the input opens in a JSON editor of its own (a file in a
 * temp folder, `<event> hook <n>.hook-input.json`) starting from the hook's last run input or a
 * sample; its CodeLens or the editor title's ▶ runs the hook alone through the real runner, and
 * the full result (decision, reason, exit code, time, stdout, stderr, the input) opens rendered
 * in a tab of its own beside it. Only a hook the extension made active runs.
 */
export class SampleRuns implements vscode.Disposable {
  private readonly pages = new MarkdownTabs(SAMPLE_RESULT_SCHEME);
  /** Input file (fsPath) → the id of the hook it runs, and back. */
  private readonly hookOfFile = new Map<string, string>();
  private readonly fileOfHook = new Map<string, string>();
  private dir: Promise<string> | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly o: SampleRunsOptions) {
    this.disposables = [
      this.pages,
      vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: `**/*${SAMPLE_INPUT_SUFFIX}` }, { provideCodeLenses: (doc) => this.lenses(doc) }),
      vscode.commands.registerCommand(SAMPLE_INPUT_COMMAND, (uri?: unknown) => this.runDocument(uri)),
    ];
  }

  /**
   * The lens command: with `given` (tests and callers) the hook runs with it at once; without,
   * the input editor opens and nothing runs until the user asks (resolves undefined then).
   */
  async start(id: unknown, given: unknown): Promise<SampleRunResult | undefined> {
    if (typeof id !== 'string') return undefined;
    if (isPlainObject(given)) return this.run(id, given);
    const ready = this.runnable(id);
    if (!ready) return undefined;
    await this.openInput(id, ready.hook, startingInput(ready.hook, this.o.stats.lastInput(id), ready.projectDir));
    return undefined;
  }

  /** The hook `id` when it runs in this window; else says why not and returns undefined. */
  private runnable(id: string): Runnable | undefined {
    const change = this.o.current();
    const state = this.o.index.state(id);
    const hook = state.hook;
    if (!change || !hook || !state.effective) {
      void vscode.window.showWarningMessage(`Hookwise: ${id} is not run here — ${state.text}.`);
      return undefined;
    }
    const projectDir = hook.folder ?? this.o.projectDir?.() ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    return { hook, change, projectDir };
  }

  /** Shows the hook's input editor: the one already open in a tab as it is, else a fresh file with `initial`. */
  private async openInput(id: string, hook: LoadedHook, initial: Record<string, unknown>): Promise<void> {
    let file = this.fileOfHook.get(id);
    const inTab =
      file !== undefined && vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === file));
    if (file === undefined || !inTab) {
      file ??= path.join(await this.directory(), `${hook.event} hook ${this.fileOfHook.size + 1}${SAMPLE_INPUT_SUFFIX}`);
      await writeFile(file, `${JSON.stringify(initial, null, 2)}\n`);
      this.fileOfHook.set(id, file);
      this.hookOfFile.set(file, id);
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
  }

  private directory(): Promise<string> {
    this.dir ??= mkdtemp(path.join(os.tmpdir(), 'hookwise-sample-input-'));
    return this.dir;
  }

  private lenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const id = this.hookOfFile.get(doc.uri.fsPath);
    const top = new vscode.Range(0, 0, 0, 0);
    if (id === undefined)
      return [new vscode.CodeLens(top, { title: 'Not a hook input of this window: use "Run with Sample Input…" above a hook', command: '' })];
    return [
      new vscode.CodeLens(top, { title: '$(play) Run Hook with This Input', command: SAMPLE_INPUT_COMMAND, arguments: [doc.uri] }),
      new vscode.CodeLens(top, { title: id, command: '', tooltip: 'The hook this input is for' }),
    ];
  }

  /** Runs the hook of an input editor with its text (saved first, so closing the tab asks nothing). */
  private async runDocument(given: unknown): Promise<SampleRunResult | undefined> {
    const uri = given instanceof vscode.Uri ? given : vscode.window.activeTextEditor?.document.uri;
    const id = uri === undefined ? undefined : this.hookOfFile.get(uri.fsPath);
    if (uri === undefined || id === undefined) {
      void vscode.window.showWarningMessage('Hookwise: this editor is not a hook input; use "Run with Sample Input…" above a hook in its settings file.');
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    const input = parseJsonObject(doc.getText(), MAX_INPUT_CHARS);
    if (input === undefined) {
      void vscode.window.showErrorMessage('Hookwise: the hook input must be one JSON object, e.g. {"tool_name": "Bash", "tool_input": {"command": "ls"}}.');
      return undefined;
    }
    if (doc.isDirty) await doc.save();
    return this.run(id, input);
  }

  /**
   * Runs one hook through the real runner, alone, with `input`, and opens its result page. A
   * separate runtime, so the run uses no `once` of the live session.
   */
  private async run(id: string, input: Record<string, unknown>): Promise<SampleRunResult | undefined> {
    const ready = this.runnable(id);
    if (!ready) return undefined;
    const { hook, change, projectDir } = ready;
    const runtime = new HookwiseRuntime({
      projectDir,
      homeDir: os.homedir(),
      model: this.o.model(),
      transcriptDir: path.join(os.tmpdir(), 'hookwise-sample-runs'),
    });
    const started = performance.now();
    try {
      runtime.applyConfig({ ...change.config, hooks: [hook], disabledHookIds: undefined }, { trusted: true });
      const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Hookwise: running ${hook.event} hook` }, () =>
        runtime.runner.run(hook.event, { ...input, hook_event_name: hook.event }, { signal: AbortSignal.timeout(SAMPLE_TIMEOUT_MS), cwd: projectDir }),
      );
      const markdown = renderSampleRun({ id, result, input, elapsedMs: performance.now() - started });
      const page = await this.pages.open(`Sample run - ${hook.event}`, markdown, { beside: true });
      return { ...summarise(id, result, input), page };
    } catch (error) {
      void vscode.window.showErrorMessage(`Hookwise: could not run ${id}: ${thrownMessage(error)}`);
      return undefined;
    } finally {
      await runtime.runner.settleBackground().catch(() => undefined);
      await runtime.dispose().catch(() => undefined);
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.dir?.then((dir) => rm(dir, { recursive: true, force: true })).catch(() => undefined);
  }
}

function summarise(id: string, result: HookEventResult, input: Readonly<Record<string, unknown>>): SampleRunResult {
  const failure = result.failures[0];
  const decision = result.decision ?? (failure ? 'failed' : 'no decision');
  const reason = result.reason ?? failure?.error;
  return { id, decision, input, ...(reason !== undefined ? { reason } : {}) };
}
