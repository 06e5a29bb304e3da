import { describe, expect, it } from 'vitest';
import { fileRuleChoices } from '../../../src/permissions/fileRuleChoices';

describe('fileRuleChoices', () => {
  it('offers the top-level folder a person would write, beside the exact file', () => {
    expect(fileRuleChoices('Edit(src/lib/a.ts)')).toEqual([
      { rule: 'Edit(src/**)', covers: 'folder', target: 'src/' },
      { rule: 'Edit(src/lib/a.ts)', covers: 'file', target: 'src/lib/a.ts' },
    ]);
    expect(fileRuleChoices('Read(docs/x.md)')?.map((c) => c.rule)).toEqual(['Read(docs/**)', 'Read(docs/x.md)']);
  });

  it('offers only the file at the project top (no Edit(**)), and the own folder outside the project', () => {
    expect(fileRuleChoices('Edit(README.md)')?.map((c) => c.rule)).toEqual(['Edit(README.md)']);
    expect(fileRuleChoices('Edit(//tmp/work/out.txt)')?.map((c) => c.rule)).toEqual(['Edit(//tmp/work/**)', 'Edit(//tmp/work/out.txt)']);
    expect(fileRuleChoices('Edit(//out.txt)')?.map((c) => c.rule)).toEqual(['Edit(//out.txt)']);
  });

  it('offers no folder whose name would read as a pattern, and nothing for other tools', () => {
    expect(fileRuleChoices('Edit([id]/page.tsx)')?.map((c) => c.rule)).toEqual(['Edit([id]/page.tsx)']);
    expect(fileRuleChoices('Bash(npm test:*)')).toBeUndefined();
    expect(fileRuleChoices('Edit')).toBeUndefined();
  });
});
