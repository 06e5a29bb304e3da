import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenLinks, githubSlug } from './markdownLinks';

// A reader following a link in the README or a guide lands on a file that exists, at a heading
// that exists: moving a section between guides cannot leave a dead link behind.

const ROOT = path.join(__dirname, '..', '..', '..');

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return markdownUnder(full);
    return e.name.endsWith('.md') ? [full] : [];
  });
}

const DOCS = [path.join(ROOT, 'README.md'), ...markdownUnder(path.join(ROOT, 'docs'))];

describe('links in README.md and docs/', () => {
  it('covers the README and the guides', () => {
    const names = DOCS.map((f) => path.relative(ROOT, f));
    expect(names).toContain('README.md');
    expect(names).toContain(path.join('docs', 'hooks.md'));
    expect(names).toContain(path.join('docs', 'security.md'));
  });

  it.each(DOCS.map((f) => [path.relative(ROOT, f), f]))('%s: every relative link and image resolves', (_name, file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});

describe('the link checker', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hookwise-doclinks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports a missing file, a missing anchor and a missing image, and passes good links', () => {
    mkdirSync(path.join(dir, 'guide'));
    writeFileSync(
      path.join(dir, 'guide', 'a.md'),
      '# A guide\n\n## 2. Input (stdin JSON; the `context`)\n\n## Same\n\n## Same\n\n```sh\n# not a heading\n```\n',
    );
    writeFileSync(path.join(dir, 'pic.png'), '');
    const readme = path.join(dir, 'README.md');
    writeFileSync(
      readme,
      [
        'Good: [a](guide/a.md), [input](guide/a.md#2-input-stdin-json-the-context), [again](guide/a.md#same-1),',
        '[here](#top), ![pic](pic.png "title"), <img src="pic.png" alt="">, [web](https://example.com/x.md).',
        '`[in code](nowhere.md)`',
        '',
        '# Top',
        'Bad: [gone](guide/gone.md), [anchor](guide/a.md#not-a-heading), ![pic](missing.png),',
        '<img alt="" src="missing.svg">, [in fence](guide/a.md#not-a-heading-1), [local](#nowhere)',
        '',
        '```md',
        '[fenced](nowhere.md)',
        '```',
      ].join('\n'),
    );
    expect(brokenLinks(readme).map((b) => `${b.line} ${b.target}`)).toEqual([
      '6 guide/gone.md',
      '6 guide/a.md#not-a-heading',
      '6 missing.png',
      '7 guide/a.md#not-a-heading-1',
      '7 #nowhere',
      '7 missing.svg',
    ]);
  });

  it('slugs headings as GitHub does', () => {
    expect(githubSlug('2. Input (stdin JSON for command hooks; the context object for in-process hooks)')).toBe(
      '2-input-stdin-json-for-command-hooks-the-context-object-for-in-process-hooks',
    );
    expect(githubSlug('The `hookwise` CLI')).toBe('the-hookwise-cli');
    expect(githubSlug('Where this differs from Claude Code on purpose')).toBe('where-this-differs-from-claude-code-on-purpose');
    expect(githubSlug('vscode-lm models')).toBe('vscode-lm-models');
  });
});
