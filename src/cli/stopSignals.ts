import { constants } from 'node:os';
import { killLiveProcessGroups } from '../shared/processGroups';

/**
 * How the CLI stops on a signal. SIGINT (Ctrl+C) stops the agent and the run ends as
 * `cancelled` (exit 1), as before. SIGTERM and SIGHUP do the same — hooks and Bash calls are
 * killed, SessionEnd hooks run, the transcript is closed — and the process then exits with
 * 128+signo. Without a handler Node died at once on SIGTERM/SIGHUP without running its exit
 * hook, leaving every hook's and command's process group running. A second signal, or a stop
 * that takes longer than {@link STOP_DEADLINE_MS}, exits at once (the exit hook still SIGKILLs
 * the live groups).
 */

/** Longest a signalled CLI spends stopping cleanly before it exits anyway. */
export const STOP_DEADLINE_MS = 5_000;

type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** What {@link handleStopSignals} returns. */
export interface StopSignals {
  /** Stops as if `signal` had arrived (the parent-death watch uses SIGHUP); `why` is shown. */
  stop(signal: StopSignal, why?: string): void;
  /** 128+signo when a SIGTERM/SIGHUP stop happened, else undefined (keep the run's code). */
  exitCode(): number | undefined;
  /** The run has ended: cancels the stop deadline so the process can exit now. */
  done(): void;
}

/** Installs the handlers; `controller` is aborted on the first stop. */
export function handleStopSignals(controller: AbortController, stderr: (text: string) => void): StopSignals {
  let terminating: StopSignal | undefined;
  let deadline: NodeJS.Timeout | undefined;
  const exitNow = (signal: StopSignal): never => {
    killLiveProcessGroups();
    process.exit(128 + constants.signals[signal]);
  };
  const stop = (signal: StopSignal, why?: string): void => {
    if (controller.signal.aborted) {
      // Second signal: no more waiting.
      exitNow(terminating ?? signal);
      return;
    }
    if (signal === 'SIGINT') stderr('\nhookwise: stopping… (Ctrl+C again to quit now)\n');
    else {
      terminating = signal;
      stderr(`\nhookwise: ${why ?? `received ${signal}`}; stopping\n`);
      // Not unref'd on purpose: the deadline must fire even if something holds the loop.
      deadline = setTimeout(() => exitNow(signal), STOP_DEADLINE_MS);
    }
    controller.abort(new Error(signal === 'SIGINT' ? 'interrupted' : `terminated (${signal})`));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
  return {
    stop,
    exitCode: () => (terminating === undefined ? undefined : 128 + constants.signals[terminating]),
    done: () => clearTimeout(deadline),
  };
}
