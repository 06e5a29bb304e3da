import { execFile } from 'node:child_process';
import path from 'node:path';
import type { CliWorkspace } from '../../support/cliHarness';
import { HOOKS_DIR } from '../../support/cliHarness';

const DRIVER = path.join(HOOKS_DIR, '..', 'ptyDriver.py');

/** What a CLI run at a real terminal (python3's pty, test/fixtures/cli/ptyDriver.py) showed. */
export interface PtyRun {
  readonly code: number;
  readonly stdout: string;
  /** stderr when it is a pipe beside the terminal (`stderr: 'pipe'`). */
  readonly stderr: string;
  /** Everything the terminal showed (stderr and the echo of what was typed). */
  readonly tty: string;
  readonly timedOut: boolean;
  /** `expect`s the terminal never showed. */
  readonly unmet: readonly string[];
}

/** How the terminal is set up and what is typed when. */
export interface PtyOptions {
  /** Each step waits for `expect` on the terminal, then types `send`. */
  readonly steps?: readonly { readonly expect: string; readonly send: string }[];
  readonly stdin?: 'tty' | 'devnull';
  readonly stderr?: 'tty' | 'pipe';
  /** false: no terminal at all (no controlling tty, stderr a pipe). */
  readonly terminal?: boolean;
}

/**
 * Runs the built CLI `cli` with `args` in workspace `w` at a real pseudo-terminal, answering its
 * questions as `options.steps` say. The driver gives up after 15 s (reported as `timedOut`).
 */
export function runCliInPty(cli: string, w: CliWorkspace, args: readonly string[], options: PtyOptions = {}): Promise<PtyRun> {
  const spec = {
    argv: [process.execPath, cli, ...args],
    cwd: w.ws,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: w.home, HOOKWISE_HOME: w.hookwiseHome, OPENAI_API_KEY: 'test-key', TERM: 'dumb' },
    steps: options.steps ?? [],
    stdin: options.stdin ?? 'tty',
    stderr: options.stderr ?? 'tty',
    terminal: options.terminal ?? true,
    timeout: 15,
  };
  return new Promise((resolve, reject) => {
    execFile('python3', [DRIVER, JSON.stringify(spec)], { timeout: 20_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`pty driver failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as PtyRun);
    });
  });
}
