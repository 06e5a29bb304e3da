import type { CheckpointJournal, StoredCheckpoints } from './checkpointJournal';
import type { Snapshot } from './fileSnapshot';
import { MAX_CHECKPOINT_BYTES, MAX_SNAPSHOT_BYTES, snapshotSize } from './fileSnapshot';
import type { MutableTurnFile } from './fileRevert';
import { dedupe, describe, emptyReport, revert } from './fileRevert';

/** One successful Write/Edit: the file before and after that call. */
export interface FileChange {
  readonly toolUseId: string;
  readonly toolName: string;
  /** Absolute path the tool wrote. */
  readonly path: string;
  readonly before: Snapshot;
  readonly after: Snapshot;
}

/** Where the conversation stood when a checkpoint was taken, so a rewind can put it back. */
export interface ConversationMark {
  /** Messages before the prompt. */
  readonly length: number;
  /** Compactions so far: a mark from before a later compaction no longer indexes the conversation. */
  readonly compactions: number;
  /** Context waiting to be sent with the next prompt. */
  readonly pendingContext: readonly string[];
}

/** What the user decided about a file a turn changed. */
export type FileReviewState = 'pending' | 'kept' | 'undone' | 'conflict';

/** A file a turn changed, first state to last. */
export interface TurnFile {
  readonly path: string;
  /** created: absent before; deleted: absent after; else modified. */
  readonly change: 'created' | 'modified' | 'deleted';
  readonly state: FileReviewState;
  /** Why it cannot be undone (not kept: too large, unreadable), if so. */
  readonly unrestorable?: string;
  readonly before: Snapshot;
  readonly after: Snapshot;
}

/** One checkpoint: the state of the workspace just before a user prompt. */
export interface Checkpoint {
  /** 1-based, in the order the prompts were sent in this session. */
  readonly id: number;
  readonly prompt: string;
}

/** What an undo or a restore did, file by file. */
export interface RestoreReport {
  readonly restored: readonly { readonly path: string; readonly action: 'restored' | 'deleted' | 'recreated' }[];
  /** Left as they are: the file is not what the agent wrote (the user, or a later turn, changed it). */
  readonly conflicts: readonly { readonly path: string; readonly reason: string }[];
  /** Could not be undone at all (no copy was kept, or the write failed). */
  readonly failed: readonly { readonly path: string; readonly reason: string }[];
}

/** What restoring a checkpoint would do, for the confirmation. */
export interface RestorePreview {
  readonly checkpoint: Checkpoint;
  /** Prompts (this one included) that the restore removes from the conversation. */
  readonly turnsRemoved: number;
  readonly files: readonly { readonly path: string; readonly action: 'restore' | 'delete' | 'recreate'; readonly unrestorable?: string }[];
}

interface Turn extends Checkpoint {
  readonly mark: ConversationMark | undefined;
  readonly files: Map<string, MutableTurnFile>;
}

/**
 * A session's checkpoints: for every prompt, the files its Write and Edit calls changed,
 * with copies of each file before the turn's first change and after its last (only touched
 * files, never the workspace). Undo puts a file back only when it still holds exactly what
 * the agent wrote: anything else is a conflict, reported and left alone, so a change the
 * user made meanwhile is never overwritten. Bash's changes are not recorded (as in Claude
 * Code): its effects cannot be told apart from the user's.
 */
export class CheckpointStore {
  private readonly turns: Turn[] = [];
  /** Every recorded call's change, by tool_use id, with the turn it belongs to. */
  private readonly changes = new Map<string, { readonly change: FileChange; readonly turnId: number }>();
  private bytes = 0;
  private compactionCount = 0;
  /** Set once the index was first written (from then on every change is saved). */
  private saved = false;

  /**
   * `journal`: where the checkpoints are saved as they change (absent: memory only). `root`: the
   * workspace; Undo and Restore write a file back only while it still resolves inside it.
   */
  constructor(
    private readonly maxBytes = MAX_CHECKPOINT_BYTES,
    private readonly journal?: CheckpointJournal,
    private readonly root?: string,
  ) {}

  /**
   * The checkpoints `journal` saved (a resumed session's), or an empty store when there are
   * none. A damaged journal gives an empty store and the reason in `problem`.
   */
  static load(journal: CheckpointJournal, maxBytes = MAX_CHECKPOINT_BYTES, root?: string): { readonly store: CheckpointStore; readonly problem?: string } {
    const store = new CheckpointStore(maxBytes, journal, root);
    const loaded = journal.load();
    if (!loaded.ok) return { store, problem: `checkpoints not restored: ${loaded.error}` };
    const state = loaded.state;
    if (!state) return { store };
    store.saved = true;
    store.compactionCount = state.compactions;
    for (const t of state.turns) {
      const files = new Map<string, MutableTurnFile>();
      for (const f of t.files) {
        const before = journal.snapshot(f.before);
        const after = journal.snapshot(f.after);
        store.bytes += snapshotSize(before) + snapshotSize(after);
        files.set(f.path, { path: f.path, before, after, state: f.state });
      }
      store.turns.push({ id: t.id, prompt: t.prompt, mark: t.mark, files });
    }
    for (const c of state.changes) {
      const change: FileChange = {
        toolUseId: c.toolUseId,
        toolName: c.toolName,
        path: c.path,
        before: journal.snapshot(c.before),
        after: journal.snapshot(c.after),
      };
      store.changes.set(c.toolUseId, { change, turnId: c.turnId });
    }
    return { store };
  }

  /** Why saving the checkpoints last failed, if it did (they keep working in memory). */
  get saveProblem(): string | undefined {
    return this.journal?.lastError;
  }

  /** Compactions of the conversation so far (see {@link ConversationMark}). */
  get compactions(): number {
    return this.compactionCount;
  }

  /** The conversation was compacted: checkpoints taken before can restore files, not cut the conversation. */
  noteCompaction(): void {
    this.compactionCount++;
    this.save();
  }

  /** Starts the checkpoint of a new prompt; later changes belong to it. */
  beginTurn(prompt: string, mark?: ConversationMark): Checkpoint {
    const id = (this.turns.at(-1)?.id ?? 0) + 1;
    this.turns.push({ id, prompt, mark, files: new Map() });
    this.save();
    return { id, prompt };
  }

  /** Where the conversation stood at checkpoint `id`, if it was recorded. */
  markOf(id: number): ConversationMark | undefined {
    return this.turn(id)?.mark;
  }

  /** The checkpoint changes are recorded in now, if any prompt was sent. */
  get current(): Checkpoint | undefined {
    const turn = this.turns.at(-1);
    return turn ? { id: turn.id, prompt: turn.prompt } : undefined;
  }

  /** The session's checkpoints, oldest first. */
  list(): Checkpoint[] {
    return this.turns.map((t) => ({ id: t.id, prompt: t.prompt }));
  }

  /**
   * Copy budget left for one more snapshot: the per-file limit, or less once the
   * session's total is nearly used.
   */
  snapshotBudget(): number {
    return Math.max(0, Math.min(MAX_SNAPSHOT_BYTES, this.maxBytes - this.bytes));
  }

  /** Records a tool's change in the current turn (ignored before the first prompt). */
  record(change: FileChange): void {
    const turn = this.turns.at(-1);
    if (!turn) return;
    this.changes.set(change.toolUseId, { change, turnId: turn.id });
    this.bytes += snapshotSize(change.after);
    const known = turn.files.get(change.path);
    if (known) {
      known.after = change.after;
      known.state = 'pending';
    } else {
      this.bytes += snapshotSize(change.before);
      turn.files.set(change.path, { path: change.path, before: change.before, after: change.after, state: 'pending' });
    }
    this.save();
  }

  /** The change one tool call made (for its card's diff). */
  changeOf(toolUseId: string): FileChange | undefined {
    return this.changes.get(toolUseId)?.change;
  }

  /** The files the turn changed, in the order it first touched them. */
  files(turnId: number): TurnFile[] {
    return [...(this.turn(turnId)?.files.values() ?? [])].map(describe);
  }

  /** Marks files as reviewed (all of the turn's when `filePath` is absent); nothing on disk changes. */
  keep(turnId: number, filePath?: string): void {
    for (const f of this.selected(turnId, filePath)) if (f.state === 'pending') f.state = 'kept';
    this.save();
  }

  /** Undoes the turn's change to one file, or to all of them: see the class comment for conflicts. */
  async undo(turnId: number, filePath?: string): Promise<RestoreReport> {
    const report = emptyReport();
    for (const f of this.selected(turnId, filePath)) await revert(f, report, this.root);
    this.save();
    return report;
  }

  /** What {@link restoreTo} would do; undefined for an unknown checkpoint. */
  preview(turnId: number): RestorePreview | undefined {
    const index = this.turns.findIndex((t) => t.id === turnId);
    const checkpoint = this.turns[index];
    if (!checkpoint) return undefined;
    const firstBefore = new Map<string, MutableTurnFile>();
    for (const turn of this.turns.slice(index))
      for (const f of turn.files.values()) if (f.state !== 'undone' && !firstBefore.has(f.path)) firstBefore.set(f.path, f);
    const files = [...firstBefore.values()].map((f) => {
      const d = describe(f);
      const action = d.change === 'created' ? ('delete' as const) : d.change === 'deleted' ? ('recreate' as const) : ('restore' as const);
      return { path: f.path, action, ...(d.unrestorable ? { unrestorable: d.unrestorable } : {}) };
    });
    return { checkpoint: { id: checkpoint.id, prompt: checkpoint.prompt }, turnsRemoved: this.turns.length - index, files };
  }

  /**
   * Puts every file changed since checkpoint `turnId` back to how it was before that prompt
   * (newest turn first, so each step finds what the agent wrote), then forgets those turns.
   */
  async restoreTo(turnId: number): Promise<RestoreReport> {
    const index = this.turns.findIndex((t) => t.id === turnId);
    if (index < 0) return emptyReport();
    const report = emptyReport();
    for (const turn of this.turns.slice(index).reverse()) for (const f of [...turn.files.values()].reverse()) await revert(f, report, this.root);
    // The forgotten turns' copies are freed; their cards lose their diffs with them.
    for (const turn of this.turns.splice(index)) for (const f of turn.files.values()) this.bytes -= snapshotSize(f.before);
    for (const [id, entry] of this.changes) {
      if (entry.turnId < turnId) continue;
      this.changes.delete(id);
      this.bytes -= snapshotSize(entry.change.after);
    }
    this.bytes = Math.max(0, this.bytes);
    this.save();
    return dedupe(report);
  }

  /**
   * Saves the whole index (small: paths, states and hashes; contents are saved once each by
   * hash). Nothing is written until the agent first changes a file: a session that only reads
   * leaves no checkpoint folder behind.
   */
  private save(): void {
    const journal = this.journal;
    if (!journal || (this.changes.size === 0 && !this.saved)) return;
    this.saved = true;
    const state: StoredCheckpoints = {
      version: 1,
      compactions: this.compactionCount,
      turns: this.turns.map((t) => ({
        id: t.id,
        prompt: t.prompt,
        ...(t.mark ? { mark: { ...t.mark, pendingContext: [...t.mark.pendingContext] } } : {}),
        files: [...t.files.values()].map((f) => ({ path: f.path, before: journal.ref(f.before), after: journal.ref(f.after), state: f.state })),
      })),
      changes: [...this.changes.values()].map(({ change, turnId }) => ({
        toolUseId: change.toolUseId,
        toolName: change.toolName,
        path: change.path,
        turnId,
        before: journal.ref(change.before),
        after: journal.ref(change.after),
      })),
    };
    journal.save(state);
  }

  private turn(id: number): Turn | undefined {
    return this.turns.find((t) => t.id === id);
  }

  private selected(turnId: number, filePath?: string): MutableTurnFile[] {
    const files = [...(this.turn(turnId)?.files.values() ?? [])];
    return filePath === undefined ? files.reverse() : files.filter((f) => f.path === filePath);
  }
}
