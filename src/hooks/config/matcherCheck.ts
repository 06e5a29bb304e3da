import { thrownMessage } from '../../shared/describeThrown';
/**
 * Load-time checks of config matcher strings, using Claude Code's exact classification
 *: empty, missing or `*` match all; only letters, digits, `_` and `|` is an
 * exact name list; anything else is an unanchored regex. Matching itself is the engine's.
 */

/** How a matcher string is interpreted. */
export type MatcherKind = 'all' | 'names' | 'regex';

const NAME_LIST = /^[a-zA-Z0-9_|]+$/;

/** Classifies a matcher the way Claude Code 2.0.76 does. */
export function classifyMatcher(matcher: string | undefined): MatcherKind {
  if (matcher === undefined || matcher === '' || matcher === '*') return 'all';
  return NAME_LIST.test(matcher) ? 'names' : 'regex';
}

/** Problems with one matcher string: a regex that does not compile (error) or a likely mistake (warning). */
export function checkMatcher(matcher: string): { readonly error?: string; readonly warning?: string } {
  if (classifyMatcher(matcher) !== 'regex') return {};
  try {
    new RegExp(matcher);
  } catch (error) {
    const detail = thrownMessage(error).replace(/^Invalid regular expression: /, '');
    return { error: `invalid regex matcher ${JSON.stringify(matcher)}: ${detail}; this group is skipped` };
  }
  if (/^[A-Za-z0-9_|]+(\s*,\s*[A-Za-z0-9_|]+)+$/.test(matcher)) {
    return {
      warning: `matcher ${JSON.stringify(matcher)} is read as a regex and matches almost nothing; separate names with "|" (e.g. ${JSON.stringify(
        matcher
          .split(',')
          .map((s) => s.trim())
          .join('|'),
      )})`,
    };
  }
  if (/^\s|\s$/.test(matcher)) {
    return { warning: `matcher ${JSON.stringify(matcher)} has surrounding spaces, so it is read as a regex that needs them` };
  }
  return {};
}
