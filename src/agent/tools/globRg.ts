import path from 'node:path';
import { sortNewestFirst } from './newestFirst';
import { RG_MAX_OUTPUT_BYTES, rgErrorText, runRg } from './ripgrep';
import type { Ripgrep } from './ripgrep';

/** What `rg --files` listed, newest first. */
export interface RgFileList {
  /** Absolute paths, most recently modified first. */
  readonly files: string[];
  /** Set when the listing is incomplete (output cap): says what is missing. */
  readonly notListed?: string;
}

/**
 * Glob on ripgrep: `rg --files --hidden --no-ignore --glob <pattern>`, as Claude Code lists
 * files (ignore files do not hide them; a glob without "/" matches at any depth), plus `!<dir>` for each of `excludeDirs`. rg follows no symlink and
 * lists none, so every path is a regular file below `dir`. Sorted here, newest first, ties by
 * path: rg's own `--sortr=modified` orders siblings within each directory, not the whole list.
 * Never rejects.
 */
export async function listWithRg(
  rg: Ripgrep,
  pattern: string,
  dir: string,
  options: { readonly excludeDirs: readonly string[]; readonly signal: AbortSignal; readonly timeoutMs: number },
): Promise<RgFileList | { readonly error: string }> {
  // `--glob=VALUE`: a pattern starting with '-' stays a value, never a flag.
  const args = ['--files', '--hidden', '--no-ignore', '--null', `--glob=${pattern}`];
  for (const d of options.excludeDirs) args.push(`--glob=!${d}`);
  const run = await runRg(rg, args, { cwd: dir, signal: options.signal, timeoutMs: options.timeoutMs });
  if (run.aborted) return { error: 'Glob was interrupted.' };
  if (run.timedOut)
    return { error: `Glob stopped after ${options.timeoutMs / 1000} s: listing took too long, and the list is incomplete. Narrow path or pattern.` };
  const { result } = run;
  if (result.spawnError) return { error: `Glob failed: ${result.spawnError}` };
  // Exit 1 = nothing listed; 2 with an error about the glob = a bad pattern. Unreadable
  // directories also give 2 (and a message per directory): the rest is still listed.
  if (result.exitCode === 2 && /error parsing glob|glob/i.test(result.stderr) && result.stdout === '') {
    return { error: `Invalid glob pattern ${JSON.stringify(pattern)} (ripgrep says):\n${rgErrorText(result)}` };
  }
  let names = result.stdout.split('\0');
  if (result.stdoutTruncated || names[names.length - 1] === '') names = names.slice(0, -1);
  const files = await sortNewestFirst(
    names.map((rel) => path.join(dir, rel)),
    options.signal,
  );
  if (options.signal.aborted) return { error: 'Glob was interrupted.' };
  return result.stdoutTruncated
    ? {
        files,
        notListed: `ripgrep's listing passed ${RG_MAX_OUTPUT_BYTES / 1024 / 1024} MB and the rest was not read: older matches are missing. Narrow path or pattern.`,
      }
    : { files };
}
