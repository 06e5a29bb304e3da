import type { HookMatcher, MatchTarget } from './hookMatcher';

/** The Composite matcher (TypeScript API): all-of (`and`), any-of (`or`) and negation (`not`), nestable. */
export class CompositeMatcher implements HookMatcher {
  readonly description: string;

  private constructor(
    private readonly mode: 'and' | 'or' | 'not',
    private readonly parts: readonly HookMatcher[],
  ) {
    this.description = mode === 'not' ? `not (${parts[0]?.description ?? ''})` : parts.map((p) => `(${p.description})`).join(mode === 'and' ? ' and ' : ' or ');
  }

  /** Matches when every part matches (an empty list matches everything). */
  static and(...parts: HookMatcher[]): CompositeMatcher {
    return new CompositeMatcher('and', parts);
  }

  /** Matches when some part matches (an empty list matches nothing). */
  static or(...parts: HookMatcher[]): CompositeMatcher {
    return new CompositeMatcher('or', parts);
  }

  /** Matches when `part` does not. */
  static not(part: HookMatcher): CompositeMatcher {
    return new CompositeMatcher('not', [part]);
  }

  matches(target: MatchTarget): boolean {
    switch (this.mode) {
      case 'and':
        for (const p of this.parts) if (!p.matches(target)) return false;
        return true;
      case 'or':
        for (const p of this.parts) if (p.matches(target)) return true;
        return false;
      case 'not':
        return !(this.parts[0] as HookMatcher).matches(target);
    }
  }
}
