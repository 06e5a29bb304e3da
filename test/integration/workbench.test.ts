/**
 * The hook workbench in the real extension host: Disable Hook writes `hookwise.hooks.disabled`
 * (never the `.claude` file), the extension reloads with the hook switched off, "Why These
 * Hooks?" says so in its document, and Enable Hook puts it back.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { HookConfigService } from '../../src/vscode/config/hookConfigService';
import { hookSwitchId } from '../../src/hooks/config/hookSwitches';
import { workspaceRoot } from './configSupport';
import { retry, until } from './hostWait';

const EXTENSION_ID = 'hookwise.hookwise';
/** The fixture hook's switch id: by identity (file, event, matcher, handler), not position; set once it is loaded. */
let HOOK_ID = '';

interface HookwiseApi {
  readonly hookConfig: HookConfigService;
}

suite('Hook workbench', () => {
  let api: HookwiseApi;
  suiteSetup(async () => {
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

    // A write can race another suite's edit of the same settings file ("the file is newer"): the command reports it; try again.
    await retry(
      () => vscode.commands.executeCommand('hookwise.hooks.disableHook', runNode),
      () => (vscode.workspace.getConfiguration().get<string[]>('hookwise.hooks.disabled') ?? []).includes(HOOK_ID),
    );
    assert.deepEqual(vscode.workspace.getConfiguration().get('hookwise.hooks.disabled'), [HOOK_ID]);
    await until('the reload with the hook switched off', () => api.hookConfig.current?.config.disabledHookIds?.has(HOOK_ID) === true);
    assert.equal(readFileSync(claudeFile, 'utf8'), before, "Claude Code's file is never edited");
    assert.ok(!api.hookConfig.current!.applied.active.some((h) => h.source === hook.source || JSON.stringify(h.source) === JSON.stringify(hook.source)));

    await vscode.commands.executeCommand('hookwise.hooks.whyTheseHooks', { kind: 'occurrence', first: record });
    await until('the explanation document', () => vscode.window.activeTextEditor?.document.uri.scheme === 'hookwise-explain');
    const text = vscode.window.activeTextEditor!.document.getText();
    assert.match(text, /\*\*skipped\*\* — `echo .*permissionDecision.*`/);
    assert.match(text, /disabled by hookwise\.hooks\.disabled/);

    await retry(
      () => vscode.commands.executeCommand('hookwise.hooks.enableHook', runNode),
      () => !(vscode.workspace.getConfiguration().get<string[]>('hookwise.hooks.disabled') ?? []).includes(HOOK_ID),
    );
    assert.deepEqual(vscode.workspace.getConfiguration().get('hookwise.hooks.disabled'), []);
    await until('the reload with the hook on again', () => api.hookConfig.current?.config.disabledHookIds === undefined);
  });
});
