import { isProjectSource } from '../../configFiles/hookSource';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { isProjectInput, sourceKeyOf, type ConfigSourceInput } from './configSources';
import { hookSwitchId, normaliseDisabledIds } from './hookSwitches';
import { HOOK_SOURCE_KEYS, type HookSourceKey } from './hookSourceKeys';
import type { LoadedHook } from './loadedHook';

/**
 * A workspace narrows, never loosens (docs/security.md): the workspace layer of
 * `hookwise.hooks.enabled`, `.sources` and `.disabled`, and a project file's `disableAllHooks`,
 * reach only what the project itself brought. Whatever would reach the user's hooks or sources
 * is ignored, and a warning diagnostic names the setting and the layer.
 */

/** The workspace (and folder) layer of the three switches, read only to narrow. */
export interface WorkspaceHookSwitches {
  /** `false` turns off the project's hooks; the user's keep running. */
  readonly enabled?: boolean;
  /** Leaving a key out skips only the project's inputs of that kind. */
  readonly sources?: readonly HookSourceKey[];
  /** Ids of the project's hooks to switch off; an id naming anything else is ignored. */
  readonly disabledHooks?: readonly string[];
  /** The settings file holding the values (`.vscode/settings.json`, a `.code-workspace`), so the warnings land on it. */
  readonly file?: string;
}

/** The diagnostic code of everything here: a workspace value that would loosen the user's policy, ignored. */
const CODE = 'cannotLoosen';
const WORKSPACE_LABEL = 'workspace settings';

/** What each source key names on the user's side, for the warnings. */
const USER_SIDE: Readonly<Record<HookSourceKey, string | undefined>> = {
  user: 'your user settings hookwise.hooks',
  claudeUser: '~/.claude/settings.json',
  project: undefined,
  local: undefined,
  workspace: undefined,
  agents: 'your agents and skills (~/.claude/agents, ~/.claude/skills)',
  plugins: 'your plugins',
};

/** True when `input` is read: the user-level `sources` govern every input, the workspace's only the project's own. */
export function isInputSelected(
  input: ConfigSourceInput,
  sources: readonly HookSourceKey[] | undefined,
  workspace: WorkspaceHookSwitches | undefined,
): boolean {
  const key = sourceKeyOf(input);
  if (key === undefined) return true;
  if (sources !== undefined && !sources.includes(key)) return false;
  return workspace?.sources === undefined || !isProjectInput(input) || workspace.sources.includes(key);
}

function warning(workspace: WorkspaceHookSwitches, jsonPath: string, message: string): ConfigDiagnostic {
  return {
    ...(workspace.file !== undefined ? { file: workspace.file } : {}),
    displayFile: WORKSPACE_LABEL,
    jsonPath,
    severity: 'warning',
    code: CODE,
    message,
  };
}

/** Warnings for the parts of a workspace `hookwise.hooks.sources` that cannot apply. */
export function workspaceSourcesWarnings(sources: readonly HookSourceKey[] | undefined, workspace: WorkspaceHookSwitches | undefined): ConfigDiagnostic[] {
  if (workspace?.sources === undefined) return [];
  const out: ConfigDiagnostic[] = [];
  for (const key of HOOK_SOURCE_KEYS) {
    const userOn = sources === undefined || sources.includes(key);
    const wsOn = workspace.sources.includes(key);
    const userSide = USER_SIDE[key];
    if (userOn && !wsOn && userSide !== undefined)
      out.push(
        warning(
          workspace,
          'hookwise.hooks.sources',
          key === 'agents' || key === 'plugins'
            ? `leaving out "${key}" here skips only the project's ${key}; ignored for ${userSide}: a workspace cannot drop the user's sources, they still load`
            : `leaving out "${key}" here is ignored: a workspace cannot drop the user's sources; ${userSide} still loads`,
        ),
      );
    if (!userOn && wsOn)
      out.push(
        warning(workspace, 'hookwise.hooks.sources', `"${key}" here is ignored: your user settings leave it out, and a workspace cannot add a source back`),
      );
  }
  return out;
}

/**
 * The workspace's `hookwise.hooks.disabled` ids that name a hook the project brought (`hooks`:
 * every loaded hook), and a warning for each id that names anything else: a user hook, or none
 * of the project's. An id shared by a project and a user hook is ignored too.
 */
export function workspaceSwitchIds(
  hooks: readonly LoadedHook[],
  workspace: WorkspaceHookSwitches | undefined,
): { ids: string[]; diagnostics: ConfigDiagnostic[] } {
  const ids = normaliseDisabledIds(workspace?.disabledHooks);
  if (workspace === undefined || ids.size === 0) return { ids: [], diagnostics: [] };
  const project = new Set<string>();
  const user = new Set<string>();
  for (const hook of hooks) (isProjectSource(hook.source) ? project : user).add(hookSwitchId(hook));
  const kept: string[] = [];
  const diagnostics: ConfigDiagnostic[] = [];
  [...ids].forEach((id, i) => {
    const at = `hookwise.hooks.disabled[${i}]`;
    if (user.has(id))
      diagnostics.push(
        warning(workspace, at, `"${id}" here is ignored: a workspace cannot switch off the user's hooks; it still runs (switch it off in your user settings)`),
      );
    else if (project.has(id)) kept.push(id);
    else diagnostics.push(warning(workspace, at, `"${id}" here is ignored: it names none of this project's hooks, and a workspace can switch off only those`));
  });
  return { ids: kept, diagnostics };
}

/**
 * The warning for a workspace `hookwise.hooks.enabled`: `false` reaches only the project's hooks
 * (`userHooks` of the user's still run), and `true` cannot undo the user's `false`.
 */
export function workspaceEnabledWarning(userEnabled: boolean | undefined, workspace: WorkspaceHookSwitches | undefined, userHooks: number): ConfigDiagnostic[] {
  if (workspace?.enabled === undefined) return [];
  if (workspace.enabled && userEnabled === false)
    return [warning(workspace, 'hookwise.hooks.enabled', 'true here is ignored: your user settings turn hooks off, and a workspace cannot turn them back on')];
  if (!workspace.enabled && userEnabled !== false && userHooks > 0)
    return [
      warning(
        workspace,
        'hookwise.hooks.enabled',
        `false here turns off only the project's hooks; ignored for the user's: a workspace cannot turn off the user's ${userHooks} hook(s), they still run`,
      ),
    ];
  return [];
}
