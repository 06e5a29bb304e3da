import * as vscode from 'vscode';
import { HOOK_FORMAT_IDS, type HookFormatId } from '../../hooks/formats/hookFormat';
import { policySetValue } from '../../settings/settingPolicies';

/**
 * `hookwise.hooks.formats` as it binds: a VS Code policy value, else the user's value, else every
 * format. A workspace value is ignored (and said in `warn`): a cloned repository must neither
 * switch on a format the user turned off, nor switch off the user's own `~/.cursor/hooks.json`.
 */
export function effectiveHookFormats(warn: (message: string) => void): HookFormatId[] {
  const configuration = vscode.workspace.getConfiguration();
  const inspected = configuration.inspect<unknown>('hookwise.hooks.formats');
  const policy = policySetValue(inspected, configuration.get('hookwise.hooks.formats'), [...HOOK_FORMAT_IDS]);
  if (inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined)
    warn('hookwise.hooks.formats in workspace settings is ignored: only your user settings (or a policy) choose which agents’ hook files are read');
  const raw = policy !== undefined ? policy.value : (inspected?.globalValue ?? [...HOOK_FORMAT_IDS]);
  const known = new Set<string>(HOOK_FORMAT_IDS);
  return Array.isArray(raw) ? raw.filter((f): f is HookFormatId => typeof f === 'string' && known.has(f)) : [...HOOK_FORMAT_IDS];
}
