/**
 * Who may choose the agent's model, as pure decisions (no `vscode` import; unit-tested). The
 * user's settings choose; a workspace's `.vscode/settings.json` (or `.code-workspace`) may
 * choose only what a person approved:
 * - `hookwise.model.provider`: an untrusted workspace's value is ignored; a trusted workspace's
 *   value that differs from the user's is asked about once per workspace and value (pinned).
 * - `hookwise.model.baseUrl`: the API key and the prompts go only to the origin of the user's
 *   own value (or the default), or to an origin a person approved for that key (pinned as
 *   origin + key fingerprint). Origins are compared parsed, never as strings.
 * - The workspace's `.hookwise/playground.json` is read only in a trusted workspace.
 */
import { parseEndpoint } from '../../model/endpointOrigin';

/** The providers Hookwise knows (`hookwise.model.provider`). */
export type ModelProviderId = 'openai-compatible' | 'vscode-lm' | 'playground';

/** One setting's value per layer, as `WorkspaceConfiguration.inspect` reports it. */
export interface SettingLayers<T> {
  /** User (or remote machine) value, else the default: what the user chose. */
  readonly user: T;
  /** The workspace's value (`.vscode/settings.json`, `.code-workspace`), when set. */
  readonly workspace: T | undefined;
}

/** A trusted workspace's earlier answer about its provider (`workspaceState`). */
export interface ProviderChoice {
  /** The workspace value the person answered about. */
  readonly provider: string;
  /** True: use the workspace's provider; false: keep the user's. */
  readonly use: boolean;
}

/** What to do about the provider. */
export type ProviderDecision =
  | {
      readonly kind: 'use';
      readonly provider: string;
      /** Set when a workspace value was ignored (untrusted, or the person kept their own). */
      readonly ignoredWorkspaceValue?: string;
    }
  | { readonly kind: 'ask'; readonly workspaceProvider: string; readonly userProvider: string };

/**
 * The provider to use: the user's, unless a trusted workspace sets another one that a person
 * approved for this workspace (`choice`); a workspace value nobody answered about yet is `ask`.
 */
export function decideProvider(layers: SettingLayers<string>, trusted: boolean, choice: ProviderChoice | undefined): ProviderDecision {
  const { user, workspace } = layers;
  if (workspace === undefined || workspace === user) return { kind: 'use', provider: user };
  if (!trusted) return { kind: 'use', provider: user, ignoredWorkspaceValue: workspace };
  if (choice?.provider !== workspace) return { kind: 'ask', workspaceProvider: workspace, userProvider: user };
  return choice.use ? { kind: 'use', provider: workspace } : { kind: 'use', provider: user, ignoredWorkspaceValue: workspace };
}

/** What to do about the endpoint the requests (and the key) would go to. */
export type EndpointDecision =
  /** `url` is the user's own origin, or one approved for this key. */
  | { readonly kind: 'send'; readonly url: string; readonly fromWorkspace: boolean }
  /** The workspace points elsewhere: ask before anything goes to `origin`. */
  | { readonly kind: 'ask'; readonly url: string; readonly origin: string; readonly userUrl: string }
  | { readonly kind: 'invalid'; readonly message: string };

/** Inputs of `decideEndpoint`. Empty strings mean "the default" (`defaultUrl`). */
export interface EndpointInputs {
  readonly baseUrl: SettingLayers<string>;
  readonly trusted: boolean;
  /** Where an empty base URL goes (OPENAI_BASE_URL, else OpenAI). */
  readonly defaultUrl: string;
  /** The key's fingerprint (`'none'` without a key). */
  readonly keyFingerprint: string;
  /** True when a person approved `origin` for the key with this fingerprint. */
  readonly isApproved: (origin: string, keyFingerprint: string) => boolean;
}

/**
 * Decides where the model requests go. An untrusted workspace's value is never used (VS Code
 * restricts the setting too). A trusted workspace's value is used as is when it has the user's
 * origin; any other origin needs an approval for this exact key.
 */
export function decideEndpoint(inputs: EndpointInputs): EndpointDecision {
  const orDefault = (value: string): string => (value.trim() === '' ? inputs.defaultUrl : value.trim());
  const userUrl = orDefault(inputs.baseUrl.user);
  const fromWorkspace = inputs.trusted && inputs.baseUrl.workspace !== undefined;
  const url = fromWorkspace ? orDefault(inputs.baseUrl.workspace ?? '') : userUrl;
  const parsed = parseEndpoint(url);
  if (!parsed.ok) return { kind: 'invalid', message: `hookwise.model.baseUrl: ${parsed.message}.` };
  if (!fromWorkspace) return { kind: 'send', url, fromWorkspace: false };
  const user = parseEndpoint(userUrl);
  if (user.ok && user.origin === parsed.origin) return { kind: 'send', url, fromWorkspace: true };
  if (inputs.isApproved(parsed.origin, inputs.keyFingerprint)) return { kind: 'send', url, fromWorkspace: true };
  return { kind: 'ask', url, origin: parsed.origin, userUrl };
}

/** The workspace's own playground script may be replayed only in a trusted workspace. */
export function workspacePlaygroundAllowed(trusted: boolean): boolean {
  return trusted;
}
