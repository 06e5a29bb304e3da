import { abortedBeforeStart, DEFAULT_KILL_GRACE_MS } from './processLauncher';
import { IS_WINDOWS, withGroupChildEnv } from './processGroups';
import type { LaunchKind, ProcessLauncher, ProcessRunOptions, ProcessRunResult } from './processLauncher';
import { SupervisedRun, type SpawnedProcess } from './processRun';
import type { ShellInvocation } from './shellInvocation';
import type * as ExecaStartModule from './execaStart';

let loaded: Promise<typeof ExecaStartModule> | undefined;

/** execa, loaded on first use; esbuild turns this into a require of dist/execa.js beside the bundle. */
function loadExeca(): Promise<typeof ExecaStartModule> {
  loaded ??= import('./execaStart').catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

/**
 * The execa launcher, for long-running user commands (the Bash tool and the `!command`s of
 * slash commands run through it), where execa's per-spawn cost is noise. execa starts the
 * process, writes stdin, and on abort or timeout (its `cancelSignal`) sends the leader SIGTERM
 * and, `killGraceMs` later, SIGKILL (`forceKillAfterDelay`). What execa does not do is left to
 * the shared run supervision (processRun.ts): the process group (execa signals one pid;
 * a shell's background children are in its group) and capture that drops output past the cap
 * instead of killing the command (execa's `maxBuffer` ends the process), so buffering is off.
 */
export const execaLauncher: ProcessLauncher = {
  name: 'execa',
  async launch(invocation: ShellInvocation, run: ProcessRunOptions, kind: LaunchKind = 'shell'): Promise<ProcessRunResult> {
    if (run.signal?.aborted) return abortedBeforeStart();
    let startExeca: typeof ExecaStartModule.startExeca;
    try {
      ({ startExeca } = await loadExeca());
    } catch (error) {
      // The side bundle is missing or broken: a result that says so, like any failed start.
      return new SupervisedRun(run, { file: invocation.file, kind, forceKill: 'launcher' }).failed(error);
    }
    if (run.signal?.aborted) return abortedBeforeStart();
    const supervised = new SupervisedRun(run, { file: invocation.file, kind, forceKill: 'launcher' });
    let subprocess: ReturnType<typeof startExeca>;
    try {
      subprocess = startExeca(invocation, {
        cwd: run.cwd,
        env: withGroupChildEnv(run.env ?? process.env),
        stdin: run.stdin ?? '',
        // Its own process group on POSIX, so the supervision can kill everything the command started.
        detached: !IS_WINDOWS,
        cancelSignal: supervised.stopSignal,
        killGraceMs: run.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
      });
    } catch (error) {
      return supervised.failed(error);
    }
    const done = supervised.attach(subprocess as unknown as SpawnedProcess);
    // execa settles (never rejects: reject is off) once the process and its pipes are done. A
    // process that never started has no pid and, when execa reports the failure itself
    // rather than through an 'error' event, this is where the run ends.
    const settled = (outcome: unknown): void => {
      if (subprocess.pid === undefined) void supervised.failed(failureCause(outcome));
    };
    subprocess.then(settled, settled);
    return done;
  },
};

function failureCause(outcome: unknown): unknown {
  const cause = (outcome as { cause?: unknown } | undefined)?.cause;
  return cause ?? outcome;
}
