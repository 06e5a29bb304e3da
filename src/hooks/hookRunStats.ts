import type { HookRunRecord } from './hookRunTypes';
import { describeSource } from '../configFiles/hookSource';

/** Durations kept per hook for the median: the recent ones say how the hook behaves now. */
const MEDIAN_WINDOW = 101;
/** Hooks tracked; more (a long-lived window with many edited configs) drop the least recently run. */
const MAX_HOOKS = 2000;

/** What the settings-file lenses and hovers say about one hook. */
export interface HookStats {
  readonly runs: number;
  readonly failures: number;
  /** The most recent finished run. */
  readonly last: { readonly word: string; readonly at: number };
  /** Median duration of the last runs, in ms; undefined when none had one. */
  readonly medianMs?: number;
}

interface Entry {
  runs: number;
  failures: number;
  lastRunId: string;
  lastAt: number;
  lastWord: string;
  /** The last run's input (a reference to the record's, not a copy): "Run with Sample Input…" starts from it. */
  lastInput: Readonly<Record<string, unknown>> | undefined;
  durations: number[];
  /** Cached median; undefined = recompute. */
  median: number | undefined;
}

/**
 * Per-hook run statistics, keyed by the hook's place as Hook Runs shows it
 * (`source › json path`). Fed one finished run at a time (live runs and the restored history),
 * so a lens never re-reads anything; the same run reported again (an `ask` settled) updates
 * its last outcome without counting twice. Bounded: {@link MAX_HOOKS} hooks, a window of durations each.
 */
export class HookRunStats {
  private readonly entries = new Map<string, Entry>();

  /** Adds one run; returns the hook id when it changed anything (running records are ignored). */
  add(record: HookRunRecord): string | undefined {
    if (record.status === 'running' || record.source.kind === 'code') return undefined;
    const id = describeSource(record.source);
    let entry = this.entries.get(id);
    if (!entry) {
      entry = { runs: 0, failures: 0, lastRunId: '', lastAt: -Infinity, lastWord: '', lastInput: undefined, durations: [], median: undefined };
      this.entries.set(id, entry);
      if (this.entries.size > MAX_HOOKS) this.evictOldest();
    }
    const again = entry.lastRunId === record.runId;
    if (!again) {
      entry.runs++;
      if (record.status === 'failed' || record.status === 'timed-out') entry.failures++;
      if (record.durationMs !== undefined) {
        entry.durations.push(record.durationMs);
        if (entry.durations.length > MEDIAN_WINDOW) entry.durations.shift();
        entry.median = undefined;
      }
    }
    // Restored history may arrive after live runs: the last run is the latest started.
    if (again || record.startedAt >= entry.lastAt) {
      entry.lastRunId = record.runId;
      entry.lastAt = record.startedAt;
      entry.lastWord = outcomeWord(record);
      entry.lastInput = record.input;
    }
    return id;
  }

  /** The stats of one hook id; undefined when it has not run. */
  get(id: string): HookStats | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.median === undefined && entry.durations.length > 0) entry.median = median(entry.durations);
    return {
      runs: entry.runs,
      failures: entry.failures,
      last: { word: entry.lastWord, at: entry.lastAt },
      ...(entry.median !== undefined ? { medianMs: entry.median } : {}),
    };
  }

  /** The input of the hook's last run, when it ran. */
  lastInput(id: string): Readonly<Record<string, unknown>> | undefined {
    return this.entries.get(id)?.lastInput;
  }

  /** Forgets everything ("Clear" in Hook Runs). */
  clear(): void {
    this.entries.clear();
  }

  private evictOldest(): void {
    let oldest: string | undefined;
    let at = Infinity;
    for (const [id, entry] of this.entries)
      if (entry.lastAt < at) {
        at = entry.lastAt;
        oldest = id;
      }
    if (oldest !== undefined) this.entries.delete(oldest);
  }
}

/** The outcome of a finished run in one word or two, as Hook Runs words it: `deny`, `asked → allow`, `block`, `failed`, `no decision`. */
export function outcomeWord(record: HookRunRecord): string {
  switch (record.status) {
    case 'asked':
      // A Stop that settled the ask reads as the hooks it cut short do.
      return record.permission ? `asked → ${record.permission.cancelled ? 'cancelled' : record.permission.decision}` : 'ask';
    case 'failed':
      return 'failed';
    case 'timed-out':
      return 'timed out';
    case 'cancelled':
      return 'cancelled';
    case 'blocked':
      return record.outcome?.decision === 'continue' ? 'block' : (record.outcome?.decision ?? 'deny');
    default:
      return record.outcome?.decision === 'continue' ? 'block' : (record.outcome?.decision ?? 'no decision');
  }
}

/** "3 runs · last: deny 5 min ago · median 42 ms · 1 failure", or "no runs yet in this workspace". */
export function formatHookStats(stats: HookStats | undefined, now: number): string {
  if (!stats) return 'no runs yet in this workspace';
  const parts = [`${stats.runs} ${stats.runs === 1 ? 'run' : 'runs'}`, `last: ${stats.last.word} ${timeAgo(now - stats.last.at)}`];
  if (stats.medianMs !== undefined) parts.push(`median ${formatMs(stats.medianMs)}`);
  if (stats.failures > 0) parts.push(`${stats.failures} ${stats.failures === 1 ? 'failure' : 'failures'}`);
  return parts.join(' · ');
}

/** "just now", "5 min ago", "3 h ago", "2 d ago". */
export function timeAgo(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
