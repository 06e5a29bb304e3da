import { MATCHER_FIELD, matcherValue } from '../hookEvent';
import { HookMatcherError } from '../hookErrors';
import type { HookMatcher, MatchTarget } from './hookMatcher';
import { MATCH_ALL } from './hookMatcher';
import { thrownMessage } from '../../shared/describeThrown';

/**
 * Claude Code's matcher string algorithm (docs/hooks.md §5; SRC `LJ7`), compiled once:
 * - empty, missing or `*`: matches everything;
 * - only letters, digits, `_` and `|`: an exact name, or a `|` list of exact names
 *   (so `mcp__memory` matches nothing but the tool literally named so);
 * - anything else: an unanchored, case-sensitive JavaScript regex (`Edit.*` matches `NotebookEdit`).
 * Unlike Claude Code, an invalid regex is a load-time HookMatcherError, not a silent no-match.
 *
 * The value tested is the event's MATCHER_FIELD (`tool_name`, `source`, …); events without
 * one ignore the matcher, as in Claude Code.
 */
const EXACT_SET = /^[a-zA-Z0-9_|]+$/;

/** Old tool names still accepted by matchers: `Task` is the Agent tool's former name (docs/hooks.md §2). */
export const LEGACY_TOOL_NAME_ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({ Agent: Object.freeze(['Task']) });

/** Options of compileClaudeMatcher. */
export interface ClaudeMatcherOptions {
  /**
   * Extra names a value is also known by; the matcher matches when the value or one of its
   * aliases matches (pass LEGACY_TOOL_NAME_ALIASES so `Task` also selects the `Agent` tool).
   */
  readonly aliases?: Readonly<Record<string, readonly string[]>>;
}

/** A compiled predicate over one string value. */
export type StringPredicate = (value: string) => boolean;

/** Compiles a matcher string into a predicate over the matched value. Throws HookMatcherError('invalidRegex'). */
export function compileClaudePattern(pattern: string | undefined | null): StringPredicate {
  if (!pattern || pattern === '*') return () => true;
  if (EXACT_SET.test(pattern)) {
    if (!pattern.includes('|')) return (value) => value === pattern;
    const names = new Set(pattern.split('|').map((s) => s.trim()));
    return (value) => names.has(value);
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    throw new HookMatcherError('invalidRegex', pattern, thrownMessage(error));
  }
  return (value) => regex.test(value);
}

/** The algorithm on one value, for tests and one-off checks. Throws HookMatcherError on an invalid regex. */
export function testClaudeMatcher(pattern: string | undefined | null, value: string): boolean {
  return compileClaudePattern(pattern)(value);
}

class ClaudeMatcher implements HookMatcher {
  constructor(
    readonly description: string,
    private readonly test: StringPredicate,
    private readonly aliases: Readonly<Record<string, readonly string[]>> | undefined,
  ) {}

  matches(target: MatchTarget): boolean {
    if (MATCHER_FIELD[target.event] === undefined) return true; // events without a matcher field ignore the matcher
    const value = matcherValue(target.event, target.input) ?? '';
    if (this.test(value)) return true;
    const alt = this.aliases?.[value];
    if (alt) for (const a of alt) if (this.test(a)) return true;
    return false;
  }
}

/**
 * Compiles a config matcher string (docs/hooks.md §5). Throws HookMatcherError('invalidRegex') for an
 * invalid regex — the config loader turns it into a diagnostic naming the file and JSON path.
 */
export function compileClaudeMatcher(pattern: string | undefined | null, options: ClaudeMatcherOptions = {}): HookMatcher {
  if ((!pattern || pattern === '*') && !options.aliases) return MATCH_ALL;
  return new ClaudeMatcher(pattern || '*', compileClaudePattern(pattern), options.aliases);
}

/** Like compileClaudeMatcher, as a result value instead of a throw (for loaders collecting diagnostics). */
export function tryCompileClaudeMatcher(
  pattern: string | undefined | null,
  options: ClaudeMatcherOptions = {},
): { readonly ok: true; readonly matcher: HookMatcher } | { readonly ok: false; readonly error: HookMatcherError } {
  try {
    return { ok: true, matcher: compileClaudeMatcher(pattern, options) };
  } catch (error) {
    if (HookMatcherError.is(error)) return { ok: false, error };
    throw error;
  }
}
