import type { HookwiseSettingKey } from './hookwiseSettingsSchema';

/** VS Code's `policy` of one setting in `contributes.configuration` (group policy / `policy.json` name). */
export interface SettingPolicy {
  /** Policy name, unique across every VS Code setting: `Hookwise…` so it never clashes with another extension's. */
  readonly name: string;
  /** The VS Code version the policy applies from: Hookwise's own minimum (`engines.vscode`). */
  readonly minimumVersion: `${number}.${number}`;
  /** What an administrator locks with it, in a sentence. */
  readonly description: string;
}

const SINCE = '1.106';

/**
 * The `hookwise.*` settings an organisation can lock through VS Code's own policy mechanism
 * (Windows group policy, macOS profiles, Linux `policy.json`): those that decide what runs
 * without asking, where code and prompts go, and what is kept on disk. A policy value wins over
 * user and workspace values (VS Code applies it) and Show Effective Hooks lists it as managed.
 * Not here: `hookwise.hooks` and `hookwise.hooks.disabled` (a user's own hooks and switches; an
 * organisation's hooks belong in managed-settings.json, which no switch turns off), and
 * `hookwise.mcp.servers` (VS Code merges object values with the user's, so a policy could not
 * take a user's server away; managed-settings.json governs servers).
 */
export const SETTING_POLICIES: Readonly<Partial<Record<HookwiseSettingKey, SettingPolicy>>> = {
  'hookwise.hooks.enabled': {
    name: 'HookwiseHooksEnabled',
    minimumVersion: SINCE,
    description: 'Whether configured hooks run (this switch); lock it on. Hooks that must always run belong in managed-settings.json.',
  },
  'hookwise.hooks.sources': {
    name: 'HookwiseHookSources',
    minimumVersion: SINCE,
    description: 'Which configuration sources hooks are read from, e.g. leave out project hooks.',
  },
  'hookwise.hooks.formats': {
    name: 'HookwiseHookFormats',
    minimumVersion: SINCE,
    description: "Which other agents' hook files (Copilot, Cursor, Windsurf, …) are read and run; an empty list reads none.",
  },
  'hookwise.plugins.directories': {
    name: 'HookwisePluginDirectories',
    minimumVersion: SINCE,
    description: 'Local Claude Code plugin folders whose hooks, commands and MCP servers load; an empty list loads none.',
  },
  'hookwise.model.provider': {
    name: 'HookwiseModelProvider',
    minimumVersion: SINCE,
    description: 'Where the agent model comes from (an OpenAI-compatible endpoint, VS Code language models, the playground).',
  },
  'hookwise.model.baseUrl': {
    name: 'HookwiseModelBaseUrl',
    minimumVersion: SINCE,
    description: 'The OpenAI-compatible endpoint prompts and code are sent to.',
  },
  'hookwise.permissions.mode': {
    name: 'HookwisePermissionsMode',
    minimumVersion: SINCE,
    description: 'The permission mode sessions start in; lock it to default so nobody starts in bypassPermissions.',
  },
  'hookwise.permissions.askFallback': {
    name: 'HookwisePermissionsAskFallback',
    minimumVersion: SINCE,
    description: 'What a permission question nobody can answer becomes; lock it to deny.',
  },
  'hookwise.vscodeTools.enabled': {
    name: 'HookwiseVscodeToolsEnabled',
    minimumVersion: SINCE,
    description: "Which tools of VS Code's tool registry (other extensions' tools) the agent may call.",
  },
  'hookwise.mcp.trustReadOnlyHint': {
    name: 'HookwiseMcpTrustReadOnlyHint',
    minimumVersion: SINCE,
    description: 'Whether MCP tools that declare readOnlyHint run without asking; lock it off.',
  },
  'hookwise.hookRuns.keepHistory': {
    name: 'HookwiseKeepHookRunHistory',
    minimumVersion: SINCE,
    description: "Whether hook inputs and outputs are kept in the workspace's storage; lock it off to keep them off the disk.",
  },
  'hookwise.telemetry.enabled': {
    name: 'HookwiseTelemetryEnabled',
    minimumVersion: SINCE,
    description: "Whether every session's hook decisions are exported as OpenTelemetry spans; lock it on to audit all agents.",
  },
  'hookwise.telemetry.endpoint': {
    name: 'HookwiseTelemetryEndpoint',
    minimumVersion: SINCE,
    description: "The OTLP/HTTP endpoint the spans go to: the organisation's own collector.",
  },
};

/** What `WorkspaceConfiguration.inspect` and `get` tell about one setting (kept free of the vscode module). */
export interface InspectedSetting {
  readonly defaultValue?: unknown;
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The value a VS Code policy sets for a setting, or undefined when none does. VS Code's extension
 * API has no `policyValue`: `inspect()` reports a policy value as `defaultValue`, and `get()`
 * returns it over every user and workspace value. So a policy is set when the reported default
 * is not the contributed one, or when `get()` differs from what the layers alone give (a policy
 * equal to the default still overrides a user's value).
 */
export function policySetValue(inspected: InspectedSetting | undefined, effective: unknown, contributedDefault: unknown): { value: unknown } | undefined {
  if (inspected === undefined) return undefined;
  if (!same(inspected.defaultValue, contributedDefault)) return { value: inspected.defaultValue };
  const layered = inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue ?? inspected.defaultValue;
  // Object values merge across layers, so only a scalar or array comparison is exact.
  if (typeof effective !== 'object' || Array.isArray(effective)) if (!same(effective, layered)) return { value: effective };
  return undefined;
}
