import * as vscode from 'vscode';
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentEvent } from './agent/agentEvents';
import type { HooksApi } from './hooks/hooksApi';
import type { ProcessGroupWatchdog } from './shared/processGroupWatchdog';
import { startProcessGroupWatchdog } from './shared/processGroupWatchdog';
import { createLeanLauncher } from './shared/leanLauncher';
import type { SpawnHelper } from './shared/spawnHelper';
import { startSpawnHelper } from './shared/spawnHelper';
import { AgentController } from './vscode/agentController';
import { VscodeTelemetry } from './vscode/telemetrySettings';
import { ChatViewProvider } from './vscode/chat/chatViewProvider';
import { ToolHookStatus } from './vscode/chat/toolHookStatus';
import { EditReview } from './vscode/chat/editReview';
import { TerminalOutputRecorder } from './vscode/chat/terminalOutput';
import { registerHookConfiguration } from './vscode/config/registerHookConfiguration';
import type { HookConfigService } from './vscode/config/hookConfigService';
import { ModalPermissionProvider } from './vscode/permissions/modalPermissionProvider';
import { ProposedChangeDiff } from './vscode/permissions/proposedChangeDiff';
import { AgentStatusBar } from './vscode/statusBar';
import { BrokenConfigNotice, showConfigWarnings } from './vscode/config/brokenConfigNotice';
import { getApiKey, registerModelCommands } from './vscode/model/modelCommands';
import { resolveVscodeLmModelClient } from './vscode/model/vscodeLmModelClient';
import type { HookRunsTreeProvider } from './vscode/tree/hookRunsTreeProvider';
import { registerHookRunsView } from './vscode/tree/hookRunsView';
import { registerHookWorkbench } from './vscode/workbench/hookWorkbench';
import { HookLens } from './vscode/workbench/hookLens';
import type { HookRunRecord } from './hooks/hookRunTypes';
import type { ModelClient } from './model/modelClient';
import { HOOK_RUNS_TOOL, RecentHookRuns, registerHookRunsTool } from './vscode/tools/hookRunsTool';
import { createVscodeTools, enabledPatterns } from './vscode/tools/vscodeTools';
import { McpService } from './vscode/mcp/mcpService';
import { HookRunHistory } from './vscode/history/hookRunHistory';
import { HookTestController } from './vscode/hookTests/hookTestController';
import { memoryFileItems, slashCommandItems } from './vscode/chat/chatCommands';
import { registerMcpServersView } from './vscode/mcp/mcpServersView';
import { createExtensionApi, type HookwiseExtensionApi } from './vscode/extensionApi';
import { ExtensionApiHooks } from './vscode/extensionApiHooks';
import { policySetSettings } from './vscode/settingPolicy';

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
  const log = vscode.window.createOutputChannel('Hookwise', { log: true });
  context.subscriptions.push(log);

  const terminals = new TerminalOutputRecorder();
  const chat = new ChatViewProvider(context.extensionUri, log, terminals);
  context.subscriptions.push(
    terminals,
    chat,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chat, { webviewOptions: { retainContextWhenHidden: true } }),
  );

  // The tree's rerun goes through the controller, created a few lines below (called only later).
  const runs = registerHookRunsView({
    log,
    state: context.globalState,
    rerun: (record) => controller.rerunHook(record),
    onClear: () => (lens.clear(), history.clear()),
  });
  context.subscriptions.push(runs.disposable);
  // Runs of earlier windows come back into the tree; every finished run is kept (10,000 / 7 days).
  // hookwise.hookRuns.keepHistory: false keeps hook inputs off the disk (no store, nothing restored).
  const keepHistory = vscode.workspace.getConfiguration('hookwise').get<boolean>('hookRuns.keepHistory', true);
  const history = new HookRunHistory(keepHistory ? context.storageUri : undefined, log);
  context.subscriptions.push(history, history.registerExportCommand());
  // Per-hook stats on the settings files' lenses count live runs and the restored history alike.
  const lens = new HookLens({
    current: () => hookConfig.current,
    model: (): ModelClient => controller.runtime.model,
    log,
    projectDir: (): string => controller.projectDir,
  });
  context.subscriptions.push(lens);
  const restoreSink = { onHookFinished: (record: HookRunRecord) => (runs.provider.onHookFinished(record), lens.onHookFinished(record)) };
  void history.restore(restoreSink).then(
    (count) => count > 0 && log.info(`restored ${count} hook runs from the history`),
    (error: unknown) => log.warn(`hook run history not read: ${String(error)}`),
  );

  const status = new AgentStatusBar();
  // "Always Allow" writes the agent's project's settings.local.json (the controller, created below, knows its root).
  const permissions = new ModalPermissionProvider({
    log,
    onWaitingChanged: (waiting) => status.setWaitingForApproval(waiting),
    // A relative Write/Edit path is the agent's: the diff shows the file under its root.
    showProposedChange: (request): Promise<vscode.Disposable | undefined> => ProposedChangeDiff.show(request, controller.projectDir),
    localSettingsFile: (): vscode.Uri | undefined =>
      vscode.workspace.workspaceFolders?.length ? vscode.Uri.file(path.join(controller.projectDir, '.claude', 'settings.local.json')) : undefined,
  });
  context.subscriptions.push(status, ProposedChangeDiff.register());

  // Reviewable edits read the current session's checkpoints (the controller is created below; read only later).
  const edits = new EditReview({ chat, session: () => controller.sessions.current, log });
  context.subscriptions.push(
    edits,
    chat.onDidRequestEditReview((request) => edits.handle(request)),
  );

  const onAgentEvent = (event: AgentEvent): void => {
    chat.postAgentEvent(event);
    status.observeAgentEvent(event);
    runs.provider.observeAgentEvent(event);
    edits.observeAgentEvent(event);
  };
  // Prompts wait for the first hook configuration, so no prompt ever runs without its hooks.
  let markConfigReady: () => void = () => undefined;
  let markMcpReady: () => void = () => undefined;
  // A prompt also waits for the first MCP configuration, so its servers' tools are there from the start.
  const configReady = Promise.all([new Promise<void>((resolve) => (markConfigReady = resolve)), new Promise<void>((resolve) => (markMcpReady = resolve))]).then(
    () => undefined,
  );
  // Recent hook runs for other agents in VS Code (the hookwise_hook_runs language model tool).
  const recentRuns = new RecentHookRuns();
  context.subscriptions.push(registerHookRunsTool(recentRuns));
  // OpenTelemetry export (hookwise.telemetry.* or OTEL_* variables); prompts wait for it like for the hooks.
  const telemetry = new VscodeTelemetry(log, context.extension.packageJSON.version as string);
  const telemetryReady = telemetry.apply();
  // Shells are forked by a small helper process: forking this big host blocks its thread ~3× longer
  // (bench/host measures both). HOOKWISE_SPAWN_HELPER=0 spawns directly, as does a dead or unstarted helper.
  let spawnHelper: SpawnHelper | undefined;
  const hookLauncher = createLeanLauncher({ spawner: (file, args, options) => spawnHelper?.spawner(file, args, options) });
  const controller = new AgentController({
    hookLauncher,
    configReady: Promise.all([configReady, telemetryReady]),
    telemetry,
    context,
    log,
    permissionProvider: permissions,
    // A hook's statusMessage on its tool card while it runs (the status bar shows it too).
    observers: [runs.provider, status, recentRuns, history, lens, new ToolHookStatus((update) => chat.postHookStatus(update))],
    onAgentEvent,
    onBusyChanged: (busy) => chat.setBusy(busy),
    onModelChanged: (label) => chat.setModelLabel(label),
    apiKey: () => getApiKey(context),
    createLm: resolveVscodeLmModelClient,
    // Opted-in VS Code tools (hookwise.vscodeTools.enabled), as vscode__<name>; never Hookwise's own tool.
    extraTools: () => createVscodeTools({ patterns: enabledPatterns(log), exclude: (tool) => tool.name === HOOK_RUNS_TOOL }),
  });
  // Attachments obey the Read deny/ask rules the agent's Read tool obeys (deny and ask rules apply in any workspace trust).
  const attachmentRoot = controller.projectDir;
  chat.setReadPolicy((file) => {
    let real: string | undefined;
    try {
      real = realpathSync(file);
    } catch {
      // missing: the rules see the path as given
    }
    return controller.runtime.permissionRules(attachmentRoot, true).readDeniedBy(file, real, attachmentRoot);
  });
  chat.setCommandSource(() => slashCommandItems(controller.projectDir, os.homedir()));
  const showMemory = (): void => chat.setMemoryFiles(memoryFileItems(controller.sessions.current?.memory, controller.projectDir, os.homedir()));
  registerModelCommands(context, { log });
  // MCP servers: read and trust-filtered now, started when a session first needs them.
  const mcp = new McpService({ runtime: controller.runtime, log, workspaceState: context.workspaceState, projectDir: controller.projectDir });
  context.subscriptions.push(
    mcp,
    ...registerMcpServersView({
      manager: controller.runtime.mcp,
      service: mcp,
      log,
      projectDir: controller.projectDir,
      workspaceState: context.workspaceState,
    }),
  );
  void mcp.reload().finally(() => markMcpReady());
  // vscode-lm models come and go as extensions load or sign in.
  context.subscriptions.push(vscode.lm.onDidChangeChatModels(() => void controller.reloadModel()));
  context.subscriptions.push(controller);
  // Hook and Bash process groups die with this extension host even when it is killed without
  // running its exit hook (a crash, a force-quit window). Started after activation returns.
  let watchdog: ProcessGroupWatchdog | undefined;
  const watchdogTimer = setTimeout(() => {
    watchdog = startProcessGroupWatchdog();
    if (process.env.HOOKWISE_SPAWN_HELPER !== '0') spawnHelper = startSpawnHelper();
  }, 0);
  context.subscriptions.push({
    dispose: () => {
      clearTimeout(watchdogTimer);
      spawnHelper?.close();
      spawnHelper = undefined;
      watchdog?.close();
    },
  });

  // Hooks other extensions register through the API: labelled with their id, governed by each new configuration.
  const apiHooks = new ExtensionApiHooks(controller.runtime.registry);
  context.subscriptions.push(apiHooks);
  const extensionApi = createExtensionApi({ hooks: apiHooks, warn: (message) => log.warn(message) });
  const hookConfig = registerHookConfiguration(context, {
    log,
    reportExtras: () => ({ apiHooks: apiHooks.list(), policySettings: policySetSettings() }),
    apply: (config, trust) => {
      const applied = controller.runtime.applyConfig(config, trust);
      apiHooks.applyConfig(config);
      return applied;
    },
    confirmChange: (changes) => controller.sessions.configChanging(changes),
    onFolderAdded: (dir) => void controller.sessions.directoryAdded(dir).catch((error: unknown) => log.warn(`DirectoryAdded hooks failed: ${String(error)}`)),
    // Plugin commands and agents join the next session (agents reload with every configuration generation below); their MCP servers reload when the set changes.
    onPlugins: (plugins) => {
      if (controller.runtime.setPlugins(plugins)) void mcp.reload();
    },
  });
  // Agent files are watched with the hook configuration: their definitions reload with their hooks, for the next session.
  const loadAgents = async (): Promise<void> => {
    for (const p of await controller.sessions.loadAgents()) log.warn(`agent file ${p.file} ignored: ${p.message}`);
  };
  void loadAgents();
  context.subscriptions.push(hookConfig.onDidChange(() => (markConfigReady(), void loadAgents())));
  context.subscriptions.push(
    registerHookWorkbench({
      current: () => hookConfig.current,
      selection: () => runs.treeView.selection,
      projectDir: controller.projectDir,
      log,
      skillsOf: (sessionId, at) => controller.runtime.runner.skillsOf(sessionId, at),
    }),
  );
  lens.watchConfig(hookConfig.onDidChange);
  // A broken hook config file: the status bar and the chat say which version is in force.
  context.subscriptions.push(
    new BrokenConfigNotice(hookConfig.onDidChange, chat, hookConfig.current),
    showConfigWarnings(runs.treeView, hookConfig.onDidChange),
  );
  if (hookConfig.current) markConfigReady();
  const hookTests = new HookTestController({
    projectDir: () => controller.projectDir,
    config: () => hookConfig.current,
    onDidChangeConfig: hookConfig.onDidChange,
    model: () => controller.runtime.model,
    log,
  });
  context.subscriptions.push(hookTests);

  const offerSetup = async (): Promise<void> => {
    const pick = await chat.showNotice(controller.model.configurationProblem, [
      // A workspace model setting waiting for an answer: review it first.
      ...(controller.model.pendingApproval ? [{ id: 'review', label: 'Review Workspace Model…' }] : []),
      { id: 'playground', label: 'Use Playground' },
      { id: 'configure', label: 'Configure Model' },
      { id: 'apiKey', label: 'Set API Key' },
    ]);
    if (pick === 'playground') {
      await vscode.workspace.getConfiguration('hookwise.model').update('provider', 'playground', vscode.ConfigurationTarget.Global);
      await controller.reloadModel();
      chat.clearNotice();
    } else if (pick === 'review') {
      if (await controller.reviewWorkspaceModel()) chat.clearNotice();
    } else if (pick === 'configure') await vscode.commands.executeCommand('hookwise.selectModel');
    else if (pick === 'apiKey') await vscode.commands.executeCommand('hookwise.setApiKey');
  };

  context.subscriptions.push(
    chat.onDidSubmit(async ({ prompt, context: attachments, files }) => {
      if (!(await controller.submit(prompt, attachments, files))) await offerSetup();
      showMemory();
    }),
    chat.onDidRequestModelPick(() => vscode.commands.executeCommand('hookwise.selectModel')),
    chat.onDidStop(() => controller.stop()),
    chat.onDidRequestNewChat(async () => {
      await controller.newSession();
      chat.resetSession();
      showMemory();
    }),
    chat.onDidRequestHistory(() => chat.showHistory(controller.listSessions())),
    chat.onDidResumeSession(async (id) => {
      chat.resetSession();
      await controller.resume(id, (event) => (event.type === 'userPrompt' ? chat.addUserPrompt(event.text) : chat.postAgentEvent(event)));
      edits.showResumedCheckpoints();
    }),
    chat.onDidRequestSetup(() => offerSetup()),
    vscode.commands.registerCommand('hookwise.reviewWorkspaceModel', () => controller.reviewWorkspaceModel()),
    vscode.commands.registerCommand('hookwise.openChat', () => chat.reveal()),
    vscode.commands.registerCommand('hookwise.openChatInEditor', () => chat.openInEditor()),
    vscode.commands.registerCommand('hookwise.addSelectionToChat', () => chat.addSelectionToChat()),
    vscode.commands.registerCommand('hookwise.addContext', () => chat.pickContext()),
    vscode.commands.registerCommand('hookwise.stop', () => controller.stop()),
    vscode.commands.registerCommand('hookwise.newChat', async () => {
      await controller.newSession();
      chat.resetSession();
    }),
    vscode.commands.registerCommand('hookwise.compact', async () => void vscode.window.showInformationMessage(await controller.compact())),
  );

  log.info(`Hookwise ${context.extension.packageJSON.version as string} activated in ${vscode.env.appName} ${vscode.version}`);
  return {
    ...extensionApi,
    log,
    controller,
    hookConfig,
    chat,
    hookRuns: runs.provider,
    history,
    hookTests,
    telemetry,
    hookLens: lens,
    activationMs: performance.now() - activationStarted,
  };
}

/** Everything is owned by `context.subscriptions`; nothing else to release. */
export function deactivate(): void {}
