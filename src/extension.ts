import * as vscode from 'vscode';
import type { HooksApi } from './hooks/hooksApi';
import type { AgentController } from './vscode/agentController';
import { createAgentController } from './vscode/agentWiring';
import { VscodeTelemetry } from './vscode/telemetrySettings';
import { ChatController, registerChatView } from './vscode/chat/chatController';
import type { ChatViewProvider } from './vscode/chat/chatViewProvider';
import { EditReview } from './vscode/chat/editReview';
import type { HookConfigService } from './vscode/config/hookConfigService';
import { AgentStatusBar } from './vscode/statusBar';
import { registerModelCommands } from './vscode/model/modelCommands';
import type { HookRunsTreeProvider } from './vscode/tree/hookRunsTreeProvider';
import type { HookLens } from './vscode/workbench/hookLens';
import type { HookRunHistory } from './vscode/history/hookRunHistory';
import type { HookTestController } from './vscode/hookTests/hookTestController';
import type { HookwiseExtensionApi } from './vscode/extensionApi';
import { startProcessSupervision } from './vscode/processSupervision';
import { PromptReadiness } from './vscode/promptReadiness';
import { registerHookRunViews } from './vscode/registerHookRunViews';
import { registerMcp } from './vscode/registerMcp';
import { registerRestartTour } from './vscode/restartTour';
import { completeTourSteps } from './vscode/tourProgress';
import { wireHookConfiguration } from './vscode/wireHookConfiguration';
import { projectHooksState, tourHeldText } from './vscode/config/projectHooksState';

/** What `activate` returns: a small surface for integration tests and other extensions. */
export interface HookwiseApi extends HookwiseExtensionApi {
  /** @deprecated Use `forExtension(context.extension)`; these hooks are labelled `extension (unknown)`. */
  readonly hooks: HooksApi;
  readonly log: vscode.LogOutputChannel;
  readonly controller: AgentController;
  readonly hookConfig: HookConfigService;
  /** The chat view's provider (benchmarks and tests: `isReady` once the webview rendered). */
  readonly chat: ChatViewProvider;
  /** The Hook Runs tree's provider (benchmarks and tests read its nodes and refreshes). */
  readonly hookRuns: HookRunsTreeProvider;
  /** The Hook Runs history kept across reloads (restore, export). */
  readonly history: HookRunHistory;
  /** The Test Explorer controller of `.hookwise/hook-tests`. */
  readonly hookTests: HookTestController;
  /** The OpenTelemetry export (`apply()` settles once the current settings are in effect). */
  readonly telemetry: VscodeTelemetry;
  /** CodeLens, hover and links on hooks in settings files, with per-hook run stats. */
  readonly hookLens: HookLens;
  /** Wall time of `activate()` itself, in ms (module loading not included). */
  readonly activationMs: number;
}

/** Wires the services and registers views and commands. Holds no logic of its own. */
export function activate(context: vscode.ExtensionContext): HookwiseApi {
  const activationStarted = performance.now();
  const version = context.extension.packageJSON.version as string;
  const log = vscode.window.createOutputChannel('Hookwise', { log: true });
  context.subscriptions.push(log);
  const chat = registerChatView(context, log);
  // The closures below read the controller and the hook configuration, created further down; none is called before.
  const views = registerHookRunViews(context, {
    log,
    rerun: (record) => controller.rerunHook(record),
    config: () => hookConfig.current,
    model: () => controller.runtime.model,
    projectDir: () => controller.projectDir,
  });
  const status = new AgentStatusBar();
  context.subscriptions.push(status);
  // Reviewable edits read the current session's checkpoints.
  const edits = new EditReview({ chat, session: () => controller.sessions.current, log });
  context.subscriptions.push(
    edits,
    chat.onDidRequestEditReview((request) => edits.handle(request)),
  );
  const chatController = new ChatController(
    chat,
    edits,
    () => controller,
    context.storageUri?.fsPath,
    log,
    (event) => completeTourSteps(context.extension, event, log),
  );
  context.subscriptions.push(chatController);
  const readiness = new PromptReadiness();
  // OpenTelemetry export (hookwise.telemetry.* or OTEL_* variables); prompts wait for it like for the hooks.
  const telemetry = new VscodeTelemetry(log, version);
  const configReady = Promise.all([readiness.ready, telemetry.apply()]);
  const processes = startProcessSupervision();
  context.subscriptions.push(processes);
  const controller = createAgentController({
    context,
    log,
    chat: chatController,
    status,
    views,
    edits,
    telemetry,
    configReady,
    hookLauncher: processes.hookLauncher,
    // A tour script that tells what the project hooks decided plays only while they are on.
    playgroundGate: (script) => (script.requiresProjectHooks ? tourHeldText(projectHooksState(hookConfig.current, vscode.workspace.isTrusted)) : undefined),
  });
  registerModelCommands(context, { log });
  context.subscriptions.push(registerRestartTour(context, { log, restartModel: () => controller.reloadModel() }));
  const mcp = registerMcp(context, controller, log, () => readiness.mcpLoaded());
  // vscode-lm models come and go as extensions load or sign in.
  context.subscriptions.push(vscode.lm.onDidChangeChatModels(() => void controller.reloadModel()));
  context.subscriptions.push(controller);
  // The chat open before a window reload comes back (its next prompt continues that session).
  chatController.restoreOpenChat().catch((error: unknown) => log.warn(`chat: the open chat could not be reopened (${String(error)})`));
  const { hookConfig, extensionApi, hookTests } = wireHookConfiguration({ context, log, controller, mcp, chat, views, readiness });

  log.info(`Hookwise ${version} activated in ${vscode.env.appName} ${vscode.version}`);
  return {
    ...extensionApi,
    log,
    controller,
    hookConfig,
    chat,
    hookRuns: views.runs.provider,
    history: views.history,
    hookTests,
    telemetry,
    hookLens: views.lens,
    activationMs: performance.now() - activationStarted,
  };
}

/** Everything is owned by `context.subscriptions`; nothing else to release. */
export function deactivate(): void {}
