import { HOOKWISE_SETTINGS } from './hookwiseSettingsSchema';
import type { HookSourceKey } from '../hooks/config/hookSourceKeys';
import { policySetValue, SETTING_POLICIES, type InspectedSetting } from './settingPolicies';
import type { WorkspaceHookSwitches } from '../hooks/config/workspaceNarrowing';

/** The three settings a workspace may only narrow (workspaceNarrowing.ts). */
export type HookSwitchKey = 'hookwise.hooks.enabled' | 'hookwise.hooks.sources' | 'hookwise.hooks.disabled';

/** What VS Code tells about one setting: every layer (`inspect`) and the merged value (`get`, which a policy wins). */
export interface SettingLayers {
  readonly inspected: InspectedSetting | undefined;
  readonly effective: unknown;
}

/** The switches split by who set them: the user's (user settings or a VS Code policy) bind everything, the workspace's narrow. */
export interface HookSwitchLayers {
  readonly enabled: boolean;
  readonly sources: HookSourceKey[];
  readonly disabledHooks: string[];
  readonly workspace?: WorkspaceHookSwitches;
  /** Values of the wrong type, for the log. */
  readonly problems: string[];
}

/**
 * Splits `hookwise.hooks.enabled`, `.sources` and `.disabled` into the user level and the
 * workspace level, instead of VS Code's merge (where a workspace value replaces the user's). A
 * VS Code policy value is the user level and the workspace's is dropped, as VS Code drops it.
 * Workspace and folder values combine so each can only narrow: any `false`, the sources both
 * keep, every switched-off id. `file` is the workspace settings file, for the loader's warnings.
 */
export function splitHookSwitchLayers(read: (key: HookSwitchKey) => SettingLayers, file?: string): HookSwitchLayers {
  const problems: string[] = [];
  const layers = <T>(key: HookSwitchKey): { user: T; workspace: T[] } => {
    const schema = HOOKWISE_SETTINGS[key].schema;
    const fallback = schema.parse(undefined) as T;
    const { inspected, effective } = read(key);
    const parse = (value: unknown, layer: string): T | undefined => {
      if (value === undefined) return undefined;
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data as T;
      problems.push(`${key} in ${layer}: ${parsed.error.issues[0]?.message ?? 'invalid value'}; ignored`);
      return undefined;
    };
    const policy = SETTING_POLICIES[key] !== undefined ? policySetValue(inspected, effective, fallback) : undefined;
    if (policy !== undefined) return { user: parse(policy.value, 'the VS Code policy') ?? fallback, workspace: [] };
    const workspace = [parse(inspected?.workspaceValue, 'workspace settings'), parse(inspected?.workspaceFolderValue, 'folder settings')];
    return { user: parse(inspected?.globalValue, 'user settings') ?? fallback, workspace: workspace.filter((v): v is T => v !== undefined) };
  };
  const enabled = layers<boolean>('hookwise.hooks.enabled');
  const sources = layers<HookSourceKey[]>('hookwise.hooks.sources');
  const disabled = layers<string[]>('hookwise.hooks.disabled');
  const ws: { -readonly [K in keyof WorkspaceHookSwitches]: WorkspaceHookSwitches[K] } = {};
  if (enabled.workspace.length > 0) ws.enabled = enabled.workspace.every(Boolean);
  if (sources.workspace.length > 0) ws.sources = sources.workspace.reduce((kept, list) => kept.filter((k) => list.includes(k)));
  if (disabled.workspace.length > 0) ws.disabledHooks = [...new Set(disabled.workspace.flat())];
  const any = Object.keys(ws).length > 0;
  if (any && file !== undefined) ws.file = file;
  return { enabled: enabled.user, sources: sources.user, disabledHooks: disabled.user, ...(any ? { workspace: ws } : {}), problems };
}
