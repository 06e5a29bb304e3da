import { promises as fs } from 'node:fs';
import { errnoCode } from '../tools/fsErrors';

/**
 * A file's content at one moment, as a checkpoint keeps it: absent, its exact bytes, or
 * not kept (too large, not a regular file, unreadable) with the reason shown to the user.
 */
export type Snapshot =
  { readonly kind: 'missing' } | { readonly kind: 'bytes'; readonly bytes: Buffer } | { readonly kind: 'unavailable'; readonly reason: string };

/** Largest file a checkpoint keeps a copy of; bigger files are listed but cannot be undone. */
export const MAX_SNAPSHOT_BYTES = 2 * 1024 * 1024;

/** Total bytes of copies a session keeps; past it, new copies are not kept (those files cannot be undone). */
export const MAX_CHECKPOINT_BYTES = 64 * 1024 * 1024;

/**
 * Reads `absPath` for a checkpoint, at most `maxBytes` (never the whole of a huge file).
 * Never throws: a read failure becomes an `unavailable` snapshot saying why.
 */
export async function readSnapshot(absPath: string, maxBytes = MAX_SNAPSHOT_BYTES): Promise<Snapshot> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(absPath, 'r');
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unavailable', reason: `it could not be read (${code ?? 'error'})` };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: 'unavailable', reason: 'it is not a regular file' };
    if (stat.size > maxBytes) return { kind: 'unavailable', reason: `it is ${stat.size} bytes, over the ${maxBytes}-byte checkpoint limit` };
    // Read one byte past the size: a file that grew since stat is caught instead of cut.
    const buffer = Buffer.alloc(stat.size + 1);
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    if (read > maxBytes) return { kind: 'unavailable', reason: `it is over the ${maxBytes}-byte checkpoint limit` };
    return { kind: 'bytes', bytes: buffer.subarray(0, read) };
  } catch (err) {
    return { kind: 'unavailable', reason: `it could not be read (${errnoCode(err) ?? 'error'})` };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** True when both snapshots say the same thing about the file (both absent, or the same bytes). */
export function sameContent(a: Snapshot, b: Snapshot): boolean {
  if (a.kind === 'missing' || b.kind === 'missing') return a.kind === b.kind;
  if (a.kind === 'bytes' && b.kind === 'bytes') return a.bytes.equals(b.bytes);
  return false;
}

/** Bytes a snapshot holds in memory. */
export function snapshotSize(s: Snapshot): number {
  return s.kind === 'bytes' ? s.bytes.length : 0;
}

/** The snapshot as text, or undefined when it is binary, absent or not kept. */
export function snapshotText(s: Snapshot): string | undefined {
  if (s.kind !== 'bytes' || s.bytes.includes(0)) return undefined;
  return s.bytes.toString('utf8');
}
