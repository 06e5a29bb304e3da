/**
 * `hookwise` — the headless runner (`hookwise -p "prompt"`): the same core as the
 * extension, without VS Code. Exit codes: 0 completed, 1 failed, 2 bad usage.
 */
import { version } from '../../package.json';
import { parseCliArgs, USAGE } from './cliArgs';
import { runCli } from './runCli';

async function main(): Promise<number> {
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
      const controller = new AbortController();
      // First Ctrl+C stops the agent (hooks and tools are killed); a second one exits now.
      process.once('SIGINT', () => {
        process.stderr.write('\nhookwise: stopping… (Ctrl+C again to quit now)\n');
        controller.abort(new Error('interrupted'));
        process.once('SIGINT', () => process.exit(130));
      });
      return runCli(command.args, {
        stdout: (t) => process.stdout.write(t),
        stderr: (t) => process.stderr.write(t),
        env: process.env,
        signal: controller.signal,
      });
    }
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`hookwise: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
