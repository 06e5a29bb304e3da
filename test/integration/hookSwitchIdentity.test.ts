/**
 * In the real extension host: a switch in `hookwise.hooks.disabled` follows its
 * hook, not its position. Disable Hook on the "ask before risky" hook, then a hook inserted at the
 * top of `.claude/settings.json`: the `rm -rf` guard still blocks through the real runner and the
 * disabled hook stays disabled. An old position id is rewritten to the hook's identity id on load,
 * and a switch whose hook changed says so (warning in Problems, in Explain).
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { HookwiseRuntime } from '../../src/runtime/hookwiseRuntime';
import { configWarnings } from '../../src/hooks/config/configNotices';
import { handlerBody } from '../../src/hooks/config/hookConfigSchema';
import { hookSwitchId, isSwitchedOff } from '../../src/hooks/config/hookSwitches';
import type { LoadedHook } from '../../src/hooks/config/loadedHook';
import { explainHooks } from '../../src/hooks/explain/explainHooks';
import { renderExplanation } from '../../src/hooks/explain/explainReport';
import type { ModelClient } from '../../src/model/modelClient';
import type { HookConfigChange } from '../../src/vscode/config/hookConfigService';
import { setSwitch } from '../../src/vscode/workbench/hookWorkbench';
import { showConfigWarnings } from '../../src/vscode/config/brokenConfigNotice';
import { createHarness, workspaceRoot, type ServiceHarness } from './configSupport';
import { bashHookInput, until } from './hostWait';

const NO_MODEL: ModelClient = {
  label: 'no model',
  // eslint-disable-next-line require-yield
  async *stream() {
    throw new Error('no model in this test');
  },
};

const GUARD = `grep -q 'rm -rf' && { echo 'rm -rf guard: blocked' >&2; exit 2; }; exit 0`;
const ASK = `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"ask-before-risky"}}'`;
const LOGGER = 'cat >/dev/null; exit 0';
const bash = (command: string): Record<string, unknown> => ({ matcher: 'Bash', hooks: [{ type: 'command', command }] });
const SETTING = 'hookwise.hooks.disabled';

suite('A switch follows its hook, not its position', () => {
  let harness: ServiceHarness | undefined;
  let temp = '';
  const file = (): string => path.join(workspaceRoot(), '.claude', 'settings.json');
  let original: string | undefined;

  const writeProject = (groups: readonly Record<string, unknown>[]): void =>
    writeFileSync(file(), `${JSON.stringify({ hooks: { PreToolUse: groups } }, null, 2)}\n`);
  const workspaceValue = (): unknown => vscode.workspace.getConfiguration().inspect(SETTING)?.workspaceValue;
  const hookWith = (change: HookConfigChange | undefined, command: string): LoadedHook => {
    const hook = change?.config.hooks.find((h) => handlerBody(h.handler) === command);
    assert.ok(hook, `loaded: ${command}`);
    return hook;
  };

  setup(() => {
    original = existsSync(file()) ? readFileSync(file(), 'utf8') : undefined;
    temp = mkdtempSync(path.join(os.tmpdir(), 'hookwise-switch-'));
    harness = createHarness({ trusted: true, approve: () => 'allow' });
  });

  teardown(async () => {
    harness?.dispose();
    harness = undefined;
    await Promise.resolve(vscode.workspace.getConfiguration().update(SETTING, undefined, vscode.ConfigurationTarget.Workspace)).catch(() => undefined);
    if (original !== undefined) writeFileSync(file(), original);
    rmSync(temp, { recursive: true, force: true });
  });

  /** A Bash PreToolUse through a real runtime holding `change` (trusted, approved), as the extension's would run it. */
  async function decide(change: HookConfigChange | undefined, command: string): Promise<{ decision?: string; reason?: string }> {
    assert.ok(change, 'a configuration loaded');
    const runtime = new HookwiseRuntime({ projectDir: workspaceRoot(), homeDir: harness!.home, model: NO_MODEL, transcriptDir: temp });
    try {
      runtime.applyConfig(change.config, { trusted: true, isApproved: () => true });
      const result = await runtime.runner.run('PreToolUse', bashHookInput('it-switch', command, 'toolu_switch'), { cwd: workspaceRoot() });
      return { ...(result.decision !== undefined ? { decision: result.decision } : {}), ...(result.reason !== undefined ? { reason: result.reason } : {}) };
    } finally {
      await runtime.dispose();
    }
  }

  /** After the insert: the guard still blocks `rm -rf build`, the ask hook is still off (and only it). */
  async function assertStillRight(change: HookConfigChange | undefined): Promise<void> {
    const disabled = change?.config.disabledHookIds ?? new Set<string>();
    assert.equal(isSwitchedOff(hookWith(change, GUARD), disabled), false, 'the rm -rf guard is not the disabled one');
    assert.equal(isSwitchedOff(hookWith(change, LOGGER), disabled), false, 'the inserted hook is not disabled');
    assert.equal(isSwitchedOff(hookWith(change, ASK), disabled), true, 'the disabled hook stays disabled');
    const rm = await decide(change, 'rm -rf build');
    assert.equal(rm.decision, 'deny', `rm -rf build must still be blocked: ${JSON.stringify(rm)}`);
    assert.match(rm.reason ?? '', /rm -rf guard: blocked/);
    assert.notEqual((await decide(change, 'ls -la')).decision, 'ask', 'the ask-before-risky hook stays off');
    const rows = explainHooks(change!.config, {
      event: 'PreToolUse',
      input: bashHookInput('it-switch', 'rm -rf build', 't'),
      cwd: workspaceRoot(),
      trust: { trusted: true },
    });
    const row = (command: string) => rows.find((r) => r.command === command);
    assert.equal(row(GUARD)?.outcome, 'would run', 'Explain: the guard runs');
    assert.match(row(ASK)?.reason ?? '', /disabled by hookwise\.hooks\.disabled/, 'Explain: the ask hook is the disabled one');
  }

  test('Disable Hook, then a hook inserted at the top: the rm -rf guard still blocks, the disabled hook stays disabled', async () => {
    writeProject([bash(GUARD), bash(ASK)]);
    const first = await harness!.service.reload();
    const ask = hookWith(first, ASK);
    assert.equal(await setSwitch(ask.source, true), true);
    await until('the switch in the workspace settings', () => Array.isArray(workspaceValue()) && (workspaceValue() as unknown[]).length === 1);
    const stored = (workspaceValue() as string[])[0] ?? '';
    assert.doesNotMatch(stored, /hooks\.PreToolUse\[\d+\]/, `the switch names the hook, not its position: ${stored}`);
    assert.match(stored, /^\.claude\/settings\.json › PreToolUse › Bash › command:.* #[0-9a-f]{8}$/);

    writeProject([bash(LOGGER), bash(GUARD), bash(ASK)]);
    await assertStillRight(await harness!.service.reload());
  });

  test('an old position id is rewritten to the hook it names on load, and stays with that hook after an insert', async () => {
    writeProject([bash(GUARD), bash(ASK)]);
    const position = '.claude/settings.json › hooks.PreToolUse[1].hooks[0]';
    await vscode.workspace.getConfiguration().update(SETTING, [position], vscode.ConfigurationTarget.Workspace);
    const first = await harness!.service.reload();
    const identity = hookSwitchId(hookWith(first, ASK));
    assert.deepEqual(first?.config.switchMigrations, [{ layer: 'workspace', from: position, to: identity }]);
    await until('the position id rewritten in the workspace settings', () => JSON.stringify(workspaceValue()) === JSON.stringify([identity]));

    writeProject([bash(LOGGER), bash(GUARD), bash(ASK)]);
    await assertStillRight(await harness!.service.reload());
  });

  test('a switch whose hook changed names no hook: a warning in Problems and in Explain, and no other hook is switched off', async () => {
    writeProject([bash(GUARD), bash(ASK)]);
    const first = await harness!.service.reload();
    const id = hookSwitchId(hookWith(first, ASK));
    await vscode.workspace.getConfiguration().update(SETTING, [id], vscode.ConfigurationTarget.Workspace);
    const changedAsk = ASK.replace('ask-before-risky', 'ask-before-risky (v2)');
    // The message on top of Hook Runs (the extension hands its tree view to the same function).
    const hookRuns: { message?: string } = {};
    const sub = showConfigWarnings(hookRuns, harness!.service.onDidChange);
    writeProject([bash(GUARD), bash(changedAsk)]);
    const change = await harness!.service.reload();
    sub.dispose();
    assert.match(hookRuns.message ?? '', /names no loaded hook: the hook under it changed or was removed/);
    assert.deepEqual(change?.config.vanishedSwitches, [{ layer: 'workspace', id, index: 0 }]);
    assert.equal(isSwitchedOff(hookWith(change, GUARD), change?.config.disabledHookIds ?? new Set()), false);
    const warning = change?.config.diagnostics.find((d) => d.code === 'switchVanished');
    assert.ok(warning, 'a warning diagnostic');
    assert.equal(warning.displayFile, 'workspace settings');
    assert.match(warning.message, /changed or was removed/);
    const settingsJson = path.join(workspaceRoot(), '.vscode', 'settings.json');
    await until('the warning in the Problems panel', () =>
      vscode.languages.getDiagnostics(vscode.Uri.file(settingsJson)).some((d) => d.message.includes('names no loaded hook')),
    );
    const text = renderExplanation('Explain', {}, [], false, configWarnings(change!.config));
    assert.match(text, /> \*\*Warning:\*\* the switch ".*" in workspace settings \(hookwise\.hooks\.disabled\) names no loaded hook/);
    assert.equal((await decide(change, 'rm -rf build')).decision, 'deny');
  });
});
