import { parsePermissionRule, ruleMatches, type PermissionContext, type PermissionRule } from '../permissions/permissionRules';
import type { HookEvent } from './hookEvent';

/** Events whose input names a tool call, the only ones an `if` condition can test. */
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest']);

/**
 * A handler's `if`: a permission rule (`Bash(git push:*)`, `Edit(src/**)`, `Read(.env)`)
 * tested against the event's tool call with the matcher the permission rules use, so a
 * condition and a deny rule written the same way select the same calls (for Bash: any simple
 * command of a compound one). Compiled once at bind time.
 */
export interface HookCondition {
  /** The rule as written. */
  readonly text: string;
  /** True when the call in `input` matches; false for inputs without a tool call. */
  test(input: Readonly<Record<string, unknown>>): boolean;
}

/** Parses `text`; a string error when it is not a permission rule. */
export function compileHookCondition(text: string, ctx: PermissionContext): HookCondition | string {
  const parsed = parsePermissionRule(text);
  if (!parsed.ok) return `"if": ${parsed.message}`;
  const rule: PermissionRule = parsed.rule;
  return {
    text,
    test(input) {
      const toolName = input['tool_name'];
      const toolInput = input['tool_input'];
      if (typeof toolName !== 'string' || toolInput === null || typeof toolInput !== 'object') return false;
      const cwd = typeof input['cwd'] === 'string' ? input['cwd'] : undefined;
      return ruleMatches(rule, toolName, toolInput as Record<string, unknown>, cwd === undefined ? ctx : { ...ctx, cwd });
    },
  };
}
