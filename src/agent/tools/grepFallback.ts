import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { DEFAULT_IGNORED_DIRS } from './globTool';
import type { GrepFailure, GrepHits, GrepQuery } from './grepHits';
import { GrepStoppedError, GrepWorker } from './grepWorker';
import { SNIFF_BYTES, hasBinaryExtension, looksBinary } from './textFiles';
import { walkFiles } from './walkFiles';
import { thrownMessage } from '../../shared/describeThrown';

/** Files larger than this are skipped (generated bundles, logs, data). */
export const GREP_MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Files examined at most per call; a broader search says what it did not search. */
export const GREP_MAX_FILES_SCANNED = 20_000;
/** File text handed to the worker per message (characters, files). */
const BATCH_CHARS = 4 * 1024 * 1024;
const BATCH_FILES = 256;

/** File name globs of the common ripgrep `--type` names, for the fallback (ripgrep knows many more). */
const TYPE_GLOBS: Readonly<Record<string, readonly string[]>> = {
  js: ['*.js', '*.jsx', '*.mjs', '*.cjs', '*.vue'],
  ts: ['*.ts', '*.tsx', '*.cts', '*.mts'],
  py: ['*.py', '*.pyi'],
  rust: ['*.rs'],
  go: ['*.go'],
  java: ['*.java', '*.jsp', '*.jspx', '*.properties'],
  c: ['*.[chH]', '*.[chH].in', '*.cats'],
  cpp: ['*.[ChH]', '*.cc', '*.[ch]pp', '*.[ch]xx', '*.hh', '*.inl', '*.C.in', '*.H.in', '*.cc.in', '*.hh.in'],
  md: ['*.markdown', '*.md', '*.mdown', '*.mdwn', '*.mkd', '*.mkdn', '*.mdx', '*.ron'],
  markdown: ['*.markdown', '*.md', '*.mdown', '*.mdwn', '*.mkd', '*.mkdn', '*.mdx', '*.ron'],
  json: ['*.json', '*.sarif', 'composer.lock'],
  yaml: ['*.yaml', '*.yml'],
  sh: ['*.bash', '*.bashrc', '*.sh', '*.zsh', '.bashrc', '.profile', '.zshrc'],
  css: ['*.css', '*.scss'],
  html: ['*.htm', '*.html', '*.ejs'],
  rb: ['*.rb', '*.gemspec', 'Gemfile', '.irbrc', 'Rakefile', 'config.ru'],
  php: ['*.php', '*.php3', '*.php4', '*.php5', '*.phtml'],
  txt: ['*.txt'],
  toml: ['*.toml', 'Cargo.lock'],
};

/**
 * Grep without ripgrep: walk + JS RegExp on a worker thread (see GrepWorker), so Stop ends a
 * runaway pattern promptly and the time cap applies. Skips node_modules and .git (it reads no
 * ignore file), binaries and files over {@link GREP_MAX_FILE_BYTES}; stops after
 * {@link GREP_MAX_FILES_SCANNED} files and says so. Files the Read rules deny are skipped and counted.
 */
export async function grepWithFallback(regex: RegExp, q: GrepQuery): Promise<GrepHits | GrepFailure> {
  if (q.multiline) return { error: 'multiline needs ripgrep (rg), which is not available here; search line by line, or install ripgrep.' };
  const filters = fileFilters(q);
  if ('error' in filters) return filters;
  const started = Date.now();
  const skipDirs = new Set<string>(DEFAULT_IGNORED_DIRS.filter((d) => !q.root.split(path.sep).includes(d)));
  const hits = new FallbackHits(q);
  let scanned = 0;
  let hidden = 0;
  let hitScanCap = false;
  let lastScanned = '';

  const worker = new GrepWorker({ source: regex.source, flags: regex.flags }, q.signal, started + q.timeoutMs);
  let batch: { file: string; text: string }[] = [];
  let batchChars = 0;
  /** Matches the pending batch and folds its results in; false once enough entries are collected. */
  const flush = async (): Promise<boolean> => {
    if (batch.length === 0) return true;
    const files = batch;
    batch = [];
    batchChars = 0;
    const results = await worker.match({
      texts: files.map((f) => f.text),
      mode: q.mode,
      lineLimit: q.want - hits.matchLines,
      maxLineChars: q.maxLineChars,
      before: q.before,
      after: q.after,
    });
    return hits.fold(files, results);
  };

  try {
    const files = q.rootIsDir ? walkFiles(q.root, { skipDirs, signal: q.signal }) : single(q.root);
    for await (const file of files) {
      if (q.signal.aborted) throw new GrepStoppedError('aborted');
      if (Date.now() >= started + q.timeoutMs) throw new GrepStoppedError('timeout');
      const rel = q.rootIsDir ? path.relative(q.root, file).split(path.sep).join('/') : path.basename(file);
      if (q.rootIsDir && filters.matchGlob && !filters.matchGlob(rel)) continue;
      if (filters.matchType && !filters.matchType(rel)) continue;
      if (++scanned > (q.maxFilesScanned ?? GREP_MAX_FILES_SCANNED)) {
        hitScanCap = true;
        break;
      }
      lastScanned = rel;
      // walkFiles follows no symlink, so below the root's real path the file's real path is known.
      const knownReal = q.rootIsDir ? path.join(q.realRoot, path.relative(q.root, file)) : q.realRoot;
      if (q.readDeniedBy?.(file, knownReal) !== undefined) {
        hidden++;
        continue;
      }
      const text = await readText(file);
      if (text === undefined) continue;
      batch.push({ file, text });
      batchChars += text.length;
      if ((batchChars >= BATCH_CHARS || batch.length >= BATCH_FILES) && !(await flush())) break;
    }
    if (!hits.moreEntries) await flush();
  } catch (err) {
    return stoppedFailure(err, q);
  } finally {
    worker.close();
  }
  if (q.signal.aborted) return { error: 'Grep was interrupted.' };
  const result: GrepHits = { matchedFiles: hits.matchedFiles, entries: hits.entries, numMatches: hits.numMatches, hidden, moreEntries: hits.moreEntries };
  return hitScanCap
    ? {
        ...result,
        notSearched: `Stopped after scanning ${q.maxFilesScanned ?? GREP_MAX_FILES_SCANNED} files (ripgrep is not available): files after ${lastScanned} (walking directories in name order) were not searched; narrow path or glob.`,
      }
    : result;
}

type FileFilter = (rel: string) => boolean;

/** The `glob` and `type` filters as matchers of a root-relative path, or the unknown type's error. */
function fileFilters(q: GrepQuery): { matchGlob?: FileFilter | undefined; matchType?: FileFilter | undefined } | GrepFailure {
  let typeGlobs: readonly string[] | undefined;
  if (q.type) {
    typeGlobs = TYPE_GLOBS[q.type];
    if (!typeGlobs)
      return {
        error: `Unknown file type ${JSON.stringify(q.type)} (without ripgrep, known types are: ${Object.keys(TYPE_GLOBS).join(', ')}); use glob instead.`,
      };
  }
  // ripgrep's rule: a glob without "/" matches the file name at any depth. picomatch's
  // `basename` option breaks patterns that do contain "/", so it is set only for the others.
  const matcher = (globs: readonly string[]): FileFilter | undefined => {
    if (globs.length === 0) return undefined;
    const fns = globs.map((g) => picomatch(g, { dot: true, basename: !g.includes('/') }));
    return (rel) => fns.some((f) => f(rel));
  };
  return { matchGlob: matcher(q.globs), matchType: typeGlobs ? matcher(typeGlobs) : undefined };
}

/** The tool error for a search that threw: interrupted, over its time cap, or failed. */
function stoppedFailure(err: unknown, q: GrepQuery): GrepFailure {
  if (err instanceof GrepStoppedError) {
    if (err.reason === 'aborted' || q.signal.aborted) return { error: 'Grep was interrupted.' };
    return {
      error: `Grep stopped after ${formatSeconds(q.timeoutMs)}: the search took too long. The pattern may backtrack catastrophically (e.g. nested quantifiers like (a+)+); simplify it, or narrow path or glob.`,
    };
  }
  return { error: `Grep failed: ${thrownMessage(err)}` };
}

type BatchResults = Awaited<ReturnType<GrepWorker['match']>>;

/** The hits gathered so far, folded in batch by batch, in file order. */
class FallbackHits {
  readonly matchedFiles: string[] = [];
  readonly entries: string[] = [];
  numMatches = 0;
  /** Match lines shown so far (content mode), against `q.want`. */
  matchLines = 0;
  moreEntries = false;

  constructor(private readonly q: GrepQuery) {}

  /** Folds one batch's results in; false once enough entries are collected. */
  fold(files: readonly { readonly file: string }[], results: BatchResults): boolean {
    const { q } = this;
    for (let k = 0; k < files.length; k++) {
      const { file } = files[k] as { file: string };
      const result = results[k];
      if (!result || result.count === 0) continue;
      this.matchedFiles.push(file);
      this.numMatches += result.count;
      if (q.mode === 'content' && !this.foldLines(file, result)) return false;
      if (q.mode === 'count') {
        this.entries.push(`${file}:${result.count}`);
        if (this.entries.length >= q.want) {
          this.moreEntries = true;
          return false;
        }
      }
    }
    return true;
  }

  private foldLines(file: string, result: NonNullable<BatchResults[number]>): boolean {
    const { q, entries } = this;
    if (result.lines.length > 0 && entries.length > 0 && (q.before > 0 || q.after > 0)) entries.push('--');
    let shownMatches = 0;
    for (const [lineNo, text, kind] of result.lines) {
      if (kind === 's') entries.push('--');
      else {
        const sep = kind === 'm' ? ':' : '-';
        if (kind === 'm') shownMatches++;
        entries.push(q.showLineNumbers ? `${file}${sep}${lineNo}${sep}${text}` : `${file}${sep}${text}`);
      }
    }
    this.matchLines += shownMatches;
    if (shownMatches < result.count) {
      this.moreEntries = true;
      return false;
    }
    return true;
  }
}

async function* single(file: string): AsyncGenerator<string> {
  yield file;
}

/** The file's text, or undefined when it is binary, too big or unreadable (skipped silently, like ripgrep). */
async function readText(file: string): Promise<string | undefined> {
  if (hasBinaryExtension(file)) return undefined;
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile() || stat.size > GREP_MAX_FILE_BYTES) return undefined;
    const buf = await fs.readFile(file);
    if (looksBinary(buf.subarray(0, SNIFF_BYTES))) return undefined;
    return buf.toString('utf8');
  } catch {
    return undefined;
  }
}

/** `30 s`, `0.5 s`. */
export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
