import * as vscode from 'vscode';
import type { ProcessLauncher } from '../shared/processLauncher';
import path from 'node:path';
import type { AgentEvent } from '../agent/agentEvents';
import { AgentController } from './agentController';
import type { ChatController } from './chat/chatController';
import type { EditReview } from './chat/editReview';
import { getApiKey } from './model/modelCommands';
import type { PlaygroundGate } from './model/modelFromSettings';
import { resolveVscodeLmModelClient } from './model/vscodeLmModelClient';
import { ModalPermissionProvider } from './permissions/modalPermissionProvider';
import { ProposedChangeDiff, type ProposedChangeView } from './permissions/proposedChangeDiff';
import { registerProposedChangeReview } from './permissions/proposedChangeReview';
import type { HookRunViews } from './registerHookRunViews';
import type { AgentStatusBar } from './statusBar';
import type { VscodeTelemetry } from './telemetrySettings';
import { HOOK_RUNS_TOOL, RecentHookRuns, registerHookRunsTool } from './tools/hookRunsTool';
import { createVscodeTools, enabledPatterns } from './tools/vscodeTools';

/** The parts the agent reports to, all created before it. */
export interface AgentWiringParts {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly chat: ChatController;
  readonly status: AgentStatusBar;
  readonly views: HookRunViews;
  readonly edits: EditReview;
  readonly telemetry: VscodeTelemetry;
  /** Settles when a prompt may run (first hook and MCP configuration, telemetry applied). */
  readonly configReady: Promise<unknown>;
  /** The launcher command hooks start on (processSupervision.ts). */
  readonly hookLauncher: ProcessLauncher;
  /** Why a playground script cannot play now (a tour whose project hooks are off). */
  readonly playgroundGate?: PlaygroundGate;
}

/**
 * Creates the AgentController with its permission popup and every observer of its hook runs
 * and events (chat, status bar, tree, history, lenses, the hook runs tool for other agents).
 * Registrations go to `context.subscriptions`; the controller itself is the caller's to own.
 */
export function createAgentController(parts: AgentWiringParts): AgentController {
  const { context, log, chat, status, views, edits } = parts;
  // "Always Allow" writes the agent's project's settings.local.json (the controller, created below, knows its root);
  // never in an untrusted workspace, whose files Hookwise does not write: rules then last the session, in memory.
  const permissions = new ModalPermissionProvider({
    log,
    onWaitingChanged: (waiting) => status.setWaitingForApproval(waiting),
    // A relative Write/Edit path is the agent's: the diff shows the file under its root.
    showProposedChange: (request): Promise<ProposedChangeView | undefined> => ProposedChangeDiff.show(request, controller.projectDir),
    localSettingsFile: (): vscode.Uri | undefined =>
      vscode.workspace.isTrusted && vscode.workspace.workspaceFolders?.length
        ? vscode.Uri.file(path.join(controller.projectDir, '.claude', 'settings.local.json'))
        : undefined,
  });
  context.subscriptions.push(ProposedChangeDiff.register(), registerProposedChangeReview());
  const onAgentEvent = (event: AgentEvent): void => {
    chat.showAgentEvent(event);
    status.observeAgentEvent(event);
    views.runs.provider.observeAgentEvent(event);
    edits.observeAgentEvent(event);
  };
  // Recent hook runs for other agents in VS Code (the hookwise_hook_runs language model tool).
  const recentRuns = new RecentHookRuns();
  context.subscriptions.push(registerHookRunsTool(recentRuns));
  const controller: AgentController = new AgentController({
    hookLauncher: parts.hookLauncher,
    configReady: parts.configReady,
    telemetry: parts.telemetry,
    context,
    log,
    permissionProvider: permissions,
    observers: [views.runs.provider, status, recentRuns, views.history, views.lens, chat.hookStatus],
    onAgentEvent,
    onBusyChanged: (busy) => chat.setBusy(busy),
    onModelChanged: (label) => chat.setModelLabel(label),
    apiKey: () => getApiKey(context),
    createLm: resolveVscodeLmModelClient,
    // Opted-in VS Code tools (hookwise.vscodeTools.enabled), as vscode__<name>; never Hookwise's own tool.
    extraTools: () => createVscodeTools({ patterns: enabledPatterns(log), exclude: (tool) => tool.name === HOOK_RUNS_TOOL }),
    ...(parts.playgroundGate ? { playgroundGate: parts.playgroundGate } : {}),
  });
  return controller;
}
