/**
 * The agent's runaway limits in the real extension host: a workspace's `.vscode/settings.json`
 * may lower `hookwise.agent.maxSteps` and `hookwise.agent.maxSubagentDepth`, never raise them
 * above the user's value (or the default when the user set none).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runtimeSettingsFromVscode } from '../../src/vscode/agentSettings';
import { CachedLimits } from '../../src/vscode/narrowedSetting';
import { until } from './hostWait';

const KEYS = ['hookwise.agent.maxSteps', 'hookwise.agent.maxSubagentDepth'] as const;

async function set(key: string, value: unknown, target: vscode.ConfigurationTarget): Promise<void> {
  await vscode.workspace.getConfiguration().update(key, value, target);
  const layer = target === vscode.ConfigurationTarget.Global ? 'globalValue' : 'workspaceValue';
  await until(`${key} ${layer} = ${String(value)}`, () => vscode.workspace.getConfiguration().inspect(key)?.[layer] === value);
}

suite('Workspace settings lower the agent limits, never raise them', () => {
  teardown(async () => {
    for (const key of KEYS) for (const target of [vscode.ConfigurationTarget.Workspace, vscode.ConfigurationTarget.Global]) await set(key, undefined, target);
  });

  test("a workspace cannot lift the user's step and subagent-depth limits", async () => {
    await set('hookwise.agent.maxSteps', 7, vscode.ConfigurationTarget.Global);
    await set('hookwise.agent.maxSteps', 100_000, vscode.ConfigurationTarget.Workspace);
    await set('hookwise.agent.maxSubagentDepth', 50, vscode.ConfigurationTarget.Workspace);
    const settings = runtimeSettingsFromVscode();
    assert.equal(settings.limits?.().maxSteps, 7);
    // No user value: the default (2) is the cap.
    assert.equal(settings.maxSubagentDepth?.(), 2);
  });

  test('a workspace can lower them', async () => {
    await set('hookwise.agent.maxSteps', 3, vscode.ConfigurationTarget.Workspace);
    await set('hookwise.agent.maxSubagentDepth', 0, vscode.ConfigurationTarget.Workspace);
    const settings = runtimeSettingsFromVscode();
    assert.equal(settings.limits?.().maxSteps, 3);
    assert.equal(settings.maxSubagentDepth?.(), 0);
  });

  test('read once per configuration change (as the agent reads them): a change applies, and a workspace still cannot lift them', async () => {
    const limits = new CachedLimits();
    try {
      await set('hookwise.agent.maxSteps', 7, vscode.ConfigurationTarget.Global);
      const settings = runtimeSettingsFromVscode(limits);
      await until('maxSteps 7', () => settings.limits?.().maxSteps === 7);
      await set('hookwise.agent.maxSteps', 4, vscode.ConfigurationTarget.Global);
      await until('maxSteps 4 after the change', () => settings.limits?.().maxSteps === 4);
      await set('hookwise.agent.maxSteps', 100_000, vscode.ConfigurationTarget.Workspace);
      await set('hookwise.agent.maxSubagentDepth', 1, vscode.ConfigurationTarget.Workspace);
      await until('maxSubagentDepth 1 after the change', () => settings.maxSubagentDepth?.() === 1);
      assert.equal(settings.limits?.().maxSteps, 4);
    } finally {
      limits.dispose();
    }
  });
});
