import { CappedCollector, DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES, describeSpawnError } from './processLauncher';
import type { LaunchKind, ProcessRunOptions, ProcessRunResult } from './processLauncher';
import { IS_WINDOWS, killTree, trackGroup, untrackGroup } from './processGroups';

/**
 * The part of a started process a {@link SupervisedRun} watches: node's ChildProcess has it (so
 * has execa's subprocess), and so has a process started by the spawn helper
 * (src/shared/spawnHelper.ts), whose `pid` arrives later, with a 'spawn' event.
 */
export interface SpawnedProcess {
  readonly pid?: number | undefined;
  readonly stdout: (NodeJS.ReadableStream & { destroy(): void }) | null;
  readonly stderr: (NodeJS.ReadableStream & { destroy(): void }) | null;
  readonly stdin: (NodeJS.WritableStream & { on(event: 'error', fn: () => void): unknown }) | null;
  on(event: 'error', fn: (error: Error) => void): unknown;
  once(event: 'spawn', fn: () => void): unknown;
  once(event: 'exit', fn: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  once(event: 'close', fn: () => void): unknown;
  /** Tells the spawner the run is over (the helper drops its pipes). */
  release?(): void;
  /** True when the spawner kills the process's group itself should this process die (the helper does). */
  readonly groupGuarded?: boolean;
}

/** How a launcher hands a run to {@link SupervisedRun}. */
export interface SupervisionOptions {
  readonly file: string;
  readonly kind: LaunchKind;
  /**
   * Who sends the leader its SIGKILL after the grace on abort: `'here'` (the group is
   * SIGKILLed after `killGraceMs`) or `'launcher'` (its library does it for the leader; the
   * rest of the group is SIGKILLed as soon as the leader is gone).
   */
  readonly forceKill: 'here' | 'launcher';
}

const noop = (): void => undefined;

/**
 * One run's lifecycle, the same whichever launcher started the process: capped capture, the
 * process group tracked and killed (SIGTERM on abort or timeout, SIGKILL once the leader has
 * exited, so no background child survives), a drain window after exit for pipes a straggler
 * holds open, and one result. Created before the spawn (so {@link stopSignal} exists to hand
 * to the spawning library), then {@link attach}ed to the process.
 */
export class SupervisedRun {
  private readonly startedAt = performance.now();
  private readonly stdout: CappedCollector;
  private readonly stderr: CappedCollector;
  private stop: AbortController | undefined;
  private readonly done: Promise<ProcessRunResult>;
  private resolve: (result: ProcessRunResult) => void = noop;
  private child: SpawnedProcess | undefined;
  private pid: number | undefined;
  private exitCode: number | null = null;
  private exitSignal: string | undefined;
  private exited = false;
  private aborted = false;
  private timedOut = false;
  private finished = false;
  private spawnError: string | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: ProcessRunOptions,
    private readonly how: SupervisionOptions,
  ) {
    const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.stdout = new CappedCollector(cap);
    this.stderr = new CappedCollector(cap);
    this.done = new Promise((resolve) => (this.resolve = resolve));
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
    if (options.timeoutMs !== undefined) {
      this.deadline = setTimeout(() => {
        this.timedOut = true;
        this.onAbort();
      }, options.timeoutMs);
    }
  }

  /** Aborted by the caller's signal or the timeout: give it to a library that kills on cancel. */
  get stopSignal(): AbortSignal {
    // Made only when asked for: the hook path never needs one.
    this.stop ??= new AbortController();
    if (this.aborted) this.stop.abort();
    return this.stop.signal;
  }

  /** The spawn threw: the run is over. */
  failed(error: unknown): Promise<ProcessRunResult> {
    this.spawnError = describeSpawnError(error, this.how.file, this.options.cwd, this.how.kind);
    this.finish();
    return this.done;
  }

  /** Watches `child` until it has exited and its output is collected; never rejects. */
  attach(child: SpawnedProcess): Promise<ProcessRunResult> {
    this.child = child;
    this.pid = child.pid;
    if (this.pid !== undefined && !IS_WINDOWS) trackGroup(this.pid, !child.groupGuarded);
    else if (this.pid === undefined) child.once('spawn', () => this.lateSpawn(child));
    child.stdout?.on('data', (chunk: Buffer) => this.stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    child.stdin?.on('error', noop);
    child.on('error', (error) => {
      // With a pid the process exists and 'exit' follows; without one it never started.
      if (this.pid !== undefined) return;
      this.spawnError ??= describeSpawnError(error, this.how.file, this.options.cwd, this.how.kind);
      this.finish();
    });
    child.once('exit', (code, sig) => this.onExit(code, sig));
    // 'close' = exited and every stdio stream closed: the normal, fast path.
    child.once('close', () => this.finish());
    return this.done;
  }

  /** A helper-started shell: its pid comes with 'spawn'. An abort that came first applies now. */
  private lateSpawn(child: SpawnedProcess): void {
    const pid = (this.pid = child.pid);
    if (pid === undefined) return;
    trackGroup(pid, !child.groupGuarded);
    if (this.finished || (this.aborted && this.exited)) killTree(pid, 'SIGKILL');
    else if (this.aborted) this.terminate(pid);
  }

  private onExit(code: number | null, sig: NodeJS.Signals | null): void {
    this.exited = true;
    this.exitCode = code;
    this.exitSignal = sig ?? undefined;
    // The launcher's library killed the leader after an abort; the rest of its group goes with it.
    if (this.aborted && this.how.forceKill === 'launcher' && this.pid !== undefined) killTree(this.pid, 'SIGKILL');
    this.drainTimer = setTimeout(() => {
      // A background child still holds stdout/stderr: kill the group so the pipes close,
      // then give them a moment to flush before giving up on them.
      if (this.pid !== undefined) killTree(this.pid, 'SIGKILL');
      this.drainTimer = setTimeout(() => this.finish(), 50);
    }, this.options.drainMs ?? 100);
  }

  private readonly onAbort = (): void => {
    if (this.finished || this.aborted) return;
    this.aborted = true;
    clearTimeout(this.deadline);
    this.stop?.abort();
    if (this.pid === undefined) return;
    if (this.exited) killTree(this.pid, 'SIGKILL');
    else this.terminate(this.pid);
  };

  /** SIGTERM to the whole group; SIGKILL after the grace unless the launcher's library sends it. */
  private terminate(pid: number): void {
    killTree(pid, 'SIGTERM');
    if (this.how.forceKill === 'here') this.graceTimer = setTimeout(() => killTree(pid, 'SIGKILL'), this.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.graceTimer);
    clearTimeout(this.drainTimer);
    clearTimeout(this.deadline);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    if (this.pid !== undefined && !IS_WINDOWS) {
      // Whatever the command left running in its group dies with it. (On Windows the tree of
      // an exited shell cannot be walked; stragglers are only killed on abort or drain timeout.)
      killTree(this.pid, 'SIGKILL');
      untrackGroup(this.pid);
    }
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    this.child?.release?.();
    this.resolve(this.result());
  }

  private result(): ProcessRunResult {
    const failed = this.spawnError !== undefined;
    return {
      stdout: this.stdout.text(),
      stderr: this.stderr.text(),
      exitCode: failed ? null : this.exitCode,
      ...(this.exitSignal !== undefined && !failed ? { signal: this.exitSignal } : {}),
      stdoutTruncated: this.stdout.truncated,
      stderrTruncated: this.stderr.truncated,
      durationMs: performance.now() - this.startedAt,
      aborted: this.aborted,
      ...(this.timedOut ? { timedOut: true as const } : {}),
      ...(failed ? { spawnError: this.spawnError } : {}),
    };
  }
}
