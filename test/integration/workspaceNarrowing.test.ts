/**
 * In the real extension host: in a trusted workspace, a workspace
 * `hookwise.hooks.sources`, `hookwise.hooks.enabled: false` or `hookwise.hooks.disabled` cannot
 * silence a user-level hook. The user's `~/.claude/settings.json` hook that denies `rm -rf` still
 * denies through the real runner, and the ignored value is a warning. Disable Hook on a user hook
 * writes the switch to user settings, not the workspace.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { HookwiseRuntime } from '../../src/runtime/hookwiseRuntime';
import type { ModelClient } from '../../src/model/modelClient';
import type { HookConfigChange } from '../../src/vscode/config/hookConfigService';
import { setSwitch } from '../../src/vscode/workbench/hookWorkbench';
import { hookSwitchId } from '../../src/hooks/config/hookSwitches';
import { createHarness, workspaceRoot, type ServiceHarness } from './configSupport';
import { bashHookInput, until } from './hostWait';

const NO_MODEL: ModelClient = {
  label: 'no model',
  // eslint-disable-next-line require-yield
  async *stream() {
    throw new Error('no model in this test');
  },
};

const USER_HOOK_ID = '~/.claude/settings.json › hooks.PreToolUse[0].hooks[0]';
const KEYS = ['hookwise.hooks.sources', 'hookwise.hooks.enabled', 'hookwise.hooks.disabled'] as const;

/** Writes `value` to the workspace settings and waits until the extension host reads it back. */
async function setWorkspace(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Workspace);
  await until(
    `${key} in the workspace settings`,
    () => JSON.stringify(vscode.workspace.getConfiguration().inspect(key)?.workspaceValue) === JSON.stringify(value),
  );
}

suite('Workspace settings narrow, never loosen', () => {
  let harness: ServiceHarness | undefined;
  let temp = '';

  setup(() => {
    temp = mkdtempSync(path.join(os.tmpdir(), 'hookwise-narrow-'));
    harness = createHarness({ trusted: true, approve: () => 'allow' });
    mkdirSync(path.join(harness.home, '.claude'), { recursive: true });
    writeFileSync(
      path.join(harness.home, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat >/dev/null; echo "user policy: no rm" >&2; exit 2' }] }] },
      }),
    );
  });

  teardown(async () => {
    harness?.dispose();
    harness = undefined;
    const config = vscode.workspace.getConfiguration();
    for (const key of KEYS) await Promise.resolve(config.update(key, undefined, vscode.ConfigurationTarget.Workspace)).catch(() => undefined);
    await Promise.resolve(config.update('hookwise.hooks.disabled', undefined, vscode.ConfigurationTarget.Global)).catch(() => undefined);
    rmSync(temp, { recursive: true, force: true });
  });

  /** Runs a Bash `rm -rf` PreToolUse through a real runtime holding `change` (trusted, approved), as the extension's would. */
  async function decide(change: HookConfigChange | undefined): Promise<{ decision?: string; reason?: string }> {
    assert.ok(change, 'a configuration loaded');
    const runtime = new HookwiseRuntime({ projectDir: workspaceRoot(), homeDir: harness!.home, model: NO_MODEL, transcriptDir: temp });
    try {
      runtime.applyConfig(change.config, { trusted: true, isApproved: () => true });
      const result = await runtime.runner.run('PreToolUse', bashHookInput('it-narrow', 'rm -rf build', 'toolu_narrow'), { cwd: workspaceRoot() });
      return { ...(result.decision !== undefined ? { decision: result.decision } : {}), ...(result.reason !== undefined ? { reason: result.reason } : {}) };
    } finally {
      await runtime.dispose();
    }
  }

  const warned = (change: HookConfigChange | undefined, jsonPath: string): boolean =>
    (change?.config.diagnostics ?? []).some((d) => d.code === 'cannotLoosen' && d.displayFile === 'workspace settings' && d.jsonPath === jsonPath);

  test('workspace hookwise.hooks.sources without the user sources: the ~/.claude hook still denies', async () => {
    await setWorkspace('hookwise.hooks.sources', ['project', 'local', 'workspace', 'agents', 'plugins']);
    const change = await harness!.service.reload();
    const verdict = await decide(change);
    assert.equal(verdict.decision, 'deny', `the user's hook must still deny: ${JSON.stringify(verdict)}`);
    assert.match(verdict.reason ?? '', /user policy: no rm/);
    assert.ok(warned(change, 'hookwise.hooks.sources'), 'the ignored part of the workspace value is a warning');
  });

  test('workspace hookwise.hooks.enabled: false turns off the project hook only; the user hook still denies', async () => {
    await setWorkspace('hookwise.hooks.enabled', false);
    const change = await harness!.service.reload();
    const verdict = await decide(change);
    assert.equal(verdict.decision, 'deny', `the user's hook must still deny: ${JSON.stringify(verdict)}`);
    assert.equal(change?.config.disabled, false);
    assert.deepEqual(change?.config.projectHooksOffBy, ['workspace settings (hookwise.hooks.enabled)']);
    assert.ok(!change?.config.hooks.some((h) => h.source.kind === 'file' && h.source.scope === 'project'), "the project's fixture hook is off");
    assert.ok(warned(change, 'hookwise.hooks.enabled'));
  });

  test('workspace hookwise.hooks.disabled naming the user hook is ignored: it still denies', async () => {
    await setWorkspace('hookwise.hooks.disabled', [USER_HOOK_ID]);
    const change = await harness!.service.reload();
    const verdict = await decide(change);
    assert.equal(verdict.decision, 'deny', `the user's hook must still deny: ${JSON.stringify(verdict)}`);
    assert.equal(change?.config.disabledHookIds?.has(USER_HOOK_ID) ?? false, false);
    assert.ok(warned(change, 'hookwise.hooks.disabled[0]'));
  });

  test('Disable Hook on a user hook writes the switch to user settings, where it applies', async () => {
    const first = await harness!.service.reload();
    const hook = first?.config.hooks.find((h) => h.source.kind === 'file' && h.source.scope === 'user');
    assert.ok(hook, 'the user hook is loaded');
    const id = hookSwitchId(hook);
    assert.equal(await setSwitch(hook.source, true), true);
    await until('the switch in user settings', () => {
      const inspected = vscode.workspace.getConfiguration().inspect<string[]>('hookwise.hooks.disabled');
      return inspected?.globalValue?.includes(id) === true;
    });
    assert.equal(vscode.workspace.getConfiguration().inspect<string[]>('hookwise.hooks.disabled')?.workspaceValue?.includes(id) ?? false, false);
    const change = await harness!.service.reload();
    assert.equal(change?.config.disabledHookIds?.has(id), true, "the user's own switch applies");
    assert.equal((await decide(change)).decision === 'deny', false, 'the user switched their hook off');
    assert.equal(await setSwitch(hook.source, false), true);
    await until(
      'the switch removed',
      () => !(vscode.workspace.getConfiguration().inspect<string[]>('hookwise.hooks.disabled')?.globalValue ?? []).includes(id),
    );
  });
});
