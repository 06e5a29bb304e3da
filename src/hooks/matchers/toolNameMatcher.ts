import { HookMatcherError } from '../hookErrors';
import type { HookMatcher, MatchTarget } from './hookMatcher';
import { thrownMessage } from '../../shared/describeThrown';

/**
 * The ToolName matcher for the TypeScript API (docs/hooks.md §5): `Bash` (exact), `*` (all), `read_*` /
 * `*_file` (`*` = any run of characters, anchored), `/^(read|write)_.+$/i` (a regex between
 * slashes with optional flags). Tests `tool_name`; events without one never match.
 * Case-sensitive unless a regex says otherwise. Throws HookMatcherError for an invalid regex.
 */
export class ToolNameMatcher implements HookMatcher {
  readonly description: string;
  private readonly test: (name: string) => boolean;

  constructor(readonly pattern: string) {
    this.description = `tool ${pattern}`;
    this.test = compileToolNamePattern(pattern);
  }

  matches(target: MatchTarget): boolean {
    const name = target.input['tool_name'];
    return typeof name === 'string' && this.test(name);
  }
}

const REGEX_LITERAL = /^\/(.+)\/([a-z]*)$/s;

function compileToolNamePattern(pattern: string): (name: string) => boolean {
  if (pattern === '*') return () => true;
  const literal = REGEX_LITERAL.exec(pattern);
  if (literal) {
    // `g`/`y` make RegExp.test stateful across calls; a matcher must be pure, so drop them.
    const flags = (literal[2] ?? '').replace(/[gy]/g, '');
    let regex: RegExp;
    try {
      regex = new RegExp(literal[1] ?? '', flags);
    } catch (error) {
      throw new HookMatcherError('invalidRegex', pattern, thrownMessage(error));
    }
    return (name) => regex.test(name);
  }
  if (pattern.includes('*')) {
    const source = pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    const regex = new RegExp(`^${source}$`);
    return (name) => regex.test(name);
  }
  if (pattern.length === 0) throw new HookMatcherError('invalidPattern', pattern, 'a tool name pattern cannot be empty (use "*" for all tools)');
  return (name) => name === pattern;
}
