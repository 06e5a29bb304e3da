/**
 * Hook tests and lasting Hook Runs inside the real extension host: a real command hook denies
 * a Bash call, "Save as Test Case" on that event in the extension's Hook Runs tree writes the
 * case, a TestController finds it and runs it through the real runner (pass), editing the hook
 * re-runs it (fail); the view's search finds the run; finished runs written by one history come back in a new one, and export.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { HookwiseRuntime } from '../../src/runtime/hookwiseRuntime';
import type { HookwiseApi } from '../../src/extension';
import { loadHookConfig } from '../../src/hooks/config/hookConfigLoader';
import type { HookRunObserver } from '../../src/hooks/hookRunTypes';
import type { HookConfigChange } from '../../src/vscode/config/hookConfigService';
import { HookRunHistory } from '../../src/vscode/history/hookRunHistory';
import { HookTestController, type HookTestResult } from '../../src/vscode/hookTests/hookTestController';
import { HookRunsTreeProvider, type HookRunsNode } from '../../src/vscode/tree/hookRunsTreeProvider';
import type { ModelClient } from '../../src/model/modelClient';
import { workspaceRoot } from './configSupport';
import { bashHookInput } from './hostWait';

const NO_MODEL: ModelClient = {
  label: 'no model',
  // eslint-disable-next-line require-yield
  async *stream() {
    throw new Error('no model in this test');
  },
};

/** A settings file (the `--settings` scope: no approval needed) whose PreToolUse Bash hook runs `command`. */
function writeSettings(file: string, command: string): void {
  writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }));
}

/** Loads `file` and applies it to a runtime with `observers`, as the extension applies its configuration. */
async function applied(file: string, observers: HookRunObserver[] = []): Promise<{ runtime: HookwiseRuntime; change: HookConfigChange }> {
  const config = await loadHookConfig([{ kind: 'claudeSettingsFile', scope: 'flag', file, displayFile: path.basename(file) }]);
  const runtime = new HookwiseRuntime({ projectDir: workspaceRoot(), homeDir: os.tmpdir(), model: NO_MODEL, observers, transcriptDir: os.tmpdir() });
  return { runtime, change: { config, applied: runtime.applyConfig(config, { trusted: true }) } };
}

/** Depth-first search of the tree for the occurrence of `sessionId`. */
function findOccurrence(provider: HookRunsTreeProvider, sessionId: string, node?: HookRunsNode): HookRunsNode | undefined {
  for (const child of provider.getChildren(node)) {
    if (child.kind === 'session' && child.sessionId !== sessionId) continue;
    if (child.kind === 'occurrence') return child;
    const found = findOccurrence(provider, sessionId, child);
    if (found) return found;
  }
  return undefined;
}

function nextResult(controller: HookTestController, id: string): Promise<HookTestResult> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (sub.dispose(), reject(new Error(`no result for ${id} within 15 s`))), 15_000);
    const sub = controller.onDidFinishCase(({ item, result }) => {
      if (item.id !== id) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(result);
    });
  });
}

suite('Hook tests and history', () => {
  let temp: string;
  const cleanup: (() => unknown)[] = [];

  setup(() => {
    temp = mkdtempSync(path.join(os.tmpdir(), 'hookwise-hooktests-'));
  });

  teardown(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
    rmSync(temp, { recursive: true, force: true });
  });

  test('Save as Test Case on a run event → the case appears in the TestController and passes; editing the hook makes it fail', async function () {
    this.timeout(60_000);
    const api = await vscode.extensions.getExtension<HookwiseApi>('hookwise.hookwise')?.activate();
    assert.ok(api, 'the extension did not activate');
    const settings = path.join(temp, 'settings.json');
    writeSettings(settings, 'echo "no rm in this repo" >&2; exit 2');
    const live = await applied(settings, [api.hookRuns]);
    cleanup.push(() => live.runtime.dispose());
    const sessionId = `it-save-${Date.now()}`;
    const result = await live.runtime.runner.run('PreToolUse', bashHookInput(sessionId, 'rm -rf build', 'toolu_it'), { cwd: workspaceRoot() });
    assert.equal(result.decision, 'deny');

    const occurrence = findOccurrence(api.hookRuns, sessionId);
    assert.ok(occurrence, 'the run is in the Hook Runs tree');
    // The view's search keeps only matching runs (here: this session's deny).
    await vscode.commands.executeCommand('hookwise.hookRuns.search', `session:${sessionId} decision:deny rm`);
    try {
      assert.deepEqual(
        api.hookRuns.getChildren().map((n) => (n.kind === 'session' ? n.sessionId : n.kind)),
        [sessionId],
      );
      await vscode.commands.executeCommand('hookwise.hookRuns.search', `session:${sessionId} decision:allow`);
      assert.deepEqual(api.hookRuns.getChildren(), []);
    } finally {
      await vscode.commands.executeCommand('hookwise.hookRuns.showAll');
    }
    const name = `it no rm ${Date.now()}`;
    const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('hookwise.hookRuns.saveAsTestCase', occurrence, { name, overwrite: true });
    assert.ok(uri, 'Save as Test Case wrote nothing');
    cleanup.push(() => rmSync(uri.fsPath, { force: true }));
    assert.equal(path.dirname(uri.fsPath), path.join(workspaceRoot(), '.hookwise', 'hook-tests'));
    const saved = JSON.parse(readFileSync(uri.fsPath, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(saved, {
      name,
      event: 'PreToolUse',
      input: { permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } },
      expect: { decision: 'deny', reason: 'no rm in this repo' },
    });

    let current = live.change;
    const changed = new vscode.EventEmitter<unknown>();
    const controller = new HookTestController({ id: 'hookwise.hookTests.it', config: () => current, onDidChangeConfig: changed.event, model: () => NO_MODEL });
    cleanup.push(() => (controller.dispose(), changed.dispose()));
    await controller.discover();
    const item = controller.controller.items.get(uri.toString());
    assert.ok(item, 'the saved case is a test item');
    assert.equal(item.label, name);
    await controller.run(new vscode.TestRunRequest([item]), undefined);
    assert.deepEqual(controller.results.get(item.id), { state: 'passed', message: '' });

    // The hook now lets rm through: the configuration change re-runs the case, which fails.
    writeSettings(settings, 'exit 0');
    const edited = await applied(settings);
    cleanup.push(() => edited.runtime.dispose());
    current = edited.change;
    const rerun = nextResult(controller, item.id);
    changed.fire(undefined);
    const after = await rerun;
    assert.equal(after.state, 'failed');
    assert.match(after.message, /decision: expected deny, got none/);
  });

  test('finished hook runs survive a new history on the same storage, and export as JSONL', async function () {
    this.timeout(30_000);
    const storage = vscode.Uri.file(path.join(temp, 'storage'));
    const first = new HookRunHistory(storage);
    const settings = path.join(temp, 'settings.json');
    writeSettings(settings, 'echo "kept across reloads" >&2; exit 2');
    const { runtime } = await applied(settings, [first]);
    cleanup.push(() => runtime.dispose());
    await runtime.runner.run('PreToolUse', bashHookInput('it-history', 'rm -rf /tmp/x', 'toolu_it'), { cwd: workspaceRoot() });
    first.dispose(); // the window closes

    const second = new HookRunHistory(storage);
    cleanup.push(() => second.dispose());
    const provider = new HookRunsTreeProvider({ throttleMs: 20 });
    cleanup.push(() => provider.dispose());
    assert.equal(await second.restore(provider), 1);
    const occurrence = findOccurrence(provider, 'it-history');
    assert.ok(occurrence && occurrence.kind === 'occurrence', 'the restored run is in the tree');
    const [run] = provider.getChildren(occurrence);
    assert.ok(run?.kind === 'run');
    assert.equal(run.record.outcome?.reason, 'kept across reloads');
    assert.equal(run.record.status, 'blocked');

    const out = path.join(temp, 'runs.jsonl');
    assert.equal(await second.exportTo(out), 1);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    assert.equal(lines.length, 1);
    assert.equal((JSON.parse(lines[0] as string) as { sessionId: string }).sessionId, 'it-history');
  });
});
