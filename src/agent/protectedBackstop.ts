import path from 'node:path';
import type { AgentRef } from '../hooks/hookRunTypes';
import type { PermissionGate } from './permissionGate';
import type { HookActivityMark } from './hookActivity';
import type { ProtectedChange, ProtectedSnapshot, ProtectedSnapshots } from './protectedSnapshot';
import { isPolicyFile } from './protectedPolicyFiles';
import type { RunContext } from './runContext';

/**
 * What happens when a tool call changed a protected file without a person approving that
 * (protectedSnapshot.ts found it): the person is asked "keep or revert" (Allow keeps, Deny
 * reverts); with nobody to ask (headless, a closed prompt, a failed provider) the file is
 * reverted. Either way the model is told in the tool result, and a system message logs it
 * (the CLI's stream/stderr, the chat, the transcript through the tool result).
 */

/** A snapshot taken before a call, with where hook activity stood then. */
export interface WatchedCall {
  readonly before: ProtectedSnapshot;
  readonly hooks: HookActivityMark | undefined;
}

/**
 * The snapshot to compare after a tool runs, or undefined when the call is not watched: a
 * read-only tool never writes on its own (the Agent, todo and task tools are read-only; the
 * Agent tool's subagents check their own calls).
 */
export function watchProtected(ctx: RunContext, readOnly: boolean): WatchedCall | undefined {
  if (!ctx.protectedSnapshots || readOnly) return undefined;
  return { before: ctx.protectedSnapshots.take(), hooks: ctx.protectedSnapshots.hookMark() };
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
  watched: WatchedCall,
  toolName: string,
  toolInput: Readonly<Record<string, unknown>>,
): Promise<string | undefined> {
  const snapshots = scope.ctx.protectedSnapshots as ProtectedSnapshots;
  let changes = snapshots.changes(watched.before);
  // A hook that ran meanwhile (an async or FileChanged hook appending to its log under .claude)
  // is approved code: its writes to data files are its own. Policy files stay strict whoever wrote them.
  if (changes.length > 0 && snapshots.hookRanSince(watched.hooks)) {
    const config = snapshots.configFiles();
    changes = changes.filter((c) => isPolicyFile(c, config));
  }
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
