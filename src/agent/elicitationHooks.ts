import type { HookEventResult } from '../hooks/hookRunTypes';
import { hookSpecificValues } from './hookSpecificFields';

/** How an MCP elicitation is answered (MCP's `ElicitResult` fields). */
export interface ElicitationAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, unknown>>;
}

const ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

/**
 * What Elicitation (or ElicitationResult) hooks made of an MCP server's request, as Claude
 * Code reads it: a block (exit 2, `decision: "block"`) declines; else the last hook's
 * `hookSpecificOutput.action` (with `content`) answers in place of the user (Elicitation) or
 * replaces the user's answer (ElicitationResult); undefined leaves it to the user.
 */
export function elicitationHookAnswer(result: HookEventResult): ElicitationAnswer | undefined {
  if (result.decision === 'deny' || result.decision === 'stop') return { action: 'decline' };
  const actions = hookSpecificValues(result, 'action').filter((a) => ACTIONS.has(a)) as ElicitationAnswer['action'][];
  const action = actions.at(-1);
  if (action === undefined) return undefined;
  const content = hookSpecificValues(result, 'content')
    .filter((c): c is Record<string, unknown> => c !== null && typeof c === 'object' && !Array.isArray(c))
    .at(-1);
  return content !== undefined && action === 'accept' ? { action, content } : { action };
}
