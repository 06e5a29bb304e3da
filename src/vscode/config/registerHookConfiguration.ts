import * as vscode from 'vscode';
import { OwnHookEdits } from './ownHookEdits';
import { runAddHookFlow, type AddHookAnswers } from './addHookFlow';
import { effectiveHooksReport, type EffectiveHooksExtras } from './effectiveHooksReport';
import { HookConfigService, type ApplyHookConfig, type HookConfigServiceOptions } from './hookConfigService';
import { TRUST_WORKSPACE_COMMAND } from './projectHookTrust';
import { runConvertHooksFlow, type ConvertHooksAnswers } from './convertHooksFlow';
import { MarkdownTabs } from '../workbench/markdownTabs';
import { completeTourSteps } from '../tourProgress';

/** Command ids contributed in package.json. */
export const HOOK_CONFIG_COMMANDS = {
  addHook: 'hookwise.addHook',
  openHookSettings: 'hookwise.openHookSettings',
  showEffectiveHooks: 'hookwise.showEffectiveHooks',
  reviewProjectHooks: 'hookwise.reviewProjectHooks',
  convertHooks: 'hookwise.convertHooks',
} as const;

/**
 * The hook configuration's VS Code glue in one call: the live HookConfigService (watchers, diagnostics,
 * trust and approval) and its commands. Everything is owned by `context.subscriptions`.
 * Starts the first load; `service.onDidChange` fires once it is applied.
 */
export function registerHookConfiguration(
  context: vscode.ExtensionContext,
  deps: {
    readonly log: vscode.LogOutputChannel;
    readonly apply: ApplyHookConfig;
    /** What Show Effective Hooks adds beyond the configuration: extension API hooks, settings VS Code policy sets. */
    readonly reportExtras?: () => EffectiveHooksExtras;
  } & Pick<HookConfigServiceOptions, 'confirmChange' | 'onFolderAdded' | 'onPlugins'>,
): HookConfigService {
  const { log } = deps;
  const service = new HookConfigService({
    log,
    apply: deps.apply,
    workspaceState: context.workspaceState,
    globalStorageUri: context.globalStorageUri,
    ...(deps.confirmChange ? { confirmChange: deps.confirmChange } : {}),
    ...(deps.onFolderAdded ? { onFolderAdded: deps.onFolderAdded } : {}),
    ...(deps.onPlugins ? { onPlugins: deps.onPlugins } : {}),
  });
  context.subscriptions.push(
    service,
    // A hook the person typed and saved in the editor is approved by that save (never the agent's writes).
    new OwnHookEdits({ log, approve: (file, keys) => service.approveSaved(file, keys) }),
    vscode.commands.registerCommand(HOOK_CONFIG_COMMANDS.addHook, async (answers?: AddHookAnswers) => {
      void completeTourSteps(context.extension, `onCommand:${HOOK_CONFIG_COMMANDS.addHook}`, log);
      const result = await runAddHookFlow(
        {
          log,
          globalStorageUri: context.globalStorageUri,
          // The user typed this hook here: that is approval of exactly it (user settings need none).
          onAdded: (hook, target, file) =>
            target === 'userSettings'
              ? undefined
              : service.approveWritten(hook, target === 'workspaceSettings' || file === undefined ? { workspaceSettings: true } : { file }),
        },
        typeof answers === 'object' && answers !== null ? answers : {},
      );
      if (result) await service.reload();
      return result;
    }),
    vscode.commands.registerCommand(HOOK_CONFIG_COMMANDS.openHookSettings, () =>
      vscode.commands.executeCommand('workbench.action.openSettings', '@ext:hookwise.hookwise hookwise'),
    ),
    vscode.commands.registerCommand(HOOK_CONFIG_COMMANDS.showEffectiveHooks, async () => {
      const change = service.current ?? (await service.reload());
      log.info(effectiveHooksReport(change, deps.reportExtras?.()).join('\n'));
      log.show(true);
    }),
    vscode.commands.registerCommand(HOOK_CONFIG_COMMANDS.reviewProjectHooks, () => service.reviewProjectHooks()),
    vscode.commands.registerCommand(TRUST_WORKSPACE_COMMAND, () => service.trustAndApprove()),
  );
  const convertTabs = new MarkdownTabs('hookwise-convert');
  context.subscriptions.push(
    convertTabs,
    vscode.commands.registerCommand(HOOK_CONFIG_COMMANDS.convertHooks, (answers?: ConvertHooksAnswers) =>
      runConvertHooksFlow(
        { log, tabs: convertTabs, approveWritten: (hook, file) => service.approveWritten(hook, { file }), reload: () => service.reload() },
        typeof answers === 'object' && answers !== null ? answers : {},
      ),
    ),
  );
  void service.reload();
  return service;
}
