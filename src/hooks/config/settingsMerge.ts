import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import type { HookSource } from '../../configFiles/hookSource';
import type { PermissionRuleEntry } from '../../permissions/permissionRules';
import { addHttpHookSettings, httpPolicyLayerOfFile, NO_HTTP_HOOK_POLICY, type HttpHookPolicy } from '../actions/httpHookPolicy';
import type { EnabledPluginEntry, PolicySwitches } from './claudeSettingsReader';
import type { SettingsFileContribution } from './documentContribution';

/** The managed policy file's switches and `enabledPlugins`. */
export interface ManagedSettings {
  readonly displayFile: string;
  readonly file: string;
  readonly policy: PolicySwitches;
  readonly disableAllHooks: boolean;
  readonly enabledPlugins?: readonly EnabledPluginEntry[];
}

/**
 * The Claude settings files' settings other than hooks, merged in merge order: who disables hooks
 * (all of them, or only the project's), the managed policy, the `enabledPlugins` entries the
 * warnings check, permissions and the HTTP hook policy. Add files in merge order.
 */
export class SettingsMerge {
  /** What disabled every hook (a user-level file's `disableAllHooks`, `hookwise.hooks.enabled: false`). */
  readonly disabledBy: string[];
  /** What turned off only the project's own hooks. */
  readonly projectOffBy: string[];
  /** Where the project files' `disableAllHooks` are, to say they do not reach the user's hooks. */
  readonly projectDisablingFiles: ConfigDiagnostic[] = [];
  /** Plugins the user's own file turns on (with that file), and project entries that try to turn one of them off. */
  readonly userPlugins = new Map<string, string>();
  readonly projectPluginOffs: EnabledPluginEntry[] = [];
  /** The other settings files' `enabledPlugins` entries, checked against the managed policy's. */
  readonly pluginEntries: EnabledPluginEntry[] = [];
  /** Which non-managed files set `disableAllHooks` (to tell them managed hooks still run). */
  readonly disablingFiles: { file: string; displayFile: string }[] = [];
  managed: ManagedSettings | undefined;
  readonly rules: PermissionRuleEntry[] = [];
  defaultMode: { readonly value: string; readonly source: HookSource } | undefined;
  readonly additionalDirectories: { path: string; source: HookSource; folder?: string }[] = [];
  httpPolicy: HttpHookPolicy = NO_HTTP_HOOK_POLICY;

  /** `enabled`: the user-level `hookwise.hooks.enabled`; `workspaceEnabled`: the workspace's. */
  constructor(enabled: boolean | undefined, workspaceEnabled: boolean | undefined) {
    this.disabledBy = enabled === false ? ['hookwise.hooks.enabled'] : [];
    // A workspace narrows, never loosens: its switches and a project file's disableAllHooks reach only the project's hooks.
    this.projectOffBy = workspaceEnabled === false ? ['workspace settings (hookwise.hooks.enabled)'] : [];
  }

  /** Adds one settings file's settings (its hooks are the caller's). */
  add(settings: SettingsFileContribution): void {
    const { input, content } = settings;
    const fromProject = input.scope === 'project' || input.scope === 'local';
    if (content.disableAllHooks === true) this.addDisableAllHooks(settings, fromProject);
    this.addPluginEntries(settings, fromProject);
    this.rules.push(...settings.rules);
    if (settings.defaultMode !== undefined) this.defaultMode = settings.defaultMode;
    this.additionalDirectories.push(...settings.additionalDirectories);
    // Every file's lists are kept apart, not concatenated: a lower file can only narrow (managed binds all).
    if (content.httpPolicy !== undefined)
      this.httpPolicy = addHttpHookSettings(this.httpPolicy, content.httpPolicy, httpPolicyLayerOfFile(input.scope), input.displayFile);
  }

  private addDisableAllHooks({ input, content }: SettingsFileContribution, fromProject: boolean): void {
    if (fromProject) {
      this.projectOffBy.push(input.displayFile);
      this.projectDisablingFiles.push(
        content.disableAllHooksAt ?? {
          file: input.file,
          displayFile: input.displayFile,
          jsonPath: 'disableAllHooks',
          severity: 'warning',
          code: 'cannotLoosen',
          message: '',
        },
      );
    } else this.disabledBy.push(input.displayFile);
    if (input.scope !== 'managed') this.disablingFiles.push({ file: input.file, displayFile: input.displayFile });
  }

  private addPluginEntries({ input, content }: SettingsFileContribution, fromProject: boolean): void {
    for (const e of content.enabledPlugins ?? []) {
      if (input.scope === 'user') {
        if (e.on) this.userPlugins.set(e.id, input.displayFile);
        else this.userPlugins.delete(e.id);
      } else if (fromProject && !e.on && this.userPlugins.has(e.id)) this.projectPluginOffs.push(e);
    }
    if (input.scope === 'managed')
      this.managed = {
        displayFile: input.displayFile,
        file: input.file,
        policy: content.policy,
        disableAllHooks: content.disableAllHooks === true,
        ...(content.enabledPlugins !== undefined ? { enabledPlugins: content.enabledPlugins } : {}),
      };
    else this.pluginEntries.push(...(content.enabledPlugins ?? []));
  }
}
