import * as vscode from 'vscode';
import os from 'node:os';
import path from 'node:path';
import { HookwiseRuntime } from '../../runtime/hookwiseRuntime';
import { checkExpectations, fillTestInput, observedDecision } from '../../hooks/explain/hookTestCase';
import { loadHookTestCase } from '../../hooks/explain/loadHookTestCase';
import type { ModelClient } from '../../model/modelClient';
import { thrownMessage } from '../../shared/describeThrown';
import type { HookConfigChange } from '../config/hookConfigService';

/** Where saved hook tests live in a workspace folder (docs/hooks.md "Hook tests"). */
export const HOOK_TESTS_GLOB = '.hookwise/hook-tests/*.json';

/** Longest a single case may take: hooks have their own timeouts, this bounds a stuck runner. */
const CASE_TIMEOUT_MS = 120_000;

export interface HookTestControllerOptions {
  /** The configuration the extension applied last (already filtered by workspace trust and approvals). */
  readonly config: () => HookConfigChange | undefined;
  /** Fires after each applied configuration: a hook or a pinned script changed. */
  readonly onDidChangeConfig: vscode.Event<unknown>;
  /** The model prompt and agent hooks use (the agent's). */
  readonly model: () => ModelClient;
  readonly log?: vscode.LogOutputChannel;
  /** The agent's project root (CLAUDE_PROJECT_DIR); default: the first workspace folder, else home. */
  readonly projectDir?: () => string;
  /** TestController id (default `hookwise.hookTests`; tests use another so both can live in one host). */
  readonly id?: string;
}

/** How one case ended in its last run. */
export interface HookTestResult {
  readonly state: 'passed' | 'failed' | 'errored';
  /** The problems (failed) or what kept the case from running (errored); empty when passed. */
  readonly message: string;
}

/**
 * Hook tests in VS Code's Test Explorer: one test item per `.hookwise/hook-tests/*.json`,
 * run through the real hook runner with the hooks the extension applied last. Each run
 * builds its own HookwiseRuntime from that configuration rather than using the agent's
 * runtime, so test runs do not show up in Hook Runs or the history, and do not use up
 * `once` hooks of the live session. Only hooks the extension made active are used: an
 * untrusted or unapproved project hook never runs from a test either.
 * Tests that ran in this window run again when the configuration or a hook script changes.
 */
export class HookTestController implements vscode.Disposable {
  readonly controller: vscode.TestController;
  private readonly disposables: vscode.Disposable[] = [];
  /** Items run at least once: re-run when hooks change. */
  private readonly ranOnce = new Set<string>();
  private rerunTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly finished = new vscode.EventEmitter<{ readonly item: vscode.TestItem; readonly result: HookTestResult }>();
  /** Fires as each case ends (Test Explorer shows the same; this is for callers and tests). */
  readonly onDidFinishCase = this.finished.event;
  /** The last result of each case, by test item id (the case file's URI). */
  readonly results = new Map<string, HookTestResult>();

  constructor(private readonly o: HookTestControllerOptions) {
    this.controller = vscode.tests.createTestController(o.id ?? 'hookwise.hookTests', 'Hookwise Hook Tests');
    this.controller.resolveHandler = () => this.discover();
    this.controller.refreshHandler = () => this.discover();
    this.controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token), true);
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${HOOK_TESTS_GLOB}`);
    this.disposables.push(
      this.controller,
      this.finished,
      watcher,
      watcher.onDidCreate((uri) => void this.addItem(uri)),
      watcher.onDidChange((uri) => void this.addItem(uri).then((item) => this.scheduleRerun(item))),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
      o.onDidChangeConfig(() => this.scheduleRerun()),
    );
    void this.discover();
  }

  /** Finds every case file in the workspace folders. */
  async discover(): Promise<void> {
    const files = await vscode.workspace.findFiles(`**/${HOOK_TESTS_GLOB}`, '**/node_modules/**', 1000);
    const seen = new Set<string>();
    for (const uri of files) seen.add((await this.addItem(uri)).id);
    this.controller.items.forEach((item) => {
      if (!seen.has(item.id)) this.controller.items.delete(item.id);
    });
  }

  /** Creates or relabels the item of one case file. */
  private async addItem(uri: vscode.Uri): Promise<vscode.TestItem> {
    const loaded = await loadHookTestCase(uri.fsPath);
    const label = typeof loaded === 'string' ? path.basename(uri.fsPath) : loaded.name;
    const item = this.controller.items.get(uri.toString()) ?? this.controller.createTestItem(uri.toString(), label, uri);
    item.label = label;
    item.description = typeof loaded === 'string' ? 'invalid' : loaded.event;
    item.error = typeof loaded === 'string' ? loaded : undefined;
    this.controller.items.add(item);
    return item;
  }

  private scheduleRerun(item?: vscode.TestItem): void {
    if (item) this.ranOnce.add(item.id);
    if (this.rerunTimer) clearTimeout(this.rerunTimer);
    this.rerunTimer = setTimeout(() => {
      this.rerunTimer = undefined;
      const items: vscode.TestItem[] = [];
      for (const id of this.ranOnce) {
        const found = this.controller.items.get(id);
        if (found) items.push(found);
      }
      if (items.length > 0) void this.run(new vscode.TestRunRequest(items), undefined);
    }, 300);
  }

  /** Runs the requested cases (all when none named); each gets passed, failed (with the problems) or errored. */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken | undefined): Promise<void> {
    const items: vscode.TestItem[] = [];
    if (request.include) items.push(...request.include);
    else this.controller.items.forEach((item) => items.push(item));
    const excluded = new Set(request.exclude?.map((i) => i.id));
    const run = this.controller.createTestRun(request, 'Hookwise hook tests', true);
    const abort = new AbortController();
    const cancel = token?.onCancellationRequested(() => abort.abort());
    const current = this.o.config();
    const projectDir = this.o.projectDir?.() ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    const runtime = new HookwiseRuntime({
      projectDir,
      homeDir: os.homedir(),
      model: this.o.model(),
      transcriptDir: path.join(os.tmpdir(), 'hookwise-hook-tests'),
    });
    // Only the hooks the extension activated (trust and approvals already applied), so trusted:true adds nothing.
    if (current) runtime.applyConfig({ ...current.config, hooks: [...current.applied.active] }, { trusted: true });
    try {
      for (const item of items) {
        if (excluded.has(item.id) || !item.uri) continue;
        if (abort.signal.aborted) {
          run.skipped(item);
          continue;
        }
        this.ranOnce.add(item.id);
        run.started(item);
        await this.runOne(runtime, run, item, item.uri, projectDir, abort.signal);
      }
    } finally {
      cancel?.dispose();
      await runtime.runner.settleBackground().catch(() => undefined);
      await runtime.dispose().catch(() => undefined);
      run.end();
    }
  }

  private async runOne(
    runtime: HookwiseRuntime,
    run: vscode.TestRun,
    item: vscode.TestItem,
    uri: vscode.Uri,
    projectDir: string,
    signal: AbortSignal,
  ): Promise<void> {
    const loaded = await loadHookTestCase(uri.fsPath);
    if (typeof loaded === 'string') {
      item.error = loaded;
      run.errored(item, new vscode.TestMessage(loaded));
      this.report(item, { state: 'errored', message: loaded });
      return;
    }
    item.error = undefined;
    const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? projectDir;
    const started = Date.now();
    try {
      const result = await runtime.runner.run(loaded.event, fillTestInput(loaded, folder), {
        signal: AbortSignal.any([signal, AbortSignal.timeout(CASE_TIMEOUT_MS)]),
        cwd: folder,
      });
      const problems = checkExpectations(loaded, result);
      const duration = Date.now() - started;
      if (problems.length === 0) {
        // The Test Results panel says what the hooks decided, not "no output".
        run.appendOutput(`✓ ${loaded.name} (decision: ${observedDecision(result)})\r\n`, undefined, item);
        run.passed(item, duration);
        this.report(item, { state: 'passed', message: '' });
      } else {
        run.appendOutput(`✗ ${loaded.name} (decision: ${observedDecision(result)})\r\n    ${problems.join('\r\n    ')}\r\n`, undefined, item);
        run.failed(item, new vscode.TestMessage(problems.join('\n')), duration);
        this.report(item, { state: 'failed', message: problems.join('\n') });
      }
    } catch (error) {
      const message = `${uri.fsPath}: ${thrownMessage(error)}`;
      this.o.log?.warn(`hook test could not run: ${message}`);
      run.errored(item, new vscode.TestMessage(message));
      this.report(item, { state: 'errored', message });
    }
  }

  private report(item: vscode.TestItem, result: HookTestResult): void {
    this.results.set(item.id, result);
    this.finished.fire({ item, result });
  }

  dispose(): void {
    if (this.rerunTimer) clearTimeout(this.rerunTimer);
    for (const d of this.disposables) d.dispose();
  }
}
