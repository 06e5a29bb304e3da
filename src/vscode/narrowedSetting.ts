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

/** Reads a narrowed limit (see {@link narrowedLimit}). */
export interface LimitReader {
  read(key: HookwiseSettingKey, fallback: number): number;
}

/** Reads every time. */
export const freshLimits: LimitReader = { read: (key, fallback) => narrowedLimit(key, fallback) };

/**
 * {@link narrowedLimit}, read again only after a configuration change: the built-in limit hooks
 * read the step limit on every step, and each read builds VS Code configuration objects (the
 * largest Hookwise item in a profile of the extension host during a session). Any change
 * (settings files, policy) clears the values. Owned and disposed by whoever creates it.
 */
export class CachedLimits implements LimitReader, vscode.Disposable {
  private readonly values = new Map<string, number>();
  private readonly listener = vscode.workspace.onDidChangeConfiguration(() => this.values.clear());

  read(key: HookwiseSettingKey, fallback: number): number {
    const cacheKey = `${key}\0${fallback}`;
    let value = this.values.get(cacheKey);
    if (value === undefined) this.values.set(cacheKey, (value = narrowedLimit(key, fallback)));
    return value;
  }

  dispose(): void {
    this.listener.dispose();
    this.values.clear();
  }
}
