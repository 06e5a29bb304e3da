import { describe, expect, it } from 'vitest';
import { structuredPatch } from '../../../../src/agent/tools/structuredPatch';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `${i + 1}`).join('\n') + '\n';

// Expected hunks are those of the `diff` package's structuredPatch (context 3), which Claude Code reports.
describe('structuredPatch', () => {
  it('is empty for equal texts and one all-added hunk for a new file', () => {
    expect(structuredPatch('a\n', 'a\n')).toEqual([]);
    expect(structuredPatch('', 'a\nb\n')).toEqual([{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 2, lines: ['+a', '+b'] }]);
    expect(structuredPatch('a\n', '')).toEqual([{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 0, lines: ['-a'] }]);
  });

  it('keeps 3 lines of context and splits changes more than 6 lines apart into separate hunks', () => {
    const far = lines(20).replace('\n3\n', '\nX\n').replace('\n17\n', '\nY\n');
    expect(structuredPatch(lines(20), far)).toEqual([
      { oldStart: 1, oldLines: 6, newStart: 1, newLines: 6, lines: [' 1', ' 2', '-3', '+X', ' 4', ' 5', ' 6'] },
      { oldStart: 14, oldLines: 7, newStart: 14, newLines: 7, lines: [' 14', ' 15', ' 16', '-17', '+Y', ' 18', ' 19', ' 20'] },
    ]);
    const near = lines(12).replace('\n3\n', '\nX\n').replace('\n9\n', '\nY\n');
    expect(structuredPatch(lines(12), near)).toHaveLength(1);
  });

  it('counts inserted and removed lines on each side', () => {
    expect(structuredPatch(lines(5), lines(5).replace('3\n', '3\nnew\n'))).toEqual([
      { oldStart: 1, oldLines: 5, newStart: 1, newLines: 6, lines: [' 1', ' 2', ' 3', '+new', ' 4', ' 5'] },
    ]);
  });
});
