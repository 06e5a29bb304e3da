import { appendFileSync, mkdirSync, readdirSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { HookRunRecord } from '../../hooks/hookRunTypes';

/**
 * Hook runs that outlive the window: an append-only JSONL log per workspace, split into
 * numbered segment files (`runs-000001.jsonl`, …). Why JSONL and not a database: no embedded
 * store ships in node_modules (node:sqlite needs Node 22), and an append-only log is
 * crash-safe by construction — a write cut by a crash leaves at most one torn last line, which
 * the reader skips. Bounded: the oldest segments are deleted once the newer ones hold
 * `maxRuns`, each line is capped at `maxLineBytes`, and the reader keeps at most `maxRuns`
 * runs no older than `maxAgeMs`. Appends are batched off the hook's path.
 */

export interface HookRunStoreOptions {
  /** The folder the segments live in (created when first written). */
  readonly dir: string;
  /** Runs kept (default 10,000). */
  readonly maxRuns?: number;
  /** Age beyond which runs are dropped on load (default 7 days). */
  readonly maxAgeMs?: number;
  /** Runs per segment file (default 2,000). */
  readonly runsPerSegment?: number;
  /** Longest line kept; a larger record loses its raw output, then its input (default 64 KiB). */
  readonly maxLineBytes?: number;
  /** Delay before a batch is written (default 500 ms). */
  readonly flushDelayMs?: number;
  /** Told about write failures (the store keeps going: history is best effort, hooks are not). */
  readonly onError?: (message: string) => void;
  /** Clock (tests). */
  readonly now?: () => number;
}

const SEGMENT = /^runs-(\d{6})\.jsonl$/;
const DAY = 24 * 60 * 60 * 1000;

/** Statuses worth keeping: a run still `running` is written again when it ends. */
function finished(record: HookRunRecord): boolean {
  return record.status !== 'running';
}

export class HookRunStore {
  private readonly dir: string;
  private readonly maxRuns: number;
  private readonly maxAgeMs: number;
  private readonly runsPerSegment: number;
  private readonly maxLineBytes: number;
  private readonly flushDelayMs: number;
  private readonly now: () => number;
  private pending: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Current segment number and how many lines it holds; found on the first write. */
  private segment: { index: number; lines: number } | undefined;
  private disposed = false;

  constructor(private readonly options: HookRunStoreOptions) {
    this.dir = options.dir;
    this.maxRuns = Math.max(1, options.maxRuns ?? 10_000);
    this.maxAgeMs = options.maxAgeMs ?? 7 * DAY;
    this.runsPerSegment = Math.max(1, options.runsPerSegment ?? 2_000);
    this.maxLineBytes = options.maxLineBytes ?? 64 * 1024;
    this.flushDelayMs = options.flushDelayMs ?? 500;
    this.now = options.now ?? Date.now;
  }

  /** Queues a finished run (a running one is ignored); written within `flushDelayMs`. */
  add(record: HookRunRecord): void {
    if (this.disposed || !finished(record)) return;
    this.pending.push(this.line(record));
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushDelayMs);
  }

  /** Writes what is queued; resolves when it is on disk. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0)
      this.writing = this.writing
        .then(() => this.write(batch))
        .catch((error: unknown) => this.options.onError?.(`hook run history not written: ${String(error)}`));
    return this.writing;
  }

  /**
   * The kept runs, oldest first: at most `maxRuns`, none older than `maxAgeMs`; a run written
   * twice (an ask settled later) appears once, as last written. Unreadable lines are skipped.
   */
  async load(): Promise<HookRunRecord[]> {
    await this.writing;
    const byId = new Map<string, HookRunRecord>();
    const cutoff = this.now() - this.maxAgeMs;
    for (const file of await this.segments()) {
      let text: string;
      try {
        text = await readFile(path.join(this.dir, file), 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n')) {
        const record = parseLine(line);
        if (!record || record.startedAt < cutoff) continue;
        byId.delete(record.runId);
        byId.set(record.runId, record);
      }
    }
    const all = [...byId.values()];
    return all.length > this.maxRuns ? all.slice(all.length - this.maxRuns) : all;
  }

  /** Deletes every kept run, queued ones included. */
  async clear(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.writing = this.writing.then(async () => {
      for (const file of await this.segments()) await unlink(path.join(this.dir, file)).catch(() => undefined);
      this.segment = undefined;
    });
    await this.writing;
  }

  /** Writes what is queued synchronously (the window is closing) and stops accepting runs. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      const last = readdirSync(this.dir)
        .filter((f) => SEGMENT.test(f))
        .sort()
        .at(-1);
      // The leading newline ends a torn line, if any (blank lines are skipped when read).
      appendFileSync(path.join(this.dir, last ?? segmentName(this.segment?.index ?? 1)), `\n${batch.join('')}`);
    } catch (error) {
      this.options.onError?.(`hook run history not written: ${String(error)}`);
    }
  }

  private line(record: HookRunRecord): string {
    let text = JSON.stringify(withoutModelReply(record));
    if (Buffer.byteLength(text) > this.maxLineBytes) {
      const { raw: _raw, ...rest } = record;
      text = JSON.stringify(rest);
      if (Buffer.byteLength(text) > this.maxLineBytes) {
        const note = { hook_event_name: record.event, note: 'input too large to keep in the history' };
        text = JSON.stringify({ ...rest, input: note, outcome: undefined, warnings: undefined });
      }
    }
    return `${text}\n`;
  }

  private async write(batch: readonly string[]): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    if (!this.segment) this.segment = await this.currentSegment();
    let rest = batch;
    while (rest.length > 0) {
      const room = this.runsPerSegment - this.segment.lines;
      if (room <= 0) {
        this.segment = { index: this.segment.index + 1, lines: 0 };
        await this.prune();
        continue;
      }
      const chunk = rest.slice(0, room);
      rest = rest.slice(room);
      await appendFile(path.join(this.dir, segmentName(this.segment.index)), chunk.join(''));
      this.segment.lines += chunk.length;
    }
  }

  /** The last segment and its line count (a fresh store starts at 1). */
  private async currentSegment(): Promise<{ index: number; lines: number }> {
    const files = await this.segments();
    const last = files.at(-1);
    if (!last) return { index: 1, lines: 0 };
    const index = Number(SEGMENT.exec(last)?.[1] ?? 1);
    const text = await readFile(path.join(this.dir, last), 'utf8').catch(() => '');
    // A torn last line (a crash mid-write): never append to it, start the next segment.
    if (text !== '' && !text.endsWith('\n')) return { index: index + 1, lines: 0 };
    return { index, lines: text.split('\n').filter((l) => l !== '').length };
  }

  /** Deletes the oldest segments the newer ones make unnecessary (they already hold `maxRuns`). */
  private async prune(): Promise<void> {
    const files = await this.segments();
    // The new segment (not yet created) will hold up to runsPerSegment more runs.
    const keep = Math.ceil(this.maxRuns / this.runsPerSegment);
    const stale = files.filter((f) => Number(SEGMENT.exec(f)?.[1]) <= (this.segment?.index ?? 0) - 1 - keep);
    for (const file of stale) await unlink(path.join(this.dir, file)).catch(() => undefined);
    // Segments past the age limit hold nothing the reader would keep.
    const cutoff = this.now() - this.maxAgeMs;
    for (const file of files.filter((f) => !stale.includes(f))) {
      const info = await stat(path.join(this.dir, file)).catch(() => undefined);
      if (info && info.mtimeMs < cutoff) await unlink(path.join(this.dir, file)).catch(() => undefined);
    }
  }

  private async segments(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((f) => SEGMENT.test(f)).sort();
    } catch {
      return [];
    }
  }
}

function segmentName(index: number): string {
  return `runs-${String(index).padStart(6, '0')}.jsonl`;
}

/** One stored record, or undefined for a torn or foreign line. */
function parseLine(line: string): HookRunRecord | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Partial<HookRunRecord>;
  if (typeof r.runId !== 'string' || typeof r.occurrenceId !== 'string' || typeof r.sessionId !== 'string' || typeof r.event !== 'string') return undefined;
  if (typeof r.startedAt !== 'number' || typeof r.status !== 'string' || typeof r.input !== 'object' || r.input === null) return undefined;
  return value as HookRunRecord;
}

/**
 * An AfterInference run's input holds the model's reply as it came, before any hook redacted it:
 * the history keeps only its size, so a redacted original never reaches the disk. What the hooks
 * made of it (the outcome) stays.
 */
function withoutModelReply(record: HookRunRecord): HookRunRecord {
  if (record.event !== 'AfterInference' || record.input['llm_response'] === undefined) return record;
  const chars = JSON.stringify(record.input['llm_response']).length;
  return { ...record, input: { ...record.input, llm_response: { note: `the model's reply (${chars} characters of JSON) is not kept in the history` } } };
}
