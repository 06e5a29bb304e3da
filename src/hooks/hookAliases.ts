import { isHookEvent, type HookEvent } from './hookEvent';

/**
 * Every alternate spelling Hookwise accepts, in one table (docs/hooks.md "Other spellings"):
 * older event names, camelCase / snake_case event names, and older snake_case output field
 * names. Claude Code accepts none of these; they exist so hook collections written in those
 * spellings load unchanged. Config keys and output fields are normalised to Claude's names
 * at the boundary, so nothing past the readers sees an alias.
 */

/** Older event names (PascalCase after {@link pascalCase}) → the Hookwise event they mean. */
export const SEED_EVENT_ALIASES: Readonly<Record<string, HookEvent>> = {
  BeforeToolUse: 'PreToolUse',
  AfterToolUse: 'PostToolUse',
  UserInput: 'UserPromptSubmit',
  StepStart: 'BeforeStep',
  StepEnd: 'AfterStep',
  ShouldContinue: 'Stop',
  OnError: 'AgentFailed',
};

/** `pre_tool_use`, `preToolUse`, `PRE_TOOL_USE` → `PreToolUse`; anything else is returned with its first letter upper-cased. */
export function pascalCase(name: string): string {
  if (name.includes('_') || name.includes('-')) {
    return name
      .split(/[_-]+/)
      .filter((part) => part !== '')
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
      .join('');
  }
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * The event a config key names: the exact name, else its PascalCase form, else an older name.
 * Undefined when none applies (the caller reports it). Exact names never reach the alias
 * path, so the cost for ordinary files is one set lookup.
 */
export function resolveEventName(name: string): HookEvent | undefined {
  if (isHookEvent(name)) return name;
  const pascal = pascalCase(name);
  if (isHookEvent(pascal)) return pascal;
  return SEED_EVENT_ALIASES[pascal];
}

/** Older snake_case output fields → Claude's. `continue_execution: false` stops the agent like `continue: false`. */
export const OUTPUT_FIELD_ALIASES: Readonly<Record<string, string>> = {
  continue_execution: 'continue',
  stop_reason: 'stopReason',
  suppress_logging: 'suppressOutput',
  system_message: 'systemMessage',
};

/**
 * Rewrites older snake_case output field names to Claude's. When both spellings are present the
 * stricter wins for `continue` (false beats true: a stop must never be dropped) and Claude's
 * spelling wins for the rest. Returns the object unchanged when it has no alias (the usual case).
 */
export function normalizeOutputAliases(json: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [alias, canonical] of Object.entries(OUTPUT_FIELD_ALIASES)) {
    if (!(alias in json)) continue;
    out ??= { ...json };
    const value = out[alias];
    delete out[alias];
    if (canonical === 'continue') {
      if (out.continue === undefined || value === false) out.continue = value;
    } else if (out[canonical] === undefined) out[canonical] = value;
  }
  return out ?? json;
}
