import { statSync } from 'node:fs';
import type { ShellInvocation } from './shellInvocation';

/**
 * The launcher port: start one process, feed it stdin then EOF, capture stdout/stderr up to a
 * byte cap each, and end it (its whole process group, see processGroups.ts) on abort or
 * timeout. Two implementations: the lean one (leanLauncher.ts: node's spawn, or the spawn
 * helper; the command-hook path, where per-spawn cost matters) and the execa one
 * (execaLauncher.ts: the Bash tool and `!command`s, long-running user commands). Both keep the
 * same guarantees; the process tests run on both.
 */

/** Options of one launch. */
export interface ProcessRunOptions {
  readonly cwd: string;
  /** The complete environment of the child (the caller merges process.env itself). */
  readonly env?: NodeJS.ProcessEnv;
  /** Written to stdin, then stdin is closed. A child that never reads it is fine (EPIPE ignored). */
  readonly stdin?: string;
  /** Cap per stream in bytes; the excess is read and dropped. Default 1 MiB. */
  readonly maxOutputBytes?: number;
  /** Aborting kills the process tree (SIGTERM, then SIGKILL after `killGraceMs`). */
  readonly signal?: AbortSignal;
  /** Ends the run as an abort does after this many ms, with `timedOut` set. Default none. */
  readonly timeoutMs?: number;
  /** Time between SIGTERM and SIGKILL on abort. Default 500 ms. */
  readonly killGraceMs?: number;
  /**
   * After the shell exits, how long to wait for stdout/stderr to reach EOF before the group
   * is killed (a background child may hold the pipes open forever). Default 100 ms.
   */
  readonly drainMs?: number;
}

/** What happened. `exitCode` is null when the shell ended by a signal or never started. */
export interface ProcessRunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  /** Signal that ended the shell, e.g. `SIGKILL`. */
  readonly signal?: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly durationMs: number;
  /** True when `signal` or `timeoutMs` aborted the run (timeout or user Stop); output is what came before. */
  readonly aborted: boolean;
  /** Set (with `aborted`) when `timeoutMs` ended the run. */
  readonly timedOut?: true;
  /** Set when the shell could not be started at all; a message a user understands. */
  readonly spawnError?: string;
}

/** Whether a launch runs a shell (with a command string) or a program directly; only wording depends on it. */
export type LaunchKind = 'shell' | 'program';

/** Starts processes. Implementations never reject: every problem is in the result. */
export interface ProcessLauncher {
  /** Which implementation, for benchmarks and logs. */
  readonly name: string;
  /** Runs `invocation` and resolves when it has exited and its output is collected. */
  launch(invocation: ShellInvocation, options: ProcessRunOptions, kind?: LaunchKind): Promise<ProcessRunResult>;
}

/** Default output cap per stream: 1 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** Default time between SIGTERM and SIGKILL on abort. */
export const DEFAULT_KILL_GRACE_MS = 500;

/** The result of a run aborted before it started. */
export function abortedBeforeStart(): ProcessRunResult {
  return { stdout: '', stderr: '', exitCode: null, stdoutTruncated: false, stderrTruncated: false, durationMs: 0, aborted: true };
}

/**
 * Keeps the first `cap` bytes of a stream and counts the rest, so memory stays bounded
 * whatever a process prints. Decoding replaces invalid UTF-8 with U+FFFD.
 */
export class CappedCollector {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.size += chunk.length;
      return;
    }
    this.truncated = true;
    if (room > 0) {
      // Copy, so the rest of a large read buffer is not kept alive by a view.
      this.chunks.push(Buffer.from(chunk.subarray(0, room)));
      this.size = this.cap;
    }
  }

  text(): string {
    if (this.size === 0) return '';
    const first = this.chunks[0];
    const all = this.chunks.length === 1 && first ? first : Buffer.concat(this.chunks, this.size);
    return all.toString('utf8');
  }
}

/** Why `file` could not start in `cwd`, in words a user understands (a missing cwd reads as ENOENT too). */
export function describeSpawnError(error: unknown, file: string, cwd: string, kind: LaunchKind = 'shell'): string {
  const err = error as NodeJS.ErrnoException | undefined;
  try {
    if (!statSync(cwd).isDirectory()) return `working directory is not a directory: ${cwd}`;
  } catch {
    return `working directory does not exist: ${cwd}`;
  }
  if (err?.code === 'ENOENT') return `${kind} not found: ${file}`;
  const message = err?.message ?? String(error);
  return `could not start ${file}: ${message.split('\n')[0] ?? message}`;
}
