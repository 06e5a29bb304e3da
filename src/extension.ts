import * as vscode from 'vscode';
import type { AgentEvent } from './agent/agentEvents';
import type { HooksApi } from './hooks/hooksApi';
import type { ProcessGroupWatchdog } from './shared/processGroupWatchdog';
import { startProcessGroupWatchdog } from './shared/processGroupWatchdog';
import { setProcessSpawner } from './shared/processRunner';
import type { SpawnHelper } from './shared/spawnHelper';
import { startSpawnHelper } from './shared/spawnHelper';
import { AgentController } from './vscode/agentController';
import { ChatViewProvider } from './vscode/chat/chatViewProvider';
import { registerHookConfiguration } from './vscode/config/registerHookConfiguration';
import type { HookConfigService } from './vscode/config/hookConfigService';
import { ModalPermissionProvider } from './vscode/permissions/modalPermissionProvider';
import { ProposedChangeDiff } from './vscode/permissions/proposedChangeDiff';
import { AgentStatusBar } from './vscode/statusBar';
import { getApiKey, registerModelCommands } from './vscode/model/modelCommands';
import { resolveVscodeLmModelClient } from './vscode/model/vscodeLmModelClient';
import type { HookRunsTreeProvider } from './vscode/tree/hookRunsTreeProvider';
import { registerHookRunsView } from './vscode/tree/hookRunsView';

/** What `activate` returns: a small surface for integration tests and other extensions. */
export interface HookwiseApi {
  /** The in-process hooks API: `hooks.onPreToolUse(fn, { matcher, priority })` and friends. */
  readonly hooks: HooksApi;
  readonly log: vscode.LogOutputChannel;
  readonly controller: AgentController;
  readonly hookConfig: HookConfigService;
  /** The chat view's provider (benchmarks and tests: `isReady` once the webview rendered). */
  readonly chat: ChatViewProvider;
  /** The Hook Runs tree's provider (benchmarks and tests read its nodes and refreshes). */
  readonly hookRuns: HookRunsTreeProvider;
  /** Wall time of `activate()` itself, in ms (module loading not included). */
  readonly activationMs: number;
}

/** Wires the services and registers views and commands. Holds no logic of its own. */
export function activate(context: vscode.ExtensionContext): HookwiseApi {
  const activationStarted = performance.now();
  const log = vscode.window.createOutputChannel('Hookwise', { log: true });
  context.subscriptions.push(log);

  const chat = new ChatViewProvider(context.extensionUri, log);
  context.subscriptions.push(
    chat,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chat, { webviewOptions: { retainContextWhenHidden: true } }),
  );

  // The tree's rerun goes through the controller, created a few lines below (called only later).
  const runs = registerHookRunsView({ log, rerun: (record) => controller.rerunHook(record) });
  context.subscriptions.push(runs.disposable);

  const status = new AgentStatusBar();
  const permissions = new ModalPermissionProvider({ log, onWaitingChanged: (waiting) => status.setWaitingForApproval(waiting) });
  context.subscriptions.push(status, ProposedChangeDiff.register());

  const onAgentEvent = (event: AgentEvent): void => {
    chat.postAgentEvent(event);
    status.observeAgentEvent(event);
    runs.provider.observeAgentEvent(event);
  };
  // Prompts wait for the first hook configuration, so no prompt ever runs without its hooks.
  let markConfigReady: () => void = () => undefined;
  const configReady = new Promise<void>((resolve) => (markConfigReady = resolve));
  const controller = new AgentController({
    configReady,
    context,
    log,
    permissionProvider: permissions,
    observers: [runs.provider, status],
    onAgentEvent,
    onBusyChanged: (busy) => chat.setBusy(busy),
    onModelChanged: (label) => chat.setModelLabel(label),
    apiKey: () => getApiKey(context),
    createLm: resolveVscodeLmModelClient,
  });
  registerModelCommands(context, { log });
  // vscode-lm models come and go as extensions load or sign in.
  context.subscriptions.push(vscode.lm.onDidChangeChatModels(() => void controller.reloadModel()));
  context.subscriptions.push(controller);
  // Hook and Bash process groups die with this extension host even when it is killed without
  // running its exit hook (a crash, a force-quit window). Started after activation returns.
  let watchdog: ProcessGroupWatchdog | undefined;
  // Shells are forked by a small helper process: forking this big host blocks its thread ~3× longer
  // (bench/host measures both). HOOKWISE_SPAWN_HELPER=0 spawns directly, as does a dead helper.
  let spawnHelper: SpawnHelper | undefined;
  const watchdogTimer = setTimeout(() => {
    watchdog = startProcessGroupWatchdog();
    if (process.env.HOOKWISE_SPAWN_HELPER !== '0') spawnHelper = startSpawnHelper();
    if (spawnHelper) setProcessSpawner(spawnHelper.spawner);
  }, 0);
  context.subscriptions.push({
    dispose: () => {
      clearTimeout(watchdogTimer);
      setProcessSpawner(undefined);
      spawnHelper?.close();
      watchdog?.close();
    },
  });

  const hookConfig = registerHookConfiguration(context, { log, apply: (config, trust) => controller.runtime.applyConfig(config, trust) });
  // Agent files are watched with the hook configuration: their definitions reload with their hooks, for the next session.
  const loadAgents = async (): Promise<void> => {
    for (const p of await controller.sessions.loadAgents()) log.warn(`agent file ${p.file} ignored: ${p.message}`);
  };
  void loadAgents();
  context.subscriptions.push(hookConfig.onDidChange(() => (markConfigReady(), void loadAgents())));
  if (hookConfig.current) markConfigReady();

  const offerSetup = async (): Promise<void> => {
    const pick = await chat.showNotice(controller.model.configurationProblem, [
      { id: 'playground', label: 'Use Playground' },
      { id: 'configure', label: 'Configure Model' },
      { id: 'apiKey', label: 'Set API Key' },
    ]);
    if (pick === 'playground') {
      await vscode.workspace.getConfiguration('hookwise.model').update('provider', 'playground', vscode.ConfigurationTarget.Global);
      await controller.reloadModel();
      chat.clearNotice();
    } else if (pick === 'configure') await vscode.commands.executeCommand('hookwise.selectModel');
    else if (pick === 'apiKey') await vscode.commands.executeCommand('hookwise.setApiKey');
  };

  context.subscriptions.push(
    chat.onDidSubmit(async (prompt) => {
      if (!(await controller.submit(prompt))) await offerSetup();
    }),
    chat.onDidStop(() => controller.stop()),
    chat.onDidRequestNewChat(async () => {
      await controller.newSession();
      chat.resetSession();
    }),
    chat.onDidRequestHistory(() => chat.showHistory(controller.listSessions())),
    chat.onDidResumeSession(async (id) => {
      chat.resetSession();
      await controller.resume(id, (event) => (event.type === 'userPrompt' ? chat.addUserPrompt(event.text) : chat.postAgentEvent(event)));
    }),
    chat.onDidRequestSetup(() => offerSetup()),
    vscode.commands.registerCommand('hookwise.openChat', () => chat.reveal()),
    vscode.commands.registerCommand('hookwise.stop', () => controller.stop()),
    vscode.commands.registerCommand('hookwise.newChat', async () => {
      await controller.newSession();
      chat.resetSession();
    }),
    vscode.commands.registerCommand('hookwise.compact', async () => void vscode.window.showInformationMessage(await controller.compact())),
  );

  log.info(`Hookwise ${context.extension.packageJSON.version as string} activated in ${vscode.env.appName} ${vscode.version}`);
  return { hooks: controller.runtime.hooks, log, controller, hookConfig, chat, hookRuns: runs.provider, activationMs: performance.now() - activationStarted };
}

/** Everything is owned by `context.subscriptions`; nothing else to release. */
export function deactivate(): void {}
