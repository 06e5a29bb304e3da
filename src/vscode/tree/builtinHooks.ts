import type { HookRunRecord } from '../../hooks/hookRunTypes';

/**
 * Which hook runs are noise: the built-in limit hooks (src/agent/defaultLimits.ts) run on every
 * step and almost never decide anything. Pure (no vscode) so the tree and the chat share it.
 */

/** Registration ids of built-in hooks start with this (`builtin.maxSteps`, …). */
export const BUILTIN_HOOK_ID_PREFIX = 'builtin.';

/** True for a hook registered by Hookwise itself (code source, `builtin.` id), not by the user. */
export function isBuiltinHookRun(record: HookRunRecord): boolean {
  return record.source.kind === 'code' && record.hookId.startsWith(BUILTIN_HOOK_ID_PREFIX);
}

/**
 * True when the run did something a user should see: a decision, a failure, a message for
 * the user or the model, a rewrite. A running hook has not decided yet.
 */
export function runDecidedSomething(record: HookRunRecord): boolean {
  if (record.status === 'running') return false;
  if (record.status !== 'ok') return true;
  const o = record.outcome;
  if (!o) return false;
  return (
    o.decision !== undefined ||
    o.systemMessage !== undefined ||
    o.additionalContext !== undefined ||
    o.updatedInput !== undefined ||
    o.updatedResult !== undefined ||
    (o.messagesToInject?.length ?? 0) > 0
  );
}

/** A built-in run that decided nothing: hidden unless the user turns on "Show Built-in Hooks". */
export function isQuietBuiltinRun(record: HookRunRecord): boolean {
  return isBuiltinHookRun(record) && !runDecidedSomething(record);
}
