/**
 * `hookwise` — the headless runner (`hookwise -p "prompt"`). The same core as the extension,
 * without VS Code. This first slice answers `--version` and `--help`.
 */
import { version } from '../../package.json';

const USAGE = `Usage: hookwise -p "prompt" [options]

Options:
  -p, --print PROMPT   run one prompt headless and print the result
  --version            print the version
  -h, --help           show this help`;

function main(argv: readonly string[]): number {
  if (argv.includes('--version')) {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  if (argv.length === 0 || argv.includes('-h') || argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  process.stderr.write(`hookwise: the agent is not wired into the CLI yet\n${USAGE}\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
