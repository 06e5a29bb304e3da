import * as vscode from 'vscode';
import type { HookwiseSettingKey } from '../settings/hookwiseSettingsSchema';
import { policyValue } from './settingPolicy';

/**
 * A numeric limit a workspace may lower but never raise: the smallest of the user's value (or
 * `fallback`) and the workspace and folder values. A VS Code policy value wins outright.
 * Used for limits that stop a runaway agent (steps, subagent depth): a cloned repository's
 * `.vscode/settings.json` must not lift the user's cap. Non-numbers at any layer are ignored.
 */
export function narrowedLimit(key: HookwiseSettingKey, fallback: number, scope?: vscode.Uri): number {
  const policy = policyValue(key);
  if (policy && typeof policy.value === 'number') return policy.value;
  const inspected = vscode.workspace.getConfiguration(undefined, scope).inspect<number>(key);
  const user = isLimit(inspected?.globalValue) ? inspected.globalValue : fallback;
  const lower = [inspected?.workspaceValue, inspected?.workspaceFolderValue].filter(isLimit);
  return Math.min(user, ...lower);
}

function isLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
