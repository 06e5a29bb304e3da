import { describe, expect, it } from 'vitest';
import { createBashTool } from '../../../../src/agent/tools/bashTool';
import { createEditTool } from '../../../../src/agent/tools/editTool';
import { createGrepTool } from '../../../../src/agent/tools/grepTool';
import { createReadTool } from '../../../../src/agent/tools/readTool';
import { validateToolInput } from '../../../../src/agent/tools/validateToolInput';

const edit = createEditTool();
const read = createReadTool();
const grep = createGrepTool();
const bash = createBashTool();

describe('validateToolInput', () => {
  it('names the tool and the missing key', () => {
    expect(validateToolInput(edit, { file_path: 'a', new_string: 'b' })).toEqual({ ok: false, error: 'Edit: "old_string" is required' });
    expect(validateToolInput(edit, {})).toEqual({ ok: false, error: 'Edit: "file_path" is required; "old_string" is required; "new_string" is required' });
  });

  it('names wrong types with what was received', () => {
    expect(validateToolInput(read, { file_path: 'a', limit: '10' })).toEqual({ ok: false, error: 'Read: "limit" must be a number, got the string "10"' });
    expect(validateToolInput(read, { file_path: 42 })).toEqual({ ok: false, error: 'Read: "file_path" must be a string, got number 42' });
    expect(validateToolInput(edit, { file_path: 'a', old_string: 'x', new_string: 'y', replace_all: 'yes' })).toEqual({
      ok: false,
      error: 'Edit: "replace_all" must be a boolean, got the string "yes"',
    });
  });

  it('explains ranges, integers and enums', () => {
    expect(validateToolInput(read, { file_path: 'a', limit: 0 })).toEqual({ ok: false, error: 'Read: "limit" must be >= 1' });
    const frac = validateToolInput(read, { file_path: 'a', offset: 1.5 });
    expect(frac.ok).toBe(false);
    if (!frac.ok) expect(frac.error).toMatch(/^Read: "offset" must be an integer/);
    expect(validateToolInput(grep, { pattern: 'x', output_mode: 'lines' })).toEqual({
      ok: false,
      error: 'Grep: "output_mode" must be one of "content", "files_with_matches", "count", got the string "lines"',
    });
    expect(validateToolInput(bash, { command: 'ls', timeout: 700_000 })).toEqual({ ok: false, error: 'Bash: "timeout" must be <= 600000' });
    expect(validateToolInput(grep, { pattern: '' })).toEqual({ ok: false, error: 'Grep: "pattern" must not be empty' });
  });

  it('strips unknown keys (Claude Code tolerates them) and accepts dashed keys', () => {
    expect(validateToolInput(read, { file_path: 'a', bogus: true })).toEqual({ ok: true, input: { file_path: 'a' } });
    expect(validateToolInput(grep, { pattern: 'x', '-i': true })).toEqual({ ok: true, input: { pattern: 'x', '-i': true } });
  });

  it('parses a JSON string, and explains arguments that are not an object', () => {
    expect(validateToolInput(read, '{"file_path":"a"}')).toEqual({ ok: true, input: { file_path: 'a' } });
    const bad = validateToolInput(read, '{"file_path":');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^Read: arguments are not valid JSON/);
    expect(validateToolInput(read, [1])).toEqual({ ok: false, error: 'Read: arguments must be a JSON object, got an array' });
    expect(validateToolInput(read, null)).toEqual({ ok: false, error: 'Read: "file_path" is required' });
  });
});
