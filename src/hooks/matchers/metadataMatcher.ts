import { isDeepStrictEqual } from 'node:util';
import type { HookMatcher, MatchTarget } from './hookMatcher';

/**
 * The Metadata matcher (TypeScript API) over the agent run's metadata (passed to `HookRunner.run` as
 * `options.metadata`): with one argument, matches when the key is present (not undefined);
 * with two, when its value deep-equals `expected`. `key` may be a dotted path (`budget.tier`).
 */
export class MetadataMatcher implements HookMatcher {
  readonly description: string;
  private readonly path: readonly string[];
  private readonly checkValue: boolean;
  private readonly expected: unknown;

  constructor(key: string, ...expected: [] | [unknown]) {
    this.path = key.split('.');
    this.checkValue = expected.length > 0;
    this.expected = expected[0];
    this.description = this.checkValue ? `metadata ${key}=${JSON.stringify(this.expected)}` : `metadata has ${key}`;
  }

  matches(target: MatchTarget): boolean {
    let value: unknown = target.metadata;
    for (const key of this.path) {
      if (value === null || typeof value !== 'object') return false;
      value = (value as Record<string, unknown>)[key];
    }
    return this.checkValue ? isDeepStrictEqual(value, this.expected) : value !== undefined;
  }
}
