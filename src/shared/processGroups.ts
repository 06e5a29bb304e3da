import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { childProcess } from './lazyBuiltins';

/**
 * Process-tree rule: on POSIX every process a launcher starts is spawned detached, so it leads
 * its own process group; every child it starts (`sleep 100 &`) is in that group unless it calls
 * setsid. Launchers kill the group on abort AND after the leader exits, so nothing a hook or a
 * Bash command started outlives it. This module is the one registry of live groups: it is
 * process-wide by nature (the host's exit hook must see every group, whichever launcher made it).
 */

/** True on Windows, where there are no process groups (taskkill /T walks the tree instead). */
export const IS_WINDOWS = process.platform === 'win32';

/**
 * Process groups still alive, killed if the host process exits first (detached children
 * outlive their parent otherwise); the value says whether the listener was told of it.
 */
const liveGroups = new Map<number, boolean>();
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
  for (const [groupId, reported] of liveGroups) if (reported) listener?.added(groupId);
}

let listenerStarter: (() => void) | undefined;

/**
 * Registers `start` (undefined clears it), called once just before the first process is
 * launched; it installs the listener then. A listener that costs a spawn (the CLI's watchdog)
 * is thus paid for only by runs that start a process.
 */
export function setProcessGroupListenerStarter(start: (() => void) | undefined): void {
  listenerStarter = start;
}

/** The last environments given to {@link withGroupChildEnv}, with their marked copies. */
let markedEnvs = new WeakMap<NodeJS.ProcessEnv, NodeJS.ProcessEnv>();
let markedFor: ProcessGroupListener['childEnv'];

/**
 * `env` plus the listener's marker variables: the environment every launched process gets.
 * A frozen `env` gives the same frozen result every time (the five hooks of one call share
 * theirs), so a launcher can recognise it without comparing its contents; any other `env`
 * (process.env itself changes) gets a fresh copy.
 */
export function withGroupChildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (listenerStarter) {
    const start = listenerStarter;
    listenerStarter = undefined;
    start();
  }
  const childEnv = groupListener?.childEnv;
  if (!childEnv) return env;
  if (markedFor !== childEnv) {
    markedEnvs = new WeakMap();
    markedFor = childEnv;
  }
  if (!Object.isFrozen(env)) return { ...env, ...childEnv };
  let marked = markedEnvs.get(env);
  if (!marked) markedEnvs.set(env, (marked = Object.freeze({ ...env, ...childEnv })));
  return marked;
}

/** True while a group the listener was told of is still alive. */
export function reportedGroupsLive(): boolean {
  for (const reported of liveGroups.values()) if (reported) return true;
  return false;
}

/** Kills every live group now (SIGKILL); for a host that is about to exit. */
export function killLiveProcessGroups(): void {
  for (const groupId of liveGroups.keys()) killTree(groupId, 'SIGKILL');
}

/** Forgets the group led by `pid` (it is dead) and tells the listener if it was told of it. */
export function untrackGroup(pid: number): void {
  const reported = liveGroups.get(pid);
  if (liveGroups.delete(pid) && reported) groupListener?.removed(pid);
}

/**
 * Remembers the group led by `pid`, killed if the host exits first, and tells the listener —
 * unless `report` is false: a group the spawn helper started is killed by the helper when
 * this process dies, and found by its mark by the watchdog, so telling the watchdog (one pipe
 * write and one wake-up of its shell per group) would only repeat that on every hook's path.
 */
export function trackGroup(pid: number, report = true): void {
  liveGroups.set(pid, report);
  if (report) groupListener?.added(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const groupId of liveGroups.keys()) killTree(groupId, 'SIGKILL');
  });
}

const noop = (): void => undefined;

/** Kills the process group led by `pid` (POSIX) or the process tree (Windows). ESRCH = already gone. */
export function killTree(pid: number, signal: NodeJS.Signals): void {
  if (IS_WINDOWS) {
    // taskkill /T walks the tree; there are no process groups to signal.
    childProcess()
      .spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true })
      .on('error', noop);
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
  const child = childProcess().spawn(file, [...args], {
    cwd: options.cwd,
    env: withGroupChildEnv(options.env),
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
