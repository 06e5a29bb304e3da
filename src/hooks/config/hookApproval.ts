import { createHash } from 'node:crypto';
import type { HookEvent } from '../hookEvent';
import { isProjectSource } from '../hookSource';
import type { HookHandlerConfig } from './hookConfigSchema';
import type { LoadedHook } from './loadedHook';

/**
 * Trust, the pure part (issue 5 item 5): project hooks run only once the user approved their
 * exact content. The key covers what the hook does (event, matcher, type, command or prompt,
 * model), not where it sits or its timeout, so reformatting a file or moving a hook between
 * project files does not ask again, and any change to what runs does.
 */

/** sha256 (hex) of the hook's behaviour-defining content. */
export function hookApprovalKey(hook: { readonly event: HookEvent; readonly matcher?: string; readonly handler: HookHandlerConfig }): string {
  const { handler } = hook;
  const body = handler.type === 'command' ? handler.command : handler.prompt;
  const model = handler.type === 'command' ? '' : (handler.model ?? '');
  // JSON array, so no field can bleed into the next (`a|b` + `c` ≠ `a` + `b|c`).
  const canonical = JSON.stringify([hook.event, hook.matcher ?? '', handler.type, body, model]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** Result of comparing loaded hooks with the approved set. */
export interface ApprovalDiff {
  /** Project hooks whose hash is not approved: held until the user approves (never run). */
  readonly newOrChanged: LoadedHook[];
  /** Hooks that may run: approved project hooks plus every non-project hook (user sources need no approval). */
  readonly approved: LoadedHook[];
}

/**
 * Splits `hooks` into those that may run and the project hooks awaiting approval.
 * `approvedHashes` is the set kept in workspace state.
 */
export function diffApprovals(hooks: readonly LoadedHook[], approvedHashes: Iterable<string>): ApprovalDiff {
  const approvedSet = approvedHashes instanceof Set ? (approvedHashes as ReadonlySet<string>) : new Set(approvedHashes);
  const newOrChanged: LoadedHook[] = [];
  const approved: LoadedHook[] = [];
  for (const hook of hooks) {
    if (!isProjectSource(hook.source) || approvedSet.has(hook.hash)) approved.push(hook);
    else newOrChanged.push(hook);
  }
  return { newOrChanged, approved };
}

/** The hashes to store after the user approved `hooks` (keeps earlier approvals still in use). */
export function approvedHashesAfter(previous: Iterable<string>, approvedNow: readonly LoadedHook[], stillLoaded: readonly LoadedHook[]): string[] {
  const live = new Set(stillLoaded.map((h) => h.hash));
  const result = new Set<string>();
  for (const hash of previous) if (live.has(hash)) result.add(hash);
  for (const hook of approvedNow) result.add(hook.hash);
  return [...result];
}
