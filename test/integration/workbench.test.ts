/**
 * The hook workbench in the real extension host: Disable Hook writes `hookwise.hooks.disabled`
 * (never the `.claude` file), the extension reloads with the hook switched off, the Hook Runs row
 * of that hook then offers Enable instead of Disable, "Why These Hooks?" says so in its page, and
 * Enable Hook puts it back. Explanations open as rendered Markdown previews, each in its own tab.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { HookConfigService } from '../../src/vscode/config/hookConfigService';
import { hookSwitchId } from '../../src/hooks/config/hookSwitches';
import type { HookRunRecord } from '../../src/hooks/hookRunTypes';
import type { HookRunsNode, HookRunsTreeProvider } from '../../src/vscode/tree/hookRunsTreeProvider';
import { record as fixtureRecord } from '../support/hookRunFixtures';
import { workspaceRoot } from './configSupport';
import { retry, until } from './hostWait';

const EXTENSION_ID = 'hookwise.hookwise';
/** The fixture hook's switch id: by identity (file, event, matcher, handler), not position; set once it is loaded. */
let HOOK_ID = '';

interface HookwiseApi {
  readonly hookConfig: HookConfigService;
  readonly hookRuns: HookRunsTreeProvider;
}

/** The open tabs that show a rendered Markdown preview, by label. */
function previewTabs(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('markdown.preview'))
    .map((t) => t.label);
}

/** The run rows of the Hook Runs tree, depth first. */
function runNodes(provider: HookRunsTreeProvider, node?: HookRunsNode): HookRunsNode[] {
  return provider.getChildren(node).flatMap((child) => (child.kind === 'run' ? [child] : runNodes(provider, child)));
}

suite('Hook workbench', () => {
  let api: HookwiseApi;
  suiteSetup(async function () {
    // Results open as Markdown previews: the Markdown extension starts on the first one, slowly on a busy machine; start it here.
    this.timeout(60_000);
    await vscode.extensions.getExtension('vscode.markdown-language-features')?.activate();
    api = await vscode.extensions.getExtension<HookwiseApi>(EXTENSION_ID)!.activate();
    // Other suites edit .vscode/settings.json on disk and in editors: settle that first.
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    // A settings file another suite deleted under its open editor stays dirty after revert: saving settles it.
    await vscode.workspace.saveAll(false);
    await vscode.commands.executeCommand('workbench.action.files.saveAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await new Promise((r) => setTimeout(r, 500));
    await until('the first hook configuration', () => api.hookConfig.current !== undefined);
  });
  suiteTeardown(async () => {
    await Promise.resolve(vscode.workspace.getConfiguration().update('hookwise.hooks.disabled', undefined, vscode.ConfigurationTarget.Workspace)).catch(
      () => undefined,
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Disable Hook switches a hook off in settings, Why These Hooks? says so, Enable Hook turns it back on', async () => {
    const claudeFile = path.join(workspaceRoot(), '.claude', 'settings.json');
    const before = readFileSync(claudeFile, 'utf8');
    const hook = api.hookConfig.current!.config.hooks.find((h) => h.source.kind === 'file' && h.source.jsonPath === 'hooks.PreToolUse[0].hooks[0]');
    assert.ok(hook, 'the fixture hook is loaded');
    HOOK_ID = hookSwitchId(hook);
    assert.match(HOOK_ID, /^\.claude\/settings\.json › PreToolUse › Bash › command:.* #[0-9a-f]{8}$/);
    const record = {
      event: 'PreToolUse',
      matchValue: 'Bash',
      source: hook.source,
      input: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } },
    };
    const runNode = { kind: 'run', record };
    // A run of this hook in the extension's own Hook Runs tree: its row offers Disable while the hook is on.
    const runId = `workbench-it-${Date.now()}`;
    api.hookRuns.onHookFinished(
      fixtureRecord({ runId, occurrenceId: runId, sessionId: runId, source: hook.source, status: 'ok', durationMs: 5 }) as HookRunRecord,
    );
    const liveRun = (): HookRunsNode => {
      const found = runNodes(api.hookRuns).find((n) => n.kind === 'run' && n.record.runId === runId);
      assert.ok(found, 'the run is in Hook Runs');
      return found;
    };
    assert.equal(api.hookRuns.getTreeItem(liveRun()).contextValue, 'hookRun.enabled');

    // A write can race another suite's edit of the same settings file ("the file is newer"): the command reports it; try again.
    await retry(
      () => vscode.commands.executeCommand('hookwise.hooks.disableHook', runNode),
      () => (vscode.workspace.getConfiguration().get<string[]>('hookwise.hooks.disabled') ?? []).includes(HOOK_ID),
    );
    assert.deepEqual(vscode.workspace.getConfiguration().get('hookwise.hooks.disabled'), [HOOK_ID]);
    await until('the reload with the hook switched off', () => api.hookConfig.current?.config.disabledHookIds?.has(HOOK_ID) === true);
    assert.equal(readFileSync(claudeFile, 'utf8'), before, "Claude Code's file is never edited");
    assert.ok(!api.hookConfig.current!.applied.active.some((h) => h.source === hook.source || JSON.stringify(h.source) === JSON.stringify(hook.source)));

    // The Hook Runs row of a run of this hook now offers Enable, not Disable (package.json's menu reads the row's context value).
    await until('the run row to offer Enable', () => api.hookRuns.getTreeItem(liveRun()).contextValue === 'hookRun.disabled');

    const uri = await vscode.commands.executeCommand<vscode.Uri>('hookwise.hooks.whyTheseHooks', { kind: 'occurrence', first: record });
    assert.equal(uri?.scheme, 'hookwise-explain');
    await until('the rendered explanation', () => previewTabs().some((l) => l.includes('Why these hooks - PreToolUse')));
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    assert.match(text, /\*\*skipped\*\* — `echo .*permissionDecision.*`/);
    assert.match(text, /disabled by hookwise\.hooks\.disabled/);

    await retry(
      () => vscode.commands.executeCommand('hookwise.hooks.enableHook', runNode),
      () => !(vscode.workspace.getConfiguration().get<string[]>('hookwise.hooks.disabled') ?? []).includes(HOOK_ID),
    );
    assert.deepEqual(vscode.workspace.getConfiguration().get('hookwise.hooks.disabled'), []);
    await until('the reload with the hook on again', () => api.hookConfig.current?.config.disabledHookIds === undefined);
    await until('the run row to offer Disable again', () => api.hookRuns.getTreeItem(liveRun()).contextValue === 'hookRun.enabled');
  });

  test('each explanation opens rendered in a tab of its own: a second one does not replace the first', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const first = { event: 'PreToolUse', matchValue: 'Bash', input: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } } };
    const second = { event: 'PostToolUse', matchValue: 'Read', input: { hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: 'a' } } };
    const a = await vscode.commands.executeCommand<vscode.Uri>('hookwise.hooks.whyTheseHooks', { kind: 'occurrence', first });
    await until('the first explanation tab', () => previewTabs().some((l) => l.includes('Why these hooks - PreToolUse')));
    const b = await vscode.commands.executeCommand<vscode.Uri>('hookwise.hooks.whyTheseHooks', { kind: 'occurrence', first: second });
    await until('the second explanation tab', () => previewTabs().some((l) => l.includes('Why these hooks - PostToolUse')));
    // A third, for the same event as the first: a tab of its own too.
    const c = await vscode.commands.executeCommand<vscode.Uri>('hookwise.hooks.whyTheseHooks', { kind: 'occurrence', first });
    await until('three explanation tabs', () => previewTabs().filter((l) => l.includes('Why these hooks')).length === 3);
    assert.deepEqual(
      previewTabs()
        .filter((l) => l.includes('Why these hooks'))
        .sort(),
      ['[Preview] Why these hooks - PostToolUse.md', '[Preview] Why these hooks - PreToolUse.md', '[Preview] Why these hooks - PreToolUse.md'],
    );
    assert.equal(new Set([a, b, c].map((u) => u.toString())).size, 3, 'each explanation is its own page');
    assert.match((await vscode.workspace.openTextDocument(b)).getText(), /^# Why these hooks\? PostToolUse \(Read\)/);
    assert.ok(
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).every((t) => !(t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'hookwise-explain')),
      'shown rendered, not as Markdown source',
    );
  });
});
