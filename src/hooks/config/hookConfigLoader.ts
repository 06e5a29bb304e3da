import { isProjectSource, type HookSource } from '../../configFiles/hookSource';
import { readAgentFileText } from './agentFileReader';
import { readSkillFileText } from './skillFileReader';
import { readClaudeSettingsText, type EnabledPluginEntry, type PolicySwitches } from './claudeSettingsReader';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { ConfigFileTooLargeError, MAX_CONFIG_FILE_BYTES } from '../../configFiles/configLimits';
import { nodeConfigFileSystem, type ConfigFileSystem } from '../../configFiles/configFileSystem';
import { isProjectInput, sourceRank, type ConfigSourceInput, type SettingsValueInput } from './configSources';
import {
  brokenFileDiagnostic,
  configFileDiagnostics,
  isFatalConfigError,
  type BrokenConfigFile,
  type ConfigFileInput,
  type LastGoodStore,
} from './lastGoodConfig';
import { hookApprovalKey } from './hookApproval';
import { applyManagedPolicy, isPolicyHook } from './managedPolicy';
import { lockedPluginWarnings, userPluginWarnings } from './pluginEntryWarnings';
import type { RawHookEntry } from './hooksObjectReader';
import type { HookSourceKey } from './hookSourceKeys';
import { formatJsonPath } from '../../configFiles/jsonPath';
import type { LoadedHook } from './loadedHook';
import { dedupHooks, type DroppedDuplicate } from './hookDedup';
import { withPinnedScripts } from './hookScriptPinning';
import { listAgentFiles, listSkillFiles } from './configDirectoryListing';
import { readSettingsValue, SETTINGS_LABELS } from './settingsValueReader';
import { normaliseDisabledIds, withSwitchId } from './hookSwitches';
import { resolveSwitchIds, vanishedSwitchWarning, type SwitchMigration, type VanishedSwitch } from './hookSwitchMigration';
import { isInputSelected, workspaceEnabledWarning, workspaceSourcesWarnings, workspaceSwitchIds, type WorkspaceHookSwitches } from './workspaceNarrowing';
import type { PermissionRuleEntry } from '../../permissions/permissionRules';
import { addHttpHookSettings, httpPolicyLayerOfFile, NO_HTTP_HOOK_POLICY, type HttpHookPolicy } from '../actions/httpHookPolicy';
import { describeThrown, thrownMessage } from '../../shared/describeThrown';
import { substitutePluginVars } from './pluginHookSources';
import type { HookHandlerConfig } from './hookConfigSchema';

/** Options mirroring the `hookwise.hooks.*` settings. */
export interface LoadHookConfigOptions {
  /** File access; default node:fs. */
  readonly fs?: ConfigFileSystem;
  /** The user-level `hookwise.hooks.enabled` (user settings or a VS Code policy); false = disabled like `disableAllHooks`. Default true. */
  readonly enabled?: boolean;
  /** The user-level `hookwise.hooks.sources`; default all. */
  readonly sources?: readonly HookSourceKey[];
  /** The user-level `hookwise.hooks.disabled`: hook ids (by identity, hookSwitches.ts; old position ids are migrated) switched off; managed hooks ignore it. */
  readonly disabledHooks?: readonly string[];
  /** The user settings.json holding `disabledHooks`, so a warning about a switch lands on it. */
  readonly userSettingsFile?: string;
  /** The workspace layer of the same three settings: it narrows the project's own hooks only (workspaceNarrowing.ts). */
  readonly workspace?: WorkspaceHookSwitches;
  /**
   * Keeps the last good text of each hook config file: a file that cannot be read or parsed is
   * replaced by it (and `brokenFiles` says so). Without a store a broken file loads what it can.
   */
  readonly lastGood?: LastGoodStore;
  /** Workspace folder roots, to pin the scripts of project hooks that belong to no one folder (multi-root workspace settings). */
  readonly projectDirs?: readonly string[];
}

/** Permission settings merged across Claude settings files, each with its source. */
export interface MergedPermissions {
  /** Every rule in merge order; evaluate with evaluatePermissionRules (deny > ask > allow). */
  readonly rules: PermissionRuleEntry[];
  /** Last `defaultMode` in merge order (managed beats local beats project beats user). */
  readonly defaultMode?: { readonly value: string; readonly source: HookSource };
  /** The managed policy's `disableBypassPermissionsMode: "disable"`: which file says so. */
  readonly bypassDisabledBy?: string;
  readonly additionalDirectories: { readonly path: string; readonly source: HookSource; readonly folder?: string }[];
}

/** The loaded configuration: pure data, one "generation". */
export interface HookConfig {
  /**
   * Active hooks in merge order. When `disabled`, only the managed policy's hooks (non-managed
   * settings cannot turn those off), or none when the managed policy itself disabled hooks.
   */
  readonly hooks: LoadedHook[];
  readonly diagnostics: ConfigDiagnostic[];
  /** `disableAllHooks: true` somewhere, or `hookwise.hooks.enabled: false`. */
  readonly disabled: boolean;
  /** What disabled hooks, for the notice (e.g. `~/.claude/settings.json`). */
  readonly disabledBy: string[];
  /**
   * What turned off only the project's own hooks (a project file's `disableAllHooks`, a workspace
   * `hookwise.hooks.enabled: false`); they are left out of `hooks`, the user's still run.
   */
  readonly projectHooksOffBy?: string[];
  readonly permissions: MergedPermissions;
  /** Identical hooks dropped by dedup (the first occurrence is kept). */
  readonly duplicates: DroppedDuplicate[];
  /** `allowedHttpHookUrls` / `httpHookAllowedEnvVars`, one list per settings file that sets them (each binds on its own: httpHookPolicy.ts). */
  readonly httpPolicy?: HttpHookPolicy;
  /**
   * `hookwise.hooks.disabled`: ids of hooks switched off. They stay in `hooks` (their scripts stay
   * protected); HookwiseRuntime.applyConfig leaves them out and explain says so (hookSwitches.ts).
   */
  readonly disabledHookIds?: ReadonlySet<string>;
  /** Files that could not be read or parsed on this load: whether their last good version is in force (loadHookConfig with a `lastGood` store). */
  readonly brokenFiles?: readonly BrokenConfigFile[];
  /** Position ids of `hookwise.hooks.disabled` (the old format) resolved to identity ids on this load; the caller rewrites the setting. */
  readonly switchMigrations?: readonly SwitchMigration[];
  /** Switches naming no loaded hook: the hook under them changed or was removed (a warning diagnostic each). */
  readonly vanishedSwitches?: readonly VanishedSwitch[];
  /**
   * Set when the managed policy `file` sets `allowManagedHooksOnly`: the hooks it left out (explain
   * lists them as skipped); hooks registered through the extension API are off too.
   */
  readonly managedOnly?: { readonly file: string; readonly hooks: readonly LoadedHook[] };
}

/** One input with its text read (undefined = missing file / unset setting). Agents directories are already expanded. */
export type ConfigDocument =
  | {
      readonly input: Exclude<ConfigSourceInput, { kind: 'agentsDirectory' } | { kind: 'skillsDirectory' } | { kind: 'settingsValue' }>;
      readonly text: string | undefined;
    }
  | { readonly input: SettingsValueInput };

/**
 * Reads every input (missing files are fine, unreadable ones become diagnostics) and builds
 * the configuration. Inputs may come in any order; they are merged in docs/hooks.md §6 order. Each
 * source loads on its own, within configLimits.ts: one that is too large, too deep,
 * unreadable or that throws becomes a diagnostic naming its file, and the others still load.
 */
export async function loadHookConfig(inputs: readonly ConfigSourceInput[], options: LoadHookConfigOptions = {}): Promise<HookConfig> {
  const fs = options.fs ?? nodeConfigFileSystem;
  const documents: ConfigDocument[] = [];
  const ioDiagnostics: ConfigDiagnostic[] = [];
  const readText = async (file: string, displayFile: string): Promise<string | undefined> => {
    try {
      const text = await fs.readTextFile(file);
      // An injected file system may not bound sizes itself; UTF-16 length ≤ byte length, so this never refuses a file within the limit.
      if (text !== undefined && text.length > MAX_CONFIG_FILE_BYTES) throw new ConfigFileTooLargeError(file, text.length);
      return text;
    } catch (error) {
      const tooLarge = error instanceof ConfigFileTooLargeError;
      ioDiagnostics.push({
        file,
        displayFile,
        jsonPath: '',
        severity: 'error',
        code: tooLarge ? 'tooLarge' : 'unreadable',
        message: `${tooLarge ? error.message : `cannot read the file (${thrownMessage(error)})`}; it contributes nothing, the other sources still load`,
      });
      return undefined;
    }
  };
  const broken: BrokenConfigFile[] = [];
  /** Diagnostics of the file as it is now, for each file whose last good version is used instead. */
  const replaced = new Map<string, ConfigDiagnostic[]>();
  // A broken file never silently drops its policy: its last good version stays in force (lastGoodConfig.ts).
  const readFile = async (input: ConfigFileInput): Promise<string | undefined> => {
    const before = ioDiagnostics.length;
    const text = await readText(input.file, input.displayFile);
    const store = options.lastGood;
    if (store === undefined) return text;
    const ioErrors = ioDiagnostics.slice(before).filter(isFatalConfigError);
    // Read once: its fatal errors decide, and the rest are shown when the last good version stands in.
    const current = ioErrors.length === 0 && text !== undefined ? configFileDiagnostics(input, text) : [];
    const errors = ioErrors.length > 0 ? ioErrors : current.filter(isFatalConfigError);
    const first = errors[0];
    if (first === undefined) {
      await store.remember(input.file, text);
      return text;
    }
    const good = await store.get(input.file);
    broken.push({
      file: input.file,
      displayFile: input.displayFile,
      inForce: good !== undefined ? 'lastGood' : 'none',
      error: first,
      project: isProjectInput(input),
    });
    if (good === undefined) return text;
    replaced.set(input.file, current);
    return good;
  };
  for (const input of sortByRank(inputs.filter((i) => isInputSelected(i, options.sources, options.workspace)))) {
    if (input.kind === 'settingsValue') {
      documents.push({ input });
    } else if (input.kind === 'agentsDirectory') {
      for (const agent of await listAgentFiles(fs, input, ioDiagnostics)) documents.push({ input: agent, text: await readFile(agent) });
    } else if (input.kind === 'skillsDirectory') {
      for (const skill of await listSkillFiles(fs, input, ioDiagnostics)) documents.push({ input: skill, text: await readFile(skill) });
    } else {
      documents.push({ input, text: await readFile(input) });
    }
  }
  const config = buildHookConfig(documents, options);
  const hooks = await Promise.all(config.hooks.map((hook) => withPinnedScripts(hook, options.projectDirs ?? [])));
  // The last good text's own diagnostics point into a text no longer on disk: the current text's are shown instead.
  const built = config.diagnostics.filter((d) => d.file === undefined || !replaced.has(d.file));
  const diagnostics = [...ioDiagnostics, ...[...replaced.values()].flat(), ...built, ...broken.map(brokenFileDiagnostic)];
  return { ...config, hooks, diagnostics, ...(broken.length > 0 ? { brokenFiles: broken } : {}) };
}

function sortByRank<T extends ConfigSourceInput>(inputs: readonly T[]): T[] {
  return inputs
    .map((input, index) => ({ input, index }))
    .sort((a, b) => sourceRank(a.input) - sourceRank(b.input) || a.index - b.index)
    .map((x) => x.input);
}

/** Pure core of the loader: texts in, configuration out. Documents are merged in docs/hooks.md §6 order. */
export function buildHookConfig(
  documents: readonly ConfigDocument[],
  options: Pick<LoadHookConfigOptions, 'enabled' | 'sources' | 'disabledHooks' | 'workspace' | 'userSettingsFile'> = {},
): HookConfig {
  const ordered = documents
    .map((doc, index) => ({ doc, index }))
    .filter(({ doc }) => isInputSelected(doc.input, options.sources, options.workspace))
    .sort((a, b) => sourceRank(a.doc.input) - sourceRank(b.doc.input) || a.index - b.index)
    .map((x) => x.doc);
  const all: LoadedHook[] = [];
  const diagnostics: ConfigDiagnostic[] = [];
  const disabledBy: string[] = options.enabled === false ? ['hookwise.hooks.enabled'] : [];
  // A workspace narrows, never loosens: its switches and a project file's disableAllHooks reach only the project's hooks.
  const projectOffBy: string[] = options.workspace?.enabled === false ? ['workspace settings (hookwise.hooks.enabled)'] : [];
  const projectDisablingFiles: ConfigDiagnostic[] = [];
  /** Plugins the user's own file turns on, and project entries that try to turn one of them off. */
  const userPlugins = new Map<string, string>();
  const projectPluginOffs: EnabledPluginEntry[] = [];
  const rules: PermissionRuleEntry[] = [];
  let defaultMode: MergedPermissions['defaultMode'];
  const additionalDirectories: { path: string; source: HookSource; folder?: string }[] = [];
  /** The managed policy file's switches, and which files set `disableAllHooks` (to tell them managed hooks still run). */
  let managed:
    | {
        readonly displayFile: string;
        readonly file: string;
        readonly policy: PolicySwitches;
        readonly disableAllHooks: boolean;
        readonly enabledPlugins?: readonly EnabledPluginEntry[];
      }
    | undefined;
  /** The other settings files' `enabledPlugins` entries, checked against the managed policy's. */
  const pluginEntries: EnabledPluginEntry[] = [];
  const disablingFiles: { file: string; displayFile: string }[] = [];
  let httpPolicy: HttpHookPolicy = NO_HTTP_HOOK_POLICY;

  for (const doc of ordered) {
    try {
      readDocument(doc);
    } catch (error) {
      // Backstop (docs/security.md): one source that throws must not take the others down.
      const where =
        doc.input.kind === 'settingsValue'
          ? { ...(doc.input.file !== undefined ? { file: doc.input.file } : {}), displayFile: SETTINGS_LABELS[doc.input.scope] }
          : { file: doc.input.file, displayFile: doc.input.displayFile };
      diagnostics.push({
        ...where,
        jsonPath: '',
        severity: 'error',
        code: 'loadFailed',
        message: `could not be loaded (${describeThrown(error)}); it contributes nothing, the other sources still load`,
      });
    }
  }

  /** Reads one document and adds what it contributes; everything is collected before anything is added, so a throw adds nothing. */
  function readDocument(doc: ConfigDocument): void {
    const { input } = doc;
    const folder = input.folder !== undefined ? { folder: input.folder } : {};
    if (input.kind === 'settingsValue') {
      const content = readSettingsValue(input);
      const hooks = content.hooks.map((e) =>
        toLoadedHook(
          e,
          {
            kind: 'settings',
            scope: input.scope,
            ...(input.file !== undefined ? { file: input.file } : {}),
            jsonPath: formatJsonPath(e.path, 'hookwise.hooks'),
          },
          folder,
        ),
      );
      diagnostics.push(...content.diagnostics);
      all.push(...hooks);
      return;
    }
    if (!('text' in doc) || doc.text === undefined) return;
    const skillContent = input.kind === 'skillFile' ? readSkillFileText(doc.text, input) : undefined;
    // A plugin's skill is `<plugin>:<name>` (Claude Code's namespace), the name the Skill tool activates.
    const skillName = input.kind === 'skillFile' ? `${input.plugin ? `${input.plugin.name}:` : ''}${skillContent?.name ?? input.skill}` : undefined;
    const plugin = 'plugin' in input ? input.plugin : undefined;
    const fileSource = (jsonPath: string): HookSource => ({
      kind: 'file',
      scope:
        plugin !== undefined
          ? input.folder !== undefined
            ? 'projectPlugin'
            : 'plugin'
          : input.kind === 'agentFile'
            ? input.scope === 'user'
              ? 'userAgent'
              : 'projectAgent'
            : input.kind === 'skillFile'
              ? input.scope === 'user'
                ? 'userSkill'
                : 'projectSkill'
              : input.kind === 'pluginHooksFile'
                ? input.folder !== undefined
                  ? 'projectPlugin'
                  : 'plugin'
                : input.scope,
      file: input.file,
      displayFile: input.displayFile,
      jsonPath,
      ...(skillName !== undefined ? { skill: skillName } : {}),
      ...(plugin !== undefined ? { plugin } : {}),
    });
    // A plugin's hooks (its hooks.json, agents and skills) get `${CLAUDE_PLUGIN_ROOT}` filled in the command.
    const pluginVars = <E extends { readonly handler: HookHandlerConfig }>(e: E): E =>
      plugin ? { ...e, handler: substitutePluginVars(e.handler, plugin) } : e;
    if (input.kind === 'pluginHooksFile') {
      // Same shape as a settings file's hooks (plus `description`); only `hooks` counts, a plugin cannot set permissions.
      const content = readClaudeSettingsText(doc.text, input);
      diagnostics.push(...content.diagnostics);
      all.push(...content.hooks.map((e) => toLoadedHook(pluginVars(e), fileSource(formatJsonPath(e.path)), folder)));
      return;
    }
    if (input.kind === 'agentFile') {
      const content = readAgentFileText(doc.text, input);
      const agent = content.agentType !== undefined ? { agentType: content.agentType } : {};
      const hooks = content.hooks.map((e) => toLoadedHook(pluginVars(e), fileSource(formatJsonPath(e.path)), { ...folder, ...agent }));
      diagnostics.push(...content.diagnostics);
      all.push(...hooks);
      return;
    }
    if (skillContent !== undefined) {
      const skill = { skill: skillName ?? '' };
      all.push(...skillContent.hooks.map((e) => toLoadedHook(pluginVars(e), fileSource(formatJsonPath(e.path)), { ...folder, ...skill })));
      diagnostics.push(...skillContent.diagnostics);
      return;
    }
    if (input.kind === 'skillFile') return;
    const content = readClaudeSettingsText(doc.text, input);
    const hooks = content.hooks.map((e) => toLoadedHook(e, fileSource(formatJsonPath(e.path)), folder));
    const fileRules = content.permissionRules.map((r) => ({ behavior: r.behavior, rule: r.rule, source: fileSource(formatJsonPath(r.path)), ...folder }));
    const dirs = content.additionalDirectories.map((dir, i) => ({ path: dir, source: fileSource(`permissions.additionalDirectories[${i}]`), ...folder }));
    diagnostics.push(...content.diagnostics);
    const fromProject = input.scope === 'project' || input.scope === 'local';
    if (content.disableAllHooks === true) {
      if (fromProject) {
        projectOffBy.push(input.displayFile);
        projectDisablingFiles.push(
          content.disableAllHooksAt ?? {
            file: input.file,
            displayFile: input.displayFile,
            jsonPath: 'disableAllHooks',
            severity: 'warning',
            code: 'cannotLoosen',
            message: '',
          },
        );
      } else disabledBy.push(input.displayFile);
    }
    for (const e of content.enabledPlugins ?? []) {
      if (input.scope === 'user') {
        if (e.on) userPlugins.set(e.id, input.displayFile);
        else userPlugins.delete(e.id);
      } else if (fromProject && !e.on && userPlugins.has(e.id)) projectPluginOffs.push(e);
    }
    if (input.scope === 'managed')
      managed = {
        displayFile: input.displayFile,
        file: input.file,
        policy: content.policy,
        disableAllHooks: content.disableAllHooks === true,
        ...(content.enabledPlugins !== undefined ? { enabledPlugins: content.enabledPlugins } : {}),
      };
    else pluginEntries.push(...(content.enabledPlugins ?? []));
    if (input.scope !== 'managed' && content.disableAllHooks === true) disablingFiles.push({ file: input.file, displayFile: input.displayFile });
    all.push(...hooks);
    rules.push(...fileRules);
    if (content.defaultMode !== undefined) defaultMode = { value: content.defaultMode, source: fileSource('permissions.defaultMode') };
    additionalDirectories.push(...dirs);
    // Every file's lists are kept apart, not concatenated: a lower file can only narrow (managed binds all).
    if (content.httpPolicy !== undefined)
      httpPolicy = addHttpHookSettings(httpPolicy, content.httpPolicy, httpPolicyLayerOfFile(input.scope), input.displayFile);
  }

  // The policy filters before dedup: a user's copy of a policy hook comes first in merge order, and
  // dedup keeping that copy would let the policy drop the only one left.
  const policy = applyManagedPolicy(managed, all, rules, disablingFiles);
  diagnostics.push(...policy.diagnostics, ...lockedPluginWarnings(managed, pluginEntries));
  diagnostics.push(...userPluginWarnings(managed, projectPluginOffs, userPlugins));
  const disabled = disabledBy.length > 0;
  // What a project file or the workspace may not reach: the user's hooks (the policy's are covered above).
  const isUserHook = (h: LoadedHook): boolean => !isPolicyHook(h) && !isProjectSource(h.source);
  const userHooks = disabled ? 0 : policy.hooks.filter(isUserHook).length;
  diagnostics.push(...workspaceSourcesWarnings(options.sources, options.workspace), ...workspaceEnabledWarning(options.enabled, options.workspace, userHooks));
  if (userHooks > 0)
    for (const f of projectDisablingFiles)
      diagnostics.push({
        ...f,
        message: `ignored for the user's hooks: a project file cannot disable the user's ${userHooks} hook(s), they still run; only this project's own hooks are off`,
      });
  const projectOff = !disabled && projectOffBy.length > 0;
  const { kept, duplicates } = dedupHooks(
    managed?.disableAllHooks
      ? []
      : disabled
        ? policy.hooks.filter(isPolicyHook)
        : projectOff
          ? policy.hooks.filter((h) => isPolicyHook(h) || !isProjectSource(h.source))
          : policy.hooks,
  );
  // Switches follow their hook: old position ids become identity ids, and a switch naming no hook is said (hookSwitchMigration.ts).
  const userSwitches = resolveSwitchIds(options.disabledHooks, all, 'user');
  const wsSwitches = resolveSwitchIds(options.workspace?.disabledHooks, all, 'workspace');
  userSwitches.vanished.forEach((v, i) => diagnostics.push(vanishedSwitchWarning(v, i, options.userSettingsFile)));
  wsSwitches.vanished.forEach((v, i) => diagnostics.push(vanishedSwitchWarning(v, i, options.workspace?.file)));
  const switches = workspaceSwitchIds(policy.hooks, options.workspace ? { ...options.workspace, disabledHooks: wsSwitches.ids } : undefined);
  diagnostics.push(...switches.diagnostics);
  const disabledIds = [...userSwitches.ids, ...switches.ids];
  const migrated = [...userSwitches.migrated, ...wsSwitches.migrated];
  const vanished = [...userSwitches.vanished, ...wsSwitches.vanished];
  return {
    hooks: kept,
    diagnostics,
    disabled,
    disabledBy,
    ...(projectOff ? { projectHooksOffBy: projectOffBy } : {}),
    permissions: {
      rules: policy.rules,
      ...(defaultMode ? { defaultMode } : {}),
      ...(managed?.policy.disableBypassPermissionsMode ? { bypassDisabledBy: managed.displayFile } : {}),
      additionalDirectories,
    },
    duplicates,
    ...(managed?.policy.allowManagedHooksOnly ? { managedOnly: { file: managed.displayFile, hooks: policy.overridden } } : {}),
    ...(disabledIds.length > 0 ? { disabledHookIds: normaliseDisabledIds(disabledIds) } : {}),
    ...(migrated.length > 0 ? { switchMigrations: migrated } : {}),
    ...(vanished.length > 0 ? { vanishedSwitches: vanished } : {}),
    ...(httpPolicy.urlLists.length > 0 || httpPolicy.envVarLists.length > 0 ? { httpPolicy } : {}),
  };
}

function toLoadedHook(entry: RawHookEntry, source: HookSource, extra: { folder?: string; agentType?: string; skill?: string }): LoadedHook {
  return {
    event: entry.event,
    ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}),
    handler: entry.handler,
    // The switch follows the hook, not its position: its id is computed from what it is (hookSwitches.ts).
    source: source.kind === 'code' ? source : withSwitchId(source, { ...entry, ...extra }),
    ...extra,
    hash: hookApprovalKey({ ...entry, ...extra }),
  };
}
