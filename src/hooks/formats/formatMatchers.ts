import { thrownMessage } from '../../shared/describeThrown';
import type { HookMatcher, MatchTarget } from '../matchers/hookMatcher';
import { MATCH_ALL } from '../matchers/hookMatcher';
import { compileClaudePattern } from '../matchers/claudeMatcher';

/**
 * Matcher building blocks for other agents' syntaxes. Each agent tests its own vocabulary (Copilot
 * `bash`, Cursor `Shell` or the command text), so a matcher takes `valueOf`: the agent's name for
 * what the Hookwise input holds. An invalid pattern is a load-time error message, never a silent no-match.
 */

/** A regex matcher; `anchored` wraps it as `^(?:p)$` (Copilot). Empty or `*` matches everything. */
export function regexMatcher(pattern: string | undefined, anchored: boolean, valueOf: (target: MatchTarget) => string | undefined): HookMatcher | string {
  if (pattern === undefined || pattern === '' || pattern === '*') return MATCH_ALL;
  let re: RegExp;
  try {
    re = new RegExp(anchored ? `^(?:${pattern})$` : pattern);
  } catch (error) {
    return `invalid matcher regex ${JSON.stringify(pattern)}: ${thrownMessage(error)}`;
  }
  return {
    description: pattern,
    matches: (target) => {
      const value = valueOf(target);
      return value !== undefined && re.test(value);
    },
  };
}

/** Both must match (an event that implies a tool, plus the file's own matcher). */
export function bothMatch(first: HookMatcher, second: HookMatcher): HookMatcher {
  if (first === MATCH_ALL) return second;
  if (second === MATCH_ALL) return first;
  return { description: `${first.description} ${second.description}`, matches: (t) => first.matches(t) && second.matches(t) };
}

/** Matches tool events whose Hookwise `tool_name` passes `test` (the tool an agent event implies, e.g. Cursor beforeShellExecution → Bash). */
export function toolMatcher(description: string, test: (toolName: string) => boolean): HookMatcher {
  return {
    description,
    matches: (target) => {
      const name = target.input.tool_name;
      return typeof name === 'string' && test(name);
    },
  };
}

/** The `tool_input` object of a tool event (empty when absent). */
export function toolInputOf(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const raw = input.tool_input;
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
}

/** Claude Code's matcher rules (exact names, `|` lists, else an unanchored regex) on the value `valueOf` gives. */
export function claudePatternMatcher(pattern: string | undefined, valueOf: (target: MatchTarget) => string | undefined): HookMatcher | string {
  if (pattern === undefined || pattern === '' || pattern === '*') return MATCH_ALL;
  let test: (value: string) => boolean;
  try {
    test = compileClaudePattern(pattern);
  } catch (error) {
    return thrownMessage(error);
  }
  return {
    description: pattern,
    matches: (target) => {
      const value = valueOf(target);
      return value !== undefined && test(value);
    },
  };
}
