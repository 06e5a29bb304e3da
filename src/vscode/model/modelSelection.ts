/**
 * A model choice ("Hookwise: Select Model…") and how it is written to the `hookwise.model.*`
 * settings. Scopes follow hookwiseSettingsSchema.ts: provider and name are `window`,
 * baseUrl `machine-overridable` (provider and baseUrl are restricted in untrusted workspaces), playgroundScript
 * `machine` — so that one is always a user setting, never something a cloned repository sets.
 */
import * as vscode from 'vscode';
import { z } from 'zod';

/** What the command writes; also accepted as its argument (tests, walkthrough links, other extensions). */
export const modelSelectionSchema = z.discriminatedUnion('provider', [
  z.strictObject({ provider: z.literal('openai-compatible'), baseUrl: z.url({ protocol: /^https?$/ }), name: z.string().trim().min(1) }),
  /** `name` is the model id from `vscode.lm.selectChatModels`; empty = the first available. */
  z.strictObject({ provider: z.literal('vscode-lm'), name: z.string().trim() }),
  /** `playgroundScript` is a file path; empty = `.hookwise/playground.json` in the workspace, else the built-in demo. */
  z.strictObject({ provider: z.literal('playground'), playgroundScript: z.string().trim() }),
]);

/** A validated model choice. */
export type ModelSelection = z.infer<typeof modelSelectionSchema>;

/** Keys under `hookwise.` and whether a workspace value of them can take effect at all. */
const keys = {
  provider: { key: 'model.provider', workspaceAllowed: true, restricted: true },
  baseUrl: { key: 'model.baseUrl', workspaceAllowed: true, restricted: true },
  name: { key: 'model.name', workspaceAllowed: true, restricted: false },
  playgroundScript: { key: 'model.playgroundScript', workspaceAllowed: false, restricted: false },
} as const;

/**
 * Where to write `spec`: user settings, unless this workspace already sets the key (and that
 * value is honoured here) — writing the user value then would change nothing the user sees.
 */
function targetFor(config: vscode.WorkspaceConfiguration, spec: (typeof keys)[keyof typeof keys]): vscode.ConfigurationTarget {
  if (!spec.workspaceAllowed || vscode.workspace.workspaceFolders === undefined) return vscode.ConfigurationTarget.Global;
  if (spec.restricted && !vscode.workspace.isTrusted) return vscode.ConfigurationTarget.Global;
  return config.inspect(spec.key)?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
}

/** The values a selection writes into the workspace's settings rather than the user's. */
export interface WorkspaceWrites {
  readonly provider?: string;
  readonly baseUrl?: string;
}

/**
 * What `writeModelSelection(selection)` would write into the workspace's settings (when the
 * workspace already sets the key). The person chose these values there, so the caller records
 * them as approved before writing.
 */
export function workspaceWritesOf(selection: ModelSelection): WorkspaceWrites {
  const config = vscode.workspace.getConfiguration('hookwise');
  const toWorkspace = (spec: (typeof keys)[keyof typeof keys]): boolean => targetFor(config, spec) === vscode.ConfigurationTarget.Workspace;
  return {
    ...(toWorkspace(keys.provider) ? { provider: selection.provider } : {}),
    ...(selection.provider === 'openai-compatible' && toWorkspace(keys.baseUrl) ? { baseUrl: selection.baseUrl } : {}),
  };
}

/** Writes `selection` (only the keys its provider uses; the others keep their values). */
export async function writeModelSelection(selection: ModelSelection): Promise<void> {
  const config = vscode.workspace.getConfiguration('hookwise');
  const write = async (spec: (typeof keys)[keyof typeof keys], value: string): Promise<void> => {
    await config.update(spec.key, value, targetFor(config, spec));
  };
  // Provider last: a listener reacting to it then already sees the matching name and URL.
  switch (selection.provider) {
    case 'openai-compatible':
      await write(keys.baseUrl, selection.baseUrl);
      await write(keys.name, selection.name);
      break;
    case 'vscode-lm':
      await write(keys.name, selection.name);
      break;
    case 'playground':
      await write(keys.playgroundScript, selection.playgroundScript);
      break;
  }
  await write(keys.provider, selection.provider);
}

/** The current settings as a selection (for defaults in the picker). */
export function currentModelSettings(): { readonly provider: string; readonly baseUrl: string; readonly name: string; readonly playgroundScript: string } {
  const config = vscode.workspace.getConfiguration('hookwise.model');
  return {
    provider: config.get<string>('provider', 'openai-compatible'),
    baseUrl: config.get<string>('baseUrl', ''),
    name: config.get<string>('name', ''),
    playgroundScript: config.get<string>('playgroundScript', ''),
  };
}
