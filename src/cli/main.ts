/**
 * `hookwise` — the headless runner (`hookwise -p "prompt"`): the same core as the
 * extension, without VS Code. Exit codes: 0 completed, 1 failed, 2 bad usage, 128+N when
 * stopped by signal N (SIGTERM 143, SIGHUP 129; also 129 when the parent process died).
 */
import { fstatSync } from 'node:fs';
import { version } from '../../package.json';
import { armProcessGroupWatchdog } from '../shared/processGroupWatchdog';
import { parseCliArgs, USAGE } from './cliArgs';
import { watchParent } from './parentWatch';
import { runCli, type CliIo } from './runCli';
import { runHooksCommand } from './hooksCommand';
import { handleStopSignals } from './stopSignals';
import { thrownStack } from '../shared/describeThrown';
import { compileCoverage } from './compileCoverage';
import { composePrompt, readPipedInput } from './pipedPrompt';

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
    case 'run': {
      const words = command.args.prompt;
      return runGuarded(async (io) => {
        const prompt = await promptOf(words, io);
        return prompt === undefined ? 2 : runCli({ ...command.args, prompt }, io);
      });
    }
  }
}

/**
 * The run's prompt: its words and the input piped on stdin, put together as Claude Code does
 * (pipedPrompt.ts). Not read: a terminal (the person types answers there), or a character
 * device such as /dev/null (nothing is piped; also what a closed stdin becomes). Undefined,
 * after saying why, when there is no prompt or the input is refused.
 */
async function promptOf(words: string, io: CliIo): Promise<string | undefined> {
  let piped = '';
  if (stdinMayBePiped()) {
    const input = await readPipedInput(process.stdin, { signal: io.signal });
    if (input.kind === 'aborted') return undefined;
    if (input.kind === 'tooLarge') {
      io.stderr(`hookwise: ${input.message}\n`);
      return undefined;
    }
    if (input.kind === 'noData') io.stderr(`hookwise: ${input.warning}\n`);
    else piped = input.text;
  }
  const prompt = composePrompt(words, piped);
  if (prompt.trim() !== '') return prompt;
  io.stderr(
    `hookwise: ${words === '' && piped === '' ? 'a prompt is required: hookwise -p "prompt", or pipe it on stdin' : 'the prompt is only whitespace'}\n\n${USAGE}\n`,
  );
  return undefined;
}

function stdinMayBePiped(): boolean {
  try {
    // A terminal is a character device too, so is /dev/null: neither is read.
    return !fstatSync(0).isCharacterDevice();
  } catch {
    return false;
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
