import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMemory } from '../../../../src/agent/memory/memoryFiles';
import { importsOf, MAX_MEMORY_FILE_CHARS } from '../../../../src/agent/memory/memoryLoader';
import { environmentBlock, memoryBlock } from '../../../../src/agent/memory/promptContext';

// CLAUDE.md / AGENTS.md / rules as Claude Code loads them at session start, and what the model is told.

let base = '';
let home = '';
let repo = '';
const put = async (file: string, text: string): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
};

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-memory-')));
  home = path.join(base, 'home');
  repo = path.join(base, 'repo');
  await mkdir(path.join(repo, 'pkg', 'app'), { recursive: true });
  await mkdir(home, { recursive: true });
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('loadMemory', () => {
  it('loads managed, user, then every folder from the outermost down to the cwd, with imports after their importer', async () => {
    await put(path.join(base, 'managed', 'CLAUDE.md'), 'Org policy.');
    await put(path.join(home, '.claude', 'CLAUDE.md'), 'User prefs.');
    await put(path.join(repo, 'CLAUDE.md'), 'Repo rules. See @docs/style.md and `@not/an/import.md`.');
    await put(path.join(repo, 'docs', 'style.md'), 'Use tabs.');
    await put(path.join(repo, 'pkg', '.claude', 'CLAUDE.md'), 'Package notes.');
    await put(path.join(repo, 'pkg', 'app', 'CLAUDE.local.md'), 'My sandbox URL.');
    await put(path.join(repo, 'pkg', 'app', 'AGENTS.md'), 'Agents file for other tools.');
    await put(path.join(repo, 'pkg', 'CLAUDE.md.bak'), 'ignored');
    const mem = await loadMemory({ cwd: path.join(repo, 'pkg', 'app'), homeDir: home, managedDir: path.join(base, 'managed') });
    expect(mem.files.map((f) => [path.relative(base, f.path), f.memoryType, f.loadReason])).toEqual([
      ['managed/CLAUDE.md', 'Managed', 'session_start'],
      ['home/.claude/CLAUDE.md', 'User', 'session_start'],
      ['repo/CLAUDE.md', 'Project', 'session_start'],
      ['repo/docs/style.md', 'Project', 'include'],
      ['repo/pkg/.claude/CLAUDE.md', 'Project', 'session_start'],
      ['repo/pkg/app/CLAUDE.local.md', 'Local', 'session_start'],
      ['repo/pkg/app/AGENTS.md', 'Project', 'session_start'],
    ]);
    expect(mem.files[3]?.parentPath).toBe(path.join(repo, 'CLAUDE.md'));
  });

  it('AGENTS.md is read only where the folder has no CLAUDE.md; a file imported twice (or a cycle) loads once', async () => {
    await put(path.join(repo, 'CLAUDE.md'), '@AGENTS.md\n@CLAUDE.md');
    await put(path.join(repo, 'AGENTS.md'), 'Shared. @CLAUDE.md');
    const mem = await loadMemory({ cwd: repo, homeDir: home });
    expect(mem.files.map((f) => [path.basename(f.path), f.loadReason])).toEqual([
      ['CLAUDE.md', 'session_start'],
      ['AGENTS.md', 'include'],
    ]);
  });

  it('rules without paths load now; rules with paths wait for a matching file; bad YAML is named', async () => {
    await put(path.join(repo, '.claude', 'rules', 'always.md'), 'Always be kind.');
    await put(path.join(repo, '.claude', 'rules', 'api.md'), '---\npaths:\n  - "src/api/**/*.ts"\n---\nValidate inputs.');
    await put(path.join(repo, '.claude', 'rules', 'broken.md'), '---\npaths: [\n---\nBroken.');
    const mem = await loadMemory({ cwd: repo, homeDir: home });
    expect(mem.files.map((f) => path.basename(f.path))).toEqual(['always.md', 'broken.md']);
    expect(mem.conditionalRules).toEqual([expect.objectContaining({ globs: ['src/api/**/*.ts'], content: 'Validate inputs.' })]);
    expect(mem.problems).toEqual([expect.stringContaining('broken.md: frontmatter is not valid YAML')]);
  });

  it('a huge memory file is cut with a marker and the cut is reported; a directory named CLAUDE.md is reported, not fatal', async () => {
    await put(path.join(repo, 'CLAUDE.md'), 'x'.repeat(MAX_MEMORY_FILE_CHARS + 10));
    await mkdir(path.join(repo, 'pkg', 'CLAUDE.md'));
    const mem = await loadMemory({ cwd: path.join(repo, 'pkg'), homeDir: home });
    expect(mem.files[0]?.truncated).toBe(true);
    expect(mem.files[0]?.content).toMatch(/over the size budget\]$/);
    expect(mem.problems).toEqual([
      expect.stringContaining('cut to 40000'),
      expect.stringContaining(`${path.join(repo, 'pkg', 'CLAUDE.md')}: it is a directory`),
    ]);
  });
});

describe('importsOf', () => {
  it('finds @path outside code, not e-mails, npm scopes in code, or words', () => {
    expect(importsOf('See @README.md, @~/notes/me.md and @./a/b.md.\nmail me@example.com\n```\n@inside/fence.md\n```\n`@in/span.md` @someone')).toEqual([
      'README.md',
      '~/notes/me.md',
      './a/b.md',
    ]);
  });
});

describe('prompt context', () => {
  it('the env block names the folder, the git branch read from .git, the platform and the date', async () => {
    await put(path.join(repo, '.git', 'HEAD'), 'ref: refs/heads/feature/x\n');
    expect(environmentBlock(path.join(repo, 'pkg'), new Date('2026-11-26T10:00:00Z'), 'linux')).toBe(
      `<env>\nWorking directory: ${path.join(repo, 'pkg')}\nIs directory a git repo: Yes (branch feature/x)\nPlatform: linux\nToday's date: 2026-11-26\n</env>`,
    );
    expect(environmentBlock(home, new Date('2026-11-26T10:00:00Z'), 'linux')).toContain('Is directory a git repo: No');
  });

  it('the memory block introduces each file with its path and kind; no files, no block', async () => {
    await put(path.join(repo, 'CLAUDE.md'), 'Run npm test before you finish.');
    const block = memoryBlock(await loadMemory({ cwd: repo, homeDir: home }));
    expect(block).toContain(
      `Contents of ${path.join(repo, 'CLAUDE.md')} (project instructions, checked into the codebase):\n\nRun npm test before you finish.`,
    );
    expect(memoryBlock({ files: [], conditionalRules: [], problems: [] })).toBe('');
  });
});
