import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import type { EnabledPluginProblem } from './claudeSettingsReader';
import type { ParsedConfigFile } from './configFileParse';
import { isFatalConfigError, type BrokenConfigFile } from './lastGoodConfig';

/**
 * One Claude settings file's `enabledPlugins` as a configuration load read it: the plugin loader
 * takes these instead of reading the settings files itself, so each file is read and parsed once
 * per load, and a broken file's last good version decides its plugins as it decides its hooks.
 */
export interface EnabledPluginsRead {
  /** The `true`/`false` entries in file order. */
  readonly entries: readonly { readonly id: string; readonly on: boolean }[];
  /** Entries (or an `enabledPlugins` value) that are ignored, each to be reported once. */
  readonly problems: readonly EnabledPluginProblem[];
  /**
   * Set for a file that is no hook source of this load (left out by `hookwise.hooks.sources`) and
   * could not be read as written: no hook diagnostic reports it, so the plugin loader does.
   */
  readonly fileProblem?: string;
}

/** What the load found wrong with a file it read only for its `enabledPlugins`. */
export interface UnselectedFileErrors {
  readonly ioDiagnostics: readonly ConfigDiagnostic[];
  readonly broken: readonly BrokenConfigFile[];
}

const NONE: EnabledPluginsRead = { entries: [], problems: [] };

/** The `enabledPlugins` of a parsed settings file (none for a missing or unreadable one). */
export function enabledPluginsOf(parsed: ParsedConfigFile | undefined, unselected?: UnselectedFileErrors): EnabledPluginsRead {
  const content = parsed?.kind === 'settings' ? parsed.content : undefined;
  const read: EnabledPluginsRead =
    content === undefined ? NONE : { entries: (content.enabledPlugins ?? []).map(({ id, on }) => ({ id, on })), problems: content.enabledPluginProblems ?? [] };
  if (unselected === undefined) return read;
  const broken = unselected.broken[0];
  const error = broken?.error ?? unselected.ioDiagnostics[0] ?? content?.diagnostics.find(isFatalConfigError);
  if (error === undefined) return read;
  const standIn = broken?.inForce === 'lastGood' ? 'its last good version says which plugins are on' : 'only what can still be read from it counts';
  return { ...read, fileProblem: `${error.message.split(';')[0] ?? error.message}; ${standIn}` };
}
