import path from 'node:path';
import type { FileChange, TurnFile } from '../../agent/checkpoints/checkpointStore';
import { snapshotText } from '../../agent/checkpoints/fileSnapshot';
import type { Snapshot } from '../../agent/checkpoints/fileSnapshot';
import { diffLines } from '../../agent/checkpoints/lineDiff';
import type { ChatEvent, EditedFile } from '../../shared/webviewProtocol';

/**
 * The chat events of reviewable edits, built from a session's checkpoints. Pure (no
 * vscode), so it is unit-tested with vitest. Diffs are cut at {@link MAX_INLINE_DIFF_LINES}
 * lines: Open Diff shows the rest.
 */

/** Longest inline diff, in rendered lines. */
export const MAX_INLINE_DIFF_LINES = 300;

/** A path as the user reads it: relative to the workspace when inside it. */
export function displayPath(absPath: string, projectDir: string): string {
  const rel = path.relative(projectDir, absPath);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : absPath;
}

/** The inline diff of one Write/Edit call, for its card. */
export function fileDiffEvent(change: FileChange, agentId: string, projectDir: string): Extract<ChatEvent, { type: 'fileDiff' }> {
  const base = { type: 'fileDiff' as const, agentId, toolUseId: change.toolUseId, path: change.path, label: displayPath(change.path, projectDir) };
  const before = textOf(change.before);
  const after = textOf(change.after);
  if (before === undefined || after === undefined) {
    const note =
      change.before.kind === 'unavailable' || change.after.kind === 'unavailable'
        ? 'No inline diff: the file is too large to keep a copy of.'
        : 'No inline diff: binary file.';
    return { ...base, lines: [], added: 0, removed: 0, truncated: false, note };
  }
  const diff = diffLines(before, after, MAX_INLINE_DIFF_LINES);
  return { ...base, lines: [...diff.lines], added: diff.added, removed: diff.removed, truncated: diff.truncated };
}

/** A turn's changed files with their review state, for its summary. */
export function editSummaryEvent(checkpointId: number, files: readonly TurnFile[], projectDir: string): Extract<ChatEvent, { type: 'editSummary' }> {
  return {
    type: 'editSummary',
    checkpointId,
    files: files.map((f): EditedFile => {
      const before = textOf(f.before);
      const after = textOf(f.after);
      const counts = before !== undefined && after !== undefined ? diffLines(before, after, 0) : undefined;
      const note =
        f.unrestorable ?? (f.state === 'conflict' ? 'Changed since the agent wrote it (by you or a later turn): Undo left your version as it is.' : undefined);
      return {
        path: f.path,
        label: displayPath(f.path, projectDir),
        change: f.change,
        state: f.state,
        ...(counts ? { added: counts.added, removed: counts.removed } : {}),
        ...(note ? { note } : {}),
      };
    }),
  };
}

/** A snapshot as diffable text: an absent file is empty; binary or not kept is undefined. */
function textOf(s: Snapshot): string | undefined {
  return s.kind === 'missing' ? '' : snapshotText(s);
}
