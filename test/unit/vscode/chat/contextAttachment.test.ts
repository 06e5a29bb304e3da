import { describe, expect, it } from 'vitest';
import {
  attachmentLabel,
  formatFile,
  formatProblems,
  formatSelection,
  MAX_ATTACHED_LINES,
  systemReminder,
} from '../../../../src/vscode/chat/contextAttachment';

describe('context attachments as the model gets them', () => {
  it('a selection reads like Claude Code’s IDE selection: absolute path, 1-based line range, the text', () => {
    expect(systemReminder(formatSelection('/ws/src/a.ts', 3, 5, 'const a = 1;\nconst b = 2;\nconst c = 3;'))).toBe(
      '<system-reminder>\nThe user selected the lines 3 to 5 from /ws/src/a.ts:\nconst a = 1;\nconst b = 2;\nconst c = 3;\n\nThis may or may not be related to the current task.\n</system-reminder>',
    );
  });

  it('a file is sent as a Read call and its numbered result; a range picks the lines and says so in the input', () => {
    const [call, result] = formatFile('/ws/b.ts', 'one\ntwo\nthree\nfour\n', 2, 3);
    expect(call).toBe('Called the Read tool with the following input: {"file_path":"/ws/b.ts","offset":2,"limit":2}');
    expect(result).toBe(`Result of calling the Read tool: ${JSON.stringify('     2\ttwo\n     3\tthree')}`);
    const [whole, all] = formatFile('/ws/b.ts', 'one\ntwo\n');
    expect(whole).toBe('Called the Read tool with the following input: {"file_path":"/ws/b.ts"}');
    expect(JSON.parse(all!.replace('Result of calling the Read tool: ', ''))).toBe('     1\tone\n     2\ttwo');
  });

  it('a long file is cut at the Read tool’s line limit with a note', () => {
    const text = Array.from({ length: MAX_ATTACHED_LINES + 5 }, (_, i) => `line ${i + 1}`).join('\n');
    const result = JSON.parse(formatFile('/ws/big.txt', text)[1]!.replace('Result of calling the Read tool: ', '')) as string;
    expect(result.split('\n')).toHaveLength(MAX_ATTACHED_LINES + 1);
    expect(result).toContain(`only lines 1 to ${MAX_ATTACHED_LINES} were attached`);
  });

  it('the Problems list groups diagnostics per file with line, column, code and source', () => {
    const text = formatProblems([
      { file: '/ws/a.ts', line: 3, column: 7, severity: 'error', message: "Cannot find name 'x'.", code: '2304', source: 'ts' },
      { file: '/ws/a.ts', line: 9, column: 1, severity: 'warning', message: 'Unused variable' },
    ]);
    expect(text).toContain("/ws/a.ts:\n  ✘ [Line 3:7] Cannot find name 'x'. [2304] (ts)\n  ⚠ [Line 9:1] Unused variable");
  });

  it('chips name the file and range', () => {
    expect(attachmentLabel({ kind: 'selection', path: '/ws/src/a.ts', displayPath: 'src/a.ts', startLine: 3, endLine: 7, text: '' })).toBe('a.ts:3-7');
    expect(attachmentLabel({ kind: 'folder', path: '/ws/src', displayPath: 'src' })).toBe('src/');
    expect(attachmentLabel({ kind: 'problems', problems: [] })).toBe('Problems (0)');
  });
});
