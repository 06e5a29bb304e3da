import type { Worker } from 'node:worker_threads';
import { workerThreads } from '../../shared/lazyBuiltins';

/** What the worker reports for one file. */
export interface FileMatches {
  /** Matching lines (files_with_matches stops at the first). */
  readonly count: number;
  /**
   * Content mode: `[lineNumber, shownText, kind]` of shown lines — a match (`m`), context (`c`)
   * or a `--` separator (`s`, line 0) — until the limit of matching lines asked for.
   */
  readonly lines: ReadonlyArray<readonly [number, string, 'm' | 'c' | 's']>;
}

/** One batch of file texts to match. */
export interface MatchRequest {
  readonly texts: readonly string[];
  readonly mode: 'content' | 'files_with_matches' | 'count';
  /** Content mode: matching lines still wanted; the worker stops collecting at this many. */
  readonly lineLimit: number;
  /** Characters of a matching line kept in content mode. */
  readonly maxLineChars: number;
  /** Context lines before and after each match (content mode). */
  readonly before?: number;
  readonly after?: number;
}

/** Why a search ended early: the caller's signal (Stop) or the time cap. */
export class GrepStoppedError extends Error {
  constructor(readonly reason: 'aborted' | 'timeout') {
    super(reason === 'aborted' ? 'Grep was interrupted.' : 'Grep stopped: time limit reached.');
    this.name = 'GrepStoppedError';
  }
}

// Plain JS run with `eval: true`, so it works unchanged from the TS sources (tests) and from
// the esbuild bundles (extension host, CLI), which have no separate worker entry file.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.source, workerData.flags);
const cut = (line, max) => (line.length > max ? line.slice(0, max) + '\u2026 [truncated]' : line);
parentPort.on('message', (req) => {
  let remaining = req.lineLimit;
  const results = [];
  for (const text of req.texts) {
    const lines = text.split(/\\r?\\n/);
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    let count = 0;
    const shown = [];
    let lastShown = -1;
    for (let i = 0; i < lines.length; i++) {
      if (!re.test(lines[i])) continue;
      count++;
      if (req.mode === 'files_with_matches') break;
      if (req.mode !== 'content' || remaining <= 0) continue;
      // Context as ripgrep prints it: lines before/after, '--' between groups that do not touch.
      const from = Math.max(lastShown + 1, i - (req.before || 0));
      if (lastShown >= 0 && from > lastShown + 1) shown.push([0, '--', 's']);
      for (let j = from; j < i; j++) shown.push([j + 1, cut(lines[j], req.maxLineChars), 'c']);
      shown.push([i + 1, cut(lines[i], req.maxLineChars), 'm']);
      remaining--;
      lastShown = i;
      const to = Math.min(lines.length - 1, i + (req.after || 0));
      for (let j = i + 1; j <= to; j++) {
        if (re.test(lines[j])) break;
        shown.push([j + 1, cut(lines[j], req.maxLineChars), 'c']);
        lastShown = j;
      }
    }
    results.push({ count, lines: shown });
  }
  parentPort.postMessage(results);
});
`;

/**
 * Runs a RegExp over file texts on a worker thread, so a catastrophically backtracking
 * pattern blocks only that thread: Stop (`signal`) or the `deadline` (epoch ms) terminates
 * the worker and `match` rejects with GrepStoppedError. Started lazily on the first batch;
 * `close()` must be called when done (it is idempotent).
 */
export class GrepWorker {
  private worker: Worker | undefined;
  private closed = false;

  constructor(
    private readonly regex: { readonly source: string; readonly flags: string },
    private readonly signal: AbortSignal,
    private readonly deadline: number,
  ) {}

  /** Matches one batch; resolves with one entry per text, in order. */
  match(request: MatchRequest): Promise<FileMatches[]> {
    if (this.signal.aborted) return Promise.reject(new GrepStoppedError('aborted'));
    if (Date.now() >= this.deadline) return Promise.reject(new GrepStoppedError('timeout'));
    const worker = this.start();
    return new Promise<FileMatches[]>((resolve, reject) => {
      const settle = (fn: () => void): void => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        fn();
      };
      const stop = (reason: 'aborted' | 'timeout'): void => {
        settle(() => reject(new GrepStoppedError(reason)));
        this.close();
      };
      const onAbort = (): void => stop('aborted');
      const onMessage = (results: FileMatches[]): void => settle(() => resolve(results));
      const onError = (err: Error): void => settle(() => reject(err));
      const onExit = (code: number): void => settle(() => reject(new Error(`the search worker exited (code ${code})`)));
      const timer = setTimeout(() => stop('timeout'), Math.max(0, this.deadline - Date.now()));
      this.signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(request);
    });
  }

  /** Terminates the worker (if started). */
  close(): void {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
  }

  private start(): Worker {
    if (this.closed) throw new GrepStoppedError('aborted');
    if (!this.worker) {
      this.worker = new (workerThreads().Worker)(WORKER_SOURCE, {
        eval: true,
        workerData: this.regex,
        // A search holds a batch of file texts and their lines; more than this is a runaway.
        resourceLimits: { maxOldGenerationSizeMb: 512 },
      });
      // An 'error' between requests (none expected) must not become an uncaught exception here.
      this.worker.on('error', () => undefined);
    }
    return this.worker;
  }
}
