import type * as vscode from 'vscode';
import type { AgentController } from './agentController';
import type { ChatViewProvider } from './chat/chatViewProvider';
import { BrokenConfigNotice, showConfigWarnings } from './config/brokenConfigNotice';
import type { HookConfigService } from './config/hookConfigService';
import { vscodeWorkspaceTrust } from './config/projectHookTrust';
import { RestrictedModeNotice } from './config/restrictedModeNotice';
import { registerHookConfiguration } from './config/registerHookConfiguration';
import { createExtensionApi, type HookwiseExtensionApi } from './extensionApi';
import { ExtensionApiHooks } from './extensionApiHooks';
import { HookTestController } from './hookTests/hookTestController';
import type { McpService } from './mcp/mcpService';
import type { PromptReadiness } from './promptReadiness';
import type { HookRunViews } from './registerHookRunViews';
import { policySetSettings } from './settingPolicy';
import { registerHookWorkbench } from './workbench/hookWorkbench';

/** What the hook configuration feeds. */
export interface HookConfigurationParts {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly controller: AgentController;
  readonly mcp: McpService;
  readonly chat: ChatViewProvider;
  readonly views: HookRunViews;
  readonly readiness: PromptReadiness;
}

/** The live hook configuration and what follows it. */
export interface HookConfiguration {
  readonly hookConfig: HookConfigService;
  /** The API other extensions register hooks through. */
  readonly extensionApi: HookwiseExtensionApi;
  readonly hookTests: HookTestController;
}

/**
 * Loads and watches the hook configuration and applies each generation to the runtime and to
 * the hooks other extensions registered; the agent files, the workbench, the lenses, the
 * broken-file notices and the hook tests follow it. Everything is owned by `context.subscriptions`.
 */
export function wireHookConfiguration(parts: HookConfigurationParts): HookConfiguration {
  const { context, log, controller, mcp, views, readiness } = parts;
  // Hooks other extensions register through the API: labelled with their id, governed by each new configuration.
  const apiHooks = new ExtensionApiHooks(controller.runtime.registry);
  context.subscriptions.push(apiHooks);
  const extensionApi = createExtensionApi({
    hooks: apiHooks,
    warn: (message) => log.warn(message),
    compactionProvider: (options) => controller.runtime.compactionProvider(options),
  });
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
  context.subscriptions.push(hookConfig.onDidChange(() => (readiness.configLoaded(), void loadAgents())));
  context.subscriptions.push(
    registerHookWorkbench({
      current: () => hookConfig.current,
      selection: () => views.runs.treeView.selection,
      projectDir: controller.projectDir,
      log,
      skillsOf: (sessionId, at) => controller.runtime.runner.skillsOf(sessionId, at),
    }),
  );
  views.lens.watchConfig(hookConfig.onDidChange);
  context.subscriptions.push(views.runs.provider.watchSwitches(() => hookConfig.current?.config.disabledHookIds, hookConfig.onDidChange));
  // Restricted Mode: the chat says the project hooks are off and offers Trust. A broken hook config
  // file: the status bar and the chat say which version is in force (shown after, so it wins the one notice).
  context.subscriptions.push(
    new RestrictedModeNotice(hookConfig.onDidChange, parts.chat, vscodeWorkspaceTrust, hookConfig.current),
    new BrokenConfigNotice(hookConfig.onDidChange, parts.chat, hookConfig.current),
    showConfigWarnings(views.runs.treeView, hookConfig.onDidChange),
  );
  if (hookConfig.current) readiness.configLoaded();
  const hookTests = new HookTestController({
    projectDir: () => controller.projectDir,
    config: () => hookConfig.current,
    onDidChangeConfig: hookConfig.onDidChange,
    model: () => controller.runtime.model,
    log,
  });
  context.subscriptions.push(hookTests);
  return { hookConfig, extensionApi, hookTests };
}
