import type { HookSource } from '../../configFiles/hookSource';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { nodeConfigFileSystem, type ConfigFileSystem } from '../../configFiles/configFileSystem';
import type { ConfigSourceInput } from './configSources';
import { brokenFileDiagnostic, type BrokenConfigFile, type LastGoodStore } from './lastGoodConfig';
import type { HookSourceKey } from './hookSourceKeys';
import type { LoadedHook } from './loadedHook';
import type { DroppedDuplicate } from './hookDedup';
import { withPinnedScripts } from './hookScriptPinning';
import { SETTINGS_LABELS } from './settingsValueReader';
import type { SwitchMigration, VanishedSwitch } from './hookSwitchMigration';
import { isInputSelected, type WorkspaceHookSwitches } from './workspaceNarrowing';
import type { PermissionRuleEntry } from '../../permissions/permissionRules';
import type { HttpHookPolicy } from '../actions/httpHookPolicy';
import { describeThrown } from '../../shared/describeThrown';
import { readConfigDocuments, readConfigFile, sortByRank, type ConfigDocument, type ConfigDocumentReads } from './configDocumentReads';
import { enabledPluginsOf, type EnabledPluginsRead } from './enabledPluginsRead';
import { readDocumentContribution } from './documentContribution';
import { SettingsMerge } from './settingsMerge';
import { assembleHookConfig } from './hookConfigAssembly';

export type { ConfigDocument } from './configDocumentReads';
export type { EnabledPluginsRead } from './enabledPluginsRead';

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

/**
 * Reads every input (missing files are fine, unreadable ones become diagnostics) and builds
 * the configuration. Inputs may come in any order; they are merged in docs/hooks.md §6 order. Each
 * source loads on its own, within configLimits.ts: one that is too large, too deep,
 * unreadable or that throws becomes a diagnostic naming its file, and the others still load.
 */
export async function loadHookConfig(inputs: readonly ConfigSourceInput[], options: LoadHookConfigOptions = {}): Promise<HookConfig> {
  return completeLoad(await readConfigDocuments(inputs, options.fs ?? nodeConfigFileSystem, options), options);
}

/** A load in two phases: the settings files are read, then the inputs their `enabledPlugins` bring. */
export interface HookConfigLoad {
  /**
   * The `enabledPlugins` of every Claude settings file among the first inputs (not `--settings`
   * files), by absolute path, as this load read them (a broken file's last good version with a
   * `lastGood` store): what the plugin loader takes instead of reading the files again.
   */
  readonly enabledPlugins: ReadonlyMap<string, EnabledPluginsRead>;
  /** Reads `more` inputs (the plugins' own files), merges them with the first ones in merge order and builds the configuration. Call once. */
  finish(more?: readonly ConfigSourceInput[]): Promise<HookConfig>;
}

/**
 * {@link loadHookConfig} in two phases, so one load reads and parses each settings file once:
 * `inputs` are read (with their last good handling) before the plugins are known, their
 * `enabledPlugins` are handed out, and `finish` reads what the plugins add. A settings file
 * `hookwise.hooks.sources` leaves out is still read for its `enabledPlugins` (the setting picks
 * hook sources, not plugins) but contributes nothing else.
 */
export async function startHookConfigLoad(inputs: readonly ConfigSourceInput[], options: LoadHookConfigOptions = {}): Promise<HookConfigLoad> {
  const fs = options.fs ?? nodeConfigFileSystem;
  const first = await readConfigDocuments(inputs, fs, options);
  const enabledPlugins = new Map<string, EnabledPluginsRead>();
  for (const doc of first.documents)
    if (doc.input.kind === 'claudeSettingsFile' && doc.input.scope !== 'flag' && 'text' in doc)
      enabledPlugins.set(doc.input.file, enabledPluginsOf(doc.parsed));
  for (const input of inputs) {
    if (input.kind !== 'claudeSettingsFile' || input.scope === 'flag' || enabledPlugins.has(input.file)) continue;
    const errors: Omit<ConfigDocumentReads, 'documents'> = { ioDiagnostics: [], broken: [], replaced: new Map() };
    const doc = await readConfigFile(input, fs, options.lastGood, errors);
    enabledPlugins.set(input.file, enabledPluginsOf(doc.parsed, errors));
  }
  return {
    enabledPlugins,
    finish: async (more = []) => {
      const second = more.length > 0 ? await readConfigDocuments(more, fs, options) : undefined;
      const reads: ConfigDocumentReads = second
        ? {
            documents: [...first.documents, ...second.documents],
            ioDiagnostics: [...first.ioDiagnostics, ...second.ioDiagnostics],
            broken: [...first.broken, ...second.broken],
            replaced: new Map([...first.replaced, ...second.replaced]),
          }
        : first;
      return completeLoad(reads, options);
    },
  };
}

/** The configuration from what one load read: built, scripts pinned, the broken files said. */
async function completeLoad(reads: ConfigDocumentReads, options: LoadHookConfigOptions): Promise<HookConfig> {
  const { documents, ioDiagnostics, broken, replaced } = reads;
  const config = buildHookConfig(documents, options);
  const hooks = await Promise.all(config.hooks.map((hook) => withPinnedScripts(hook, options.projectDirs ?? [])));
  // The last good text's own diagnostics point into a text no longer on disk: the current text's are shown instead.
  const built = config.diagnostics.filter((d) => d.file === undefined || !replaced.has(d.file));
  const diagnostics = [...ioDiagnostics, ...[...replaced.values()].flat(), ...built, ...broken.map(brokenFileDiagnostic)];
  return { ...config, hooks, diagnostics, ...(broken.length > 0 ? { brokenFiles: broken } : {}) };
}

/** Pure core of the loader: texts in, configuration out. Documents are merged in docs/hooks.md §6 order. */
export function buildHookConfig(
  documents: readonly ConfigDocument[],
  options: Pick<LoadHookConfigOptions, 'enabled' | 'sources' | 'disabledHooks' | 'workspace' | 'userSettingsFile'> = {},
): HookConfig {
  const selected = documents.filter((doc) => isInputSelected(doc.input, options.sources, options.workspace));
  const all: LoadedHook[] = [];
  const diagnostics: ConfigDiagnostic[] = [];
  const merge = new SettingsMerge(options.enabled, options.workspace?.enabled);
  for (const doc of sortByRank(selected, (d) => d.input)) {
    try {
      // Everything of one document is read before anything is added, so a throw adds nothing.
      const contribution = readDocumentContribution(doc);
      diagnostics.push(...contribution.diagnostics);
      all.push(...contribution.hooks);
      if (contribution.settings) merge.add(contribution.settings);
    } catch (error) {
      diagnostics.push(loadFailed(doc, error));
    }
  }
  return assembleHookConfig(all, merge, diagnostics, options);
}

/** Backstop (docs/security.md): one source that throws must not take the others down. */
function loadFailed(doc: ConfigDocument, error: unknown): ConfigDiagnostic {
  const where =
    doc.input.kind === 'settingsValue'
      ? { ...(doc.input.file !== undefined ? { file: doc.input.file } : {}), displayFile: SETTINGS_LABELS[doc.input.scope] }
      : { file: doc.input.file, displayFile: doc.input.displayFile };
  return {
    ...where,
    jsonPath: '',
    severity: 'error',
    code: 'loadFailed',
    message: `could not be loaded (${describeThrown(error)}); it contributes nothing, the other sources still load`,
  };
}
