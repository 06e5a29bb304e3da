import { abortedBeforeStart, DEFAULT_MAX_OUTPUT_BYTES } from './processLauncher';
import type { LaunchKind, ProcessLauncher, ProcessRunOptions, ProcessRunResult } from './processLauncher';
import { IS_WINDOWS, withGroupChildEnv } from './processGroups';
import { SupervisedRun, type SpawnedProcess } from './processRun';
import type { ShellInvocation } from './shellInvocation';
import { childProcess } from './lazyBuiltins';

/**
 * Starts a shell detached with pipes; undefined = not available now (spawn directly instead).
 * `maxOutputBytes` lets it drop output past the run's cap at the source.
 */
export type ProcessSpawner = (
  file: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly maxOutputBytes: number },
) => SpawnedProcess | undefined;

/** Options of {@link createLeanLauncher}. */
export interface LeanLauncherOptions {
  /**
   * Another way to start a process (POSIX only), tried first on every launch: the extension
   * host's spawn helper. Whenever it returns undefined (helper not started yet, or gone),
   * the process is spawned directly.
   */
  readonly spawner?: ProcessSpawner;
}

/**
 * The lean launcher: node's `child_process.spawn` (or the given spawner) and nothing else per
 * spawn, for command hooks, where every spawn is on the critical path of a tool call. execa
 * costs +0.4–0.9 ms per spawn on a ~2 ms spawn (docs/performance.md, "Two launchers").
 */
export function createLeanLauncher(options: LeanLauncherOptions = {}): ProcessLauncher {
  const spawner = IS_WINDOWS ? undefined : options.spawner;
  return {
    name: spawner ? 'lean (spawn helper)' : 'lean',
    launch(invocation: ShellInvocation, run: ProcessRunOptions, kind: LaunchKind = 'shell'): Promise<ProcessRunResult> {
      if (run.signal?.aborted) return Promise.resolve(abortedBeforeStart());
      const supervised = new SupervisedRun(run, { file: invocation.file, kind, forceKill: 'here' });
      const env = withGroupChildEnv(run.env ?? process.env);
      let child: SpawnedProcess;
      try {
        child =
          spawner?.(invocation.file, invocation.args, { cwd: run.cwd, env, maxOutputBytes: run.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES }) ??
          childProcess().spawn(invocation.file, [...invocation.args], {
            cwd: run.cwd,
            env,
            stdio: 'pipe',
            detached: !IS_WINDOWS,
            windowsHide: true,
            windowsVerbatimArguments: invocation.windowsVerbatimArguments ?? false,
          });
      } catch (error) {
        return supervised.failed(error);
      }
      const done = supervised.attach(child);
      if (run.stdin !== undefined) child.stdin?.end(run.stdin);
      else child.stdin?.end();
      return done;
    },
  };
}

/** The lean launcher without a spawner: what runs when a host passes none. */
export const leanLauncher: ProcessLauncher = createLeanLauncher();
