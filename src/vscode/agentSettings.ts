import { askElicitationInVscode } from './mcp/vscodeElicitation';
import * as vscode from 'vscode';
import { policyValue } from './settingPolicy';
import { freshLimits, type LimitReader } from './narrowedSetting';
import type { AgentEventListener } from '../agent/agentEvents';
import type { RuntimeOptions } from '../runtime/hookwiseRuntime';
import type { PermissionMode } from '../permissions/permissionMode';
import type { SessionSettings } from '../runtime/sessionManager';

function settings(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('hookwise');
}

/**
 * The runtime's settings: `permissions.askFallback` (what an ask nobody can answer becomes,
 * default deny, read once), and, read through `limits` on every use (which may keep them until
 * the configuration changes), `agent.maxSteps` (default 50, with the fixed token and wall-time
 * limits) and `agent.maxSubagentDepth` (default 2); a workspace may lower these two limits, never
 * raise them (narrowedLimit).
 */
export function runtimeSettingsFromVscode(
  limits: LimitReader = freshLimits,
): Pick<RuntimeOptions, 'askFallback' | 'limits' | 'maxSubagentDepth' | 'mcp' | 'hookInputMaxBytes'> {
  return {
    // Only the user's own value (a workspace must not widen what runs without asking), unless a VS Code policy sets it.
    mcp: {
      env: process.env,
      elicit: askElicitationInVscode,
      trustReadOnlyHint: () =>
        (policyValue('hookwise.mcp.trustReadOnlyHint')?.value ?? settings().inspect<boolean>('mcp.trustReadOnlyHint')?.globalValue) === true,
    },
    askFallback: settings().get<'allow' | 'deny'>('permissions.askFallback', 'deny'),
    limits: () => ({ maxSteps: limits.read('hookwise.agent.maxSteps', 50), maxTokens: 2_000_000, maxWallTimeMs: 30 * 60_000 }),
    maxSubagentDepth: () => limits.read('hookwise.agent.maxSubagentDepth', 2),
    hookInputMaxBytes: () => settings().get<number>('hooks.maxInputBytes'),
  };
}

/**
 * How a new session starts, from the settings as they are now: the permission mode, Workspace
 * Trust, the compaction budget, the model's context window and the idle notification (`notifications.idleSeconds`, 0 = off).
 */
export function sessionSettingsFromVscode(emit: AgentEventListener): SessionSettings {
  const idleSeconds = settings().get<number>('notifications.idleSeconds', 60);
  return {
    permissionMode: settings().get<PermissionMode>('permissions.mode', 'default'),
    trusted: vscode.workspace.isTrusted,
    emit,
    compactionBudgetTokens: settings().get<number>('compaction.contextBudgetTokens', 100_000),
    // 0 = the model's known window, else 200,000 (contextWindow.ts).
    contextWindowTokens: settings().get<number>('model.contextWindow', 0),
    ...(idleSeconds > 0 ? { idleNotificationMs: idleSeconds * 1000 } : {}),
  };
}
