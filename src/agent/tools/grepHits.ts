/** One Grep call's search parameters, resolved and checked (the same for ripgrep and the fallback). */
export interface GrepQuery {
  readonly pattern: string;
  readonly ignoreCase: boolean;
  readonly mode: 'content' | 'files_with_matches' | 'count';
  readonly showLineNumbers: boolean;
  readonly before: number;
  readonly after: number;
  readonly multiline: boolean;
  /** Globs from the `glob` parameter, split as Claude Code splits them (whitespace, commas outside braces). */
  readonly globs: readonly string[];
  readonly type: string | undefined;
  /** The search root as given (absolute, lexically normalised) and where it really lands. */
  readonly root: string;
  readonly realRoot: string;
  readonly rootIsDir: boolean;
  /** Entries wanted in content/count mode (offset + head_limit); the search may stop collecting there. */
  readonly want: number;
  /** Characters of one line shown in content mode. */
  readonly maxLineChars: number;
  readonly timeoutMs: number;
  /** The fallback's cap on files examined (default GREP_MAX_FILES_SCANNED). */
  readonly maxFilesScanned?: number;
  readonly signal: AbortSignal;
  readonly readDeniedBy: ((absPath: string, realPath?: string) => string | undefined) | undefined;
}

/** What a search found, before offset/head_limit and formatting. */
export interface GrepHits {
  /** Matching files (absolute), in search order. */
  readonly matchedFiles: string[];
  /** Content lines (`path:line:text`, context `path-line-text`, `--` between groups) or count lines (`path:count`). */
  readonly entries: string[];
  readonly numMatches: number;
  /** Files left out because a Read deny rule covers them. */
  readonly hidden: number;
  /** Collection stopped at `want` entries: there are more. */
  readonly moreEntries: boolean;
  /** Set when part of the tree was not searched (a limit stopped it): says what, for the model. */
  readonly notSearched?: string;
}

/** A search that failed: a message for the model. */
export interface GrepFailure {
  readonly error: string;
}

/** Claude Code's split of the `glob` parameter: whitespace, then commas unless the glob has braces. */
export function splitGlobs(glob: string | undefined): string[] {
  if (!glob) return [];
  const out: string[] = [];
  for (const part of glob.split(/\s+/)) {
    if (part === '') continue;
    if (part.includes('{') && part.includes('}')) out.push(part);
    else out.push(...part.split(',').filter((p) => p !== ''));
  }
  return out;
}

/** Version-control directories never searched (Claude Code's list), whatever the ignore files say. */
export const VCS_DIRS = ['.git', '.svn', '.hg', '.bzr', '.jj', '.sl'] as const;
