/**
 * A problem found while reading hook configuration. Diagnostics are data: the VS Code glue
 * turns them into Problems-panel entries, the CLI and the "Hookwise" log print them.
 */

/** What went wrong; stable names for tests and quick fixes. */
export type ConfigDiagnosticCode =
  | 'notJson'
  | 'syntaxError'
  | 'unreadable'
  | 'unknownEvent'
  | 'invalidMatcher'
  | 'suspiciousMatcher'
  | 'ignoredMatcher'
  | 'ignoredCondition'
  | 'ignoredOnce'
  | 'wrongType'
  | 'unknownHandlerType'
  | 'timeoutInMilliseconds'
  | 'timeoutOutOfRange'
  | 'unsupportedField'
  | 'unknownField'
  | 'invalidPermissionRule'
  /** An `allowedHttpHookUrls` entry that is not a pattern (httpUrlPattern.ts); it matches nothing. */
  | 'invalidUrlPattern'
  | 'agentFrontmatter'
  /** Over a configLimits.ts bound: file size, agent file count. */
  | 'tooLarge'
  /** JSON nested deeper than MAX_CONFIG_DEPTH. */
  | 'tooDeep'
  /** The source threw while loading; it contributes nothing, the others still load. */
  | 'loadFailed'
  /** The managed policy overrides this file's hooks, rules or switches. */
  | 'overriddenByPolicy'
  /** A workspace or project value that would switch off the user's hooks, plugins or sources: ignored (workspaceNarrowing.ts). */
  | 'cannotLoosen'
  /** A `hookwise.hooks.disabled` id naming no loaded hook: the hook under the switch changed or vanished (hookSwitchMigration.ts). */
  | 'switchVanished'
  /** A broken config file: its last good version is in force, or none is known (lastGoodConfig.ts). */
  | 'lastGoodInForce'
  /** A project's hook folder or script that is a link to a place outside the project: its hooks do not run. */
  | 'outsideProject'
  /** Part of another agent's hook file (an event, a field, a feature) with no Hookwise equivalent: said, never silently dropped (src/hooks/formats). */
  | 'notCarriedOver'
  /** Hook lint (src/hooks/lint/hookLint.ts): likely mistakes in a hook that loads fine. */
  | 'scriptMissing'
  | 'scriptNotExecutable'
  | 'scriptNoShebang'
  | 'unquotedProjectDir'
  | 'unknownTool'
  | 'riskyCommand';

/** One diagnostic. Positions are 1-based and point at the offending key or value. */
export interface ConfigDiagnostic {
  /** Absolute path of the file, when the source has one. */
  readonly file?: string;
  /** Short name for display: `.claude/settings.json`, `~/.claude/agents/x.md`, `user settings`. */
  readonly displayFile: string;
  /** Where in the document, e.g. `hooks.PreToolUse[0].hooks[1].timeout`. */
  readonly jsonPath: string;
  /** 1-based line; set whenever the source text is known (always for files). */
  readonly line?: number;
  /** 1-based column (UTF-16 units, like VS Code). */
  readonly column?: number;
  /** 0-based offset and length of the node in the file text, for editor ranges. */
  readonly offset?: number;
  readonly length?: number;
  readonly severity: 'error' | 'warning';
  readonly code: ConfigDiagnosticCode;
  /** A sentence a user understands, naming what was skipped. */
  readonly message: string;
  /** A replacement the editor may offer as a quick fix (e.g. the closest event name). */
  readonly suggestion?: string;
}

/** One-line rendering for logs: `.claude/settings.json:3:5 error hooks.PreToolUSe: message`. */
export function formatConfigDiagnostic(d: ConfigDiagnostic): string {
  const where = d.line === undefined ? d.displayFile : `${d.displayFile}:${d.line}:${d.column ?? 1}`;
  return `${where} ${d.severity} ${d.jsonPath}: ${d.message}`;
}

/** Start offsets of every line of `text`, for offset → line/column. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (ch === 10 /* \n */) {
      starts.push(i + 1);
    }
  }
  return starts;
}

/** 1-based line and column of a 0-based `offset`, given `lineStarts(text)`. */
export function offsetToLineColumn(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}

/**
 * The candidate closest to `name` (case-insensitive edit distance), when it is close enough
 * to be a plausible typo: "PreToolUSe" → "PreToolUse", "pretooluse" → "PreToolUse".
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.max(2, Math.floor(name.length / 3));
  return bestDistance <= limit ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
