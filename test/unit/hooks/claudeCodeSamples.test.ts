import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The recorded Claude Code hook inputs are reference data for comparing key sets;
// a broken or unscrubbed line would mislead every comparison made against it.
const dir = join(__dirname, '..', '..', 'fixtures', 'claudeCodeSamples');
const files = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));

describe('recorded Claude Code hook samples', () => {
  it('has sample files', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s: every line is a hook input with an event name and no machine-specific path', (name) => {
    const lines = readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const input = JSON.parse(line) as Record<string, unknown>;
      expect(typeof input.hook_event_name).toBe('string');
      expect(input.session_id).toBe('<session_id>');
      expect(input.cwd).toBe('<cwd>');
      expect(line).not.toMatch(/ccrec-[A-Za-z0-9]{6}/);
    }
  });
});
