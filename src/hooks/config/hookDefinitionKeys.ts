import { hookApprovalKey, type ApprovalSubject } from './hookApproval';
import { readClaudeSettingsText } from './claudeSettingsReader';

/**
 * A hook's definition without its pinned scripts, agent scope or place in the file: what a
 * person wrote (Add Hook…, or typed in the editor). Two hooks with the same key read the same.
 */
export function hookDefinitionKey(hook: Pick<ApprovalSubject, 'event' | 'matcher' | 'handler'>): string {
  return hookApprovalKey({ event: hook.event, ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}), handler: hook.handler });
}

/** The definition keys of the hooks in a `.claude/settings*.json` text; a broken text yields the hooks still readable. Pure. */
export function settingsHookKeys(text: string): Set<string> {
  const { hooks } = readClaudeSettingsText(text, { displayFile: 'settings.json' });
  return new Set(hooks.map((h) => hookDefinitionKey(h)));
}
