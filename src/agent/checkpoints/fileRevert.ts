import { promises as fs } from 'node:fs';
import path from 'node:path';
import { errnoCode } from '../tools/fsErrors';
import { isInsideDir, realpathLenient } from '../tools/workspacePaths';
import type { FileReviewState, RestoreReport, TurnFile } from './checkpointStore';
import type { Snapshot } from './fileSnapshot';
import { MAX_SNAPSHOT_BYTES, readSnapshot, sameContent, snapshotSize } from './fileSnapshot';

/** A file a turn changed, as the store keeps it: the copy before its first change and after its last. */
export interface MutableTurnFile {
  readonly path: string;
  readonly before: Snapshot;
  after: Snapshot;
  state: FileReviewState;
}

/** A report being filled in. */
export type ReportBuilder = {
  restored: RestoreReport['restored'][number][];
  conflicts: RestoreReport['conflicts'][number][];
  failed: RestoreReport['failed'][number][];
};

/** An empty report to fill in. */
export function emptyReport(): ReportBuilder {
  return { restored: [], conflicts: [], failed: [] };
}

/** A file restored in one turn and found conflicting in an older one is reported once, by its final outcome. */
export function dedupe(report: ReportBuilder): RestoreReport {
  const conflicts = report.conflicts.filter((c, i, all) => all.findIndex((o) => o.path === c.path) === i);
  const failed = report.failed.filter((c, i, all) => all.findIndex((o) => o.path === c.path) === i);
  const restored = report.restored.filter((r, i, all) => all.findLastIndex((o) => o.path === r.path) === i);
  return { restored, conflicts, failed };
}

/** The file as the store reports it: what kind of change, and why it cannot be undone, if so. */
export function describe(f: MutableTurnFile): TurnFile {
  const change = f.before.kind === 'missing' ? 'created' : f.after.kind === 'missing' ? 'deleted' : 'modified';
  const unrestorable =
    f.before.kind === 'unavailable'
      ? `no copy of it was kept: ${f.before.reason}`
      : f.after.kind === 'unavailable'
        ? `no copy of what the agent wrote was kept: ${f.after.reason}`
        : undefined;
  return { path: f.path, change, state: f.state, before: f.before, after: f.after, ...(unrestorable ? { unrestorable } : {}) };
}

/**
 * Why `file` may not be written now, or undefined: where it really lands today must be inside
 * `root` (a folder swapped for a symlink after the edit, or a tampered journal, must not carry
 * the undo outside the workspace). The file tools admit a path by the same real-path rule.
 */
export async function outsideRoot(file: string, root: string): Promise<string | undefined> {
  if (!path.isAbsolute(file)) return `its recorded path is not absolute; nothing was written`;
  const rootReal = await realpathLenient(path.resolve(root));
  const real = await realpathLenient(path.normalize(file));
  if (isInsideDir(rootReal, real)) return undefined;
  const via = real !== path.normalize(file) ? ` (it now resolves to ${real} through a symlink)` : '';
  return `it is outside the workspace ${root}${via}; nothing was written`;
}

/**
 * Puts one file back to its `before`, if it still holds its `after` and (with `root`) still
 * resolves inside the workspace; records the outcome.
 */
export async function revert(f: MutableTurnFile, report: ReportBuilder, root?: string): Promise<void> {
  if (f.state === 'undone') return;
  const d = describe(f);
  if (d.unrestorable) {
    report.failed.push({ path: f.path, reason: `cannot be undone: ${d.unrestorable}` });
    return;
  }
  const outside = root === undefined ? undefined : await outsideRoot(f.path, root);
  if (outside) {
    report.failed.push({ path: f.path, reason: `cannot be undone: ${outside}` });
    return;
  }
  const now = await readSnapshot(f.path, Math.max(MAX_SNAPSHOT_BYTES, snapshotSize(f.after)));
  if (!sameContent(now, f.after)) {
    f.state = 'conflict';
    const reason =
      now.kind === 'missing'
        ? 'it was deleted after the agent wrote it'
        : 'it changed after the agent wrote it (your edit, or a later turn); your version was kept';
    report.conflicts.push({ path: f.path, reason });
    return;
  }
  try {
    if (f.before.kind === 'missing') {
      await fs.rm(f.path, { force: true });
      report.restored.push({ path: f.path, action: 'deleted' });
    } else if (f.before.kind === 'bytes') {
      await fs.mkdir(path.dirname(f.path), { recursive: true });
      // In place (not a rename): the file keeps its mode, owner and hard links.
      await fs.writeFile(f.path, f.before.bytes);
      report.restored.push({ path: f.path, action: f.after.kind === 'missing' ? 'recreated' : 'restored' });
    }
    f.state = 'undone';
  } catch (err) {
    report.failed.push({ path: f.path, reason: `could not be written back (${errnoCode(err) ?? 'error'})` });
  }
}
