import { describe, expect, it } from 'vitest';
import { isPlainObject, parseJsonObject } from '../../../src/shared/jsonObject';
import { oneLine } from '../../../src/shared/oneLine';

describe('jsonObject', () => {
  it('isPlainObject: objects only, not arrays or null', () => {
    expect([{}, { a: 1 }, [], null, 'x', 1].map(isPlainObject)).toEqual([true, true, false, false, false, false]);
  });

  it('parseJsonObject: an object, else undefined (syntax, not an object, over the cap)', () => {
    expect(parseJsonObject('{"tool_name":"Bash"}')).toEqual({ tool_name: 'Bash' });
    expect(parseJsonObject('{"a":')).toBeUndefined();
    expect(parseJsonObject('[1]')).toBeUndefined();
    expect(parseJsonObject('{"a":1}', 6)).toBeUndefined();
    expect(parseJsonObject('{"a":1}', 7)).toEqual({ a: 1 });
  });
});

describe('oneLine', () => {
  it('collapses whitespace and cuts at max with an ellipsis', () => {
    expect(oneLine('  a\n\tb  ', 10)).toBe('a b');
    expect(oneLine('abcdef', 6)).toBe('abcdef');
    expect(oneLine('abcdefg', 6)).toBe('abcde…');
  });
});
