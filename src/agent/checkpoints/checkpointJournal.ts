import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseBoundedJson } from '../../shared/boundedJson';
import { describeThrown } from '../../shared/describeThrown';
import type { Snapshot } from './fileSnapshot';
import { MAX_CHECKPOINT_BYTES, MAX_SNAPSHOT_BYTES } from './fileSnapshot';
import { lazySchema } from '../../shared/lazySchema';

/** Largest checkpoints.json read back (prompts included); a bigger one is ignored with a reason. */
const MAX_INDEX_BYTES = 32 * 1024 * 1024;

const snapshotRefSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('missing') }),
    z.object({ kind: z.literal('bytes'), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
    z.object({ kind: z.literal('unavailable'), reason: z.string() }),
  ]),
);

const markSchema = lazySchema(() =>
  z.object({ length: z.number().int().nonnegative(), compactions: z.number().int().nonnegative(), pendingContext: z.array(z.string()) }),
);

/** A checkpoint store as saved: file contents are referenced by hash, stored beside it once each. */
export const storedCheckpointsSchema = lazySchema(() =>
  z.object({
    version: z.literal(1),
    compactions: z.number().int().nonnegative(),
    turns: z.array(
      z.object({
        id: z.number().int().positive(),
        prompt: z.string(),
        mark: markSchema.optional(),
        files: z.array(
          z.object({ path: z.string(), before: snapshotRefSchema, after: snapshotRefSchema, state: z.enum(['pending', 'kept', 'undone', 'conflict']) }),
        ),
      }),
    ),
    changes: z.array(
      z.object({ toolUseId: z.string(), toolName: z.string(), path: z.string(), turnId: z.number(), before: snapshotRefSchema, after: snapshotRefSchema }),
    ),
  }),
);
export type StoredCheckpoints = z.infer<typeof storedCheckpointsSchema>;
export type SnapshotRef = z.infer<typeof snapshotRefSchema>;

/** What a journal read back: the saved state, nothing saved yet, or why it could not be used. */
export type JournalLoad = { readonly ok: true; readonly state: StoredCheckpoints | undefined } | { readonly ok: false; readonly error: string };

/**
 * A session's checkpoints on disk, beside its transcript: `<dir>/checkpoints.json` (replaced
 * atomically on every change) and one file per distinct content, named by its SHA-256, so a
 * resumed session can still undo and restore. Writes are synchronous and small (a file is
 * copied once per distinct content); a failed write leaves the in-memory checkpoints working
 * and is reported by {@link lastError}.
 */
export class CheckpointJournal {
  private error: string | undefined;
  /** Hashes of the contents already referenced: the index is saved often, each content is hashed once. */
  private readonly hashes = new WeakMap<Buffer, string>();
  /** Contents read back, by hash: a content several entries share is read (and held) once. */
  private readonly read = new Map<string, Snapshot>();
  private readBytes = 0;

  /** `maxReadBytes`: most bytes of copies read back in all (a planted index cannot exhaust memory). */
  constructor(
    readonly dir: string,
    private readonly maxReadBytes = 2 * MAX_CHECKPOINT_BYTES,
  ) {}

  /** Why the last save failed, if it did. */
  get lastError(): string | undefined {
    return this.error;
  }

  /** The reference to `snapshot` in the index, writing its content once. */
  ref(snapshot: Snapshot): SnapshotRef {
    if (snapshot.kind !== 'bytes') return snapshot;
    const known = this.hashes.get(snapshot.bytes);
    if (known) return { kind: 'bytes', sha256: known };
    const sha256 = createHash('sha256').update(snapshot.bytes).digest('hex');
    const file = path.join(this.dir, sha256);
    try {
      this.hashes.set(snapshot.bytes, sha256);
      if (!existsSync(file)) {
        mkdirSync(this.dir, { recursive: true });
        writeFileSync(`${file}.tmp`, snapshot.bytes);
        renameSync(`${file}.tmp`, file);
      }
    } catch (err) {
      this.error = `cannot save a checkpoint copy in ${this.dir}: ${describeThrown(err)}`;
    }
    return { kind: 'bytes', sha256 };
  }

  /** The snapshot a reference names; a missing or altered copy is `unavailable`, never wrong bytes. */
  snapshot(ref: SnapshotRef): Snapshot {
    if (ref.kind !== 'bytes') return ref;
    const known = this.read.get(ref.sha256);
    if (known) return known;
    const snapshot = this.readCopy(ref.sha256);
    this.read.set(ref.sha256, snapshot);
    return snapshot;
  }

  private readCopy(sha256: string): Snapshot {
    const ref = { sha256 };
    try {
      const file = path.join(this.dir, ref.sha256);
      // Never more than a checkpoint ever copies: a planted huge file is not read into memory.
      const size = statSync(file).size;
      if (size > MAX_SNAPSHOT_BYTES) return { kind: 'unavailable', reason: 'its saved copy was altered' };
      if (this.readBytes + size > this.maxReadBytes) return { kind: 'unavailable', reason: "the session's saved copies are over the checkpoint limit" };
      this.readBytes += size;
      const bytes = readFileSync(file);
      if (createHash('sha256').update(bytes).digest('hex') === ref.sha256) {
        this.hashes.set(bytes, ref.sha256);
        return { kind: 'bytes', bytes };
      }
      return { kind: 'unavailable', reason: 'its saved copy was altered' };
    } catch {
      return { kind: 'unavailable', reason: 'its saved copy is missing' };
    }
  }

  save(state: StoredCheckpoints): void {
    const file = path.join(this.dir, 'checkpoints.json');
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(state));
      renameSync(`${file}.tmp`, file);
      this.error = undefined;
    } catch (err) {
      this.error = `cannot save checkpoints in ${file}: ${describeThrown(err)}`;
    }
  }

  /** Reads the saved state back (bounded, validated); never throws. */
  load(): JournalLoad {
    const file = path.join(this.dir, 'checkpoints.json');
    if (!existsSync(file)) return { ok: true, state: undefined };
    try {
      const size = statSync(file).size;
      if (size > MAX_INDEX_BYTES) return { ok: false, error: `${file} is ${size} bytes, over the ${MAX_INDEX_BYTES}-byte limit` };
      const parsed = parseBoundedJson(readFileSync(file, 'utf8'));
      if (!parsed.ok) return { ok: false, error: `${file}: ${parsed.error}` };
      const state = storedCheckpointsSchema.safeParse(parsed.value);
      if (!state.success) {
        const issue = state.error.issues[0];
        return { ok: false, error: `${file} at ${issue?.path.join('.') ?? '(root)'}: ${issue?.message ?? 'invalid'}` };
      }
      return { ok: true, state: state.data };
    } catch (err) {
      return { ok: false, error: `cannot read ${file}: ${describeThrown(err)}` };
    }
  }
}
