import path from 'node:path';
import type { AgentRef } from '../hooks/hookRunTypes';
import type { PermissionGate } from './permissions/permissionGate';
import type { ProtectedChange, ProtectedSnapshot, ProtectedSnapshots } from './protectedSnapshot';
import type { RunContext } from './runContext';

/**
 * What happens when a tool call changed a protected file without a person approving that
 * (protectedSnapshot.ts found it): the person is asked "keep or revert" (Allow keeps, Deny
 * reverts); with nobody to ask (headless, a closed prompt, a failed provider) the file is
 * reverted. Either way the model is told in the tool result, and a system message logs it
 * (the CLI's stream/stderr, the chat, the transcript through the tool result).
 */

/** Tools that never write on their own: no snapshot around them (the Agent tool's subagents check their own calls). */
const NOT_WATCHED = new Set(['Agent', 'Task', 'TodoWrite', 'TaskCreate', 'TaskUpdate', 'TaskGet', 'TaskList']);

/** The snapshot to compare after `toolName` runs, or undefined when the call is not watched. */
export function watchProtected(ctx: RunContext, toolName: string, readOnly: boolean): ProtectedSnapshot | undefined {
  if (!ctx.protectedSnapshots || readOnly || NOT_WATCHED.has(toolName)) return undefined;
  return ctx.protectedSnapshots.take();
}

/** What settling the changes needs. */
export interface BackstopScope {
  readonly ctx: RunContext;
  readonly agent: AgentRef;
  readonly gate: PermissionGate;
  readonly signal: AbortSignal;
}

/**
 * Compares the protected set with `before` after `toolName` ran; returns the note for the
 * model (appended to the tool result) or undefined when nothing protected changed.
 */
export async function settleProtectedChanges(
  scope: BackstopScope,
  before: ProtectedSnapshot,
  toolName: string,
  toolInput: Readonly<Record<string, unknown>>,
): Promise<string | undefined> {
  const snapshots = scope.ctx.protectedSnapshots as ProtectedSnapshots;
  const changes = snapshots.changes(before);
  if (changes.length === 0) return undefined;
  const names = changes.map((c) => describe(c, scope.ctx.projectDir)).join(', ');
  let kept = false;
  let why = scope.signal.aborted ? 'the run was stopped before anyone was asked' : 'nobody to ask (headless)';
  if (scope.ctx.asks.provider && !scope.signal.aborted) {
    const answer = await scope.gate.askUser(
      {
        event: 'PostToolUse',
        toolName,
        toolInput,
        reason: `${toolName} changed the agent's own configuration: ${names}. Allow keeps the change; Deny reverts it to what it was before the call.`,
      },
      scope.signal,
    );
    kept = answer.decision === 'allow';
    why = answer.decidedBy.kind === 'user' ? 'the user chose to revert it' : `nobody answered (${answer.reason ?? 'denied'})`;
  }
  let note: string;
  if (kept) note = `${toolName} changed ${names}, the agent's own configuration; the user chose to keep the change.`;
  else {
    const failures = changes.map((c) => snapshots.revert(c)).filter((f): f is string => f !== undefined);
    note =
      `Hookwise reverted ${names}: ${toolName} changed the agent's own configuration without the user's approval (${why}). ` +
      'Do not try to change these files another way; ask the user to change them if it is needed.' +
      (failures.length > 0 ? ` Not restored: ${failures.join('; ')}.` : '');
  }
  scope.ctx.emit({ type: 'systemMessage', agent: scope.agent, text: `Self-protection: ${note}`, source: 'protection' });
  return note;
}

/** `.claude/settings.json (changed)`, relative to the project when inside it. */
function describe(change: ProtectedChange, projectDir: string): string {
  const rel = path.relative(projectDir, change.path);
  const name = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : change.path;
  const { before, after } = change;
  const what = !before.exists
    ? 'created'
    : !after.exists
      ? 'deleted'
      : before.linkTarget !== after.linkTarget
        ? 'relinked'
        : before.hash !== after.hash
          ? 'changed'
          : 'mode changed';
  return `${name} (${what})`;
}
