import path from 'node:path';
import { VCS_DIRS } from './grepHits';
import type { GrepFailure, GrepHits, GrepQuery } from './grepHits';
import { RG_MAX_OUTPUT_BYTES, rgErrorText, runRg } from './ripgrep';
import type { Ripgrep } from './ripgrep';

/** Lines longer than this are cut by rg itself (a preview is kept), before the tool's own cut. */
const RG_MAX_COLUMNS = 4096;

/**
 * Grep on ripgrep, with Claude Code's flags: `--hidden`, VCS directories excluded, ignore
 * files (.gitignore in a git repository, .ignore, .rgignore) respected, no `--follow`.
 * Output is parsed with `--null` (paths may hold ':'); files a Read deny rule covers are
 * dropped and counted, their lines never shown. An invalid pattern gives rg's message.
 */
export async function grepWithRg(rg: Ripgrep, q: GrepQuery): Promise<GrepHits | GrepFailure> {
  const args = ['--hidden', '--with-filename', '--null', '--no-messages', '--max-columns', String(RG_MAX_COLUMNS), '--max-columns-preview'];
  for (const dir of VCS_DIRS) args.push(`--glob=!${dir}`);
  if (q.multiline) args.push('-U', '--multiline-dotall');
  if (q.ignoreCase) args.push('-i');
  if (q.mode === 'files_with_matches') args.push('-l');
  else if (q.mode === 'count') args.push('-c');
  else {
    args.push(q.showLineNumbers ? '-n' : '--no-line-number');
    if (q.before > 0) args.push('-B', String(q.before));
    if (q.after > 0) args.push('-A', String(q.after));
  }
  if (q.type) args.push(`--type=${q.type}`);
  // `--glob=VALUE`: a value starting with '-' stays a value, never a flag.
  for (const g of q.globs) args.push(`--glob=${g}`);
  args.push('-e', q.pattern, '--', q.root);

  const run = await runRg(rg, args, { cwd: q.rootIsDir ? q.root : path.dirname(q.root), signal: q.signal, timeoutMs: q.timeoutMs });
  if (run.aborted) return { error: 'Grep was interrupted.' };
  if (run.timedOut) {
    return {
      error: `Grep stopped after ${q.timeoutMs / 1000} s: ripgrep took too long, and the search is incomplete. Narrow path or glob, or simplify the pattern.`,
    };
  }
  const { result } = run;
  if (result.spawnError) return { error: `Grep failed: ${result.spawnError}` };
  // 0 = matches, 1 = none; 2 = an error. --no-messages hides per-file errors (unreadable files,
  // like the fallback), so a 2 with stderr is a bad pattern, type or glob.
  if (result.exitCode === 2 && result.stderr.trim() !== '') {
    const what = /regex parse error|error parsing regex|regex could not be compiled/i.test(result.stderr)
      ? `Invalid regular expression ${JSON.stringify(q.pattern)}`
      : 'ripgrep rejected the search';
    return { error: `${what} (ripgrep / Rust regex syntax):\n${rgErrorText(result)}` };
  }
  if (result.exitCode !== 0 && result.exitCode !== 1 && result.exitCode !== 2) {
    return { error: `Grep failed: ripgrep ended with ${result.signal ?? `exit code ${result.exitCode}`}. ${rgErrorText(result)}`.trim() };
  }

  const matched: string[] = [];
  const entries: string[] = [];
  let numMatches = 0;
  const deniedFiles = new Set<string>();
  const seen = new Set<string>();
  const admit = (file: string): boolean => {
    if (deniedFiles.has(file)) return false;
    if (!seen.has(file)) {
      // rg follows no symlink below the root, so the real path is the root's plus the rest.
      const real = q.rootIsDir ? path.join(q.realRoot, path.relative(q.root, file)) : q.realRoot;
      if (q.readDeniedBy?.(file, real) !== undefined) {
        deniedFiles.add(file);
        return false;
      }
      seen.add(file);
      matched.push(file);
    }
    return true;
  };

  let lines = result.stdout.split('\n');
  // A cut output ends mid-line: drop the partial last line.
  if (result.stdoutTruncated) lines = lines.slice(0, -1);
  else if (lines[lines.length - 1] === '') lines.pop();
  let lastKept = false;
  for (const line of lines) {
    if (q.mode === 'files_with_matches') {
      for (const file of line.split('\0')) if (file !== '') admit(file);
      continue;
    }
    if (line === '--') {
      if (lastKept && entries.length > 0 && entries[entries.length - 1] !== '--') entries.push('--');
      continue;
    }
    const nul = line.indexOf('\0');
    if (nul < 0) continue;
    const file = line.slice(0, nul);
    const rest = line.slice(nul + 1);
    lastKept = admit(file);
    if (!lastKept) continue;
    if (q.mode === 'count') {
      const n = Number(rest);
      numMatches += n;
      entries.push(`${file}:${n}`);
      continue;
    }
    // rest = "12:text" (match) or "12-text" (context) with -n; just the text without.
    const m = q.showLineNumbers ? /^(\d+)([:-])/.exec(rest) : null;
    const sep = m ? m[2] : ':';
    if (sep === ':') numMatches++;
    const keep = (m ? m[0].length : 0) + q.maxLineChars;
    entries.push(`${file}${sep}${rest.length > keep ? `${rest.slice(0, keep)}\u2026 [truncated]` : rest}`);
  }
  if (entries[entries.length - 1] === '--') entries.pop();
  const hits: GrepHits = { matchedFiles: matched, entries, numMatches, hidden: deniedFiles.size, moreEntries: false };
  return result.stdoutTruncated
    ? {
        ...hits,
        notSearched: `ripgrep's output passed ${RG_MAX_OUTPUT_BYTES / 1024 / 1024} MB and the rest was not read: files and lines past that point are missing. Narrow path, glob or pattern.`,
      }
    : hits;
}
