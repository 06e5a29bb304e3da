import { execa } from 'execa';
import type { ShellInvocation } from './shellInvocation';

/** What {@link startExeca} needs, all decided by the launcher. */
export interface ExecaStartOptions {
  readonly cwd: string;
  /** The complete environment (no merging with process.env here). */
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: string;
  /** Lead a new process group (POSIX). */
  readonly detached: boolean;
  /** Aborting it sends the leader SIGTERM, then SIGKILL after `killGraceMs`. */
  readonly cancelSignal: AbortSignal;
  readonly killGraceMs: number;
}

/**
 * Starts `invocation` with execa, as the execa launcher (execaLauncher.ts) supervises it. Its
 * own file because it ships as its own bundle, dist/execa.js (see esbuild.mjs), loaded on the
 * first user command: sessions that never run one do not parse execa. It imports no module
 * with state (the bundle would get its own copy): everything comes in `options`.
 */
export function startExeca(invocation: ShellInvocation, options: ExecaStartOptions) {
  return execa(invocation.file, [...invocation.args], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    input: options.stdin,
    // The supervision reads the pipes itself, with a cap per stream.
    buffer: false,
    encoding: 'buffer',
    reject: false,
    stripFinalNewline: false,
    detached: options.detached,
    cancelSignal: options.cancelSignal,
    killSignal: 'SIGTERM',
    forceKillAfterDelay: options.killGraceMs,
    windowsHide: true,
    windowsVerbatimArguments: invocation.windowsVerbatimArguments ?? false,
  });
}
