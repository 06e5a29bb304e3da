import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Runs many command lines under a real shell, each as `<shell> -c <command>` in its own empty
 * directory, through a few bash driver processes (one fork per case instead of one node
 * spawn), and reports which directories gained a `PWN` marker.
 */

const DRIVER = `
set -u
sh_under_test=$1; shift
for dir in "$@"; do
  cmd=$(cat "$dir.cmd"; printf x); cmd=\${cmd%x}
  mkdir -p "$dir"
  (cd "$dir" && timeout -k 1 5 "$sh_under_test" -c "$cmd" </dev/null >/dev/null 2>&1)
done
exit 0
`;

function runDriver(shell: string, dirs: readonly string[], env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', DRIVER, 'driver', shell, ...dirs], { env, stdio: ['ignore', 'ignore', 'pipe'], signal });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`driver for ${shell} exited ${code}: ${stderr}`))));
  });
}

/**
 * Runs each of `commands` under each of `shells` (in parallel `batches` per shell); returns,
 * per shell, the indexes whose run created `PWN`. A fake `npm` that ignores its arguments is first on PATH.
 */
export async function runUnderShells(
  root: string,
  commands: readonly string[],
  shells: readonly string[],
  batches: number,
  signal: AbortSignal,
): Promise<Map<string, number[]>> {
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
  const runs: Promise<void>[] = [];
  for (const shell of shells) {
    const dirs = commands.map((command, i) => {
      const dir = path.join(root, path.basename(shell), String(i));
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      fs.writeFileSync(`${dir}.cmd`, command);
      return dir;
    });
    for (let b = 0; b < batches; b++)
      runs.push(
        runDriver(
          shell,
          dirs.filter((_, i) => i % batches === b),
          env,
          signal,
        ),
      );
  }
  await Promise.all(runs);
  // Commands sent to the background (`A & B`) may still be finishing.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const found = new Map<string, number[]>();
  for (const shell of shells) {
    const hits = commands.flatMap((_, i) => (fs.lstatSync(path.join(root, path.basename(shell), String(i), 'PWN'), { throwIfNoEntry: false }) ? [i] : []));
    found.set(shell, hits);
  }
  return found;
}
