import { describe, expect, it } from 'vitest';
import { parseMentions } from '../../../../src/vscode/chat/promptMentions';

describe('prompt # mentions', () => {
  it('finds #selection, #problems and #file paths with optional ranges, once each', () => {
    expect(parseMentions('fix #problems in #file:src/a.ts:3-7 and #file:"my notes.md", see #selection #selection')).toEqual([
      { kind: 'problems' },
      { kind: 'file', path: 'src/a.ts', startLine: 3, endLine: 7 },
      { kind: 'file', path: 'my notes.md' },
      { kind: 'selection' },
    ]);
  });

  it('ignores # inside words and sentence punctuation after a path', () => {
    expect(parseMentions('issue#selection and look at #file:README.md.')).toEqual([{ kind: 'file', path: 'README.md' }]);
  });
});
