import type { CheckpointStore, RestoreReport } from './checkpoints/checkpointStore';
import type { Conversation } from './conversation';
import { MAIN } from './sessionHooks';
import type { TranscriptWriter } from './transcript';

/** What a rewind did: the prompt it removed (for the input box) and the files it put back. */
export type RewindResult =
  | { readonly ok: true; readonly prompt: string; readonly files: RestoreReport; readonly messagesRemoved: number }
  | { readonly ok: false; readonly error: string };

/** The session state a rewind or an undo changes (the session owns it all; `pendingContext` is changed in place). */
export interface CheckpointScope {
  readonly checkpoints: CheckpointStore;
  readonly conversation: Conversation;
  readonly transcript: TranscriptWriter;
  /** Context waiting for the next prompt (hook notes, undo notices). */
  readonly pendingContext: string[];
}

/**
 * Restore Checkpoint: the files the agent changed since prompt `checkpointId` go back (a
 * file changed meanwhile by someone else is left alone and reported), and the conversation
 * is cut to just before that prompt; the transcript records the cut, so a resumed session
 * continues from it. No hook fires (Claude Code fires none on /rewind either). The caller
 * makes sure no prompt is running.
 */
export async function rewindToCheckpoint(s: CheckpointScope, checkpointId: number): Promise<RewindResult> {
  const mark = s.checkpoints.markOf(checkpointId);
  const checkpoint = s.checkpoints.list().find((c) => c.id === checkpointId);
  if (!mark || !checkpoint) return { ok: false, error: `there is no checkpoint ${checkpointId} in this session` };
  if (mark.compactions !== s.checkpoints.compactions)
    return { ok: false, error: 'the conversation was compacted after this message, so it cannot be cut back to it; undo the files per turn instead' };
  const files = await s.checkpoints.restoreTo(checkpointId);
  const messagesRemoved = s.conversation.length - mark.length;
  s.conversation.truncate(mark.length);
  s.pendingContext.splice(0, s.pendingContext.length, ...mark.pendingContext);
  s.transcript.write({
    type: 'rewind',
    agent_id: MAIN.agentId,
    checkpoint: checkpointId,
    kept: mark.length,
    files_restored: files.restored.map((r) => r.path),
    ...(files.conflicts.length > 0 ? { files_conflicting: files.conflicts.map((c) => c.path) } : {}),
  });
  return { ok: true, prompt: checkpoint.prompt, files, messagesRemoved };
}

/**
 * Undo of one prompt's file changes (one file, or all), keeping the conversation. The model
 * is told at the next prompt, so it does not build on edits that are gone.
 */
export async function undoCheckpointEdits(s: CheckpointScope, checkpointId: number, filePath?: string): Promise<RestoreReport> {
  const report = await s.checkpoints.undo(checkpointId, filePath);
  const undone = report.restored.map((r) => r.path);
  if (undone.length > 0) {
    s.transcript.write({ type: 'file_undo', agent_id: MAIN.agentId, checkpoint: checkpointId, files: undone });
    s.pendingContext.push(`The user undid your changes to ${undone.join(', ')}: these files are back to how they were before that turn.`);
  }
  return report;
}
