import { createHash } from 'node:crypto';
import type { HookEvent } from '../hookEvent';
import { isProjectSource } from '../../configFiles/hookSource';
import type { HookHandlerConfig } from './hookConfigSchema';
import type { LoadedFormatHook, LoadedHook } from './loadedHook';
import type { ScriptPin } from './scriptPins';

/**
 * Trust, the pure part: project hooks run only once the
 * user approved their exact definition. The key covers every field of the handler (type,
 * command/prompt, timeout, async, continueOnFailure, priority, enabled, model, …), the event,
 * the matcher, the agent scope, and the content of the workspace scripts the command names
 * (scriptPins.ts), not where the hook sits: reformatting a file or moving a hook between
 * project files does not ask again, and any change to what runs or how does.
 */

/** What the key covers. */
export interface ApprovalSubject {
  readonly event: HookEvent;
  readonly matcher?: string;
  readonly handler: HookHandlerConfig;
  readonly agentType?: string;
  readonly skill?: string;
  /** Pinned scripts (loadHookConfig fills these for project hooks); absent = none pinned. */
  readonly scripts?: readonly ScriptPin[];
  /** Another agent's hook: its native event, matcher, options, cwd and env are part of what runs. */
  readonly format?: LoadedFormatHook;
}

/** Canonical JSON of a value with object keys sorted, so key order in the file does not matter. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** sha256 (hex) of the hook's whole definition plus its pinned scripts. */
export function hookApprovalKey(hook: ApprovalSubject): string {
  // JSON array, so no field can bleed into the next (`a|b` + `c` ≠ `a` + `b|c`).
  const scripts = (hook.scripts ?? []).map((p) => [p.path, p.digest, p.target ?? '']);
  const canonical = canonicalJson([
    'v2',
    hook.event,
    hook.matcher ?? '',
    hook.agentType ?? '',
    hook.handler,
    scripts,
    ...(hook.skill !== undefined ? [hook.skill] : []),
    ...(hook.format !== undefined ? [['format', hook.format]] : []),
  ]);
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

/** Trust state for project hooks: they run only in a trusted workspace, once approved. */
export interface TrustPolicy {
  /** VS Code Workspace Trust (a headless run counts as trusted). */
  readonly trusted: boolean;
  /** True when the user approved this exact project hook (content hash); absent = all approved. */
  readonly isApproved?: (hook: LoadedHook) => boolean;
}

/** A project hook kept from running, and why. */
export interface HeldHook {
  readonly hook: LoadedHook;
  readonly why: 'untrusted' | 'unapproved';
}

/**
 * The trust filter: every non-project hook runs; a project hook runs only in a trusted
 * workspace and once approved. The rest are `held`, in order, with the reason.
 */
export function filterByTrust(hooks: readonly LoadedHook[], trust: TrustPolicy): { readonly runnable: LoadedHook[]; readonly held: HeldHook[] } {
  const runnable: LoadedHook[] = [];
  const held: HeldHook[] = [];
  for (const hook of hooks) {
    if (!isProjectSource(hook.source)) runnable.push(hook);
    else if (!trust.trusted) held.push({ hook, why: 'untrusted' });
    else if (trust.isApproved && !trust.isApproved(hook)) held.push({ hook, why: 'unapproved' });
    else runnable.push(hook);
  }
  return { runnable, held };
}
