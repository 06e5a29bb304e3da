import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

/**
 * Runs one command string through the user's shell, the way Claude Code runs hook commands
 *: stdin gets a string then EOF, stdout/stderr are captured up to a byte cap
 * each, and an AbortSignal kills the whole process tree. Reused by command hooks and the
 * Bash tool. Never throws: every problem is in the result.
 *
 * Process-tree rule: on POSIX the shell is spawned detached, so it leads its own process
 * group; every child it starts (`sleep 100 &`) is in that group unless it calls setsid.
 * The group is killed on abort AND after the shell exits, so nothing a hook started
 * outlives it (Claude Code leaves such children running; here they must not leak).
 *
 * One spawn path, node's `child_process.spawn`, for hooks and the Bash tool alike. execa was
 * used for the Bash tool, with its buffering, rejection, killing, cleanup and env merging all
 * switched off (this module does those itself, with caps and process groups): it added only
 * per-spawn bookkeeping (+0.4–0.9 ms measured on a 1.9 ms spawn) and a second path to test.
 */

/** Options of {@link runShellCommand}. */
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
  /** True when `signal` aborted the run (timeout or user Stop); output is what came before. */
  readonly aborted: boolean;
  /** Set when the shell could not be started at all; a message a user understands. */
  readonly spawnError?: string;
}

/** The program and arguments that run `command` through a shell. */
export interface ShellInvocation {
  readonly file: string;
  readonly args: readonly string[];
  readonly windowsVerbatimArguments?: boolean;
}

/** Default output cap per stream: 1 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

const IS_WINDOWS = process.platform === 'win32';
const POSIX_SHELL: ShellInvocation = { file: '/bin/sh', args: ['-c'] };
let windowsShell: ShellInvocation | undefined;

/**
 * The shell that runs hook commands: `/bin/sh -c` on POSIX; on Windows Git Bash when found
 * (as Claude Code does since 2.1.47, `CLAUDE_CODE_GIT_BASH_PATH` first), else `cmd.exe /d /s /c`.
 * Returns the invocation for `command`.
 */
export function resolveShell(command: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): ShellInvocation {
  if (platform !== 'win32') return { file: POSIX_SHELL.file, args: [...POSIX_SHELL.args, command] };
  windowsShell ??= findWindowsShell(env);
  if (windowsShell.windowsVerbatimArguments) return { ...windowsShell, args: [...windowsShell.args, `"${command}"`] };
  return { file: windowsShell.file, args: [...windowsShell.args, command] };
}

function findWindowsShell(env: NodeJS.ProcessEnv): ShellInvocation {
  const candidates = [
    env.CLAUDE_CODE_GIT_BASH_PATH,
    env.ProgramFiles && `${env.ProgramFiles}\\Git\\bin\\bash.exe`,
    env['ProgramFiles(x86)'] && `${env['ProgramFiles(x86)']}\\Git\\bin\\bash.exe`,
    env.LOCALAPPDATA && `${env.LOCALAPPDATA}\\Programs\\Git\\bin\\bash.exe`,
  ];
  for (const candidate of candidates) {
    if (candidate && existsSync(candidate)) return { file: candidate, args: ['-c'] };
  }
  return { file: env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c'], windowsVerbatimArguments: true };
}

/** Quotes `text` as one word for the shell {@link resolveShell} picks (POSIX sh / Git Bash, or cmd.exe). */
export function quoteForShell(text: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  if (platform === 'win32' && resolveShell('', platform, env).windowsVerbatimArguments) return `"${text.replace(/"/g, '""')}"`;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Claude Code's `CLAUDE_CODE_SHELL_PREFIX`: when set, every command (hooks and Bash) runs as
 * `<prefix> '<command>'`, so a wrapper can log or sandbox it.
 */
export function withShellPrefix(command: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const prefix = env.CLAUDE_CODE_SHELL_PREFIX?.trim();
  return prefix ? `${prefix} ${quoteForShell(command, platform, env)}` : command;
}

/**
 * Keeps the first `cap` bytes of a stream and counts the rest, so memory stays bounded
 * whatever a process prints. Decoding replaces invalid UTF-8 with U+FFFD.
 */
class CappedCollector {
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

/**
 * The part of a started process {@link runShellCommand} uses: node's ChildProcess has it, and so
 * has a process started by the spawn helper (src/shared/spawnHelper.ts), whose `pid` arrives
 * later, with a 'spawn' event.
 */
export interface SpawnedProcess {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream & { destroy(): void };
  readonly stderr: NodeJS.ReadableStream & { destroy(): void };
  readonly stdin: NodeJS.WritableStream & { on(event: 'error', fn: () => void): unknown };
  on(event: 'error', fn: (error: Error) => void): unknown;
  once(event: 'spawn', fn: () => void): unknown;
  once(event: 'exit', fn: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  once(event: 'close', fn: () => void): unknown;
  /** Tells the spawner the run is over (the helper drops its pipes). */
  release?(): void;
}

/**
 * Starts a shell detached with pipes; undefined = not available now (spawn directly instead).
 * `maxOutputBytes` lets it drop output past the run's cap at the source.
 */
export type ProcessSpawner = (
  file: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly maxOutputBytes: number },
) => SpawnedProcess | undefined;

let spawner: ProcessSpawner | undefined;

/**
 * Installs the one alternative spawner for shells (POSIX only; undefined removes it). The
 * extension host installs the spawn helper's; whenever it returns undefined (helper gone),
 * shells are spawned directly.
 */
export function setProcessSpawner(next: ProcessSpawner | undefined): void {
  spawner = next;
}

/** Process groups still alive, killed if the host process exits first (detached children outlive their parent otherwise). */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Told about every process group as it starts and ends, so something outside this process
 * (the CLI's watchdog) can kill them if this process dies without running its exit hook.
 */
export interface ProcessGroupListener {
  added(groupId: number): void;
  removed(groupId: number): void;
  /**
   * Variables every started shell inherits, so the listener can find processes it was never
   * told about: one spawned in the instant between fork and {@link added} when the host is
   * SIGKILLed, or one that left its group with `setsid`.
   */
  readonly childEnv?: Readonly<Record<string, string>>;
}

let groupListener: ProcessGroupListener | undefined;

/**
 * Installs the one listener (undefined removes it); it is first told about the groups alive
 * now. Its methods must not throw.
 */
export function setProcessGroupListener(listener: ProcessGroupListener | undefined): void {
  groupListener = listener;
  for (const groupId of liveGroups) listener?.added(groupId);
}

/** Kills every live group now (SIGKILL); for a host that is about to exit. */
export function killLiveProcessGroups(): void {
  for (const groupId of liveGroups) killTree(groupId, 'SIGKILL');
}

function untrackGroup(pid: number): void {
  if (liveGroups.delete(pid)) groupListener?.removed(pid);
}

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  groupListener?.added(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const groupId of liveGroups) killTree(groupId, 'SIGKILL');
  });
}

const noop = (): void => undefined;

/** Kills the process group led by `pid` (POSIX) or the process tree (Windows). ESRCH = already gone. */
function killTree(pid: number, signal: NodeJS.Signals): void {
  if (IS_WINDOWS) {
    // taskkill /T walks the tree; there are no process groups to signal.
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', noop);
    return;
  }
  // After every run the group is usually gone already (ESRCH): that throw is expected, so
  // skip capturing its stack, the costly part of a failed process.kill.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the whole group has already exited. EPERM cannot happen for our own children.
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

function describeSpawnError(error: unknown, shell: string, cwd: string, what: 'shell' | 'program' = 'shell'): string {
  const err = error as NodeJS.ErrnoException | undefined;
  try {
    if (!statSync(cwd).isDirectory()) return `working directory is not a directory: ${cwd}`;
  } catch {
    return `working directory does not exist: ${cwd}`;
  }
  if (err?.code === 'ENOENT') return `${what} not found: ${shell}`;
  const message = err?.message ?? String(error);
  return `could not start ${shell}: ${message.split('\n')[0] ?? message}`;
}

/**
 * Runs `command` through the shell (see {@link resolveShell}) and resolves when the shell has
 * exited and its output is collected — at most `drainMs` after exit even if a background child
 * keeps the pipes open (that child is then killed). Never rejects.
 */
export function runShellCommand(command: string, options: ProcessRunOptions): Promise<ProcessRunResult> {
  return runInvocation(resolveShell(withShellPrefix(command, options.env ?? process.env)), options, 'shell');
}

/**
 * Runs `file` with `args` directly, without a shell (exec-form hooks, a hook's chosen
 * `shell`), with the same capture, caps, process-group and abort handling as
 * {@link runShellCommand}. Never rejects.
 */
export function runProgram(file: string, args: readonly string[], options: ProcessRunOptions): Promise<ProcessRunResult> {
  return runInvocation({ file, args }, options, 'program');
}

function runInvocation(invocation: ShellInvocation, options: ProcessRunOptions, what: 'shell' | 'program'): Promise<ProcessRunResult> {
  const startedAt = performance.now();
  const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const signal = options.signal;
  if (signal?.aborted) {
    return Promise.resolve({ stdout: '', stderr: '', exitCode: null, stdoutTruncated: false, stderrTruncated: false, durationMs: 0, aborted: true });
  }

  return new Promise<ProcessRunResult>((resolve) => {
    const stdout = new CappedCollector(cap);
    const stderr = new CappedCollector(cap);
    let exitCode: number | null = null;
    let exitSignal: string | undefined;
    let exited = false;
    let aborted = false;
    let finished = false;
    let spawnError: string | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    let child: ChildProcess | SpawnedProcess;
    const env = groupListener?.childEnv ? { ...(options.env ?? process.env), ...groupListener.childEnv } : (options.env ?? process.env);
    try {
      child =
        (!IS_WINDOWS && spawner?.(invocation.file, invocation.args, { cwd: options.cwd, env, maxOutputBytes: cap })) ||
        spawn(invocation.file, [...invocation.args], {
          cwd: options.cwd,
          env,
          stdio: 'pipe',
          detached: !IS_WINDOWS,
          windowsHide: true,
          windowsVerbatimArguments: invocation.windowsVerbatimArguments ?? false,
        });
    } catch (error) {
      resolve(result(describeSpawnError(error, invocation.file, options.cwd, what)));
      return;
    }
    let pid = child.pid;
    if (pid !== undefined && !IS_WINDOWS) trackGroup(pid);
    else if (pid === undefined) {
      // A helper-started shell: its pid comes with 'spawn'. An abort that came first applies now.
      child.once('spawn', () => {
        pid = child.pid;
        if (pid === undefined) return;
        trackGroup(pid);
        if (finished || (aborted && exited)) killTree(pid, 'SIGKILL');
        else if (aborted) {
          const group = pid;
          killTree(group, 'SIGTERM');
          graceTimer = setTimeout(() => killTree(group, 'SIGKILL'), options.killGraceMs ?? 500);
        }
      });
    }

    function result(spawnFailure?: string): ProcessRunResult {
      const base = {
        stdout: stdout.text(),
        stderr: stderr.text(),
        exitCode: spawnFailure === undefined ? exitCode : null,
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        durationMs: performance.now() - startedAt,
        aborted,
      };
      const withSignal = exitSignal === undefined || spawnFailure !== undefined ? base : { ...base, signal: exitSignal };
      return spawnFailure === undefined ? withSignal : { ...withSignal, spawnError: spawnFailure };
    }

    function finish(): void {
      if (finished) return;
      finished = true;
      clearTimeout(graceTimer);
      clearTimeout(drainTimer);
      signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined && !IS_WINDOWS) {
        // Whatever the hook left running in its group dies with it. (On Windows the tree of
        // an exited shell cannot be walked; stragglers are only killed on abort or drain timeout.)
        killTree(pid, 'SIGKILL');
        untrackGroup(pid);
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
      (child as SpawnedProcess).release?.();
      resolve(result(spawnError));
    }

    function onAbort(): void {
      if (finished || aborted) return;
      aborted = true;
      if (pid === undefined) return;
      if (exited) {
        // Only stragglers holding the pipes are left: no grace needed.
        killTree(pid, 'SIGKILL');
        return;
      }
      killTree(pid, 'SIGTERM');
      graceTimer = setTimeout(() => pid !== undefined && killTree(pid, 'SIGKILL'), options.killGraceMs ?? 500);
    }

    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin?.on('error', noop);
    child.on('error', (error) => {
      // With a pid the process exists and 'exit' follows; without one it never started.
      if (pid !== undefined) return;
      spawnError ??= describeSpawnError(error, invocation.file, options.cwd, what);
      finish();
    });
    child.once('exit', (code, sig) => {
      exited = true;
      exitCode = code;
      exitSignal = sig ?? undefined;
      drainTimer = setTimeout(() => {
        // A background child still holds stdout/stderr: kill the group so the pipes close,
        // then give them a moment to flush before giving up on them.
        if (pid !== undefined) killTree(pid, 'SIGKILL');
        drainTimer = setTimeout(finish, 50);
      }, options.drainMs ?? 100);
    });
    // 'close' = exited and every stdio stream closed: the normal, fast path.
    child.once('close', finish);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    else child.stdin?.end();
  });
}

/** A long-lived child in its own process group (an MCP stdio server), tracked like a hook's shell. */
export interface ProcessGroupChild {
  readonly child: ChildProcessWithoutNullStreams;
  /**
   * Kills the whole group: SIGTERM, then SIGKILL after `graceMs` if the leader is still
   * alive. Resolves when the leader has exited (or at once when it already has).
   */
  kill(graceMs?: number): Promise<void>;
}

/**
 * Spawns `file args` (no shell) with piped stdio, leading its own process group on POSIX, so
 * whatever it starts is killed with it; the group is killed when the host exits, and the CLI
 * watchdog is told about it like any hook's. Throws what `spawn` throws (the caller reports it).
 */
export function spawnProcessGroup(
  file: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv },
): ProcessGroupChild {
  const child = spawn(file, [...args], {
    cwd: options.cwd,
    env: groupListener?.childEnv ? { ...options.env, ...groupListener.childEnv } : options.env,
    stdio: 'pipe',
    detached: !IS_WINDOWS,
    windowsHide: true,
  }) as ChildProcessWithoutNullStreams;
  const pid = child.pid;
  if (pid !== undefined && !IS_WINDOWS) trackGroup(pid);
  let exited = child.exitCode !== null || child.signalCode !== null;
  const exit = new Promise<void>((resolve) => {
    const done = (): void => {
      exited = true;
      resolve();
    };
    child.once('exit', done);
    child.once('error', done);
  });
  return {
    child,
    async kill(graceMs = 500) {
      if (pid === undefined) return;
      killTree(pid, 'SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      if (!exited) await Promise.race([exit, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      // Whatever is left in the group (the leader ignoring SIGTERM, its children) goes now.
      killTree(pid, 'SIGKILL');
      untrackGroup(pid);
      await exit;
    },
  };
}
