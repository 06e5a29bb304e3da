/**
 * `hookwise` — the headless runner (`hookwise -p "prompt"`): the same core as the
 * extension, without VS Code. Exit codes: 0 completed, 1 failed, 2 bad usage, 128+N when
 * stopped by signal N (SIGTERM 143, SIGHUP 129; also 129 when the parent process died).
 */
import { version } from '../../package.json';
import { armProcessGroupWatchdog } from '../shared/processGroupWatchdog';
import { parseCliArgs, USAGE } from './cliArgs';
import { watchParent } from './parentWatch';
import { runCli, type CliIo } from './runCli';
import { runHooksCommand } from './hooksCommand';
import { handleStopSignals } from './stopSignals';
import { thrownStack } from '../shared/describeThrown';
import { compileCoverage } from './compileCoverage';

/**
 * The code paths this run went through, for the code cache's writer in bin.ts
 * (compileCache.ts reads this export of the bundle at exit).
 */
export function compileCacheCoverage(): readonly string[] {
  return compileCoverage();
}

async function main(): Promise<number> {
  // `hookwise hooks list|explain|test`: no agent, no model; a test's hooks die with the process.
  if (process.argv[2] === 'hooks') return runGuarded((io) => runHooksCommand(process.argv.slice(3), io));
  const command = parseCliArgs(process.argv.slice(2), process.env, process.cwd());
  switch (command.kind) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case 'version':
      process.stdout.write(`${version}\n`);
      return 0;
    case 'usageError':
      process.stderr.write(`hookwise: ${command.message}\n\n${USAGE}\n`);
      return 2;
    case 'run':
      return runGuarded((io) => runCli(command.args, io));
  }
}

/**
 * Runs one command with the process's stop paths in place: SIGTERM/SIGHUP and the parent's
 * death stop it (exit 128+N), and the watchdog kills the hooks' and commands' process groups
 * even if this process is SIGKILLed.
 */
async function runGuarded(work: (io: CliIo) => Promise<number>): Promise<number> {
  // A closed terminal or pipe must not crash the stop path with EPIPE/EIO.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const controller = new AbortController();
  const stops = handleStopSignals(controller, (text) => process.stderr.write(text));
  const watchdog = armProcessGroupWatchdog();
  const stopWatchingParent = watchParent(() => stops.stop('SIGHUP', 'the parent process exited'));
  try {
    const code = await work({ stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), env: process.env, signal: controller.signal });
    return stops.exitCode() ?? code;
  } finally {
    stopWatchingParent();
    stops.done();
    watchdog.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`hookwise: internal error: ${thrownStack(error)}\n`);
    process.exitCode = 1;
  },
);
