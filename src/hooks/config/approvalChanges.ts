import { z } from 'zod';
import { describeSource } from '../../configFiles/hookSource';
import { canonicalJson } from './hookApproval';
import type { LoadedHook } from './loadedHook';

/**
 * What an approval pinned, kept next to its key so a later change can be shown as a change
 * ("timeout 5 → 600", "script .claude/hooks/check.sh changed") instead of an unexplained
 * new hook (docs/security.md). Pure data, stored in workspace state.
 */
export interface ApprovedHookRecord {
  readonly hash: string;
  /** `describeSource` of where the hook was when approved, to find it again. */
  readonly location: string;
  readonly event: string;
  readonly matcher?: string;
  readonly agentType?: string;
  readonly handler: Readonly<Record<string, unknown>>;
  readonly scripts: readonly { readonly path: string; readonly digest: string; readonly target?: string }[];
}

/** Stored records are outside input (workspace state): validated, anything malformed is dropped. */
export const approvedHookRecordSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  location: z.string().max(10_000),
  event: z.string().max(200),
  matcher: z.string().optional(),
  agentType: z.string().optional(),
  handler: z.record(z.string(), z.unknown()),
  scripts: z.array(z.object({ path: z.string(), digest: z.string(), target: z.string().optional() })).max(1000),
});

/** The record of an approved hook. */
export function approvalRecordOf(hook: LoadedHook): ApprovedHookRecord {
  return {
    hash: hook.hash,
    location: describeSource(hook.source),
    event: hook.event,
    ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
    ...(hook.agentType !== undefined ? { agentType: hook.agentType } : {}),
    handler: { ...hook.handler },
    scripts: (hook.scripts ?? []).map((s) => ({ path: s.path, digest: s.digest, ...(s.target !== undefined ? { target: s.target } : {}) })),
  };
}

/**
 * What changed since `hook` was last approved, one short phrase each, or [] when no earlier
 * approval of it is known (a new hook). The earlier approval is the one at the same place
 * (file and JSON path), else one with the same command or prompt.
 */
export function describeApprovalChanges(hook: LoadedHook, records: Iterable<ApprovedHookRecord>): string[] {
  const list = [...records];
  const location = describeSource(hook.source);
  const body = bodyOf(hook.handler);
  const previous = list.find((r) => r.location === location) ?? list.find((r) => r.event === hook.event && bodyOf(r.handler) === body);
  if (!previous || previous.hash === hook.hash) return [];
  const changes: string[] = [];
  if (previous.event !== hook.event) changes.push(`event ${previous.event} → ${hook.event}`);
  if ((previous.matcher ?? '') !== (hook.matcher ?? '')) changes.push(`matcher ${show(previous.matcher)} → ${show(hook.matcher)}`);
  if ((previous.agentType ?? '') !== (hook.agentType ?? '')) changes.push(`agent ${show(previous.agentType)} → ${show(hook.agentType)}`);
  const handler: Readonly<Record<string, unknown>> = hook.handler;
  for (const key of [...new Set([...Object.keys(previous.handler), ...Object.keys(handler)])].sort()) {
    const before = previous.handler[key];
    const after = handler[key];
    if (canonicalJson(before) !== canonicalJson(after)) changes.push(`${key} ${show(before)} → ${show(after)}`);
  }
  const beforeScripts = new Map(previous.scripts.map((s) => [s.path, s]));
  const afterScripts = new Map((hook.scripts ?? []).map((s) => [s.path, s]));
  for (const [file, pin] of afterScripts) {
    const old = beforeScripts.get(file);
    if (!old) changes.push(`script ${file} is new${pin.digest === 'missing' ? ' (missing)' : ''}`);
    else if (old.digest !== pin.digest || (old.target ?? '') !== (pin.target ?? ''))
      changes.push(
        pin.digest === 'missing'
          ? `script ${file} was deleted`
          : old.digest === 'missing'
            ? `script ${file} was created`
            : (old.target ?? '') !== (pin.target ?? '')
              ? `script ${file} now points to ${pin.target ?? 'itself'}`
              : `script ${file} changed`,
      );
  }
  for (const file of beforeScripts.keys()) if (!afterScripts.has(file)) changes.push(`script ${file} no longer named`);
  return changes.length > 0 ? changes : ['changed'];
}

function bodyOf(handler: Readonly<Record<string, unknown>>): unknown {
  return handler.type === 'command' ? handler.command : handler.type === 'http' ? handler.url : handler.prompt;
}

/** A value in a change phrase: short, quoted when text, `(unset)` when absent. */
function show(value: unknown): string {
  if (value === undefined) return '(unset)';
  const text = typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
