/**
 * In the real extension host: the agent's built-in providers switch like hooks. Disable Hook on
 * a run of the built-in compaction (memory, task reminders) writes its name to the user's `hookwise.hooks.disabled`, the
 * next configuration uninstalls it from a real runtime, and Enable brings it back. The built-in
 * limits refuse the switch: nothing is written and they keep running.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { HookwiseRuntime } from '../../src/runtime/hookwiseRuntime';
import type { ModelClient } from '../../src/model/modelClient';
import type { HookConfigChange } from '../../src/vscode/config/hookConfigService';
import { setSwitch } from '../../src/vscode/workbench/hookWorkbench';
import { createHarness, workspaceRoot, type ServiceHarness } from './configSupport';
import { until } from './hostWait';

const NO_MODEL: ModelClient = {
  label: 'no model',
  // eslint-disable-next-line require-yield
  async *stream() {
    throw new Error('no model in this test');
  },
};
const SETTING = 'hookwise.hooks.disabled';
const COMPACTION = { kind: 'code', label: 'built-in compaction' } as const;
const LIMITS = { kind: 'code', label: 'built-in limits' } as const;

suite('Built-in providers switch off and on like hooks', () => {
  let harness: ServiceHarness | undefined;
  let temp = '';
  const userValue = (): unknown => vscode.workspace.getConfiguration().inspect(SETTING)?.globalValue;

  setup(() => {
    temp = mkdtempSync(path.join(os.tmpdir(), 'hookwise-builtin-switch-'));
    harness = createHarness({ trusted: true, approve: () => 'allow' });
  });

  teardown(async () => {
    harness?.dispose();
    harness = undefined;
    await Promise.resolve(vscode.workspace.getConfiguration().update(SETTING, undefined, vscode.ConfigurationTarget.Global)).catch(() => undefined);
    rmSync(temp, { recursive: true, force: true });
  });

  /** What a runtime holding `change` has switched off. */
  async function offIn(change: HookConfigChange | undefined): Promise<string[]> {
    assert.ok(change, 'a configuration loaded');
    const runtime = new HookwiseRuntime({ projectDir: workspaceRoot(), homeDir: harness!.home, model: NO_MODEL, transcriptDir: temp });
    try {
      runtime.applyConfig(change.config, { trusted: true, isApproved: () => true });
      return runtime.builtins.off;
    } finally {
      await runtime.dispose();
    }
  }

  test('Disable Hook on the built-in compaction switches it off in the user settings; Enable Hook brings it back', async () => {
    assert.equal(await setSwitch(COMPACTION, true), true);
    await until('the switch in the user settings', () => JSON.stringify(userValue()) === JSON.stringify(['built-in compaction']));
    assert.deepEqual(await offIn(await harness!.service.reload()), ['built-in compaction']);

    assert.equal(await setSwitch(COMPACTION, false), true);
    await until('the switch gone from the user settings', () => !Array.isArray(userValue()) || (userValue() as unknown[]).length === 0);
    assert.deepEqual(await offIn(await harness!.service.reload()), []);
  });

  test('Disable Hook on the built-in memory and on the built-in task reminders switches each off; Enable Hook brings them back', async () => {
    for (const label of ['built-in memory', 'built-in task reminders']) {
      const source = { kind: 'code', label } as const;
      assert.equal(await setSwitch(source, true), true);
      await until(`the ${label} switch in the user settings`, () => JSON.stringify(userValue()) === JSON.stringify([label]));
      assert.deepEqual(await offIn(await harness!.service.reload()), [label]);

      assert.equal(await setSwitch(source, false), true);
      await until(`the ${label} switch gone from the user settings`, () => !Array.isArray(userValue()) || (userValue() as unknown[]).length === 0);
      assert.deepEqual(await offIn(await harness!.service.reload()), []);
    }
  });

  test('Disable Hook on a built-in limit is refused: nothing is written and the limits keep running', async () => {
    assert.equal(await setSwitch(LIMITS, true), false);
    assert.equal(userValue(), undefined);
    assert.deepEqual(await offIn(await harness!.service.reload()), []);
  });
});
