import { describe, expect, it } from 'vitest';
import { diffLines } from '../../../../src/agent/checkpoints/lineDiff';

describe('diffLines', () => {
  it('shows a changed line with three lines of context and real line numbers', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].join('\n');
    const after = ['a', 'b', 'c', 'd', 'E', 'f', 'g', 'h', 'i'].join('\n');
    const diff = diffLines(before, after);
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(1);
    expect(diff.lines.map((l) => `${l.kind[0]}${l.oldLine ?? '-'}/${l.newLine ?? '-'} ${l.text}`)).toEqual([
      'c2/2 b',
      'c3/3 c',
      'c4/4 d',
      'r5/- e',
      'a-/5 E',
      'c6/6 f',
      'c7/7 g',
      'c8/8 h',
    ]);
  });

  it('separates distant hunks with a gap and counts a new file as all added', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const changed = [...lines];
    changed[2] = 'changed 2';
    changed[25] = 'changed 25';
    const diff = diffLines(lines.join('\n'), changed.join('\n'));
    expect(diff.lines.filter((l) => l.kind === 'gap')).toHaveLength(1);
    expect(diffLines('', 'x\ny\n')).toMatchObject({ added: 2, removed: 0 });
  });

  it('cuts a huge rewrite at maxLines', () => {
    const big = Array.from({ length: 1000 }, (_, i) => `n${i}`).join('\n');
    const diff = diffLines('', big, 50);
    expect(diff.lines).toHaveLength(50);
    expect(diff.truncated).toBe(true);
    expect(diff.added).toBe(1000);
  });
});
